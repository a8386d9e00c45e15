#!/usr/bin/env python3
"""Builds the real-photo speed-limit evaluation set from a fetched copy of GTSRB (see scripts/datasets/make-real-sign-set.sh).

GTSRB (German Traffic Sign Recognition Benchmark, Final_Training) holds real photographs of real signs, 30 per
physical sign ("track"). The public copies that `fetch` can bring hold them rescaled to about 35×35 px (the one
used, see MEDIA.md); the annotated box (GT-*.csv, on the original size) is scaled along. This script takes the
photo of each chosen track that was largest originally, cuts the sign out along its box (an elliptical matte), and
pastes it into real footage (bikes-1080p.mp4 at 1920×1080, vtest.avi at 768×576) the way a sign approaches a car:
growing from about 24 px to its largest size (at most ~100 px: the photos are small), drifting
outwards, blurred by focus or motion, dimmed or backlit. Frames go through a JPEG round trip (4:2:0 chroma, block
artefacts) and are stored as raw I420 with a ground-truth JSON in the format of the generated set
(Tests/StreamLensSignsTests/Support/SignTestSet.swift), plus each sign's conditions (size, blur, light).

Tracks are split by track, alternately: `dev` (look at it while developing) and `heldout` (measure on it). Other
GTSRB prohibitory signs (end of 80, no overtaking, no vehicles, no lorries, no entry, end of all limits) are
pasted the same way as distractors, and the footage without anything pasted is kept as sign-free clips.

GTSRB's licence is not an open-content licence: nothing this script writes may be committed.

Usage: make-real-sign-set.py GTSRB_GIT_DIR MEDIA_DIR OUTPUT_DIR
  GTSRB_GIT_DIR: a git directory (bare, as `fetch` brings it) whose HEAD holds GTSRB/Final_Training/Images/.
"""

import hashlib
import io
import json
import math
import os
import subprocess
import sys

import numpy as np
from i420 import rgb_to_i420  # this folder (python puts the script's own folder on the path)
from PIL import Image, ImageFilter

GENERATOR_VERSION = 1
SEED = 20261123
FRAME_STEP = 0.08
# GTSRB class → speed limit (class 6 is "end of 80", a distractor).
SPEED_CLASSES = {0: 20, 1: 30, 2: 50, 3: 60, 4: 70, 5: 80, 7: 100, 8: 120}
DISTRACTOR_CLASSES = {6: "end of 80", 9: "no overtaking", 10: "no overtaking by lorries", 15: "no vehicles",
                      16: "no lorries", 17: "no entry", 32: "end of all limits", 41: "end of no overtaking"}
# The copy used (MEDIA.md) names its class folders in German.
CLASS_FOLDERS = {0: "20_kmh", 1: "30_kmh", 2: "50_kmh", 3: "60_kmh", 4: "70_kmh", 5: "80_kmh", 6: "80_aufgehoben",
                 7: "100_kmh", 8: "120_kmh", 9: "ueberholverbot", 10: "lkw_ueberholverbot",
                 15: "durchfahrt_verboten", 16: "lkw_verboten", 17: "verbot_der_einfahrt", 32: "unbegrenzt",
                 41: "ueberholverbot_aufgehoben"}
TRACKS_PER_SPEED_CLASS = 16  # 8 dev + 8 held out per value
TRACKS_PER_DISTRACTOR_CLASS = 4
MINIMUM_SOURCE_SIZE = 32  # photos smaller than this are not used as the largest view of a sign


def fail(message):
    sys.stderr.write(f"make-real-sign-set: {message}\n")
    sys.exit(1)


# MARK: - GTSRB from the git directory


def git_show(git_dir, path):
    try:
        return subprocess.run(["git", "--git-dir", git_dir, "show", f"HEAD:{path}"], check=True,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE).stdout
    except subprocess.CalledProcessError as error:
        fail(f"cannot read {path} from {git_dir}: {error.stderr.decode(errors='replace').strip()}")


def largest_photo_per_track(git_dir, class_id):
    """{track: (file, width, height, roi)} with the largest photo of each track of `class_id`."""
    folder = f"GTSRB/Final_Training/Images/{CLASS_FOLDERS[class_id]}"
    rows = git_show(git_dir, f"{folder}/GT-{class_id:05d}.csv").decode().strip().splitlines()[1:]
    tracks = {}
    for row in rows:
        name, width, height, x1, y1, x2, y2, _ = row.split(";")
        track = name.split("_")[0]
        entry = (f"{folder}/{name}", int(width), int(height), (int(x1), int(y1), int(x2), int(y2)))
        if track not in tracks or entry[1] > tracks[track][1]:
            tracks[track] = entry
    return tracks


