#!/usr/bin/env python3
"""Builds the US speed-limit sign test set (R2-1 "SPEED LIMIT NN") from fetched media (make-us-sign-testset.sh).

Signs are drawn here, not copied: a white upright rectangle (width 0.8 of the height, as the 24 × 30 in R2-1), a
thin black border inset from the edge, "SPEED" and "LIMIT" in small capitals and the value in large numerals, in
the Roadgeek 2014 fonts (fonts-roadgeek, MIT: digital versions of the FHWA highway alphabets US signs use). They
are pasted into real bikes.mp4 frames the way the EU set does it (make-sign-testset.py supplies the placement,
lighting, blur and camera round trip): approaching, drifting, squeezed, dimmed, shadowed, backlit, blurred. Values
15…75 in steps of 5, three rounds in other fonts and looks, sizes 24…150 px (sign height), plus distractors:
white rectangular signs whose text is no speed limit (words only, "WEIGHT LIMIT 10 TONS", "NO PARKING 8 AM 6 PM",
"MINIMUM SPEED 40" laid out like R2-1)
and European round signs. Everything derives from one seed.

Output: `<clip>.i420` per clip and `testset.json` in the format of the EU set (Tests/StreamLensSignsTests reads
both with SignTestSet).

Usage: make-us-sign-testset.py MEDIA_DIR OUTPUT_DIR
"""

import importlib.util
import json
import os
import sys

import numpy as np
from PIL import Image, ImageDraw, ImageFont

GENERATOR_VERSION = 2
SEED = 20261123
US_VALUES = list(range(15, 76, 5))
ROUNDS = 3
SUPERSAMPLE_HEIGHT = 300  # a 24 × 30 inch sign at 10 px per inch before scaling to its on-screen size


