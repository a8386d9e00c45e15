#!/usr/bin/env python3
"""The sign reader's cost on its own (the reader-on/off ratio): interleaved runs of streamlens builds reading
signs on the dashcam clip, and of the first build without the reader.

    python3 Benchmarks/reader_on_off.py ROUNDS NAME=BINARY ...

Each round runs every build with `--speed-limits eu`, then the first build with `--speed-limits off`, all with
`--output null` (no encoder: the reader's share is not diluted by x264). Per build: median wall and CPU (user +
system), peak RSS range (/usr/bin/time %M), the reader lane's CPU from the report (stage_details.analysis_cpu_ms), and
the paired on/off ratios (median over rounds of each round's own ratio). The clip is
.media-cache/media/bikes-1080p.mp4 (or $DASHCAM_CLIP).
"""
import json
import os
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CLIP = os.environ.get("DASHCAM_CLIP", os.path.join(ROOT, ".media-cache", "media", "bikes-1080p.mp4"))


def run(binary, mode, folder):
    report = os.path.join(folder, "report.json")
    timing = os.path.join(folder, "time.txt")
    done = subprocess.run(["/usr/bin/time", "-f", "%e %U %S %M", "-o", timing, binary, "run", "--input", CLIP,
                           "--quiet", "--output", "null", "--speed-limits", mode, "--report", report],
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    if done.returncode:
        sys.exit(f"{binary} failed: {done.stderr.decode()[-500:]}")
    wall, user, system, rss = open(timing).read().split()[-4:]
    lane = json.load(open(report)).get("stage_details", {}).get("analysis_cpu_ms", {}).get("speed_limit", 0)
    return float(wall), float(user) + float(system), int(rss) / 1024, lane


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    rounds = int(sys.argv[1])
    builds = [spec.split("=", 1) for spec in sys.argv[2:]]
    runs = {name: [] for name, _ in builds}
    runs["off"] = []
    with tempfile.TemporaryDirectory() as folder:
        for _ in range(rounds):
            for name, binary in builds:
                runs[name].append(run(binary, "eu", folder))
            runs["off"].append(run(builds[0][1], "off", folder))
    print(f"{rounds} rounds, clip {os.path.basename(CLIP)}, load {os.getloadavg()[0]:.1f}")
    for name, measured in runs.items():
        print(f"{name:10s} wall {statistics.median(m[0] for m in measured):5.2f} s  "
              f"cpu {statistics.median(m[1] for m in measured):5.2f} s  "
              f"peak RSS {min(m[2] for m in measured):4.0f}-{max(m[2] for m in measured):4.0f} MiB  "
              f"reader lane {statistics.median(m[3] for m in measured):5.0f} ms")
    for name, _ in builds:
        pairs = list(zip(runs[name], runs["off"]))
        print(f"{name:10s} on/off wall {statistics.median(a[0] / b[0] for a, b in pairs):.2f}  "
              f"cpu {statistics.median(a[1] / b[1] for a, b in pairs):.2f}")


if __name__ == "__main__":
    main()
