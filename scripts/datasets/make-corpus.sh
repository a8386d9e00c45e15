#!/usr/bin/env bash
# Makes the bad-input corpus the reliability tests run StreamLens against (Tests/StreamLensTests/CorpusTests.swift):
# damaged, truncated, odd-sized and odd-format clips, stills, and files that are not video, all derived from the real
# sample media (bikes.mp4, vtest.avi, gtk-logo.webm, scenetext01.jpg; scripts/datasets/fetch-media.sh) with FFmpeg, GStreamer
# and byte surgery. Clips are short (tens of frames) so the suite stays fast; frame counts are fixed by the script.
#
# Usage: scripts/datasets/make-corpus.sh      (idempotent: a warm run checks a stamp and returns at once)
#
# Environment:
#   STREAMLENS_MEDIA    the real media (default <repo>/.media-cache/media)
#   STREAMLENS_CORPUS   where the corpus goes (default <repo>/.media-cache/corpus)
#
# The corpus is remade when this script changes (its sha256 is the stamp). Every byte of damage is deterministic
# (seeded), so a case's outcome does not change from run to run.
set -euo pipefail

repo_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
media=${STREAMLENS_MEDIA:-$repo_root/.media-cache/media}
corpus=${STREAMLENS_CORPUS:-$repo_root/.media-cache/corpus}
stamp_value=$(sha256sum "${BASH_SOURCE[0]}" | cut -d' ' -f1)

log() { printf 'make-corpus: %s\n' "$*" >&2; }
fail() { printf 'make-corpus: FAILED: %s\n' "$*" >&2; exit 1; }

for tool in ffmpeg ffprobe gst-launch-1.0 python3 flock; do
    command -v "$tool" >/dev/null || fail "$tool is missing; run scripts/setup.sh"
done
for file in bikes.mp4 vtest.avi overlays/gtk-logo.webm scenetext/scenetext01.jpg; do
    [ -f "$media/$file" ] || fail "$media/$file is missing; run scripts/datasets/fetch-media.sh"
done

mkdir -p "$(dirname "$corpus")"
exec 9>"$corpus.lock"
flock 9
if [ -f "$corpus/.stamp" ] && [ "$(cat "$corpus/.stamp")" = "$stamp_value" ]; then
    exit 0
fi
started=$SECONDS
log "making the corpus in $corpus"
rm -rf "$corpus.new"
mkdir -p "$corpus.new"
cd "$corpus.new"

ff() { ffmpeg -nostdin -hide_banner -loglevel error -y "$@"; }
bikes=$media/bikes.mp4

# --- Not video at all --------------------------------------------------------------------------------------------
: > zero-byte.mp4
python3 -c "import random,sys; random.seed(10); sys.stdout.buffer.write(bytes(random.getrandbits(8) for _ in range(65536)))" > random-bytes.mp4
printf 'These are meeting notes, not a video.\nSaved with the wrong extension.\n' > text-renamed.mkv
ff -f lavfi -i "sine=frequency=440:duration=2" -c:a aac audio-only.m4a
mkdir -p a-folder.mp4