def cut_out(photo, roi, original_size):
    """The sign inside its annotated box, as RGBA with an elliptical, slightly feathered matte. The copy holds the
    photos rescaled to a small square, so the box (annotated on the original) is scaled with it."""
    sx, sy = photo.width / original_size[0], photo.height / original_size[1]
    x1, y1, x2, y2 = (int(round(roi[0] * sx)), int(round(roi[1] * sy)), int(round(roi[2] * sx)),
                      int(round(roi[3] * sy)))
    sign = photo.crop((x1, y1, x2 + 1, y2 + 1)).convert("RGB")
    w, h = sign.size
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    # Distance from the ellipse edge in pixels (negative inside); one pixel of feathering.
    nx = (xs + 0.5 - w / 2) / (w / 2)
    ny = (ys + 0.5 - h / 2) / (h / 2)
    edge = (np.sqrt(nx * nx + ny * ny) - 1.0) * min(w, h) / 2
    alpha = np.clip(0.5 - edge, 0, 1) * 255
    return Image.fromarray(np.dstack([np.asarray(sign), alpha.astype(np.uint8)]), "RGBA")


# MARK: - Footage


def decode(path, width, height, limit):
    command = ["ffmpeg", "-v", "error", "-i", path, "-frames:v", str(limit), "-f", "rawvideo", "-pix_fmt", "rgb24",
               "-s", f"{width}x{height}", "-"]
    try:
        data = subprocess.run(command, check=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE).stdout
    except (OSError, subprocess.CalledProcessError) as error:
        fail(f"cannot decode {path} with ffmpeg ({error}): install ffmpeg")
    frames = np.frombuffer(data, dtype=np.uint8)
    count = frames.size // (width * height * 3)
    return frames[: count * width * height * 3].reshape(count, height, width, 3)


def camera_roundtrip(frame, rng):
    noisy = frame.astype(np.float32) + rng.normal(0, 1.5, frame.shape).astype(np.float32)
    buffer = io.BytesIO()
    Image.fromarray(np.clip(noisy, 0, 255).astype(np.uint8)).save(buffer, "JPEG", quality=int(rng.integers(80, 92)),
                                                                  subsampling=2)
    return np.asarray(Image.open(buffer).convert("RGB"))


# MARK: - Looks


def light(sign, condition, rng):
    """Dims or backlights the sign's colours (alpha untouched)."""
    pixels = np.asarray(sign).astype(np.float32)
    rgb, alpha = pixels[..., :3], pixels[..., 3:]
    if condition == "dim":
        rgb = rgb * rng.uniform(0.45, 0.6)
    elif condition == "backlit":
        rgb = rgb * rng.uniform(0.4, 0.55) * 0.8 + 200.0 * 0.2
    return Image.fromarray(np.concatenate([np.clip(rgb, 0, 255), alpha], axis=2).astype(np.uint8), "RGBA")


def composite(frame, sign, left, top):
    pixels = np.asarray(sign).astype(np.float32)
    h, w = pixels.shape[:2]
    x0, y0 = max(0, left), max(0, top)
    x1, y1 = min(frame.shape[1], left + w), min(frame.shape[0], top + h)
    if x1 - x0 < w * 0.8 or y1 - y0 < h * 0.8:
        return None  # mostly outside the frame: not counted as shown
    patch = pixels[y0 - top: y1 - top, x0 - left: x1 - left]
    alpha = patch[..., 3:] / 255.0
    region = frame[y0:y1, x0:x1].astype(np.float32)
    frame[y0:y1, x0:x1] = np.clip(region * (1 - alpha) + patch[..., :3] * alpha, 0, 255).astype(np.uint8)
    return [x0, y0, x1 - x0, y1 - y0]


