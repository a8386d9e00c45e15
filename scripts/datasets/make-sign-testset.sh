#!/usr/bin/env bash
# Builds the speed-limit sign test set that Tests/StreamLensSignsTests reads (scripts/datasets/make-sign-testset.py).
#
# Needs the fetched media (scripts/datasets/fetch-media.sh): bikes.mp4, signs/josm/*.svg, signs/openclipart/*.svg,
# fonts/*.ttf, scenetext/*.jpg under $STREAMLENS_MEDIA (default <repo>/.media-cache/media), and GStreamer with
# gst-libav (or ffmpeg) to decode bikes.mp4. Python packages come from PyPI into a private virtual environment.
# The set (about 400 MB of raw I420 clips plus testset.json) goes to $STREAMLENS_SIGN_TESTSET
# (default <repo>/.media-cache/sign-testset) and is rebuilt only when the generator changes.
set -euo pipefail
script_name=make-sign-testset

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
media=${STREAMLENS_MEDIA:-$repo/.media-cache/media}
output=${STREAMLENS_SIGN_TESTSET:-$repo/.media-cache/sign-testset}
venv=${STREAMLENS_SIGN_VENV:-$repo/.media-cache/venv-signs}
generator="$repo/scripts/datasets/make-sign-testset.py"
# Pinned so that every machine renders the same pixels.
requirements=(numpy==2.4.6 pillow==13.0.0 CairoSVG==2.9.1)
source "$repo/scripts/lib/sign-set-common.sh"

if [[ ! -f "$media/bikes.mp4" || ! -f "$media/signs/josm/maxspeed.svg" ]]; then
    echo "make-sign-testset: no media in $media: run scripts/datasets/fetch-media.sh first" >&2
    exit 1
fi

# The set depends on the generator, the package pins and the media it reads.
media_digest() {
    (cd "$media" && find bikes.mp4 signs fonts scenetext -type f 2>/dev/null | LC_ALL=C sort | xargs sha256sum)
}
stamp=$( (cat "$generator" "$repo/scripts/datasets/i420.py"; printf '%s\n' "${requirements[@]}"; media_digest) | sha256sum | cut -d' ' -f1)
exit_if_current "$output" "$output/testset.json" "$stamp"
prepare_venv "$venv" "${requirements[@]}"

rm -rf "$output"
mkdir -p "$output"
"$venv/bin/python" "$generator" "$media" "$output"
echo "$stamp" > "$output/.stamp"
