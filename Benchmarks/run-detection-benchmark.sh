#!/usr/bin/env bash
# Inference time per analysed frame of each detection backend (median, p95) on real frames of vtest.avi.
# Needs the media (scripts/datasets/fetch-media.sh) and the onnx Python package. Builds streamlens-diagnostics (release) in
# .build-bench-detection and runs its detection-bench command; prints one "bench-detection:" line per backend.
# Figures: docs/figures/performance.md.
# Usage: Benchmarks/run-detection-benchmark.sh [FRAMES]            (default 40 frames per backend)
#        STREAMLENS_BENCH_ONE_CORE=1 Benchmarks/run-detection-benchmark.sh
#            (measures pinned to core 1 with OpenCV limited to one thread: steadier on a shared machine)
set -euo pipefail
cd "$(dirname "$0")/.."
frames="${1:-40}"
scratch=.build-bench-detection
# -enable-testing: the tool's other commands use the sign reader's internal types (@testable import).
swift build -c release --scratch-path "$scratch" --product streamlens-diagnostics -Xswiftc -enable-testing >/dev/null
runner=()
if [ "${STREAMLENS_BENCH_ONE_CORE:-}" = "1" ]; then
  export STREAMLENS_BENCH_CV_THREADS=1
  runner=(taskset -c 1)
fi
log="$scratch/detection-benchmark.log"
if ! "${runner[@]}" "$scratch/release/streamlens-diagnostics" detection-bench "$frames" >"$log" 2>&1; then
  tail -n 40 "$log"
  echo "bench-detection: FAILED (full log: $log)"
  exit 1
fi
grep -E "^bench-detection:" "$log"