def load_eu_generator():
    """make-sign-testset.py as a module: its placement, lighting and camera helpers are shared, not copied."""
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location("eu_generator", os.path.join(here, "make-sign-testset.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


EU = load_eu_generator()


def fail(message):
    sys.stderr.write(f"make-us-sign-testset: {message}\n")
    sys.exit(1)


class RectangularSignArtist:
    """Draws white rectangular regulatory signs (R2-1 and look-alikes) as RGBA images SUPERSAMPLE_HEIGHT high."""

    def __init__(self, media):
        fonts_dir = os.path.join(media, "fonts")
        self.word_fonts = [os.path.join(fonts_dir, n) for n in ("RG2014C.ttf", "RG2014D.ttf", "RG2014E.ttf")
                           if os.path.exists(os.path.join(fonts_dir, n))]
        self.number_fonts = [os.path.join(fonts_dir, n) for n in ("RG2014D.ttf", "RG2014E.ttf", "RG2014EM.ttf")
                             if os.path.exists(os.path.join(fonts_dir, n))]
        if not self.word_fonts or not self.number_fonts:
            fail(f"no Roadgeek fonts (RG2014*.ttf) in {fonts_dir}: run scripts/datasets/fetch-media.sh first")

    @staticmethod
    def blank(width_share=0.8, paper=(246, 246, 242)):
        """The white plate with its black border (inset 1/48 of the height, 1/40 wide) and rounded corners."""
        height = SUPERSAMPLE_HEIGHT
        width = int(round(height * width_share))
        plate = Image.new("RGBA", (width, height), (0, 0, 0, 0))
        draw = ImageDraw.Draw(plate)
        corner = height // 20
        draw.rounded_rectangle((0, 0, width - 1, height - 1), radius=corner, fill=paper + (255,))
        inset = height // 48
        border = max(2, height // 40)
        draw.rounded_rectangle((inset, inset, width - 1 - inset, height - 1 - inset), radius=corner - inset // 2,
                               outline=(18, 18, 18, 255), width=border)
        return plate

    @staticmethod
    def draw_line(plate, text, font_path, top_share, height_share, max_width_share=0.84):
        """Draws `text` centred with its capitals `height_share` of the plate high, its top at `top_share`."""
        font = ImageFont.truetype(font_path, 200)
        left, top, right, bottom = font.getbbox(text)
        glyphs = Image.new("L", (right - left + 8, bottom - top + 8), 0)
        ImageDraw.Draw(glyphs).text((4 - left, 4 - top), text, font=font, fill=255)
        glyphs = glyphs.crop(glyphs.getbbox())
        scale = height_share * plate.height / glyphs.height
        width = min(max_width_share * plate.width, glyphs.width * scale)
        glyphs = glyphs.resize((max(1, int(width)), max(1, int(glyphs.height * scale))), Image.LANCZOS)
        ink = Image.new("RGBA", glyphs.size, (18, 18, 18, 255))
        ink.putalpha(glyphs)
        plate.alpha_composite(ink, ((plate.width - glyphs.width) // 2, int(top_share * plate.height)))

    def speed_limit(self, value, serial):
        """R2-1: SPEED / LIMIT in 4-inch letters, the value in 10-inch numerals (shares of a 30-inch height)."""
        plate = self.blank()
        word_font = self.word_fonts[serial % len(self.word_fonts)]
        self.draw_line(plate, "SPEED", word_font, 0.10, 0.133)
        self.draw_line(plate, "LIMIT", word_font, 0.31, 0.133)
        self.draw_line(plate, str(value), self.number_fonts[serial % len(self.number_fonts)], 0.53, 0.333, 0.8)
        return plate

    def lines(self, rows, serial):
        """A plate with the given (text, top share, height share) rows: regulatory signs that are no speed limit."""
        plate = self.blank(width_share=0.8)
        for text, top_share, height_share in rows:
            self.draw_line(plate, text, self.word_fonts[serial % len(self.word_fonts)], top_share, height_share)
        return plate


DISTRACTOR_PLATES = {
    "weight_limit_10_tons": [("WEIGHT", 0.09, 0.12), ("LIMIT", 0.28, 0.12), ("10", 0.47, 0.26), ("TONS", 0.8, 0.11)],
    "no_parking_8am_6pm": [("NO", 0.08, 0.13), ("PARKING", 0.28, 0.13), ("8 AM", 0.5, 0.15), ("6 PM", 0.74, 0.15)],
    "no_turn_on_red": [("NO", 0.12, 0.18), ("TURN", 0.4, 0.18), ("ON RED", 0.68, 0.18)],
    "keep_right": [("KEEP", 0.2, 0.22), ("RIGHT", 0.58, 0.22)],
    "blank_plate": [],
    # R2-4: laid out like R2-1, a valid US value in the same place; only the words say it is no limit.
    "minimum_speed_40": [("MINIMUM", 0.10, 0.133), ("SPEED", 0.31, 0.133), ("40", 0.53, 0.333)],
    "minimum_speed_45": [("MINIMUM", 0.10, 0.133), ("SPEED", 0.31, 0.133), ("45", 0.53, 0.333)],
}


def main():
    if len(sys.argv) != 3:
        fail("usage: make-us-sign-testset.py MEDIA_DIR OUTPUT_DIR")
    media, output = sys.argv[1], sys.argv[2]
    os.makedirs(output, exist_ok=True)
    EU.OUTPUT_DIR = output  # ClipWriter writes into the module's OUTPUT_DIR
    rng = np.random.default_rng(SEED)
    background = EU.decode_background_frames(os.path.join(media, "bikes.mp4"))
    artist = RectangularSignArtist(media)
    clips = []
    difficulties = ["plain", "dim", "shadow", "backlit", "warm", "cool", "motion", "blur"]

    serial = 0
    for round_index in range(ROUNDS):
        for value in US_VALUES:
            difficulty = difficulties[serial % len(difficulties)]
            art = artist.speed_limit(value, serial)
            # Sizes are the sign's height in pixels: 24…150 px over the set (the width is 0.8 of it).
            size_far = float(rng.uniform(28, 60))
            size_near = float(min(150, size_far * rng.uniform(1.3, 2.4)))
            visible = int(rng.integers(7, 17))
            if serial % 7 == 3:  # short sightings: not counted for recall, must not be misread
                visible = int(rng.integers(2, 6))
            if serial % 11 == 5:  # far and small: 24…34 px high
                size_far, size_near = 24.0, float(rng.uniform(28, 34))
            if serial % 13 == 7:  # close and large
                size_far, size_near = float(rng.uniform(90, 110)), 150.0
            size_near = min(size_near, size_far * (1 + 0.1 * (visible - 1)))
            clip = EU.ClipWriter(f"us_sign_{serial:02d}_{value}_{difficulty}", "sign")
            EU.animate_sign(clip, rng, background, int(rng.integers(0, len(background))), art,
                            EU.random_look(rng, difficulty), visible, (size_far, size_near), 2, 2, value=value)
            clips.append(clip.close())
            serial += 1

    # Still images: one frame each.
    for index, value in enumerate((25, 35, 45, 65)):
        clip = EU.ClipWriter(f"us_still_{value}", "still")
        frame = background[int(rng.integers(0, len(background)))].copy()
        warped = EU.light_sign(EU.place_sign(artist.speed_limit(value, index), float(rng.uniform(60, 120)), 0.95,
                                             1.5, 0.0), rng, EU.random_look(rng, "plain"))
        left = int(rng.integers(20, EU.WIDTH - warped.width - 20))
        top = int(rng.integers(5, EU.HEIGHT - warped.height - 5))
        box = EU.composite(frame, warped, left, top)
        clip.add_frame(EU.camera_roundtrip(frame, rng, quality=90))
        clip.signs.append({"value": value, "start": 0.0, "end": 0.0, "visibleSeconds": EU.FRAME_STEP,
                           "maxSize": max(box[2], box[3]), "boxes": [[0] + box], "still": True})
        clips.append(clip.close())

    # White rectangles whose text is no speed limit: must never produce an event.
    for index, (name, rows) in enumerate(sorted(DISTRACTOR_PLATES.items())):
        for repeat in range(2):
            difficulty = difficulties[(index + repeat) % len(difficulties)]
            clip = EU.ClipWriter(f"us_distractor_{name}_{repeat}", "distractor")
            EU.animate_sign(clip, rng, background, int(rng.integers(0, len(background))),
                            artist.lines(rows, index + repeat), EU.random_look(rng, difficulty),
                            int(rng.integers(8, 14)), (float(rng.uniform(40, 60)), float(rng.uniform(80, 130))), 1, 1,
                            distractor=name)
            clips.append(clip.close())

    # European round signs (a US driver crossing into Canada sees km/h signs): no event in US mode.
    eu_artist = EU.SignArtist(media)
    for index, value in enumerate((30, 50, 60, 80)):
        clip = EU.ClipWriter(f"us_distractor_eu_round_{value}", "distractor")
        EU.animate_sign(clip, rng, background, int(rng.integers(0, len(background))),
                        eu_artist.speed_sign(value, eu_artist.fonts[index % len(eu_artist.fonts)]),
                        EU.random_look(rng, "plain"), 10, (40.0, 90.0), 1, 1, distractor=f"eu {value}")
        clips.append(clip.close())

    # The street with no sign at all.
    clip = EU.ClipWriter("us_background_only", "distractor")
    for index in range(1, len(background), 4):
        clip.add_frame(EU.camera_roundtrip(background[index].copy(), rng))
    clips.append(clip.close())

    manifest = {"generatorVersion": GENERATOR_VERSION, "seed": SEED, "clips": clips}
    with open(os.path.join(output, "testset.json"), "w") as handle:
        json.dump(manifest, handle, indent=1)
    frames = sum(c["frameCount"] for c in clips)
    signs = sum(len(c["signs"]) for c in clips)
    print(f"make-us-sign-testset: {len(clips)} clips, {frames} frames, {signs} signs in {output}")


if __name__ == "__main__":
    main()
