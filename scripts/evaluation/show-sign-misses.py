#!/usr/bin/env python3
"""Pictures of the signs an accuracy run missed or misread: a page to look at, not a figure.

Usage: scripts/evaluation/show-sign-misses.py SET_FOLDER RUN_LOG OUTPUT_FOLDER [--sheet]

  SET_FOLDER     a sign set's clip folder, the one holding testset.json and the raw I420 clips (a generated set such as
                 .media-cache/us-sign-testset, or a real-photo set's clips/heldout)
  RUN_LOG        the output of its accuracy test (SpeedLimitRealPhotoTests, SpeedLimitAccuracyTests,
                 UsSpeedLimitAccuracyTests), whose lines "  <clip>: missed [...] unmatched events [...]" name the misses
  OUTPUT_FOLDER  gets index.html and one PNG per missed sign: the sign cut from the clip at a third of its way, at
                 two thirds and where it is largest, with a margin of half its size, enlarged to at least 96 px high
  --sheet        also writes sheet.png: those rows stacked, one missed clip per row in the page's order

Write the pages outside the repository: the real-photo sets' pixels must not be committed (MEDIA.md), and the
generated sets' signs stand on frames of footage we did not make.
Run it with the sign sets' Python environment (numpy and Pillow, made by any scripts/datasets/make-*-sign-set.sh):
  .media-cache/venv-signs/bin/python scripts/evaluation/show-sign-misses.py …
"""
import html
import json
import os
import re
import sys

import numpy
from PIL import Image

from i420 import i420_to_rgb  # this folder (python puts the script's own folder on the path)

# "  <clip>: missed [...] unmatched events [...]" (real-photo sets) or "<clip>: missed [...] false [...]" (generated
# sets; the first after "US set: " or "EU set: ").
MISS_LINE = re.compile(r"^(?:\s+|.*: )?(\w+): missed \[(.*)\] (?:unmatched events|false) \[(.*)\]\s*$")
SMALLEST_SHOWN_HEIGHT = 96


def fail(message):
    print(f"show-sign-misses: {message}", file=sys.stderr)
    sys.exit(1)


def misses_in(log_path):
    """Clip name -> (missed signs, unmatched events), as the run printed them."""
    misses = {}
    with open(log_path, encoding="utf-8", errors="replace") as log:
        for line in log:
            match = MISS_LINE.match(line)
            if match and (match.group(2) or match.group(3)):
                misses[match.group(1)] = (match.group(2), match.group(3))
    return misses


def read_frame(path, width, height, index):
    """Frame `index` of a raw I420 clip as an RGB array, or None past its end."""
    frame_bytes = width * height + 2 * ((width + 1) // 2) * ((height + 1) // 2)
    with open(path, "rb") as clip:
        clip.seek(index * frame_bytes)
        data = clip.read(frame_bytes)
    return i420_to_rgb(data, width, height) if len(data) == frame_bytes else None


def cut_out(frame, box):
    """The box (x, y, width, height) with a margin of half its size, enlarged by a whole factor to be seen."""
    x, y, w, h = box
    margin = max(w, h) // 2
    top, bottom = max(0, y - margin), min(frame.shape[0], y + h + margin)
    left, right = max(0, x - margin), min(frame.shape[1], x + w + margin)
    picture = frame[top:bottom, left:right]
    factor = max(1, -(-SMALLEST_SHOWN_HEIGHT // max(1, picture.shape[0])))
    return picture.repeat(factor, axis=0).repeat(factor, axis=1)


def side_by_side(pictures):
    height = max(p.shape[0] for p in pictures)
    gap = numpy.full((height, 8, 3), 255, dtype=numpy.uint8)
    padded = []
    for picture in pictures:
        below = numpy.full((height - picture.shape[0], picture.shape[1], 3), 255, dtype=numpy.uint8)
        padded += [numpy.vstack([picture, below]), gap]
    return numpy.hstack(padded[:-1])


def write_png(path, rgb):
    Image.fromarray(rgb, "RGB").save(path)


def main():
    arguments = [argument for argument in sys.argv[1:] if argument != "--sheet"]
    writes_sheet = len(arguments) < len(sys.argv) - 1
    if len(arguments) != 3:
        fail("usage: show-sign-misses.py SET_FOLDER RUN_LOG OUTPUT_FOLDER [--sheet]")
    set_folder, log_path, output = arguments
    manifest_path = os.path.join(set_folder, "testset.json")
    if not os.path.isfile(manifest_path):
        fail(f"no testset.json in {set_folder}: give the folder of a set's clips")
    if not os.path.isfile(log_path):
        fail(f"no run log at {log_path}")
    with open(manifest_path, encoding="utf-8") as manifest_file:
        clips = {clip["name"]: clip for clip in json.load(manifest_file)["clips"]}
    misses = misses_in(log_path)
    if not misses:
        fail(f"{log_path} names no missed or misread sign (lines '<clip>: missed [...] unmatched events [...]')")
    os.makedirs(output, exist_ok=True)
    rows = []
    sheet_rows = []
    for name, (missed, unmatched) in sorted(misses.items()):
        clip = clips.get(name)
        if clip is None:
            rows.append(f"<tr><td>{html.escape(name)}</td><td colspan=2>not in this set's testset.json</td></tr>")
            continue
        path = os.path.join(set_folder, clip["file"])
        pictures = []
        for sign in clip.get("signs", []):
            boxes = sign["boxes"]
            largest = max(boxes, key=lambda box: box[3] * box[4])
            for frame_index, *box in (boxes[len(boxes) // 3], boxes[2 * len(boxes) // 3], largest):
                frame = read_frame(path, clip["width"], clip["height"], frame_index)
                if frame is not None:
                    pictures.append(cut_out(frame, box))
        picture_cell = "no sign box in the manifest"
        if pictures:
            sheet_rows.append(side_by_side(pictures))
            write_png(os.path.join(output, name + ".png"), sheet_rows[-1])
            picture_cell = f'<img src="{html.escape(name)}.png" alt="{html.escape(name)}">'
        verdict = f"missed {html.escape(missed)}" + (f"<br>events not matched: {html.escape(unmatched)}" if unmatched else "")
        rows.append(f"<tr><td>{html.escape(name)}</td><td>{verdict}</td><td>{picture_cell}</td></tr>")
    with open(os.path.join(output, "index.html"), "w", encoding="utf-8") as page:
        page.write(
            "<!doctype html><meta charset=utf-8><title>Signs missed</title>"
            "<style>body{font-family:sans-serif}td{padding:4px 8px;vertical-align:top}</style>"
            f"<h1>{len(misses)} clips with a sign missed or misread</h1>"
            f"<p>Set {html.escape(os.path.abspath(set_folder))}, run log {html.escape(os.path.abspath(log_path))}. "
            "Each picture: the sign a third of its way in, two thirds in, and where it is largest.</p>"
            "<table>" + "".join(rows) + "</table>")
    if writes_sheet and sheet_rows:
        width = max(row.shape[1] for row in sheet_rows)
        padded = []
        for row in sheet_rows:
            right = numpy.full((row.shape[0], width - row.shape[1], 3), 255, dtype=numpy.uint8)
            padded += [numpy.hstack([row, right]), numpy.full((8, width, 3), 255, dtype=numpy.uint8)]
        write_png(os.path.join(output, "sheet.png"), numpy.vstack(padded[:-1]))
    print(f"show-sign-misses: {len(misses)} clips, pictures in {os.path.join(output, 'index.html')}")


if __name__ == "__main__":
    main()
