#!/usr/bin/env bash
# Installs the speed-limit reader's text-line recogniser: the PP-OCRv4 recogniser that the rapidocr-onnxruntime
# package (PyPI, Apache-2.0) ships, rewritten for OpenCV 4.6 by scripts/models/make-text-line-model.py.
#
# The wheel is downloaded once (no dependencies installed from it: only its model file is used), the model inside is
# checked against its pinned SHA-256, and the rewritten model is written to
#   $STREAMLENS_MODEL_DIR (default /usr/local/share/streamlens when writable, else ~/.local/share/streamlens)
# where the reader looks for it (TextLineRecogniser.defaultModelPaths). Quick when the model is already current.
# Provenance and licence: MEDIA.md.
set -euo pipefail
script_name=install-text-line-model

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
downloads=${STREAMLENS_MEDIA_DOWNLOADS:-$repo/.media-cache/downloads}/pypi
venv=${STREAMLENS_MODEL_VENV:-$repo/.media-cache/venv-models}
source "$repo/scripts/lib/packages.sh"
choose_model_dir
# The input width the reader feeds it (TextLineRecogniser.inputWidth); the file name says it.
readonly input_width=80
model="$model_dir/text-line-48x${input_width}.onnx"
converter="$repo/scripts/models/make-text-line-model.py"

readonly rapidocr_version="1.4.4"
readonly packaged_model="rapidocr_onnxruntime/models/ch_PP-OCRv4_rec_infer.onnx"
readonly packaged_model_sha256="48fc40f24f6d2a207a2b1091d3437eb3cc3eb6b676dc3ef9c37384005483683b"
# Pinned so that every machine writes the same model bytes.
requirements=(numpy==2.4.6 ml_dtypes==0.6.0 protobuf==7.36.2 typing_extensions==4.16.0 onnx==1.23.2 onnxsim==0.8.1)

stamp=$( (cat "$converter"; printf '%s\n' "$rapidocr_version" "$packaged_model_sha256" "${requirements[@]}") |
    sha256sum | cut -d' ' -f1)
if [[ -f "$model" && "$(cat "$model.stamp" 2>/dev/null)" == "$stamp" ]]; then
    echo "$script_name: $model is up to date"
    exit 0
fi

mkdir -p "$downloads" "$model_dir"
wheel=$(find "$downloads" -maxdepth 1 -name "rapidocr_onnxruntime-${rapidocr_version}-*.whl" | head -n 1)
if [[ -z $wheel ]]; then
    echo "$script_name: downloading rapidocr-onnxruntime $rapidocr_version (its model only is used)"
    if ! python3 -m pip download --quiet --disable-pip-version-check --no-deps --only-binary=:all: \
        --dest "$downloads" "rapidocr-onnxruntime==$rapidocr_version" >/dev/null 2>&1; then
        echo "$script_name: pip download rapidocr-onnxruntime==$rapidocr_version failed: check that PyPI is reachable, then rerun" >&2
        exit 1
    fi
    wheel=$(find "$downloads" -maxdepth 1 -name "rapidocr_onnxruntime-${rapidocr_version}-*.whl" | head -n 1)
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
extract_checked "$wheel" "$packaged_model" "$work/packaged.onnx" "$packaged_model_sha256"

prepare_venv "$venv" "${requirements[@]}"
"$venv/bin/python" "$converter" "$work/packaged.onnx" "$work/model.onnx" "$input_width"
install -m 0644 "$work/model.onnx" "$model"
echo "$stamp" > "$model.stamp"
echo "$script_name: installed $model"
