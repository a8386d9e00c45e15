#!/usr/bin/env bash
# Writes Sources/streamlens/executed-functions.order: the functions of the release executable that its usual runs
# execute, hottest first. Release builds hand it to the linker (Package.swift), which lays those functions out side
# by side at the start of the code, so that a run keeps about 6 MiB of the executable's 29 MB of code resident
# instead of 12 (the kernel maps code 64 KiB at a time around each page executed).
#
#   bash scripts/make-function-order.sh     # a development tool: needs valgrind, the test media (setup.sh --media)
#
# Rerun it after changes that add or rename many functions on a run's path. A stale list costs memory only: a function
# missing from it lands where it would without the list.
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
order="$repo/Sources/streamlens/executed-functions.order"
clip="$repo/.media-cache/media/bikes-1080p.mp4"

command -v valgrind >/dev/null || apt-get install -y -qq valgrind >/dev/null
if [[ ! -f $clip ]]; then
    echo "make-function-order: $clip is missing: run 'bash scripts/setup.sh --media' first" >&2
    exit 1
fi
cd "$repo"
swift build -c release --product streamlens --static-swift-stdlib 2>&1 | tail -n 1
binary="$(swift build -c release --show-bin-path)/streamlens"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Valgrind 3.19 cannot read the toolchain's DWARF 5; the symbol table is all the profile needs.
objcopy --strip-debug "$binary" "$work/streamlens"
ffmpeg -loglevel error -i "$clip" -frames:v 50 -c copy "$work/dashcam-50.mp4"

profile() {
    local name=$1
    shift
    echo "make-function-order: profiling $name (a few minutes under callgrind)"
    (cd "$work" && valgrind --tool=callgrind --demangle=no --callgrind-out-file="$work/$name.callgrind" \
        "$work/streamlens" run --quiet --watchdog 0 "$@" >/dev/null 2>"$work/$name.log") || {
        echo "make-function-order: the $name run failed under callgrind, see below" >&2
        tail -n 20 "$work/$name.log" >&2
        exit 1
    }
}
# The built-in demo (sign reader, HOG, overlays, every report) and the dashcam job at 1080p. No watchdog: under
# callgrind a frame can take longer than its 30 s.
profile demo
profile dashcam --input "$work/dashcam-50.mp4" --output "$work/dashcam.mp4" --speed-limits eu --detector hog \
    --events "$work/events.jsonl" --report "$work/run.json"

python3 scripts/lib/executed-functions.py "$work/streamlens" "$work"/*.callgrind > "$work/executed-functions.order"
mv "$work/executed-functions.order" "$order"
echo "make-function-order: $(wc -l < "$order") functions written to $order"
# SwiftPM does not know the list is an input of the link: link again with it.
rm -f "$binary"
swift build -c release --product streamlens --static-swift-stdlib 2>&1 | tail -n 1
