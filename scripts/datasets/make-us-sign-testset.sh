#!/usr/bin/env bash
# Builds the US speed-limit sign test set (R2-1 "SPEED LIMIT NN", scripts/datasets/make-us-sign-testset.py) that
# Tests/StreamLensSignsTests/UsSpeedLimitAccuracyTests reads.
#
# Same inputs and virtual environment as scripts/datasets/make-sign-testset.sh (whose helpers the generator imports):
# bikes.mp4, fonts/RG2014*.ttf and signs/josm/maxspeed.svg under $STREAMLENS_MEDIA (default
# <repo>/.media-cache/media). The set (about 100 MB of raw I420 clips plus testset.json) goes to
# $STREAMLENS_US_SIGN_TESTSET (default <repo>/.media-cache/us-sign-testset) and is rebuilt only when a generator,
# the package pins or the media change.
set -euo pipefail
script_name=make-us-sign-testset

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
media=${STREAMLENS_MEDIA:-$repo/.media-cache/media}
output=${STREAMLENS_US_SIGN_TESTSET:-$repo/.media-cache/us-sign-testset}
venv=${STREAMLENS_SIGN_VENV:-$repo/.media-cache/venv-signs}
generator="$repo/scripts/datasets/make-us-sign-testset.py"
# The same pins as make-sign-testset.sh: both sets render with the same packages.
requirements=(numpy==2.4.6 pillow==13.0.0 CairoSVG==2.9.1)
source "$repo/scripts/lib/sign-set-common.sh"

if [[ ! -f "$media/bikes.mp4" || ! -f "$media/fonts/RG2014E.ttf" || ! -f "$media/signs/josm/maxspeed.svg" ]]; then
    echo "make-us-sign-testset: no media in $media: run scripts/datasets/fetch-media.sh first" >&2
    exit 1
fi

media_digest() {
    (cd "$media" && find bikes.mp4 signs fonts -type f 2>/dev/null | LC_ALL=C sort | xargs sha256sum)
}
stamp=$( (cat "$generator" "$repo/scripts/datasets/make-sign-testset.py" "$repo/scripts/datasets/i420.py"
    printf '%s\n' "${requirements[@]}"; media_digest) | sha256sum | cut -d' ' -f1)
exit_if_current "$output" "$output/testset.json" "$stamp"
prepare_venv "$venv" "${requirements[@]}"

rm -rf "$output"
mkdir -p "$output"
"$venv/bin/python" "$generator" "$media" "$output"
echo "$stamp" > "$output/.stamp"
