#!/usr/bin/env bash
# Scores StreamLens's tracker against supervision's ByteTrack (PyPI) on the same detections, with py-motmetrics:
#
#   bash scripts/evaluation/eval-tracking.sh            # vtest.avi (HOG), bikes.mp4 (yolov8n, when installed), TUD sequences
#
# 1. The detector's raw boxes (down to the tracking floor, 0.1) on every analysed frame (one in 3 at 10 fps: the
#    0.3 s cadence of `streamlens run`) are written as MOTChallenge detections by `streamlens-diagnostics
#    detect-mot`.
# 2. Both trackers get exactly those boxes: ours through `streamlens-diagnostics track-mot` (the stage's rounds and
#    defaults), supervision's `sv.ByteTrack` in scripts/evaluation/eval-tracking.py with the same thresholds and lost-track
#    buffer.
# 3. Without ground truth, each tracker's output is scored against the other's as reference: id switches and
#    fragmentations of ours against supervision's count where ours splits or swaps supervision's tracks, and the
#    reverse direction where supervision's split ours. Neither output is the truth.
# 4. With ground truth: py-motmetrics ships the TUD-Campus and TUD-Stadtmitte sequences (MOT15) as a ground truth
#    and one tracker's result (`test.txt`); that result's boxes, ids removed, are the detections both trackers get,
#    and MOTA, IDF1, id switches and fragmentations are taken against the ground truth.
#
# Needs: a debug build (`swift build --build-tests`), scripts/datasets/fetch-media.sh's clips, python3-venv. The environment
# (.media-cache/venv-tracking) holds the pinned supervision and motmetrics; work files go to .media-cache/tracking-eval.
set -euo pipefail
script_name=eval-tracking

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
# shellcheck source=lib/packages.sh
source "$repo/scripts/lib/packages.sh"
venv=${STREAMLENS_TRACKING_VENV:-$repo/.media-cache/venv-tracking}
work=$repo/.media-cache/tracking-eval
media=${STREAMLENS_MEDIA:-$repo/.media-cache/media}
mkdir -p "$work"

# supervision 0.30.9 is the last release with sv.ByteTrack (0.31 moved it to another package); motmetrics 1.4.0
# ships the TUD sequences in its wheel and needs NumPy 1 (np.asfarray), hence the pinned NumPy, pandas and SciPy.
prepare_venv "$venv" supervision==0.30.9 motmetrics==1.4.0 numpy==1.26.4 pandas==2.2.3 scipy==1.13.1
tool="$(cd "$repo" && swift build --show-bin-path)/streamlens-diagnostics"
if [[ ! -x $tool ]]; then
    echo "$script_name: $tool is missing: run swift build --build-tests first" >&2
    exit 1
fi

clips=()
if [[ -f $media/vtest.avi ]]; then
    "$tool" detect-mot "$media/vtest.avi" 640 480 10 3 hog 0.1 "$work/vtest-hog.det.txt"
    clips+=("vtest-hog")
else
    echo "$script_name: $media/vtest.avi is missing: run scripts/datasets/fetch-media.sh" >&2
    exit 1
fi
if "$tool" detect-mot "$media/bikes.mp4" 640 272 10 3 yolov8n 0.1 "$work/bikes-yolov8n.det.txt"; then
    clips+=("bikes-yolov8n")
else
    echo "$script_name: bikes.mp4 with yolov8n skipped (bash scripts/models/install-detector-model.sh yolov8n)" >&2
fi
for clip in "${clips[@]}"; do
    # Frame n of the 10 fps decode is at (n − 1) / 10 s: the analysed ones (every 3rd) are 0.3 s apart.
    "$tool" track-mot "$work/$clip.det.txt" "$work/$clip.streamlens.txt" 10
done

# The TUD sequences: detections from motmetrics's test.txt (25 fps, every frame analysed).
data=$("$venv/bin/python" -c 'import motmetrics, os; print(os.path.join(os.path.dirname(motmetrics.__file__), "data"))')
sequences=()
for sequence in TUD-Campus TUD-Stadtmitte; do
    "$venv/bin/python" "$repo/scripts/evaluation/eval-tracking.py" detections-from-result "$data/$sequence/test.txt" \
        "$work/$sequence.det.txt"
    "$tool" track-mot "$work/$sequence.det.txt" "$work/$sequence.streamlens.txt" 25
    sequences+=("$sequence=$data/$sequence/gt.txt")
done

"$venv/bin/python" "$repo/scripts/evaluation/eval-tracking.py" score "$work" --clips "${clips[@]}" --sequences "${sequences[@]}"
