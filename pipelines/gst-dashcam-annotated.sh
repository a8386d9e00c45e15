#!/usr/bin/env bash
# A dashcam file annotated with gst-launch-1.0 and the StreamLens elements alone: speed-limit signs (one
# streamlens-speed-limit message each, printed here), people (HOG), boxes, labels, the limit badge and a HUD drawn in
# place, the H.264 result in an MP4, and the run report (schema version 1) at end-of-stream.
#
# Usage: pipelines/gst-dashcam-annotated.sh [INPUT] [OUTPUT.mp4] [REPORT.json]
#   INPUT defaults to the street clip of the media cache (scripts/datasets/fetch-media.sh); any file decodebin plays works.
# The plugin is found where scripts/install-plugin.sh put it, else in the release build folder.
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
input=${1:-$repo/.media-cache/media/bikes.mp4}
output=${2:-out/dashcam-annotated.mp4}
report=${3:-out/dashcam-annotated.json}

if ! gst-inspect-1.0 streamlens >/dev/null 2>&1; then
  GST_PLUGIN_PATH=$(cd "$repo" && swift build -c release --show-bin-path)
  export GST_PLUGIN_PATH
fi
mkdir -p "$(dirname "$output")" "$(dirname "$report")"

# sync-analysis is auto: upstream is a file, not live, so frames wait for their analysis and every frame due is
# analysed (as the command line does). The
# queues give decoding and encoding threads of their own (the command line's frame pool and output): the decoder
# runs ahead while the detector is busy.
gst-launch-1.0 -m -e \
  filesrc location="$input" ! decodebin ! queue max-size-buffers=3 ! videoconvert ! video/x-raw,format=I420 \
  ! streamlenssigns region=eu \
  ! streamlensdetect detector=hog \
  ! streamlensannotate badge=top-right hud=top-left \
  ! streamlensstats report="$report" interval=0 \
  ! queue ! x264enc speed-preset=ultrafast ! mp4mux ! filesink location="$output" \
  | { grep --line-buffered -E "streamlens-speed-limit|streamlens-analysis|ERROR|WARNING" || true; }
echo "annotated video: $output, report: $report"
