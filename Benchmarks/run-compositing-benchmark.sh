#!/usr/bin/env bash
# Builds CompositingBenchmark in release mode and runs it on one core with the allocation counter preloaded.
#   Benchmarks/run-compositing-benchmark.sh [iterations]      (env SCRATCH=.build-x to choose the build folder)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
scratch="${SCRATCH:-$root/.build-bench}"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
cc -O2 -shared -fPIC -o "$out/libmalloc_counter.so" "$root/Benchmarks/MallocCounter/malloc_counter.c"
swift build -c release --package-path "$root" --scratch-path "$scratch" --product CompositingBenchmark >&2
LD_PRELOAD="$out/libmalloc_counter.so" taskset -c 1 "$scratch/release/CompositingBenchmark" "${1:-2000}"
