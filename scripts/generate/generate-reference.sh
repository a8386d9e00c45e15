#!/usr/bin/env bash
# Writes docs/reference/options.md from the option schema (Sources/StreamLensOptions/OptionSchema.swift).
# OptionSchemaTests.theReferencePageIsCurrent fails when the page and the schema differ.
set -euo pipefail
cd "$(dirname "$0")/../.."
swift build --product streamlens-reference >/dev/null
mkdir -p docs/reference
"$(swift build --show-bin-path)/streamlens-reference" > docs/reference/options.md
echo "generate-reference: wrote docs/reference/options.md"
