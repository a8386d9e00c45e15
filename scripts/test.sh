#!/usr/bin/env bash
# Installs what is missing (packages and test media), builds and runs the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh --media
swift build --build-tests
swift test --skip-build
