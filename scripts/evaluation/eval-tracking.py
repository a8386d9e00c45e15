#!/usr/bin/env python3
"""Runs supervision's ByteTrack on MOTChallenge detections and scores trackers with py-motmetrics.

    eval-tracking.py detections-from-result RESULT OUT   a tracker result's boxes, ids removed, as detections
    eval-tracking.py score WORK --clips NAME... --sequences NAME=GT...
    eval-tracking.py run-stats EVENTS DURATION           ids per minute and track lengths of a run's events file

`score` reads WORK/NAME.det.txt (detections, class id in column 8) and WORK/NAME.streamlens.txt (our tracks), runs
sv.ByteTrack on the same detections (WORK/NAME.supervision.txt) and prints one Markdown table per kind of
comparison. Called by scripts/evaluation/eval-tracking.sh, which says what each figure means.
"""
import argparse
import collections
import os
import statistics
import sys
import warnings

import motmetrics as mm
import numpy as np

# Only its tracker is used: supervision's drawing backend (OpenCV) is not needed, nor installed.
warnings.filterwarnings("ignore", message=".*opencv-python.*")
# Its ByteTrack is deprecated (moved to another package from 0.31 on) but is the one PyPI's supervision ships.
warnings.filterwarnings("ignore", category=FutureWarning)
import supervision as sv  # noqa: E402

# The thresholds both trackers use: `--confidence` 0.5 starts tracks, boxes from the tracking floor 0.1 continue them;
# a track lost for more than 5 analysed frames ends (max_missed 5); a track is shown from its 2nd sighting.
CONFIDENCE = 0.5
LOST_FRAMES = 5
CONFIRM = 2


def read_detections(path):
    frames = collections.defaultdict(list)
    with open(path) as file:
        for line in file:
            fields = [float(value) for value in line.strip().split(",")]
            frames[int(fields[0])].append((fields[2], fields[3], fields[4], fields[5], fields[6], int(fields[7])))
    return frames


def run_supervision(detections_path, out_path, per_class=False):
    """sv.ByteTrack over the detections; it matches boxes whatever their class, so with `per_class` each class gets
    a tracker of its own (ids kept apart), which is what class-consistent matching amounts to."""
    frames = read_detections(detections_path)
    trackers = {}

    def tracker_for(key):
        # lost_track_buffer counts frames at frame_rate 30 (its buffer is frame_rate / 30 · lost_track_buffer): one
        # call per analysed frame, so 5 frames is our 5 analyses. Its second round takes boxes above 0.1, as ours.
        if key not in trackers:
            trackers[key] = sv.ByteTrack(
                track_activation_threshold=CONFIDENCE, lost_track_buffer=LOST_FRAMES, minimum_matching_threshold=0.8,
                frame_rate=30, minimum_consecutive_frames=CONFIRM)
        return trackers[key]

    lines = []
    classes = sorted({box[5] for boxes in frames.values() for box in boxes}) if per_class else [None]
    for frame in range(1, max(frames) + 1 if frames else 1):
        if frame not in frames:
            continue
        for key in classes:
            boxes = [box for box in frames[frame] if key is None or box[5] == key]
            xyxy = np.array([[x, y, x + w, y + h] for x, y, w, h, _, _ in boxes], dtype=float).reshape(-1, 4)
            detections = sv.Detections(
                xyxy=xyxy, confidence=np.array([b[4] for b in boxes], dtype=float),
                class_id=np.array([max(b[5], 0) for b in boxes], dtype=int))
            tracked = tracker_for(key).update_with_detections(detections)
            offset = 0 if key is None else (key + 1) * 100_000
            for (x1, y1, x2, y2), track_id, score in zip(tracked.xyxy, tracked.tracker_id, tracked.confidence):
                lines.append(f"{frame},{offset + int(track_id)},{x1:.2f},{y1:.2f},{x2 - x1:.2f},{y2 - y1:.2f},"
                             f"{score:.4f},-1,-1,-1\n")
    with open(out_path, "w") as file:
        file.writelines(lines)


def load(path, reference):
    # Ground truth keeps only its rows marked as counted (confidence 1); tracker outputs keep every row.
    return mm.io.loadtxt(path, fmt="mot15-2D", min_confidence=1 if reference == "gt" else -1)


def track_stats(path, seconds):
    lengths = collections.Counter()
    with open(path) as file:
        for line in file:
            lengths[int(line.split(",")[1])] += 1
    ids = len(lengths)
    return ids, ids / (seconds / 60), statistics.median(lengths.values()) if lengths else 0


