#!/usr/bin/env bash
# Installs what is missing (packages and test media), builds and runs the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh --media
bash scripts/make-sign-testset.sh
# The ONNX detector tests generate their small models with the onnx package (scripts/make-test-onnx.py).
python3 -c "import onnx" 2>/dev/null || python3 -m pip install --quiet --disable-pip-version-check onnx==1.23.2
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
