#!/usr/bin/env bash
# Builds the second real-photo speed-limit evaluation set (scripts/datasets/make-road-sign-photo-set.py) from a copy of the
# "Road Sign Detection" dataset: real street photographs, labelled by us in scripts/datasets/data/road-sign-photos.json.
#
# Usage: scripts/datasets/make-road-sign-photo-set.sh DATASET_GIT_DIR      (or STREAMLENS_ROAD_SIGN_GIT=DATASET_GIT_DIR)
#   DATASET_GIT_DIR is the git directory of a public repository holding images/roadN.png and annotations/roadN.xml
#   (MEDIA.md names the one used and its commit), e.g. as the session's `fetch` tool brings it. Nothing is
#   downloaded here.
# STREAMLENS_ROAD_SIGN_SIZES=large makes the signs grow to 56…150 px (the sizes an outside evaluation of the reader uses; default
# output then <repo>/.media-cache/road-sign-photos-large).
# Output (git-ignored, never committed: the copy states no licence): $STREAMLENS_ROAD_SIGN_SET (default
# <repo>/.media-cache/road-sign-photos): crops/ and clips/heldout/ (raw I420 + testset.json). About 4 GB. Evaluate:
#   STREAMLENS_REAL_SIGN_SET=<that folder> swift test --skip-build --filter SpeedLimitRealPhotoTests
set -euo pipefail
script_name=make-road-sign-photo-set

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
dataset=${1:-${STREAMLENS_ROAD_SIGN_GIT:-}}
media=${STREAMLENS_MEDIA:-$repo/.media-cache/media}
sizes=${STREAMLENS_ROAD_SIGN_SIZES:-}
case "$sizes" in
    "") output=${STREAMLENS_ROAD_SIGN_SET:-$repo/.media-cache/road-sign-photos}; size_arguments=() ;;
    large) output=${STREAMLENS_ROAD_SIGN_SET:-$repo/.media-cache/road-sign-photos-large}; size_arguments=(--sizes large) ;;
    *) echo "$script_name: STREAMLENS_ROAD_SIGN_SIZES must be empty or 'large', not '$sizes'" >&2; exit 2 ;;
esac
venv=${STREAMLENS_SIGN_VENV:-$repo/.media-cache/venv-signs}
generator="$repo/scripts/datasets/make-road-sign-photo-set.py"
labels="$repo/scripts/datasets/data/road-sign-photos.json"
requirements=(numpy==2.4.6 pillow==13.0.0)
source "$repo/scripts/lib/sign-set-common.sh"

if [[ -z "$dataset" ]]; then
    echo "$script_name: no copy of the Road Sign Detection dataset given: pass its git directory (MEDIA.md, 'Real sign photographs')" >&2
    exit 2
fi
if ! git --git-dir "$dataset" cat-file -e HEAD:annotations/road0.xml 2>/dev/null; then
    echo "$script_name: $dataset is not a git directory holding images/ and annotations/ of the dataset: give the one MEDIA.md names" >&2
    exit 1
fi
if [[ ! -f "$media/bikes-1080p.mp4" || ! -f "$media/vtest.avi" ]]; then
    echo "$script_name: no footage in $media: run scripts/datasets/fetch-media.sh first" >&2
    exit 1
fi

stamp=$( (cat "$generator" "$repo/scripts/datasets/make-real-sign-set.py" "$repo/scripts/datasets/i420.py" "$labels";
    printf '%s\n' "${requirements[@]}"; git --git-dir "$dataset" rev-parse HEAD;
    sha256sum "$media/bikes-1080p.mp4" "$media/vtest.avi" | cut -d' ' -f1; if [[ -n "$sizes" ]]; then echo "$sizes"; fi) | sha256sum | cut -d' ' -f1)
exit_if_current "$output" "$output/clips/heldout/testset.json" "$stamp"
prepare_venv "$venv" "${requirements[@]}"

rm -rf "$output"
mkdir -p "$output"
"$venv/bin/python" "$generator" "$dataset" "$media" "$output" "$labels" "${size_arguments[@]}"
seal_set "$output" "$stamp"
