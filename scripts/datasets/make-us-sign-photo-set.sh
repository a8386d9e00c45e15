#!/usr/bin/env bash
# Builds the real-photo set for US "SPEED LIMIT" signs (scripts/datasets/make-us-sign-photo-set.py) from a copy of a dashcam
# dataset: frames from a car on US roads, each with a box around its sign, labelled with the value by us in
# scripts/datasets/data/us-speed-limit-photos.json.
#
# Usage: scripts/datasets/make-us-sign-photo-set.sh DATASET_GIT_DIR      (or STREAMLENS_US_PHOTO_GIT=DATASET_GIT_DIR)
#   DATASET_GIT_DIR is the git directory of a public repository holding images/NNNNN.jpg and labels/NNNNN.txt
#   (MEDIA.md names the one used and its commit), e.g. as the session's `fetch` tool brings it. Nothing is
#   downloaded here.
# Output (git-ignored, never committed: photographs we did not take): $STREAMLENS_US_PHOTO_SET (default
# <repo>/.media-cache/us-sign-photos): clips/heldout/ (raw I420 + testset.json). About 2 GB. Evaluate:
#   STREAMLENS_US_PHOTO_SET=<that folder> swift test --skip-build --filter UsSpeedLimitRealPhotoTests
set -euo pipefail
script_name=make-us-sign-photo-set

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
dataset=${1:-${STREAMLENS_US_PHOTO_GIT:-}}
output=${STREAMLENS_US_PHOTO_SET:-$repo/.media-cache/us-sign-photos}
venv=${STREAMLENS_SIGN_VENV:-$repo/.media-cache/venv-signs}
generator="$repo/scripts/datasets/make-us-sign-photo-set.py"
labels="$repo/scripts/datasets/data/us-speed-limit-photos.json"
requirements=(numpy==2.4.6 pillow==13.0.0)
source "$repo/scripts/lib/sign-set-common.sh"

if [[ -z "$dataset" ]]; then
    echo "$script_name: no copy of the dashcam dataset given: pass its git directory (MEDIA.md, 'Real photographs of US signs')" >&2
    exit 2
fi
if ! git --git-dir "$dataset" cat-file -e HEAD:labels/00001.txt 2>/dev/null; then
    echo "$script_name: $dataset is not a git directory holding images/ and labels/ of the dataset: give the one MEDIA.md names" >&2
    exit 1
fi

stamp=$( (cat "$generator" "$repo/scripts/datasets/i420.py" "$labels"; printf '%s\n' "${requirements[@]}";
    git --git-dir "$dataset" rev-parse HEAD) | sha256sum | cut -d' ' -f1)
exit_if_current "$output" "$output/clips/heldout/testset.json" "$stamp"
prepare_venv "$venv" "${requirements[@]}"

rm -rf "$output"
mkdir -p "$output"
"$venv/bin/python" "$generator" "$dataset" "$output" "$labels"
seal_set "$output" "$stamp"
