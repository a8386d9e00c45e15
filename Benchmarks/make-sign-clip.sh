#!/usr/bin/env bash
# Makes a 1080p H.264 clip with real speed-limit signs in it, for the dashcam job's benchmark on footage the sign
# reader has work on (bikes-1080p.mp4 has no speed sign: its reader mostly locates and rejects).
#
# Usage: Benchmarks/make-sign-clip.sh [CLIPS]      (default 22 clips; about 18 s of video)
#   Reads the Road Sign Detection real-photo set (scripts/datasets/make-road-sign-photo-set.sh; git-ignored, not committed:
#   its photographs are not ours to publish) from $STREAMLENS_REAL_SIGN_SET (default .media-cache/road-sign-photos):
#   its first CLIPS held-out sign clips pasted into bikes-1080p.mp4, one frame per 80 ms, each shown for two frames
#   at 25 fps (the reader's cadence sees every one). Writes .media-cache/bench/signs-1080p.mp4 and prints its path.
#   Then: DASHCAM_CLIP=.media-cache/bench/signs-1080p.mp4 python3 Benchmarks/compare_builds.py ROUNDS NAME=BINARY
set -euo pipefail
cd "$(dirname "$0")/.."
clips=${1:-22}
set_dir=${STREAMLENS_REAL_SIGN_SET:-.media-cache/road-sign-photos}
heldout="$set_dir/clips/heldout"
output=.media-cache/bench/signs-1080p.mp4
if [[ ! -f "$heldout/testset.json" ]]; then
    echo "make-sign-clip: no real-photo set in $set_dir: build it with scripts/datasets/make-road-sign-photo-set.sh (MEDIA.md)" >&2
    exit 2
fi
mkdir -p "$(dirname "$output")"
raw=$(mktemp "${TMPDIR:-/tmp}/sign-clip.XXXXXX.i420")
trap 'rm -f "$raw"' EXIT
# The set's clips in its own order: sign clips pasted into the 1080p footage, all 1920 x 1080 I420.
python3 - "$heldout" "$clips" >"$raw" <<'EOF'
import json, os, shutil, sys
folder, wanted = sys.argv[1], int(sys.argv[2])
chosen = [clip for clip in json.load(open(os.path.join(folder, "testset.json")))["clips"]
          if clip["kind"] == "sign" and (clip["width"], clip["height"]) == (1920, 1080)][:wanted]
if len(chosen) < wanted:
    sys.exit(f"make-sign-clip: the set has only {len(chosen)} 1080p sign clips")
for clip in chosen:
    with open(os.path.join(folder, clip["file"]), "rb") as source:
        shutil.copyfileobj(source, sys.stdout.buffer)
EOF
gst-launch-1.0 -q filesrc location="$raw" \
    ! rawvideoparse width=1920 height=1080 format=i420 framerate=25/2 \
    ! videorate ! video/x-raw,framerate=25/1 \
    ! x264enc speed-preset=fast bitrate=8000 ! mp4mux ! filesink location="$output"
echo "$output"
