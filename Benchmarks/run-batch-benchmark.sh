#!/usr/bin/env bash
# The batch benchmark (docs/guides/batch.md): 6 recordings with HOG people detection and an annotated H.264 output, done three
# ways in one run on the same machine: a shell loop of `streamlens run` (the peer), `streamlens batch --workers 1`
# and `streamlens batch --workers 2`. Reports wall time, files per minute and total CPU (user + system of every
# process, children included) for each, and the catalog's overhead per file.
#
# Usage: Benchmarks/run-batch-benchmark.sh [streamlens-binary]   (default .build/release/streamlens)
# The clips are cut here from the real media in .media-cache (scripts/datasets/fetch-media.sh): 10 s each, never committed.
set -euo pipefail
cd "$(dirname "$0")/.."
streamlens=$(realpath "${1:-.build/release/streamlens}")
media=.media-cache/media
work=$(mktemp -d /tmp/streamlens-batch-bench.XXXXXX)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/clips"

# Six 10-second clips (250 frames at 25 fps): the bikes street clip twice, vtest (people walking) at two sizes, and
# the 1080p bikes clip scaled to 960x408, so files differ in content and cost like a day of dashcam files.
make_clip() {  # source width height name
  gst-launch-1.0 -q filesrc location="$media/$1" ! decodebin ! videoconvert ! videoscale \
    ! "video/x-raw,width=$2,height=$3" ! identity eos-after=250 ! x264enc speed-preset=veryfast ! mp4mux \
    ! filesink location="$work/clips/$4.mp4"
}
make_clip bikes.mp4 640 272 20240501_090000
make_clip vtest.avi 768 576 20240501_090300
make_clip bikes-1080p.mp4 960 408 20240501_090600
make_clip vtest.avi 640 480 20240501_090900
make_clip bikes.mp4 640 272 20240501_091200
make_clip bikes-1080p.mp4 960 408 20240501_091500
# HOG with a latency budget no call reaches: the detector's cadence then depends on stream time only, so every way
# does the same work (the default 250 ms budget stretches the cadence when the machine is busy, and the ways would
# analyse different numbers of frames).
printf 'stages:\n  detector: { backend: hog, budget: 60 }\n' > "$work/hog.yaml"
options=(--encoder-preset veryfast)

measure() {  # label, command...: prints "label wall user system"
  local label=$1; shift
  /usr/bin/time -o "$work/time.txt" -f "%e %U %S" "$@" >/dev/null 2>&1 || true
  echo "$label $(tail -n 1 "$work/time.txt")"
}

loop() {
  mkdir -p "$work/loop"
  for clip in "$work"/clips/*.mp4; do
    name=$(basename "$clip" .mp4)
    "$streamlens" run "$work/hog.yaml" --input "$clip" --output "$work/loop/$name.mp4" --report "$work/loop/$name.report.json" \
      --events "$work/loop/$name.events.jsonl" --subtitles "$work/loop/$name.vtt" --quiet "${options[@]}"
  done
}
export -f loop
export streamlens work
export options_string="${options[*]}"

results=()
results+=("$(measure loop bash -c 'options=($options_string); loop')")
results+=("$(measure workers-1 "$streamlens" batch "$work/clips" --output-dir "$work/batch1" --workers 1 --quiet --pipeline "$work/hog.yaml" "${options[@]}")")
results+=("$(measure workers-2 "$streamlens" batch "$work/clips" --output-dir "$work/batch2" --workers 2 --quiet --pipeline "$work/hog.yaml" "${options[@]}")")
# The catalog's own cost: the same batch again with everything done (find inputs, hash their ends, open and check
# the catalog, write the summary) -- what a resumed batch pays before its first file.
results+=("$(measure rerun-all-done "$streamlens" batch "$work/clips" --output-dir "$work/batch1" --workers 1 --quiet --pipeline "$work/hog.yaml" "${options[@]}")")

printf "%-16s %8s %10s %9s %9s\n" way wall_s files/min user_s system_s
for line in "${results[@]}"; do
  read -r label wall user system <<<"$line"
  printf "%-16s %8.2f %10.2f %9.2f %9.2f\n" "$label" "$wall" "$(echo "6 * 60 / $wall" | bc -l)" "$user" "$system"
done
# Same work? The events of every file agree between the loop and the batch.
for events in "$work"/loop/*.events.jsonl; do
  cmp -s "$events" "$work/batch1/$(basename "$events")" || echo "note: $(basename "$events") differs between loop and batch"
done
sqlite3 "$work/batch1/catalog.sqlite" "SELECT 'catalog: ' || count(*) || ' files, ' || sum(event_count) || ' events, ' || sum(frames) || ' frames' FROM batch_files"
# The batch's overhead per file with one worker: its wall time minus the time its children ran, over the files
# (finding and hashing inputs, catalog claims, lease renewals, recording report and events, the summary).
children=$(sqlite3 "$work/batch1/catalog.sqlite" "SELECT sum(seconds) FROM batch_files")
read -r _ wall1 _ _ <<<"${results[1]}"
echo "workers-1 overhead per file: $(echo "($wall1 - $children) / 6" | bc -l | cut -c1-6) s (children ran $children s of $wall1 s)"
