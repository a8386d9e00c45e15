#!/usr/bin/env bash
# Builds the third real-photo speed-limit evaluation set (scripts/datasets/make-gtsdb-sign-set.py) from a copy of GTSDB's
# speed-limit cut-outs: real photographs taken from a car, never tuned on.
#
# Usage: scripts/datasets/make-gtsdb-sign-set.sh DATASET_GIT_DIR      (or STREAMLENS_GTSDB_GIT=DATASET_GIT_DIR)
#   DATASET_GIT_DIR is the git directory of a public repository holding data/speed-limit-signs/<class>/*.ppm (MEDIA.md
#   names the one used and its commit), e.g. as the session's `fetch` tool brings it. Nothing is downloaded here.
# Output (git-ignored, never committed: GTSDB is not under an open-content licence): $STREAMLENS_GTSDB_SIGN_SET
# (default <repo>/.media-cache/gtsdb): crops/ and clips/heldout/ (raw I420 + testset.json). Evaluate:
#   STREAMLENS_REAL_SIGN_SET=<that folder> swift test --skip-build --filter SpeedLimitRealPhotoTests
set -euo pipefail
script_name=make-gtsdb-sign-set

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
dataset=${1:-${STREAMLENS_GTSDB_GIT:-}}
media=${STREAMLENS_MEDIA:-$repo/.media-cache/media}
output=${STREAMLENS_GTSDB_SIGN_SET:-$repo/.media-cache/gtsdb}
venv=${STREAMLENS_SIGN_VENV:-$repo/.media-cache/venv-signs}
generator="$repo/scripts/datasets/make-gtsdb-sign-set.py"
requirements=(numpy==2.4.6 pillow==13.0.0)
source "$repo/scripts/lib/sign-set-common.sh"

if [[ -z "$dataset" ]]; then
    echo "$script_name: no copy of GTSDB's speed-limit cut-outs given: pass its git directory (MEDIA.md, 'Real sign photographs')" >&2
    exit 2
fi
if ! git --git-dir "$dataset" cat-file -e HEAD:data/speed-limit-signs/0 2>/dev/null; then
    echo "$script_name: $dataset is not a git directory holding data/speed-limit-signs/: give the one MEDIA.md names" >&2
    exit 1
fi
if [[ ! -f "$media/bikes-1080p.mp4" || ! -f "$media/vtest.avi" ]]; then
    echo "$script_name: no footage in $media: run scripts/datasets/fetch-media.sh first" >&2
    exit 1
fi

stamp=$( (cat "$generator" "$repo/scripts/datasets/make-real-sign-set.py" "$repo/scripts/datasets/i420.py";
    printf '%s\n' "${requirements[@]}"; git --git-dir "$dataset" rev-parse HEAD;
    sha256sum "$media/bikes-1080p.mp4" "$media/vtest.avi" | cut -d' ' -f1) | sha256sum | cut -d' ' -f1)
exit_if_current "$output" "$output/clips/heldout/testset.json" "$stamp"
prepare_venv "$venv" "${requirements[@]}"

rm -rf "$output"
mkdir -p "$output"
"$venv/bin/python" "$generator" "$dataset" "$media" "$output"
seal_set "$output" "$stamp"
