#!/usr/bin/env bash
# Installs what is missing (packages and test media), builds and runs the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh --media
swift build --build-tests
# The GStreamer integration tests once more with GLib criticals fatal: a refcount or ownership slip aborts the run.
echo "test: GStreamer integration tests under G_DEBUG=fatal-criticals"
G_DEBUG=fatal-criticals swift test --skip-build --filter "FramePathTests|RunCommandTests" > /dev/null
swift test --skip-build
