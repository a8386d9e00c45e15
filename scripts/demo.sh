#!/usr/bin/env bash
# Installs what is missing, builds StreamLens and runs the built-in demo (no input files needed):
# writes out/streamlens-demo.mp4 (annotated video), its events, subtitles and reports into out/.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh --media
# The Swift runtime and Foundation linked statically: only the pages the program uses are loaded (peak RSS −4…5 MiB
# on the dashcam job). The plugin (a shared library) is built without it.
swift build -c release --product streamlens --static-swift-stdlib 2>&1 | tail -n 3
mkdir -p out
cd out
../.build/release/streamlens run "$@"
echo "demo: outputs in $(pwd)"
