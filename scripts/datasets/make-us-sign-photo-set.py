#!/usr/bin/env python3
"""Builds the real-photo set for US "SPEED LIMIT" signs (R2-1) from a fetched copy of a dashcam dataset
(see scripts/datasets/make-us-sign-photo-set.sh and MEDIA.md).

That dataset holds ~890 frames cut from a car's dash camera on US roads, each with one box (YOLO format) around a
speed-limit sign — but not the limit's value. scripts/datasets/data/us-speed-limit-photos.json names the frames used: every
fourth or eighth frame of the dataset's order, read by eye by us (school-zone plates, "SPEED LIMIT 20 WHEN
FLASHING", left out: a conditional limit), each with the frame's sha256. Nearby frames often show the same sign from
a little further on. Nothing here was tuned on: the whole set is held out.

Unlike the European real sets, nothing is pasted: each photograph is the scene, its sign at the size and in the
light the camera saw it. A clip shows the photograph still for 1.04 s (13 frames, 0.08 s apart), the sign's box on
every frame. Output format: that of the other real sets (clips/heldout/testset.json + raw I420), read by
UsSpeedLimitRealPhotoTests.

Usage: make-us-sign-photo-set.py DATASET_GIT_DIR OUTPUT_DIR LABELS_JSON
"""

import hashlib
import io
import json
import os
import subprocess
import sys

import numpy as np
from PIL import Image

from i420 import rgb_to_i420  # this folder (python puts the script's own folder on the path)

GENERATOR_VERSION = 1  # SpeedLimitRealPhotoTests.expectedGeneratorVersion
FRAME_STEP = 0.08
FRAME_COUNT = 13
SIZE_BINS = [(0, 56, "s32to56"), (56, 80, "s56to80"), (80, 110, "s80to110"), (110, 150, "s110to150"),
             (150, 10_000, "s150up")]


def fail(message):
    print(f"make-us-sign-photo-set: {message}", file=sys.stderr)
    sys.exit(1)


def from_git(git_dir, path):
    result = subprocess.run(["git", "--git-dir", git_dir, "show", f"HEAD:{path}"], capture_output=True)
    if result.returncode != 0:
        fail(f"{path} is not in {git_dir}: give the copy MEDIA.md names")
    return result.stdout


def main():
    if len(sys.argv) != 4:
        fail("usage: make-us-sign-photo-set.py DATASET_GIT_DIR OUTPUT_DIR LABELS_JSON")
    git_dir, output, labels_path = sys.argv[1:]
    with open(labels_path, encoding="utf-8") as labels_file:
        labels = json.load(labels_file)
    clips_dir = os.path.join(output, "clips", "heldout")
    os.makedirs(clips_dir, exist_ok=True)
    clips = []
    for index, entry in enumerate(labels):
        data = from_git(git_dir, entry["image"])
        if hashlib.sha256(data).hexdigest() != entry["sha256"]:
            fail(f"{entry['image']} differs from the one labelled (sha256): give the copy MEDIA.md names")
        photo = np.asarray(Image.open(io.BytesIO(data)).convert("RGB"))
        # Even sizes: the reader's frames are I420.
        height, width = photo.shape[0] // 2 * 2, photo.shape[1] // 2 * 2
        photo = photo[:height, :width]
        label_path = entry["image"].replace("images/", "labels/").rsplit(".", 1)[0] + ".txt"
        fields = from_git(git_dir, label_path).decode().split()
        centre_x, centre_y, box_width, box_height = (float(value) for value in fields[1:5])
        box = [round((centre_x - box_width / 2) * width), round((centre_y - box_height / 2) * height),
               round(box_width * width), round(box_height * height)]
        size = max(box[2], box[3])
        size_class = next(name for low, high, name in SIZE_BINS if low <= size < high)
        name = f"us_photo_{index:03d}_{entry['value']}_{size_class}"
        frame = rgb_to_i420(photo)
        with open(os.path.join(clips_dir, name + ".i420"), "wb") as clip:
            for _ in range(FRAME_COUNT):
                clip.write(frame)
        clips.append({
            "name": name, "kind": "sign", "file": name + ".i420", "width": width, "height": height,
            "frameStep": FRAME_STEP, "frameCount": FRAME_COUNT,
            "signs": [{
                "source": f"{entry['image']}#sha256:{entry['sha256']}", "value": entry["value"],
                "start": 0.0, "end": FRAME_COUNT * FRAME_STEP, "visibleSeconds": FRAME_COUNT * FRAME_STEP,
                "maxSize": size, "size": size_class, "blur": "photo", "light": "photo",
                "boxes": [[frame_index] + box for frame_index in range(FRAME_COUNT)],
            }],
        })
    manifest = {"generatorVersion": GENERATOR_VERSION, "datasetCommit": subprocess.run(
        ["git", "--git-dir", git_dir, "rev-parse", "HEAD"], capture_output=True, text=True).stdout.strip(),
        "split": "heldout", "clips": clips}
    with open(os.path.join(clips_dir, "testset.json"), "w", encoding="utf-8") as manifest_file:
        json.dump(manifest, manifest_file, indent=1)
    print(f"make-us-sign-photo-set: {len(clips)} clips in {clips_dir}")


if __name__ == "__main__":
    main()
