#!/usr/bin/env python3
"""Memory timeline of the dashcam job and of bare gst-launch decode→x264.

    python3 Benchmarks/memory_timeline.py [STREAMLENS_BINARY [EXTRA ARGS...]]

Starts each program, reads /proc/PID/smaps_rollup every 50 ms (RSS, anonymous, file-backed) and, whenever RSS
reaches a new peak, /proc/PID/smaps per mapping (also when file-backed pages do). Prints the timeline (every 0.2 s) and, at each program's peak,
the file-backed pages per library and the anonymous pages by kind: the main heap ([heap]), malloc arenas of other
threads (anonymous mappings inside a 64 MiB-aligned arena reservation), large anonymous mappings (≥ 1 MiB: frame
buffers and other big blocks glibc gives their own mmap), thread stacks and the rest. Then the difference
streamlens − gst-launch per library. The clip is .media-cache/media/bikes-1080p.mp4 (or $DASHCAM_CLIP).
"""
import collections
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CLIP = os.environ.get("DASHCAM_CLIP", os.path.join(ROOT, ".media-cache", "media", "bikes-1080p.mp4"))
ARENA = 64 << 20


def rollup(pid):
    values = {}
    with open(f"/proc/{pid}/smaps_rollup") as text:
        for line in text:
            parts = line.split()
            if len(parts) >= 3 and parts[2] == "kB":
                values[parts[0].rstrip(":")] = int(parts[1]) / 1024
    return values


def mappings(pid):
    """(start, end, name, rss MiB, anonymous MiB) per mapping."""
    result = []
    current = None
    with open(f"/proc/{pid}/smaps") as text:
        for line in text:
            first = line.split(maxsplit=5)
            if "-" in first[0] and not first[0].endswith(":"):
                start, end = (int(x, 16) for x in first[0].split("-"))
                name = first[5].strip() if len(first) > 5 else ""
                current = [start, end, name, 0.0, 0.0]
                result.append(current)
            elif first[0] == "Rss:":
                current[3] = int(first[1]) / 1024
            elif first[0] == "Anonymous:":
                current[4] = int(first[1]) / 1024
    return result


def classify(maps):
    """MiB per kind: file-backed per library (basename), anonymous per kind."""
    files = collections.Counter()
    anon = collections.Counter()
    for start, end, name, rss, anonymous in maps:
        if name.startswith("/") and not name.startswith("/dev/") and not name.startswith("/memfd"):
            files[os.path.basename(name).split(".so")[0]] += rss - anonymous
            anon["copy-on-write pages of libraries"] += anonymous
        elif name == "[heap]":
            anon["main heap ([heap])"] += rss
        elif name == "[stack]" or name.startswith("[stack"):
            anon["main stack"] += rss
        elif name == "":
            size = end - start
            if size in (8 << 20, (8 << 20) + 4096) or 8 << 20 <= size <= (8 << 20) + (64 << 10):
                anon["thread stacks"] += rss
            elif start % ARENA == 0 or (start // ARENA) in arena_blocks(maps):
                anon["malloc arenas (threads)"] += rss
            elif size >= 1 << 20:
                anon["large anonymous mmaps (≥1 MiB)"] += rss
            else:
                anon["small anonymous"] += rss
        else:
            anon[name] += rss
    return files, anon


def arena_blocks(maps):
    return {start // ARENA for start, end, name, rss, anonymous in maps if name == "" and start % ARENA == 0}


def sample(command, label):
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    start = time.monotonic()
    timeline, peak, peak_maps, threads = [], 0.0, [], 0  # threads: the most seen at once
    file_peak, file_maps = 0.0, []
    while process.poll() is None:
        try:
            values = rollup(process.pid)
            elapsed = time.monotonic() - start
            rss = values.get("Rss", 0.0)
            timeline.append((elapsed, rss, values.get("Anonymous", 0.0), rss - values.get("Anonymous", 0.0)))
            threads = max(threads, len(os.listdir(f"/proc/{process.pid}/task")))
            # A process that is exiting can show its last RSS but no mappings any more: keep the snapshot before.
            if rss > peak and (maps := mappings(process.pid)):
                peak, peak_maps = rss, maps
            if rss - values.get("Anonymous", 0.0) > file_peak and (maps := mappings(process.pid)):
                file_peak, file_maps = rss - values.get("Anonymous", 0.0), maps
        except (FileNotFoundError, ProcessLookupError, IndexError):
            pass
        time.sleep(0.05)
    print(f"== {label}: exit {process.returncode}, {time.monotonic() - start:.2f} s, peak RSS {peak:.1f} MiB "
          f"(at most {threads} threads)")
    shown = 0.0
    for elapsed, rss, anonymous, file_backed in timeline:
        if elapsed >= shown:
            print(f"  t {elapsed:5.2f}  rss {rss:6.1f}  anon {anonymous:6.1f}  file {file_backed:5.1f}")
            shown += 0.2
    # Anonymous pages at the RSS peak; file-backed pages when most were resident (a loaded machine may drop clean
    # library pages of a process that is tearing down).
    return classify(file_maps)[0], classify(peak_maps)[1]


def main():
    binary = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, ".build", "release", "streamlens")
    extra = sys.argv[2:] or ["--speed-limits", "eu", "--detector", "hog"]
    with tempfile.TemporaryDirectory() as out:
        ours = sample([binary, "run", "--input", CLIP, "--quiet", "--output", f"{out}/s.mp4"] + extra, "streamlens")
        peer = sample(["gst-launch-1.0", "-q", "filesrc", f"location={CLIP}", "!", "qtdemux", "!", "h264parse", "!",
                       "avdec_h264", "!", "x264enc", "speed-preset=ultrafast", "!", "mp4mux", "!", "filesink",
                       f"location={out}/g.mp4"], "gst-launch")
    for title, index in (("anonymous", 1), ("file-backed", 0)):
        a, b = ours[index], peer[index]
        print(f"\n{title} at peak (MiB): streamlens {sum(a.values()):.1f}, gst-launch {sum(b.values()):.1f}")
        for name in sorted(set(a) | set(b), key=lambda n: -(a.get(n, 0) - b.get(n, 0))):
            if abs(a.get(n := name, 0)) >= 0.3 or abs(b.get(n, 0)) >= 0.3:
                print(f"  {name:45s} {a.get(n, 0):7.1f} {b.get(n, 0):7.1f}  {a.get(n, 0) - b.get(n, 0):+7.1f}")


if __name__ == "__main__":
    main()
