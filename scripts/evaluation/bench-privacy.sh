#!/usr/bin/env bash
# `--blur faces` against deface (PyPI, the tool people use to blur faces in video; CenterFace on ONNX Runtime) on the
# same clips and the same faces: wall time of the whole job (decode -> find faces -> blur -> x264 -> MP4) in interleaved
# rounds, medians and their ratio, and how many of the pasted faces an independent detector (OpenCV's Haar
# frontal-face cascade, Debian's python3-opencv) still finds in each output.
#
#   bash scripts/evaluation/bench-privacy.sh [ROUNDS]        (default 3; B=path/to/streamlens, default .build/release/streamlens;
#                                                  CLIPS="faces-bikes.mp4" for the small clip only)
#
# Clips: faces-bikes.mp4 (bash scripts/datasets/make-privacy-testset.sh: real faces pasted into bikes.mp4, 640 x 272) and the
# same scaled to 1920 x 1080 (made here with ffmpeg, x264 CRF 16). deface runs with its defaults (threshold 0.2, blur,
# full input resolution) in a pinned virtual environment under .media-cache/venv-deface with onnxruntime (its fast
# backend). Results go to stdout as a Markdown table.
set -euo pipefail
script_name=bench-privacy

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
rounds=${1:-3}
streamlens=${B:-$repo/.build/release/streamlens}
testset=${STREAMLENS_PRIVACY_TESTSET:-$repo/.media-cache/privacy-testset}
venv=$repo/.media-cache/venv-deface
requirements=(deface==1.5.0 onnx==1.23.2 onnxruntime==1.32.0 ImageIO==2.38.2 imageio-ffmpeg==0.8.1 numpy==2.4.6
    opencv-python==5.1.0.95 scikit-image==0.26.0 scipy==1.17.1 tqdm==4.70.1 pillow==13.0.0 protobuf==7.36.2
    flatbuffers==25.12.19 ml_dtypes==0.7.0 networkx==3.6.1 lazy-loader==0.6 tifffile==2026.3.3 packaging==26.4
    typing_extensions==4.16.0)

if [[ ! -x $streamlens ]]; then
    echo "$script_name: no $streamlens: swift build -c release --product streamlens --static-swift-stdlib" >&2
    exit 1
fi
bash "$repo/scripts/datasets/make-privacy-testset.sh" >/dev/null
source "$repo/scripts/lib/packages.sh"
prepare_venv "$venv" "${requirements[@]}"
if [[ ! -f "$testset/faces-bikes-1080p.mp4" ]]; then
    ffmpeg -loglevel error -y -i "$testset/faces-bikes.mp4" -vf scale=1920:1080 -c:v libx264 -preset medium -crf 16 \
        -pix_fmt yuv420p "$testset/faces-bikes-1080p.mp4"
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
seconds() { local start=$EPOCHREALTIME; "$@" >/dev/null 2>&1; echo "$EPOCHREALTIME - $start" | bc; }

echo "| clip | StreamLens --blur faces (s) | deface (s) | ratio | Haar faces left: StreamLens / deface / input (of 500) |"
echo "|---|---|---|---|---|"
for clip in ${CLIPS:-faces-bikes.mp4 faces-bikes-1080p.mp4}; do
    ours=() theirs=()
    for ((round = 0; round < rounds; round++)); do
        ours+=("$(seconds "$streamlens" run --input "$testset/$clip" --output "$work/ours.mp4" --blur faces --quiet)")
        theirs+=("$(seconds "$venv/bin/deface" "$testset/$clip" -o "$work/theirs.mp4")")
    done
    left=$(/usr/bin/python3 - "$testset/faces-bikes.json" "$work/ours.mp4" "$work/theirs.mp4" "$testset/$clip" <<'PY'
import json, sys
import cv2
listing = json.load(open(sys.argv[1]))
cascade = cv2.CascadeClassifier("/usr/share/opencv4/haarcascades/haarcascade_frontalface_default.xml")
counts = []
for path in sys.argv[2:]:
    video, index, found = cv2.VideoCapture(path), 0, 0
    while True:
        ok, frame = video.read()
        if not ok:
            break
        scale = frame.shape[1] / listing["width"], frame.shape[0] / listing["height"]
        small = cv2.resize(frame, (listing["width"], listing["height"]), interpolation=cv2.INTER_AREA)
        boxes = cascade.detectMultiScale(cv2.cvtColor(small, cv2.COLOR_BGR2GRAY), 1.1, 3)
        for face in listing["frames"][index]["faces"]:
            cx, cy, side = face["x"] + face["size"] / 2, face["y"] + face["size"] / 2, face["size"]
            found += any(abs(x + w / 2 - cx) < 0.75 * side and abs(y + h / 2 - cy) < 0.75 * side for x, y, w, h in boxes)
        index += 1
    counts.append(str(found))
print(" / ".join(counts))
PY
)
    read -r ours_median theirs_median ratio < <(python3 -c '
import statistics, sys
a, b = [float(x) for x in sys.argv[1].split()], [float(x) for x in sys.argv[2].split()]
print(f"{statistics.median(a):.1f} {statistics.median(b):.1f} {statistics.median(a) / statistics.median(b):.2f}")' \
        "${ours[*]}" "${theirs[*]}")
    echo "| $clip | $ours_median | $theirs_median | $ratio | $left |"
done
