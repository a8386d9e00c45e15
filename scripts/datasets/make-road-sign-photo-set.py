#!/usr/bin/env python3
"""Builds a second real-photo speed-limit set from a fetched copy of the "Road Sign Detection" dataset
(see scripts/datasets/make-road-sign-photo-set.sh and MEDIA.md).

That dataset holds 877 street photographs (mostly 400 px wide) with boxes for speed-limit signs, stop signs,
traffic lights and crosswalks — but not the limit's value. scripts/datasets/data/road-sign-photos.json names the signs used:
a seeded sample of speed-limit boxes at least 40 px high, one per photo, each labelled with its value by eye by us
(unclear ones left out; 5 km/h signs are limits of the EU profile), plus stop signs and traffic
lights as distractors, each with the photo's sha256. Nothing here was tuned on: the whole set is held out.

The signs are cut out and pasted into real footage exactly as scripts/datasets/make-real-sign-set.py does for GTSRB (growing
from ~24 px, drifting outwards, focus or motion blur, JPEG round trip), in their own light: these photos are larger
than GTSRB's, so a pasted sign is as sharp as a real one of that size. Output format: that of the GTSRB set
(clips/heldout/testset.json + raw I420), read by SpeedLimitRealPhotoTests.

With `--sizes large` the signs grow to 56…150 px instead of 32…100 px (bins 56–80, 80–110, 110–150), blown up
beyond the photo where it is smaller: the sizes an outside evaluation of the reader uses, at the price of
softer large signs than real ones. The same photos, the same seed: only the sizes differ.

Usage: make-road-sign-photo-set.py DATASET_GIT_DIR MEDIA_DIR OUTPUT_DIR LABELS_JSON [--sizes large]
"""

import hashlib
import importlib.util
import io
import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ElementTree

import numpy as np
from PIL import Image

# The pasting, footage and clip code is make-real-sign-set.py's; its file name is not a module name.
_spec = importlib.util.spec_from_file_location(
    "make_real_sign_set", os.path.join(os.path.dirname(os.path.abspath(__file__)), "make-real-sign-set.py"))
real_set = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(real_set)

GENERATOR_VERSION = 1  # the clip format of make-real-sign-set.py
SEED = 20261124


def fail(message):
    sys.stderr.write(f"make-road-sign-photo-set: {message}\n")
    sys.exit(1)


def annotated_box(git_dir, image, index):
    """(x1, y1, x2, y2) of object `index` in the photo's PASCAL VOC annotation."""
    stem = os.path.splitext(image)[0]
    root = ElementTree.fromstring(real_set.git_show(git_dir, f"annotations/{stem}.xml"))
    box = root.findall("object")[index].find("bndbox")
    return tuple(int(box.find(key).text) for key in ("xmin", "ymin", "xmax", "ymax"))


def main():
    arguments = sys.argv[1:]
    large = arguments[4:] == ["--sizes", "large"]
    if len(arguments) != 4 and not large:
        fail("usage: make-road-sign-photo-set.py DATASET_GIT_DIR MEDIA_DIR OUTPUT_DIR LABELS_JSON [--sizes large]")
    git_dir, media, output, labels_path = arguments[:4]
    with open(labels_path) as handle:
        labels = json.load(handle)
    rng = np.random.default_rng(SEED)
    footage = {
        "bikes1080": real_set.decode(os.path.join(media, "bikes-1080p.mp4"), 1920, 1080, 250),
        "vtest": real_set.decode(os.path.join(media, "vtest.avi"), 768, 576, 250),
    }
    head = subprocess.run(["git", "--git-dir", git_dir, "rev-parse", "HEAD"], check=True, stdout=subprocess.PIPE,
                          text=True).stdout.strip()

    crops_folder = os.path.join(output, "crops")
    folder = os.path.join(output, "clips", "heldout")
    os.makedirs(crops_folder, exist_ok=True)
    os.makedirs(folder, exist_ok=True)
    sizes = ([("s56to80", 56, 80), ("s80to110", 80, 110), ("s110to150", 110, 150)] if large
             else [("small", 32, 47), ("medium", 48, 71), ("large", 72, 100)])
    blurs = ["none", "soft", "motion"]
    clips = []
    for serial, label in enumerate(labels):
        data = real_set.git_show(git_dir, f"images/{label['image']}")
        if hashlib.sha256(data).hexdigest() != label["sha256"]:
            fail(f"images/{label['image']} in {git_dir} is not the photo that was labelled (sha256 differs): "
                 "use the copy MEDIA.md names")
        photo = Image.open(io.BytesIO(data)).convert("RGB")
        sign = real_set.cut_out(photo, annotated_box(git_dir, label["image"], label["object"]), photo.size)
        png = os.path.join(crops_folder, f"{serial:03d}_{os.path.splitext(label['image'])[0]}.png")
        sign.save(png)
        size_name, low, high = sizes[serial % len(sizes)]
        # Never blown up beyond the photo (a larger paste would be softer than a real sign of that size), except
        # for the large sizes, which most photos here do not reach.
        largest = float(rng.uniform(low, high) if large else min(rng.uniform(low, high), max(low, max(sign.size))))
        blur = blurs[(serial // 3) % len(blurs)]
        scene = "bikes1080" if serial % 3 != 2 else "vtest"
        height, width = footage[scene].shape[1:3]
        is_sign = "value" in label
        kind = "sign" if is_sign else "distractor"
        what = label["value"] if is_sign else label["distractor"].split()[0]
        light = real_set.photo_light(sign)
        clip = real_set.ClipWriter(folder, f"{kind}_{serial:03d}_{what}_{size_name}_{blur}_{light}_{scene}", kind,
                                   width, height)
        record = {"source": f"images/{label['image']}#{label['object']}", "photoLight": light, "size": size_name,
                  "blur": blur, "light": light}
        if is_sign:
            record["value"] = label["value"]
        else:
            record["name"] = label["distractor"]
        real_set.approach(clip, rng, footage[scene], sign, largest, blur, "as photographed", record)
        clips.append(clip.close())
    real_set.add_bare_footage(folder, footage, rng, clips)
    manifest = {"generatorVersion": GENERATOR_VERSION, "seed": SEED, "datasetCommit": head, "split": "heldout"}
    real_set.write_manifest(folder, manifest, clips, "make-road-sign-photo-set")


if __name__ == "__main__":
    main()
