#!/usr/bin/env bash
# Checks a pair of StreamLens map exports with independent readers: the GPX with gpxpy (its parser, then the points
# and waypoints it found), the GeoJSON with the `geojson` package's RFC 7946 validation (every geometry valid,
# positions [lon, lat] within range). Both pinned, in a private environment under .media-cache/gps-venv.
# Usage: bash scripts/evaluation/check-gps-exports.sh MAP.geojson [MAP.gpx]   (a lone GeoJSON: `streamlens events --geojson`)
set -euo pipefail
repo_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
script_name=check-gps-exports
source "$repo_root/scripts/lib/packages.sh"
[[ $# -eq 1 || $# -eq 2 ]] || { echo "usage: bash scripts/evaluation/check-gps-exports.sh MAP.geojson [MAP.gpx]" >&2; exit 2; }
venv=$repo_root/.media-cache/gps-venv
prepare_venv "$venv" gpxpy==1.6.2 geojson==3.3.0
"$venv/bin/python" - "$@" <<'PY'
import sys
import geojson
import gpxpy

collection = geojson.load(open(sys.argv[1]))
problems = [] if collection.is_valid else [f"GeoJSON: {collection.errors()}"]
if collection.get("type") != "FeatureCollection":
    problems.append("GeoJSON: not a FeatureCollection")
kinds = {}
for feature in collection["features"]:
    kind = feature["properties"].get("kind")
    kinds[kind] = kinds.get(kind, 0) + 1
    for lon, lat in geojson.utils.coords(feature):
        if not (-180 <= lon <= 180 and -90 <= lat <= 90):
            problems.append(f"GeoJSON: position {lon},{lat} out of range")
print(f"geojson: valid={collection.is_valid} features={kinds}")
if len(sys.argv) > 2:
    gpx = gpxpy.parse(open(sys.argv[2]))
    points = sum(len(segment.points) for track in gpx.tracks for segment in track.segments)
    print(f"gpx: tracks={len(gpx.tracks)} points={points} waypoints={len(gpx.waypoints)} "
          f"length_2d={gpx.length_2d():.1f} m")
for problem in problems:
    print(problem)
sys.exit(1 if problems else 0)
PY
