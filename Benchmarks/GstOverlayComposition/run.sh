#!/usr/bin/env bash
# Builds and runs the GstVideoOverlayComposition comparison benchmark, pinned to one core.
#   Benchmarks/GstOverlayComposition/run.sh [iterations]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
cc -O2 -o "$out/bench" "$here/gst_overlay_composition_bench.c" $(pkg-config --cflags --libs gstreamer-video-1.0) -lm
taskset -c 1 "$out/bench" "${1:-500}"