# --- Truncated and damaged ---------------------------------------------------------------------------------------
# bikes.mp4 keeps its index (moov) at the end: cut anywhere, the index is gone.
python3 - "$bikes" <<'EOF'
import sys
data = open(sys.argv[1], "rb").read()
open("no-moov.mp4", "wb").write(data[: len(data) // 2])
EOF
# With the index first (faststart), a cut file still has the frames before the cut.
ff -i "$bikes" -c copy -movflags +faststart bikes-faststart.mp4
ff -i "$bikes" -c copy bikes.mkv
python3 - <<'EOF'
for name, source, fractions in [("truncated", "bikes-faststart.mp4", (25, 50, 90)), ("truncated", "bikes.mkv", (50,))]:
    data = open(source, "rb").read()
    extension = source.rsplit(".", 1)[1]
    for percent in fractions:
        open(f"{name}-{percent}.{extension}", "wb").write(data[: len(data) * percent // 100])
EOF
# Junk written over the middle of the media data: the index is intact, some frames are not.
python3 - "$bikes" <<'EOF'
import random, sys
random.seed(20)
data = bytearray(open(sys.argv[1], "rb").read())
for fraction in (0.3, 0.6):
    start = int(len(data) * fraction)
    data[start:start + 4096] = bytes(random.getrandbits(8) for _ in range(4096))
open("corrupted-mdat.mp4", "wb").write(data)
EOF
# MPEG-TS with packets overwritten and a stretch of packets lost, as from a bad broadcast or network capture.
ff -i "$bikes" -c copy -f mpegts bikes.ts
python3 - <<'EOF'
import random
random.seed(30)
data = open("bikes.ts", "rb").read()
packets = [bytearray(data[i:i + 188]) for i in range(0, len(data) - 187, 188)]
for index in range(40, len(packets), 97):
    packets[index][4:] = bytes(random.getrandbits(8) for _ in range(184))
middle = len(packets) // 2
del packets[middle:middle + 300]
open("damaged.ts", "wb").write(b"".join(packets))
EOF
rm -f bikes.ts

# --- Odd sizes and formats (frame counts fixed with -frames:v) --------------------------------------------------
# Lossless FFV1 keeps 4:2:0 at odd sizes (x264 would refuse them).
for size in 1x1 3x3 17x9; do
    ff -i "$bikes" -frames:v 10 -vf "scale=${size/x/:},format=yuv420p" -c:v ffv1 "odd-$size.mkv"
done
ff -i "$bikes" -frames:v 25 -vf "scale=641:361,format=yuv444p" -c:v libx264 -preset ultrafast odd-641x361-444.mp4
ff -i "$bikes" -frames:v 25 -vf "scale=720:405" -c:v mpeg2video -q:v 4 odd-720x405.mpg
ff -i "$bikes" -frames:v 25 -vf "scale=720:576" -c:v mpeg2video -flags +ildct+ilme -top 1 -q:v 4 interlaced-576i.mpg
ff -i "$bikes" -frames:v 25 -vf "format=yuv444p" -c:v libx264 -preset ultrafast h264-444.mp4
ff -i "$bikes" -frames:v 25 -vf "format=yuv422p10le" -c:v libx264 -preset ultrafast h264-422-10bit.mkv
ff -i "$bikes" -frames:v 25 -vf "format=yuv422p10le" -c:v prores_ks -profile:v 2 prores-422-10bit.mov
ff -i "$bikes" -frames:v 25 -vf "format=yuv420p10le" -c:v libx265 -preset ultrafast -x265-params log-level=error hevc-10bit.mkv
ff -i "$bikes" -frames:v 5 -vf "scale=3840:2160" -c:v libx264 -preset ultrafast 4k.mp4
ff -i "$bikes" -frames:v 3 -vf "scale=7680:4320" -c:v libx264 -preset ultrafast 8k.mkv
# A phone video: stored landscape with a rotation in its container (90°): players and StreamLens show it upright.
ff -i "$bikes" -frames:v 25 -c copy -metadata:s:v:0 rotate=90 rotated-90.mp4
# The pedestrians clip (msmpeg4v3, 768×576) at 10 fps, first 30 frames.
ff -i "$media/vtest.avi" -frames:v 30 -c copy vtest-30.avi

# --- Timestamps --------------------------------------------------------------------------------------------------
# Variable frame rate: frame intervals alternate 20 ms and 60 ms.
ff -i "$bikes" -frames:v 50 -vf "setpts=(N*0.04+mod(N\,2)*0.02)/TB" -fps_mode passthrough -c:v libx264 -preset ultrafast vfr.mkv
# Two recordings concatenated as MPEG-TS: the second starts again at 0 (backwards), or 20 s later (a jump).
ff -i "$bikes" -frames:v 50 -c:v libx264 -preset ultrafast -f mpegts part-a.ts
ff -i "$bikes" -ss 4 -frames:v 50 -c:v libx264 -preset ultrafast -f mpegts part-b.ts
ff -i "$bikes" -ss 4 -frames:v 50 -c:v libx264 -preset ultrafast -output_ts_offset 20 -f mpegts part-c.ts
cat part-a.ts part-b.ts > timestamps-backwards.ts
cat part-a.ts part-c.ts > timestamps-jump.ts
rm -f part-a.ts part-b.ts part-c.ts

# --- Stills and animations ---------------------------------------------------------------------------------------
cp "$media/scenetext/scenetext01.jpg" still.jpg
ff -i still.jpg still.png
ff -i still.jpg -frames:v 1 still.gif
# An animated GIF from the spinning logo: 20 frames.
ff -c:v libvpx-vp9 -i "$media/overlays/gtk-logo.webm" -frames:v 20 -vf "fps=10" logo-animated.gif

# --- Names --------------------------------------------------------------------------------------------------------
mkdir -p "ünïcødé folder"
ff -i "$bikes" -frames:v 20 -c copy "ünïcødé folder/rue du marché – 東京 1.mp4"

# Frame counts the tests rely on, checked here so a changed tool shows up as a clear failure, not a flaky test.
count_frames() {
    ffprobe -v error -count_frames -select_streams v:0 -show_entries stream=nb_read_frames -of default=nokey=1:noprint_wrappers=1 "$1" | awk 'NR == 1'
}
while read -r file expected; do
    actual=$(count_frames "$file")
    [ "$actual" = "$expected" ] || fail "$file has $actual frames, expected $expected"
done <<'EOF'
odd-1x1.mkv 10
odd-17x9.mkv 10
odd-641x361-444.mp4 25
odd-720x405.mpg 25
h264-422-10bit.mkv 25
hevc-10bit.mkv 25
4k.mp4 5
8k.mkv 3
vfr.mkv 50
timestamps-backwards.ts 100
logo-animated.gif 20
EOF

cd ..
rm -rf "$corpus"
mv "$corpus.new" "$corpus"
echo "$stamp_value" > "$corpus/.stamp"
log "done in $((SECONDS - started)) s: $(find "$corpus" -type f | wc -l) files"
