#!/usr/bin/env bash
# Installs what is missing, builds StreamLens and runs the built-in demo (no input files needed):
# writes out/streamlens-demo.mp4 (annotated video), its events, subtitles and reports into out/.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh --media
# The debug build, the one scripts/test.sh builds too, so the two commands build the dependencies once: the demo
# clip takes a few seconds either way. Benchmarks build their own release binaries (docs/figures/performance.md).
swift build --product streamlens 2>&1 | tail -n 3
mkdir -p out
cd out
../.build/debug/streamlens run "$@"
echo "demo: outputs in $(pwd)"
