#!/usr/bin/env python3
"""Builds a third real-photo speed-limit set from the GTSDB speed-limit crops of a fetched public repository
(see scripts/datasets/make-gtsdb-sign-set.sh and MEDIA.md).

GTSDB, the German Traffic Sign *Detection* Benchmark, is 900 photographs taken from a car on German roads
(1360 x 800); the repository holds the cut-outs of its speed-limit signs, one folder per value (0: 30, 1: 50, 2: 70,
3: 80, 4: 100, 5: 120), as the annotated boxes cut them (tight around the sign). These are other photographs than
GTSRB's (the recognition benchmark the first set comes from), taken by a car's camera as a dashcam takes them, and
nobody tuned the reader on them: the whole set is held out.

Every cut-out at least ``SMALLEST_PHOTO`` px on its shorter side is used once (byte-identical copies once), in a
seeded order; each is pasted into real footage exactly as scripts/datasets/make-real-sign-set.py pastes GTSRB's (growing from
~24 px, drifting outwards, focus or motion blur, JPEG round trip) and ends at 56…150 px, the sizes of an
outside evaluation: blown up beyond the photo where it is smaller, so its large signs are softer than real ones.
Output format: that of the GTSRB set (clips/heldout/testset.json + raw I420), read by SpeedLimitRealPhotoTests.

Usage: make-gtsdb-sign-set.py DATASET_GIT_DIR MEDIA_DIR OUTPUT_DIR
"""

import hashlib
import importlib.util
import io
import os
import subprocess
import sys

import numpy as np
from PIL import Image

# The pasting, footage and clip code is make-real-sign-set.py's; its file name is not a module name.
_spec = importlib.util.spec_from_file_location(
    "make_real_sign_set", os.path.join(os.path.dirname(os.path.abspath(__file__)), "make-real-sign-set.py"))
real_set = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(real_set)

GENERATOR_VERSION = 1  # the clip format of make-real-sign-set.py
SEED = 20261128
CROPS = "data/speed-limit-signs"
VALUES = {"0": 30, "1": 50, "2": 70, "3": 80, "4": 100, "5": 120}
# Smaller cut-outs blown up to 56 px and more are mush, not photographs of signs of that size.
SMALLEST_PHOTO = 40


def fail(message):
    sys.stderr.write(f"make-gtsdb-sign-set: {message}\n")
    sys.exit(1)


def listed_crops(git_dir):
    """[(path, value)] of every .ppm cut-out under CROPS, sorted by path."""
    names = subprocess.run(["git", "--git-dir", git_dir, "ls-tree", "-r", "--name-only", "HEAD", CROPS + "/"],
                           check=True, stdout=subprocess.PIPE, text=True).stdout.split()
    crops = []
    for name in sorted(names):
        parts = name.split("/")
        if name.endswith(".ppm") and len(parts) == 4 and parts[2] in VALUES:
            crops.append((name, VALUES[parts[2]]))
    return crops


def main():
    if len(sys.argv) != 4:
        fail("usage: make-gtsdb-sign-set.py DATASET_GIT_DIR MEDIA_DIR OUTPUT_DIR")
    git_dir, media, output = sys.argv[1:]
    rng = np.random.default_rng(SEED)
    footage = {
        "bikes1080": real_set.decode(os.path.join(media, "bikes-1080p.mp4"), 1920, 1080, 250),
        "vtest": real_set.decode(os.path.join(media, "vtest.avi"), 768, 576, 250),
    }
    head = subprocess.run(["git", "--git-dir", git_dir, "rev-parse", "HEAD"], check=True, stdout=subprocess.PIPE,
                          text=True).stdout.strip()

    photos, seen = [], set()
    for path, value in listed_crops(git_dir):
        data = real_set.git_show(git_dir, path)
        digest = hashlib.sha256(data).hexdigest()
        photo = Image.open(io.BytesIO(data)).convert("RGB")
        if digest in seen or min(photo.size) < SMALLEST_PHOTO:
            continue
        seen.add(digest)
        photos.append((path, value, digest, photo))
    if not photos:
        fail(f"no speed-limit cut-outs of {SMALLEST_PHOTO} px or more under {CROPS} in {git_dir}")
    order = rng.permutation(len(photos))

    crops_folder = os.path.join(output, "crops")
    folder = os.path.join(output, "clips", "heldout")
    os.makedirs(crops_folder, exist_ok=True)
    os.makedirs(folder, exist_ok=True)
    sizes = [("s56to80", 56, 80), ("s80to110", 80, 110), ("s110to150", 110, 150)]
    blurs = ["none", "soft", "motion"]
    clips = []
    for serial, index in enumerate(order):
        path, value, digest, photo = photos[index]
        sign = real_set.cut_out(photo, (0, 0, photo.width - 1, photo.height - 1), photo.size)
        stem = "_".join(path.split("/")[2:]).removesuffix(".ppm")
        sign.save(os.path.join(crops_folder, f"{serial:03d}_{stem}.png"))
        size_name, low, high = sizes[serial % len(sizes)]
        largest = float(rng.uniform(low, high))
        blur = blurs[(serial // 3) % len(blurs)]
        scene = "bikes1080" if serial % 3 != 2 else "vtest"
        height, width = footage[scene].shape[1:3]
        light = real_set.photo_light(sign)
        clip = real_set.ClipWriter(folder, f"sign_{serial:03d}_{value}_{size_name}_{blur}_{light}_{scene}", "sign",
                                   width, height)
        record = {"source": f"{path}#sha256:{digest}", "photoLight": light, "size": size_name, "blur": blur,
                  "light": light, "value": value}
        real_set.approach(clip, rng, footage[scene], sign, largest, blur, "as photographed", record)
        clips.append(clip.close())
    real_set.add_bare_footage(folder, footage, rng, clips)
    manifest = {"generatorVersion": GENERATOR_VERSION, "seed": SEED, "datasetCommit": head, "split": "heldout"}
    real_set.write_manifest(folder, manifest, clips, "make-gtsdb-sign-set")


if __name__ == "__main__":
    main()