def score(reference, hypothesis, name, reference_kind):
    accumulator = mm.utils.compare_to_groundtruth(load(reference, reference_kind), load(hypothesis, "tracker"), "iou", distth=0.5)
    metrics = mm.metrics.create().compute(
        accumulator, metrics=["mota", "idf1", "num_switches", "num_fragmentations", "num_unique_objects"], name=name)
    return metrics.iloc[0]


def main():
    parser = argparse.ArgumentParser()
    commands = parser.add_subparsers(dest="command", required=True)
    convert = commands.add_parser("detections-from-result")
    convert.add_argument("result")
    convert.add_argument("out")
    scoring = commands.add_parser("score")
    scoring.add_argument("work")
    scoring.add_argument("--clips", nargs="*", default=[])
    scoring.add_argument("--sequences", nargs="*", default=[])
    stats = commands.add_parser("run-stats")
    stats.add_argument("events")
    stats.add_argument("duration", type=float, help="the clip's length in seconds")
    arguments = parser.parse_args()

    if arguments.command == "run-stats":
        # From the `detection` lines: every shown track's sightings (analysed frames) and time span.
        import json
        seen = collections.defaultdict(list)
        with open(arguments.events) as file:
            for line in file:
                event = json.loads(line)
                if event["type"] == "detection" and "track_id" in event:
                    seen[event["track_id"]].append(event["start"])
        sightings = [len(times) for times in seen.values()]
        spans = [max(times) - min(times) for times in seen.values()]
        print(f"{len(seen)} ids, {len(seen) / (arguments.duration / 60):.1f} per minute, median "
              f"{statistics.median(sightings):g} analysed frames ({statistics.median(spans):.1f} s)")
        return

    if arguments.command == "detections-from-result":
        with open(arguments.result) as source, open(arguments.out, "w") as out:
            for line in source:
                fields = line.strip().split(",")
                # The result's confidence column is -1 (none): every box counts as confident; no class.
                out.write(f"{fields[0]},-1,{fields[2]},{fields[3]},{fields[4]},{fields[5]},1,-1,-1,-1\n")
        return

    work = arguments.work
    print("| clip (detections) | tracker | ids | ids per minute | median track length (analysed frames) "
          "| id switches against the other | fragmentations against the other |")
    print("|---|---|---|---|---|---|---|")
    for clip in arguments.clips:
        detections = os.path.join(work, f"{clip}.det.txt")
        ours = os.path.join(work, f"{clip}.streamlens.txt")
        frames = read_detections(detections)
        seconds = (max(frames) - 1) / 10 if frames else 1
        per_class_needed = len({box[5] for boxes in frames.values() for box in boxes}) > 1
        for per_class in (False, True) if per_class_needed else (False,):
            theirs = os.path.join(work, f"{clip}.supervision{'-per-class' if per_class else ''}.txt")
            run_supervision(detections, theirs, per_class)
            label = "supervision ByteTrack" + (", one per class" if per_class else "")
            ours_vs_theirs = score(theirs, ours, clip, "tracker")
            theirs_vs_ours = score(ours, theirs, clip, "tracker")
            for name, path, metrics in (("StreamLens", ours, ours_vs_theirs), (label, theirs, theirs_vs_ours)):
                ids, per_minute, median = track_stats(path, seconds)
                against = f" (against {label})" if name == "StreamLens" and per_class_needed else ""
                print(f"| {clip} | {name}{against} | {ids} | {per_minute:.1f} | {median:g} "
                      f"| {int(metrics.num_switches)} | {int(metrics.num_fragmentations)} |")
    if arguments.sequences:
        print()
        print("| sequence (MOT15 ground truth) | tracker | MOTA | IDF1 | id switches | fragmentations |")
        print("|---|---|---|---|---|---|")
    for entry in arguments.sequences:
        name, gt = entry.split("=", 1)
        detections = os.path.join(work, f"{name}.det.txt")
        ours = os.path.join(work, f"{name}.streamlens.txt")
        theirs = os.path.join(work, f"{name}.supervision.txt")
        run_supervision(detections, theirs)
        for label, path in (("StreamLens", ours), ("supervision ByteTrack", theirs)):
            metrics = score(gt, path, name, "gt")
            print(f"| {name} | {label} | {metrics.mota:.3f} | {metrics.idf1:.3f} | {int(metrics.num_switches)} "
                  f"| {int(metrics.num_fragmentations)} |")


if __name__ == "__main__":
    sys.exit(main())
