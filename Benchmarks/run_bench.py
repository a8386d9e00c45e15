#!/usr/bin/env python3
"""Side-by-side benchmarks: StreamLens against its peers (gst-launch-1.0, FFmpeg) on the same clip, interleaved in
one run, reporting medians and ratios (absolute times on shared 2-core machines are noise; ratios are signal).

Usage: Benchmarks/run_bench.py [--runs N] [--only NAME[,NAME]] [--markdown]
Needs: a release build (`swift build -c release --product streamlens --static-swift-stdlib`, as scripts/demo.sh
builds it; the plugin job also `swift build -c release --product gststreamlens`) and the media (scripts/datasets/fetch-media.sh).
"""
import argparse, os, statistics, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MEDIA = os.environ.get("STREAMLENS_MEDIA", os.path.join(ROOT, ".media-cache", "media"))
STREAMLENS = os.path.join(ROOT, ".build", "release", "streamlens")
# The folder holding the release libgststreamlens.so (swift build -c release --product gststreamlens).
PLUGIN_DIR = os.path.join(ROOT, ".build", "release")
CLIP = os.path.join(MEDIA, "bikes-1080p.mp4")


def measure(command, env=None):
    """Wall seconds, peak RSS (MiB) and CPU seconds (user + system) of one command, from GNU time."""
    with tempfile.NamedTemporaryFile("r", suffix=".time") as timing:
        start = time.monotonic()
        result = subprocess.run(["/usr/bin/time", "-f", "%M %U %S", "-o", timing.name] + command,
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
        wall = time.monotonic() - start
        if result.returncode != 0:
            sys.exit(f"bench: command failed ({result.returncode}): {' '.join(command)}\n{result.stderr.decode()[-2000:]}")
        rss_kib, user, system = timing.read().strip().splitlines()[-1].split()
    return wall, int(rss_kib) / 1024, float(user) + float(system)


def gst(pipeline):
    return ["gst-launch-1.0", "-q"] + pipeline.split()


def jobs(tmp):
    # The peer named in the issue (one streaming thread: demux, parse, decode), and the same decode graph StreamLens
    # builds (uridecodebin: a multiqueue puts the decoder on its own thread) so StreamLens's own overhead shows.
    decode = f"filesrc location={CLIP} ! qtdemux ! h264parse ! avdec_h264"
    uridecode = f"uridecodebin uri=file://{CLIP} ! videoconvert"
    x264 = "x264enc speed-preset=ultrafast ! mp4mux ! filesink location="
    logo = os.path.join(MEDIA, "overlays", "gtk-logo.webm")
    sign_clip = os.path.join(MEDIA, "bikes-1080p.mp4")
    overlays = [(1200, 300, 384), (100, 100, 128), (1600, 800, 160)]
    ffmpeg_inputs = []
    for _ in overlays:
        ffmpeg_inputs += ["-stream_loop", "-1", "-c:v", "libvpx-vp9", "-i", logo]
    chain, previous = [], "0:v"
    for index, (x, y, size) in enumerate(overlays, start=1):
        chain.append(f"[{index}:v]scale={size}:{size}[o{index}]")
        chain.append(f"[{previous}][o{index}]overlay={x}:{y}:shortest=1[v{index}]")
        previous = f"v{index}"
    return {
        "overlay": [
            ("streamlens", [STREAMLENS, "run", "--input", CLIP, "--quiet",
                            "--output", f"{x264}{tmp}/sl-overlay.mp4"]
             + [arg for x, y, size in overlays for arg in ("--overlay", f"{logo}@{x},{y},{size},{size}")]),
            ("ffmpeg overlay", ["ffmpeg", "-v", "error", "-y", "-i", CLIP] + ffmpeg_inputs
             + ["-filter_complex", ";".join(chain), "-map", f"[{previous}]", "-c:v", "libx264", "-preset", "ultrafast",
                f"{tmp}/ff-overlay.mp4"]),
            ("gst-launch decode→encode, no overlays", gst(f"{decode} ! {x264}{tmp}/gst-plain.mp4")),
        ],
        "signs": [
            ("streamlens", [STREAMLENS, "run", "--input", sign_clip, "--output", "null", "--quiet",
                            "--speed-limits", "eu"]),
            ("streamlens without the sign reader", [STREAMLENS, "run", "--input", sign_clip, "--output", "null",
                                                    "--quiet"]),
        ],
        "statistics": [
            ("streamlens", [STREAMLENS, "run", "--input", CLIP, "--output", "null", "--quiet"]),
            ("streamlens --no-statistics", [STREAMLENS, "run", "--input", CLIP, "--output", "null", "--quiet",
                                            "--no-statistics"]),
        ],
        "detection": [
            ("streamlens", [STREAMLENS, "run", "--input", CLIP, "--quiet", "--output", f"{x264}{tmp}/sl-det.mp4",
                            "--detector", "hog", "--report", f"{tmp}/det-report.json"]),
            # Same drawing stage (and so the same per-frame copy) without a detector: the difference is detection.
            ("streamlens without detection", [STREAMLENS, "run", "--input", CLIP, "--quiet",
                                              "--output", f"{x264}{tmp}/sl-nodet.mp4", "--annotate", "boxes,labels"]),
        ],
        # The same job as GStreamer elements in a gst-launch pipeline (issue 11): detection waits for its thread on a
        # file (sync-analysis=on) exactly as the command line does, and the same annotator draws boxes and labels.
        "plugin": [
            ("streamlens", [STREAMLENS, "run", "--input", CLIP, "--quiet", "--output", f"{x264}{tmp}/sl-cli.mp4",
                            "--detector", "hog"]),
            # The command line's threads as queues: the decoder runs ahead by up to 3 frames (its frame pool), and the
            # encoder has a thread of its own (its appsrc).
            ("gst-launch + streamlens elements",
             ["env", f"GST_PLUGIN_PATH={PLUGIN_DIR}"]
             + gst(f"filesrc location={CLIP} ! decodebin ! queue max-size-buffers=3 ! videoconvert "
                   f"! video/x-raw,format=I420 ! streamlensdetect detector=hog sync-analysis=on ! streamlensannotate "
                   f"! queue ! {x264}{tmp}/gst-el.mp4")),
            ("gst-launch + streamlens elements, no queues",
             ["env", f"GST_PLUGIN_PATH={PLUGIN_DIR}"]
             + gst(f"filesrc location={CLIP} ! decodebin ! videoconvert ! video/x-raw,format=I420 "
                   f"! streamlensdetect detector=hog sync-analysis=on ! streamlensannotate "
                   f"! {x264}{tmp}/gst-el-nq.mp4")),
        ],
        # The whole dashcam job of issue 13 against the bare decode → encode of the same clip: sign reading and HOG
        # people detection drawn on every frame, frame-accurate (--sync-analysis, on by default for files) and not.
        "dashcam": [
            ("streamlens", [STREAMLENS, "run", "--input", CLIP, "--quiet", "--output", f"{tmp}/sl-dashcam.mp4",
                            "--speed-limits", "eu", "--detector", "hog", "--report", f"{tmp}/dashcam-report.json"]),
            ("gst-launch decode→x264", gst(f"{decode} ! {x264}{tmp}/gst-dashcam.mp4")),
            ("streamlens --sync-analysis off", [STREAMLENS, "run", "--input", CLIP, "--quiet",
                                                "--output", f"{tmp}/sl-dashcam-nosync.mp4", "--speed-limits", "eu",
                                                "--detector", "hog", "--sync-analysis", "off"]),
        ],
        "passthrough": [
            ("streamlens", [STREAMLENS, "run", "--input", CLIP, "--output", "null", "--quiet"]),
            ("gst-launch", gst(f"{decode} ! fakesink sync=false")),
            ("gst-launch uridecodebin", gst(f"{uridecode} ! fakesink sync=false")),
        ],
        "x264": [
            ("streamlens", [STREAMLENS, "run", "--input", CLIP, "--output", f"{x264}{tmp}/sl.mp4", "--quiet"]),
            ("gst-launch", gst(f"{decode} ! {x264}{tmp}/gst.mp4")),
            ("gst-launch uridecodebin+queue", gst(f"{uridecode} ! queue ! {x264}{tmp}/gstq.mp4")),
        ],
    }


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--only", default="")
    arguments = parser.parse_args()
    for path in (STREAMLENS, CLIP):
        if not os.path.exists(path):
            sys.exit(f"bench: missing {path}; run `swift build -c release` and scripts/datasets/fetch-media.sh")
    with tempfile.TemporaryDirectory() as tmp:
        selected = {name: job for name, job in jobs(tmp).items()
                    if not arguments.only or name in arguments.only.split(",")}
        if "plugin" in selected:
            if not os.path.exists(os.path.join(PLUGIN_DIR, "libgststreamlens.so")):
                sys.exit("bench: no libgststreamlens.so; run `swift build -c release --product gststreamlens`")
            # Let GStreamer scan the plugin folder once, before anything is timed.
            subprocess.run(["env", f"GST_PLUGIN_PATH={PLUGIN_DIR}", "gst-inspect-1.0", "streamlens"],
                           stdout=subprocess.DEVNULL, check=True)
        results = {name: {runner: [] for runner, _ in job} for name, job in selected.items()}
        for _ in range(arguments.runs):  # interleaved: each round runs every command once
            for name, job in selected.items():
                for runner, command in job:
                    results[name][runner].append(measure(command))
        print(f"clip: {os.path.basename(CLIP)}, {arguments.runs} interleaved runs, medians")
        print("| job | peer | wall s streamlens / peer | wall ratio | paired wall ratio | CPU s streamlens / peer | CPU ratio | peak RSS MiB streamlens / peer |")
        print("|---|---|---|---|---|---|---|---|")
        for name, by_runner in results.items():
            mine = by_runner["streamlens"]
            for runner, theirs in by_runner.items():
                if runner == "streamlens":
                    continue
                wall_mine = statistics.median(w for w, _, _ in mine)
                wall_theirs = statistics.median(w for w, _, _ in theirs)
                cpu_mine = statistics.median(c for _, _, c in mine)
                cpu_theirs = statistics.median(c for _, _, c in theirs)
                # The median of each round's own ratio: commands of one round ran seconds apart, so a machine whose
                # load drifts between rounds disturbs this less than the ratio of medians.
                paired = statistics.median(m[0] / t[0] for m, t in zip(mine, theirs))
                print(f"| {name} | {runner} | {wall_mine:.2f} / {wall_theirs:.2f} | {wall_mine / wall_theirs:.3f} | {paired:.3f} | "
                      f"{cpu_mine:.2f} / {cpu_theirs:.2f} | {cpu_mine / cpu_theirs:.3f} | "
                      f"{max(r for _, r, _ in mine):.0f} / {max(r for _, r, _ in theirs):.0f} |")
        if "dashcam" in results:
            import json
            with open(os.path.join(tmp, "dashcam-report.json")) as file:
                report = json.load(file)
            lags = {name: stage.get("drawn_lag_ms") for name, stage in report["analysis"].items()}
            print("\ndashcam (last streamlens run): sync " + str(report["run"].get("sync_analysis")) + "; "
                  + "; ".join(f"{name}: {stage['completed']} analysed, drawn lag p50 {lag['p50']:.0f} ms, "
                              f"p95 {lag['p95']:.0f} ms" for name, stage in report["analysis"].items()
                              for lag in [lags[name]] if lag)
                  + "; analysis CPU ms " + json.dumps(report.get("stage_details", {}).get("analysis_cpu_ms")))
        if "detection" in results:
            seconds, stage = detector_time(tmp)
            with_detection = statistics.median(c for _, _, c in results["detection"]["streamlens"])
            without = statistics.median(c for _, _, c in results["detection"]["streamlens without detection"])
            extra = with_detection - without
            print(f"\ndetection: {stage['analysed_frames']} frames analysed, inference median "
                  f"{stage['inference_median_ms']:.1f} ms, p95 {stage['inference_p95_ms']:.1f} ms; detector CPU "
                  f"{seconds:.2f} s; CPU added by detection {extra:.2f} s → overhead beyond the detector "
                  f"{(extra - seconds) / seconds * 100:+.1f} %")


def detector_time(tmp):
    """CPU seconds the detector's analysis thread spent (OpenCV runs single-threaded), from the last report."""
    import json
    with open(os.path.join(tmp, "det-report.json")) as report:
        details = json.load(report)["stage_details"]
    return details["analysis_cpu_ms"]["objects"] / 1000, details["objects"]["stage"]


if __name__ == "__main__":
    main()
