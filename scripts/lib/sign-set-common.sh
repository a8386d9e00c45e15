# Shared by the scripts that build sign test sets (make-sign-testset.sh, make-us-sign-testset.sh and the real-photo
# sets' make-real-sign-set.sh, make-road-sign-photo-set.sh, make-gtsdb-sign-set.sh, make-us-sign-photo-set.sh): the
# "is it current?" check, the private Python environment they render with, and the checksums and stamp of a set made.
# Source it after setting `script_name` (for messages); it defines functions only (prepare_venv: packages.sh).

source "$(dirname "${BASH_SOURCE[0]}")/packages.sh"

# Exits the calling script with success when `manifest` exists and `folder/.stamp` holds `stamp`.
exit_if_current() {
    local folder=$1 manifest=$2 stamp=$3
    if [[ -f "$manifest" && "$(cat "$folder/.stamp" 2>/dev/null)" == "$stamp" ]]; then
        echo "$script_name: $folder is up to date"
        exit 0
    fi
}

# Writes `folder/SHA256SUMS` — every crop and clip of the set, to tell later whether a figure was measured on the same
# set — and `folder/.stamp` (`stamp`, what ``exit_if_current`` compares).
seal_set() {
    local folder=$1 stamp=$2 parts=() part
    for part in crops clips; do
        if [[ -d "$folder/$part" ]]; then parts+=("$part"); fi
    done
    (cd "$folder" && find "${parts[@]}" -type f \( -name '*.png' -o -name '*.i420' \) | LC_ALL=C sort | xargs sha256sum) \
        > "$folder/SHA256SUMS"
    echo "$stamp" > "$folder/.stamp"
}
