#!/usr/bin/env python3
"""Interleaved before/after comparison of streamlens builds on the whole dashcam job.

    python3 Benchmarks/compare_builds.py ROUNDS NAME=BINARY[:EXTRA ARGS] ...

Each round runs every build, then bare gst-launch decode→x264 of the same clip, one after the other, so that load
changes on the shared machine hit all of them alike. Per build: median wall and CPU (user + system), peak RSS range
(/usr/bin/time %M), and the paired ratios (median over rounds of each round's own build/gst-launch ratio). EXTRA ARGS
may start with NAME=VALUE environment settings. The clip is .media-cache/media/bikes-1080p.mp4 (or $DASHCAM_CLIP; a
clip that is not an mp4 is decoded by gst-launch's decodebin).
"""
import os
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CLIP = os.environ.get("DASHCAM_CLIP", os.path.join(ROOT, ".media-cache", "media", "bikes-1080p.mp4"))


def commands(specs, out):
    builds = {}
    for spec in specs:
        name, rest = spec.split("=", 1)
        binary, _, extra_text = rest.partition(":")
        extra = extra_text.split()
        env = {}
        while extra and "=" in extra[0] and extra[0].split("=")[0].isupper():
            key, value = extra.pop(0).split("=", 1)
            env[key] = value
        builds[name] = (env, [binary, "run", "--input", CLIP, "--quiet", "--output", f"{out}/{name}.mp4",
                              "--speed-limits", "eu", "--detector", "hog"] + extra)
    # An H.264 mp4 is demuxed and decoded as the dashcam clip is; anything else (vtest.avi) through decodebin.
    decode = (["qtdemux", "!", "h264parse", "!", "avdec_h264"] if CLIP.endswith(".mp4")
              else ["decodebin", "!", "videoconvert"])
    builds["gst"] = ({}, ["gst-launch-1.0", "-q", "filesrc", f"location={CLIP}", "!"] + decode
                     + ["!", "x264enc", "speed-preset=ultrafast", "!", "mp4mux", "!", "filesink",
                        f"location={out}/gst.mp4"])
    return builds


def run(env, command):
    with tempfile.NamedTemporaryFile("r") as timing:
        start = time.monotonic()
        done = subprocess.run(["/usr/bin/time", "-f", "%M %U %S", "-o", timing.name] + command,
                              env={**os.environ, **env}, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        wall = time.monotonic() - start
        if done.returncode:
            sys.exit(f"{command[0]} failed: {done.stderr.decode()[-500:]}")
        rss, user, system = timing.read().split()[-3:]
    return wall, float(user) + float(system), int(rss) / 1024


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    rounds = int(sys.argv[1])
    with tempfile.TemporaryDirectory() as out:
        builds = commands(sys.argv[2:], out)
        results = {name: [] for name in builds}
        loads = []
        for _ in range(rounds):
            loads.append(os.getloadavg()[0])
            for name, (env, command) in builds.items():
                results[name].append(run(env, command))
    print(f"{rounds} rounds, load {min(loads):.1f}-{max(loads):.1f}, clip {os.path.basename(CLIP)}")
    gst = results["gst"]
    for name, values in results.items():
        wall = statistics.median(v[0] for v in values)
        cpu = statistics.median(v[1] for v in values)
        rss = [v[2] for v in values]
        paired_wall = statistics.median(a[0] / b[0] for a, b in zip(values, gst))
        paired_cpu = statistics.median(a[1] / b[1] for a, b in zip(values, gst))
        print(f"{name:12s} wall {wall:6.2f} s  cpu {cpu:6.2f} s  peak RSS {min(rss):4.0f}-{max(rss):4.0f} MiB  "
              f"wall/gst {paired_wall:.3f}  cpu/gst {paired_cpu:.3f}")


if __name__ == "__main__":
    main()
