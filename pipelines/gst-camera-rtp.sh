#!/usr/bin/env bash
# A live camera, annotated by the StreamLens elements and streamed as RTP/H.264, with gst-launch-1.0 alone.
#
# Usage: pipelines/gst-camera-rtp.sh [/dev/videoN] [HOST] [PORT]
#   Without a camera device, GStreamer's live test pattern stands in for one (a bouncing ball).
# Watch it:   gst-launch-1.0 udpsrc port=5000 caps="application/x-rtp,media=video,encoding-name=H264,payload=96" \
#               ! rtph264depay ! avdec_h264 ! videoconvert ! autovideosink
# Metrics:    curl -s 127.0.0.1:9464/metrics   (streamlensstats metrics-port)
# Stop with Ctrl-C: -e sends end-of-stream first, so the detector finishes and the statistics are final.
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
device=${1:-}
host=${2:-127.0.0.1}
port=${3:-5000}
overlay=$repo/.media-cache/media/overlays/gtk-logo.webm

if ! gst-inspect-1.0 streamlens >/dev/null 2>&1; then
  GST_PLUGIN_PATH=$(cd "$repo" && swift build -c release --show-bin-path)
  export GST_PLUGIN_PATH
fi
if [[ -n "$device" ]]; then
  source="v4l2src device=$device ! videoconvert ! videoscale ! video/x-raw,format=I420,width=1280,height=720"
else
  source="videotestsrc is-live=true pattern=ball ! video/x-raw,format=I420,width=1280,height=720,framerate=30/1"
fi
logo=""
[[ -f "$overlay" ]] && logo="! streamlensoverlay location=$overlay anchor=bottom-right opacity=0.8"

# The detector never blocks a live stream (sync-analysis=auto sees a live source and does not wait): a frame due
# while it is busy goes on unanalysed.
# The statistics come after the leaky queue: frames it throws away when the encoder falls behind show there as gaps
# (missing frames) and the encoder's slowness as backpressure; before it, they would pass for output.
# shellcheck disable=SC2086
gst-launch-1.0 -e $source \
  ! streamlensdetect detector=hog \
  ! streamlensannotate hud=top-left $logo \
  ! queue max-size-buffers=3 leaky=downstream \
  ! streamlensstats interval=5 metrics-port=9464 \
  ! x264enc tune=zerolatency speed-preset=ultrafast key-int-max=30 \
  ! rtph264pay config-interval=1 pt=96 ! udpsink host="$host" port="$port"
