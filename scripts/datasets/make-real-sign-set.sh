#!/usr/bin/env bash
# Builds the real-photo speed-limit evaluation set (scripts/datasets/make-real-sign-set.py) from a copy of GTSRB.
#
# Usage: scripts/datasets/make-real-sign-set.sh GTSRB_GIT_DIR      (or STREAMLENS_GTSRB_GIT=GTSRB_GIT_DIR)
#   GTSRB_GIT_DIR is the git directory of a public repository holding GTSRB/Final_Training/Images/ (MEDIA.md names
#   the one used and its commit), e.g. as the session's `fetch` tool brings it. Nothing is downloaded here.
# Output (git-ignored, never committed: GTSRB is not under an open-content licence): $STREAMLENS_REAL_SIGN_SET
# (default <repo>/.media-cache/gtsrb): crops/ (PNG cut-outs, crops.json with source path and sha256 of each photo)
# and clips/{dev,heldout}/ (raw I420 clips + testset.json, read by SpeedLimitRealPhotoTests). About 4 GB.
set -euo pipefail
script_name=make-real-sign-set

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
gtsrb=${1:-${STREAMLENS_GTSRB_GIT:-}}
media=${STREAMLENS_MEDIA:-$repo/.media-cache/media}
output=${STREAMLENS_REAL_SIGN_SET:-$repo/.media-cache/gtsrb}
venv=${STREAMLENS_SIGN_VENV:-$repo/.media-cache/venv-signs}
generator="$repo/scripts/datasets/make-real-sign-set.py"
requirements=(numpy==2.4.6 pillow==13.0.0)
source "$repo/scripts/lib/sign-set-common.sh"

if [[ -z "$gtsrb" ]]; then
    echo "make-real-sign-set: no GTSRB copy given: pass its git directory (see MEDIA.md, 'Real sign photographs')" >&2
    exit 2
fi
if ! git --git-dir "$gtsrb" cat-file -e HEAD:GTSRB/Final_Training/Images/30_kmh/GT-00001.csv 2>/dev/null; then
    echo "make-real-sign-set: $gtsrb is not a git directory holding GTSRB/Final_Training/Images: give the one MEDIA.md names" >&2
    exit 1
fi
if [[ ! -f "$media/bikes-1080p.mp4" || ! -f "$media/vtest.avi" ]]; then
    echo "make-real-sign-set: no footage in $media: run scripts/datasets/fetch-media.sh first" >&2
    exit 1
fi

stamp=$( (cat "$generator" "$repo/scripts/datasets/i420.py"; printf '%s\n' "${requirements[@]}";
    git --git-dir "$gtsrb" rev-parse HEAD; sha256sum "$media/bikes-1080p.mp4" "$media/vtest.avi" | cut -d' ' -f1) | sha256sum | cut -d' ' -f1)
exit_if_current "$output" "$output/clips/heldout/testset.json" "$stamp"
prepare_venv "$venv" "${requirements[@]}"

rm -rf "$output"
mkdir -p "$output"
"$venv/bin/python" "$generator" "$gtsrb" "$media" "$output"
seal_set "$output" "$stamp"
