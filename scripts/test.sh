#!/usr/bin/env bash
# Installs what is missing (packages and test media), builds and runs the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh --media
bash scripts/make-sign-testset.sh
swift build --build-tests
# The GStreamer integration tests once more with GLib criticals fatal: a refcount or ownership slip aborts the run.
echo "test: GStreamer integration tests under G_DEBUG=fatal-criticals"
if ! G_DEBUG=fatal-criticals swift test --skip-build --filter "FramePathTests|RunCommandTests" > .build/fatal-criticals.log 2>&1; then
  tail -n 60 .build/fatal-criticals.log
  echo "test: FAILED under G_DEBUG=fatal-criticals (full log: .build/fatal-criticals.log)"
  exit 1
fi
# One test at a time: several suites decode video or run detectors synchronously, and on two cores running them side
# by side would starve the tasks of async tests (the metrics server) of Swift concurrency's threads.
swift test --skip-build --no-parallel
