#!/usr/bin/env bash
# Soak: a long live run with both analysers, watched from outside. Checks that memory stays flat, no file
# descriptor leaks, and latency percentiles stay stable; the figures go to docs/reliability.md.
#
# Usage: scripts/evaluation/soak.sh [FRAMES] [FPS]      (default 100000 frames at 300 fps: about 6 minutes)
#
# The source is GStreamer's live test pattern at 320×180 (generated data: the point is time and frame count, not
# content), analysed by HOG people detection and the speed-limit reader, output to null. Every 5 s the script
# samples the process's resident memory (VmRSS) and open descriptors (/proc/PID/fd); the per-frame timeline gives
# latency percentiles per 10 000-frame window. Results: .build/soak/ (samples.csv, timeline.csv, report.json,
# summary.txt). Exit status 1 when a limit is broken: RSS growth after warm-up ≥ 5 MB, descriptors growing, or a
# window's latency p99 more than twice the first window's.
set -euo pipefail
cd "$(dirname "$0")/../.."

frames=${1:-100000}
fps=${2:-300}
out=.build/soak
mkdir -p "$out"
binary=${STREAMLENS_BIN:-.build/release/streamlens}
if [ ! -x "$binary" ]; then
    echo "soak: building the release binary"
    swift build -c release --product streamlens --static-swift-stdlib >/dev/null
fi

echo "soak: $frames frames at $fps fps (about $((frames / fps)) s), both analysers; samples every 5 s"
"$binary" run \
    --input "videotestsrc is-live=true pattern=ball num-buffers=$frames ! video/x-raw,width=320,height=180,framerate=$fps/1" \
    --output null --detector hog --speed-limits eu --quiet \
    --report "$out/report.json" --timeline "$out/timeline.csv" > "$out/run.log" 2>&1 &
pid=$!
started=$SECONDS
echo "seconds,rss_kb,fds,threads" > "$out/samples.csv"
while kill -0 "$pid" 2>/dev/null; do
    rss=$(awk '/^VmRSS:/ {print $2}' "/proc/$pid/status" 2>/dev/null || true)
    fds=$(ls "/proc/$pid/fd" 2>/dev/null | wc -l || true)
    threads=$(awk '/^Threads:/ {print $2}' "/proc/$pid/status" 2>/dev/null || true)
    [ -n "$rss" ] && echo "$((SECONDS - started)),$rss,$fds,$threads" >> "$out/samples.csv"
    sleep 5
done
wait "$pid" || { echo "soak: the run failed:"; cat "$out/run.log"; exit 1; }

python3 - "$out" <<'EOF'
import csv, json, sys

out = sys.argv[1]
samples = list(csv.DictReader(open(f"{out}/samples.csv")))
report = json.load(open(f"{out}/report.json"))
# Warm-up: the first 20 % of the run (detector and OCR engines loaded, histograms and caches filled).
warm = samples[max(1, len(samples) // 5):]
rss = [int(s["rss_kb"]) for s in warm]
fds = [int(s["fds"]) for s in warm]
growth_mb = (rss[-1] - rss[0]) / 1024
peak_growth_mb = (max(rss) - rss[0]) / 1024

latencies = {}
for row in csv.DictReader(open(f"{out}/timeline.csv")):
    if row["latency_ms"]:
        latencies.setdefault(int(row["index"]) // 10000, []).append(float(row["latency_ms"]))

def percentile(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]

frames = report["frames"]
lines = [
    f"frames: decoded {frames['decoded']}, output {frames['output']}, dropped {sum(frames['dropped'].values())} "
    f"{frames['dropped']}; duration {report['duration_s']:.0f} s",
    f"analysis: " + ", ".join(f"{k} completed {v['completed']} skipped {v['skipped']}" for k, v in report["analysis"].items()),
    f"RSS after warm-up: {rss[0] / 1024:.1f} MB -> {rss[-1] / 1024:.1f} MB at the end (growth {growth_mb:+.2f} MB, "
    f"largest {peak_growth_mb:+.2f} MB); peak RSS {report.get('peak_rss_mb', 0):.1f} MB",
    f"open descriptors after warm-up: {fds[0]} -> {fds[-1]} (min {min(fds)}, max {max(fds)})",
    "latency per 10 000 frames (ms, p50 / p99 / max):",
]
first_p99 = None
worst_ratio = 0
for window in sorted(latencies):
    values = latencies[window]
    p50, p99 = percentile(values, 50), percentile(values, 99)
    first_p99 = first_p99 or p99
    worst_ratio = max(worst_ratio, p99 / first_p99 if first_p99 else 0)
    lines.append(
        f"  frames {window * 10000:>6}-{window * 10000 + 9999:<6} ({len(values)} output) "
        f"{p50:6.2f} / {p99:6.2f} / {max(values):7.2f}")
summary = "\n".join(lines)
open(f"{out}/summary.txt", "w").write(summary + "\n")
print(summary)
failures = []
if growth_mb >= 5:
    failures.append(f"RSS grew {growth_mb:.2f} MB after warm-up (limit 5 MB)")
if fds[-1] > fds[0]:
    failures.append(f"descriptors grew from {fds[0]} to {fds[-1]}")
if worst_ratio > 2:
    failures.append(f"a window's latency p99 is {worst_ratio:.1f}× the first window's")
if failures:
    print("soak: FAILED: " + "; ".join(failures))
    sys.exit(1)
print("soak: passed")
EOF
