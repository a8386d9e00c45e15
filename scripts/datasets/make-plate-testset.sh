#!/usr/bin/env bash
# Builds the plate privacy tests' clip: two real photographs of licence plates pasted into real street footage,
# moving and growing (scripts/datasets/make-plate-testset.py), with a JSON listing where each plate is on each frame.
#
#   eu5.jpg, eu7.jpg  openalpr/benchmarks at 9790ed20d475be1e940a7e2a3f492a97c2ebed9b, endtoend/eu   AGPL-3.0
#   street            bikes.mp4, the fetched media (scripts/datasets/fetch-media.sh)                          BSD-3-Clause
#
# The photographs are AGPL-3.0, so they are not in this repository: they are read from a git copy of the public
# openalpr/benchmarks repository (a clone or mirror; its git directory in $STREAMLENS_PLATE_PHOTOS_GIT, default
# <repo>/.media-cache/openalpr-benchmarks.git) at the pinned commit, each checked against its SHA-256. Without that
# copy (CI's fresh machines have none: neither registry ships plate photographs) the script says so and exits 0, and
# the tests that need the clip are skipped, visibly. Output: $STREAMLENS_PRIVACY_TESTSET (default
# <repo>/.media-cache/privacy-testset) plates-bikes.mp4 and plates-bikes.json; rebuilt only when the generator or the
# inputs change. Needs Debian's python3-opencv and ffmpeg (scripts/setup.sh).
set -euo pipefail
script_name=make-plate-testset

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
media=${STREAMLENS_MEDIA:-$repo/.media-cache/media}
photos_git=${STREAMLENS_PLATE_PHOTOS_GIT:-$repo/.media-cache/openalpr-benchmarks.git}
output=${STREAMLENS_PRIVACY_TESTSET:-$repo/.media-cache/privacy-testset}
generator="$repo/scripts/datasets/make-plate-testset.py"

readonly commit="9790ed20d475be1e940a7e2a3f492a97c2ebed9b"
readonly eu5_sha256="63025463b5be8cffae0b52a75a309d441997cec5ab9ccee24b698a9694152891"
readonly eu7_sha256="a43dcf12f3ec64a36be69105dd2205f46a2545efb1033b9d9863ae0f2e1e1b63"

if ! git -C "$photos_git" cat-file -e "$commit^{commit}" 2>/dev/null; then
    echo "$script_name: skipped: no git copy of openalpr/benchmarks at $commit in $photos_git" \
        "(set STREAMLENS_PLATE_PHOTOS_GIT); the plate photo tests will be skipped"
    exit 0
fi
if [[ ! -f "$media/bikes.mp4" ]]; then
    echo "$script_name: no bikes.mp4 in $media: run scripts/datasets/fetch-media.sh first" >&2
    exit 1
fi
if ! /usr/bin/python3 -c 'import cv2, numpy' 2>/dev/null; then
    echo "$script_name: Debian's python3-opencv is missing: run scripts/setup.sh (apt-get install python3-opencv)" >&2
    exit 1
fi
stamp=$( (cat "$generator" "$repo/scripts/lib/pasted_footage.py"; printf '%s\n' "$eu5_sha256" "$eu7_sha256"; sha256sum < "$media/bikes.mp4") |
    sha256sum | cut -d' ' -f1)
if [[ -f "$output/plates-bikes.json" && "$(cat "$output/.plates-stamp" 2>/dev/null)" == "$stamp" ]]; then
    echo "$script_name: $output is up to date"
    exit 0
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for name in eu5 eu7; do
    git -C "$photos_git" show "$commit:endtoend/eu/$name.jpg" > "$work/$name.jpg"
    expected=$([[ $name == eu5 ]] && echo "$eu5_sha256" || echo "$eu7_sha256")
    if [[ "$(sha256sum "$work/$name.jpg" | cut -d' ' -f1)" != "$expected" ]]; then
        echo "$script_name: endtoend/eu/$name.jpg in $photos_git does not match its pinned SHA-256" >&2
        exit 1
    fi
done

mkdir -p "$output"
/usr/bin/python3 "$generator" "$work/eu5.jpg" "$work/eu7.jpg" "$media/bikes.mp4" \
    "$work/plates-bikes.mp4" "$work/plates-bikes.json"
mv "$work/plates-bikes.mp4" "$work/plates-bikes.json" "$output/"
echo "$stamp" > "$output/.plates-stamp"
echo "$script_name: built $output/plates-bikes.mp4 (250 frames, two real plates) and plates-bikes.json"
