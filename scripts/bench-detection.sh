#!/usr/bin/env bash
# Inference time per analysed frame of each detection backend (median, p95) on real frames of vtest.avi.
# Needs the media (scripts/fetch-media.sh) and the onnx Python package. Builds a release test bundle in
# .build-bench-detection; prints one "bench-detection:" line per backend.
# Usage: scripts/bench-detection.sh [FRAMES]   (default 40 frames per backend)
#        STREAMLENS_BENCH_CV_THREADS=1 scripts/bench-detection.sh   (OpenCV limited to one thread)
set -euo pipefail
cd "$(dirname "$0")/.."
export STREAMLENS_BENCH_DETECTION=1
export STREAMLENS_BENCH_FRAMES="${1:-40}"
scratch=.build-bench-detection
swift build -c release --scratch-path "$scratch" --build-tests -Xswiftc -enable-testing >/dev/null
swift test -c release --scratch-path "$scratch" --skip-build --filter DetectionInferenceBenchmark 2>&1 \
    | grep -E "^bench-detection:|✘|error" || true