def blur_region(frame, box, condition, scale):
    if condition == "none":
        return
    x, y, w, h = box
    margin = int(8 + 6 * scale)
    x0, y0 = max(0, x - margin), max(0, y - margin)
    x1, y1 = min(frame.shape[1], x + w + margin), min(frame.shape[0], y + h + margin)
    image = Image.fromarray(frame[y0:y1, x0:x1])
    if condition == "soft":
        image = image.filter(ImageFilter.GaussianBlur(1.2 * scale))
    else:  # motion: a horizontal box filter, as when the camera pans or the car shakes
        length = max(2, int(round(4 * scale)))
        region = np.asarray(image).astype(np.float32)
        padded = np.pad(region, ((0, 0), (length // 2, length - 1 - length // 2), (0, 0)), mode="edge")
        sums = np.cumsum(np.pad(padded, ((0, 0), (1, 0), (0, 0))), axis=1)
        image = Image.fromarray(np.clip((sums[:, length:] - sums[:, :-length]) / length, 0, 255).astype(np.uint8))
    frame[y0:y1, x0:x1] = np.asarray(image)


def photo_light(sign):
    """The photo's own light: mean luma of the sign (dark photos are common in GTSRB)."""
    pixels = np.asarray(sign).astype(np.float32)
    mask = pixels[..., 3] > 127
    luma = (0.299 * pixels[..., 0] + 0.587 * pixels[..., 1] + 0.114 * pixels[..., 2])[mask].mean()
    return "dark" if luma < 60 else "bright" if luma > 150 else "normal"


# MARK: - Clips


class ClipWriter:
    def __init__(self, folder, name, kind, width, height):
        self.name, self.kind, self.width, self.height = name, kind, width, height
        self.file_name = f"{name}.i420"
        self.handle = open(os.path.join(folder, self.file_name), "wb")
        self.frame_count = 0
        self.signs, self.distractors = [], []

    def add_frame(self, frame):
        self.handle.write(rgb_to_i420(frame))
        self.frame_count += 1

    def close(self):
        self.handle.close()
        return {"name": self.name, "kind": self.kind, "file": self.file_name, "width": self.width,
                "height": self.height, "frameStep": FRAME_STEP, "frameCount": self.frame_count,
                "signs": self.signs, "distractors": self.distractors}


def approach(clip, rng, footage, art, largest, blur, lighting, record):
    """The sign grows from ~24 px to `largest` (about a tenth per stored frame, as at road speed), drifting
    outwards from a point ahead, with one lead-in and one lead-out frame."""
    height, width = footage.shape[1:3]
    scale = width / 960  # blur and drift scale with the frame
    smallest = min(24.0, largest)
    visible = max(2, int(math.ceil(math.log(largest / smallest) / math.log(1.1))) + 1)
    side = rng.choice([-1, 1])
    start = (width / 2 + side * rng.uniform(0.08, 0.3) * width, rng.uniform(0.3, 0.5) * height)
    end = (start[0] + side * rng.uniform(0.05, 0.15) * width, start[1] - rng.uniform(0.0, 0.12) * height)
    squeeze = rng.uniform(0.85, 1.0)  # seen slightly from the side: an ellipse
    first_frame = int(rng.integers(0, len(footage)))
    boxes = []
    for index in range(visible + 2):
        frame = footage[(first_frame + index) % len(footage)].copy()
        if 1 <= index <= visible:
            progress = (index - 1) / max(1, visible - 1)
            size = smallest * (largest / smallest) ** progress
            aspect = art.width / art.height
            sized = art.resize((max(4, int(round(size * aspect * squeeze))), max(4, int(round(size)))),
                               Image.BICUBIC)
            sized = light(sized, lighting, rng)
            cx = start[0] + (end[0] - start[0]) * progress
            cy = start[1] + (end[1] - start[1]) * progress
            box = composite(frame, sized, int(round(cx - sized.width / 2)), int(round(cy - sized.height / 2)))
            if box:
                blur_region(frame, box, blur, scale)
                boxes.append([index] + box)
        clip.add_frame(camera_roundtrip(frame, rng))
    if not boxes:
        return
    record.update({"start": round(boxes[0][0] * FRAME_STEP, 3), "end": round(boxes[-1][0] * FRAME_STEP, 3),
                   "visibleSeconds": round(len(boxes) * FRAME_STEP, 3),
                   "maxSize": max(max(b[3], b[4]) for b in boxes), "boxes": boxes})
    (clip.signs if "value" in record else clip.distractors).append(record)


def main():
    if len(sys.argv) != 4:
        fail("usage: make-real-sign-set.py GTSRB_GIT_DIR MEDIA_DIR OUTPUT_DIR")
    git_dir, media, output = sys.argv[1:]
    rng = np.random.default_rng(SEED)
    crops_folder = os.path.join(output, "crops")
    footage = {
        "bikes1080": decode(os.path.join(media, "bikes-1080p.mp4"), 1920, 1080, 250),
        "vtest": decode(os.path.join(media, "vtest.avi"), 768, 576, 250),
    }
    head = subprocess.run(["git", "--git-dir", git_dir, "rev-parse", "HEAD"], check=True, stdout=subprocess.PIPE,
                          text=True).stdout.strip()

    # 1. Pick tracks and cut their largest photo out.
    crops = []
    for class_id in list(SPEED_CLASSES) + list(DISTRACTOR_CLASSES):
        tracks = largest_photo_per_track(git_dir, class_id)
        usable = sorted(t for t, entry in tracks.items() if min(entry[3][2] - entry[3][0], entry[3][3] - entry[3][1])
                        + 1 >= MINIMUM_SOURCE_SIZE)
        wanted = TRACKS_PER_SPEED_CLASS if class_id in SPEED_CLASSES else TRACKS_PER_DISTRACTOR_CLASS
        chosen = sorted(rng.choice(usable, size=min(wanted, len(usable)), replace=False).tolist())
        for order, track in enumerate(chosen):
            path, original_width, original_height, roi = tracks[track]
            data = git_show(git_dir, path)
            photo = Image.open(io.BytesIO(data))
            split = "dev" if order % 2 == 0 else "heldout"
            folder = os.path.join(crops_folder, split, f"{class_id:02d}")
            os.makedirs(folder, exist_ok=True)
            png_path = os.path.join(folder, f"{track}.png")
            sign = cut_out(photo, roi, (original_width, original_height))
            sign.save(png_path)
            crops.append({"class": class_id, "value": SPEED_CLASSES.get(class_id),
                          "distractor": DISTRACTOR_CLASSES.get(class_id), "track": track, "split": split,
                          "source": path, "sourceSHA256": hashlib.sha256(data).hexdigest(),
                          "png": os.path.relpath(png_path, output), "size": [sign.width, sign.height],
                          "light": photo_light(sign)})
    with open(os.path.join(crops_folder, "crops.json"), "w") as handle:
        json.dump({"generatorVersion": GENERATOR_VERSION, "gtsrbCommit": head, "crops": crops}, handle, indent=1)

    # 2. Paste them into the footage, one sign per clip, conditions in turn.
    sizes = [("small", 32, 47), ("medium", 48, 71), ("large", 72, 100)]
    blurs = ["none", "soft", "motion"]
    lightings = ["as photographed", "as photographed", "dim", "backlit"]
    for split in ("dev", "heldout"):
        folder = os.path.join(output, "clips", split)
        os.makedirs(folder, exist_ok=True)
        clips = []
        for serial, crop in enumerate(c for c in crops if c["split"] == split):
            art = Image.open(os.path.join(output, crop["png"]))
            size_name, low, high = sizes[serial % len(sizes)]
            # The copy's photos are about 30 px across: blown up three times they are already softer than a real
            # sign of that size, so larger sizes would measure the copy, not the reader.
            largest = float(min(rng.uniform(low, high), max(low, 3.2 * max(art.size))))
            blur = blurs[(serial // 3) % len(blurs)]
            lighting = lightings[(serial // 2) % len(lightings)]
            scene = "bikes1080" if serial % 3 != 2 else "vtest"
            height, width = footage[scene].shape[1:3]
            is_sign = crop["value"] is not None
            name = (f"{'sign' if is_sign else 'distractor'}_{serial:03d}_{crop['value'] or crop['class']}"
                    f"_{size_name}_{blur}_{lighting.split()[0]}_{scene}")
            clip = ClipWriter(folder, name, "sign" if is_sign else "distractor", width, height)
            record = {"source": crop["source"], "photoLight": crop["light"], "size": size_name, "blur": blur,
                      "light": crop["light"] if lighting == "as photographed" else lighting}
            if is_sign:
                record["value"] = crop["value"]
            else:
                record["name"] = crop["distractor"]
            approach(clip, rng, footage[scene], art, largest, blur, lighting, record)
            clips.append(clip.close())
        add_bare_footage(folder, footage, rng, clips, first=1 if split == "dev" else 0, step=2 if split == "dev" else 3)
        manifest = {"generatorVersion": GENERATOR_VERSION, "seed": SEED, "gtsrbCommit": head, "split": split}
        write_manifest(folder, manifest, clips, f"make-real-sign-set: {split}")


def add_bare_footage(folder, footage, rng, clips, first=0, step=3):
    """Appends to `clips` one clip per scene of the footage alone (every `step`-th frame from `first`): nothing may be
    read from it."""
    for scene, frames in footage.items():
        height, width = frames.shape[1:3]
        clip = ClipWriter(folder, f"background_{scene}", "distractor", width, height)
        for index in range(first, len(frames), step):
            clip.add_frame(camera_roundtrip(frames[index].copy(), rng))
        clips.append(clip.close())


def write_manifest(folder, manifest, clips, tool):
    """Writes `folder`/testset.json (`manifest` with `clips`) and says what the set holds, as `tool`."""
    with open(os.path.join(folder, "testset.json"), "w") as handle:
        json.dump({**manifest, "clips": clips}, handle, indent=1)
    signs = sum(len(c["signs"]) for c in clips)
    print(f"{tool}: {len(clips)} clips, {sum(c['frameCount'] for c in clips)} frames, {signs} signs in {folder}")


if __name__ == "__main__":
    main()
