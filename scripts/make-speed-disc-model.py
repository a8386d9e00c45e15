#!/usr/bin/python3
"""Trains the speed-limit disc classifier (the reader's second recogniser) on rendered digits only.

Each sample is what the reader's DigitCropper hands the classifier: the inside of a sign's ring, 72 × 72, illumination
flattened, the ring's red samples and everything outside the disc white, stretched so that the disc's 3rd luma
percentile is black and its 97th white (`DigitCropper.classifierImage`). Here that picture is drawn directly: a
value in a road font (fonts-opendin's OSP-DIN, fonts-roadgeek's RG2014 series), then made to look like a real,
small, soft photo: rendered small and blown up, Gaussian and motion blur, grey and shaded interior, noise, dark ring
remains at the rim, scale and position jitter. Classes: "none" (blank discs, other numbers, weights and widths,
letters, bars) and every European speed value (5, 10…130).

Features: OpenCV's HOG on the picture resized to 32 × 32 (window 32, block 16, stride 8, cell 8, 9 bins: 324 values),
the same as Sources/COpenCVBridge/speed_disc_classifier.cpp. Model: cv::ml::ANN_MLP (324 → 48 → 15, symmetric sigmoid,
RPROP), seeded, so the output is the same on every run with the same fonts and OpenCV.

No photograph is used (GTSRB's licence keeps it out of git, and the product must not depend on it).

Output: a C++ header holding the model's YAML as a string literal, compiled into the bridge.
Usage: make-speed-disc-model.py FONTS_DIR OUTPUT.hpp   (FONTS_DIR: .media-cache/media/fonts, from scripts/fetch-media.sh)
Needs Debian's python3-opencv and python3-numpy.
"""

import os
import re
import sys

import cv2
import numpy as np

SEED = 20261123
CANVAS = 72
FEATURE_SIDE = 32
VALUES = [5] + list(range(10, 131, 10))
CLASSES = ["none"] + [str(v) for v in VALUES]  # class index = position; must match SpeedDiscClassifier.swift
SAMPLES_PER_CLASS = 420
HIDDEN = 48
NEGATIVE_TEXTS = ["35", "55", "25", "45", "65", "15", "75", "85", "95", "7,5t", "3,5t", "2,8m", "12t", "6t", "3m",
                  "1", "2", "3", "4", "6", "7", "8", "9", "0", "00", "05", "140", "150", "200", "A", "P", "STOP", "km",
                  "3,8", "4m", "t", "E", "H", ""]
FONTS = ["OSP-DIN.ttf", "RG2014C.ttf", "RG2014D.ttf", "RG2014E.ttf"]


def hog():
    return cv2.HOGDescriptor((FEATURE_SIDE, FEATURE_SIDE), (16, 16), (8, 8), (8, 8), 9)


def features(picture, descriptor):
    small = cv2.resize(picture, (FEATURE_SIDE, FEATURE_SIDE), interpolation=cv2.INTER_AREA)
    return descriptor.compute(small).reshape(-1)


class Renderer:
    def __init__(self, fonts_dir):
        self.fonts = []
        for name in FONTS:
            path = os.path.join(fonts_dir, name)
            if os.path.exists(path):
                font = cv2.freetype.createFreeType2()
                font.loadFontData(path, 0)
                self.fonts.append(font)
        if not self.fonts:
            sys.exit(f"make-speed-disc-model: no road fonts in {fonts_dir}: run scripts/fetch-media.sh first")

    def text(self, rng, text, scale, font=None):
        """Ink (1 = black) of `text` centred on a CANVAS × 4 supersampled canvas, digits `scale` of the canvas high,
        in `font` (one of `fonts`) or a font drawn from `rng`."""
        side = CANVAS * 4
        ink = np.zeros((side, side), np.uint8)
        if text:
            font = font or self.fonts[rng.integers(len(self.fonts))]
            height = int(side * scale)
            (width, text_height), baseline = font.getTextSize(text, height, -1)
            # Three digits are condensed to fit the ring, as on real signs.
            squeeze = min(1.0, side * (0.74 if len(text) >= 3 else 0.66) / max(1, width))
            board = np.zeros((side, max(side, width + 8), 3), np.uint8)  # freetype draws on colour images only
            font.putText(board, text, ((board.shape[1] - width) // 2, (side + text_height) // 2), height,
                         (255, 255, 255), -1, cv2.LINE_AA, True)
            board = np.ascontiguousarray(board[:, :, 0])
            board = cv2.resize(board, (max(1, int(board.shape[1] * squeeze)), side), interpolation=cv2.INTER_AREA)
            left = (board.shape[1] - side) // 2
            if left >= 0:
                ink = board[:, left:left + side]
            else:
                ink[:, -left:-left + board.shape[1]] = board
        return ink

    def sample(self, rng, text, bar=False):
        side = CANVAS * 4
        scale = rng.uniform(0.70, 0.95)  # font size / canvas (digits about 0.5–0.65 of it): the locator's inner radius is only an estimate
        ink = self.text(rng, text, scale).astype(np.float32) / 255
        if bar:  # a no-entry bar or a lorry's outline
            ink = np.zeros((side, side), np.float32)
            h = int(side * rng.uniform(0.12, 0.3))
            cv2.rectangle(ink, (int(side * 0.15), side // 2 - h // 2), (int(side * 0.85), side // 2 + h // 2), 1, -1)
        # Position and rotation jitter, then down to the sign's real resolution and back up: GTSRB-like softness.
        angle = rng.uniform(-6, 6)
        shift = rng.uniform(-0.06, 0.06, 2) * side
        matrix = cv2.getRotationMatrix2D((side / 2, side / 2), angle, rng.uniform(0.92, 1.08))
        matrix[:, 2] += shift
        ink = cv2.warpAffine(ink, matrix, (side, side))
        paper = rng.uniform(150, 255)
        dark = rng.uniform(0, paper - 60)
        picture = paper - (paper - dark) * ink
        # Shading across the disc.
        gradient = np.linspace(-1, 1, side, dtype=np.float32)
        direction = rng.uniform(0, 2 * np.pi)
        shade = np.cos(direction) * gradient[None, :] + np.sin(direction) * gradient[:, None]
        picture *= 1 + rng.uniform(0, 0.08) * shade  # the cropper flattens most shading
        # Dark ring remains at the rim (the ring's inner edge that was not red enough to be masked).
        if rng.random() < 0.5:
            yy, xx = np.mgrid[0:side, 0:side].astype(np.float32)
            radius = np.hypot(xx - side / 2 + 0.5, yy - side / 2 + 0.5) / (side / 2)
            start = rng.uniform(0.86, 0.97)
            picture = np.where(radius > start, picture * rng.uniform(0.4, 0.8), picture)
        resolution = int(rng.uniform(14, 60))
        picture = cv2.resize(picture, (resolution, resolution), interpolation=cv2.INTER_AREA)
        picture = cv2.resize(picture, (CANVAS, CANVAS), interpolation=cv2.INTER_LINEAR)
        kind = rng.random()
        if kind < 0.4:
            picture = cv2.GaussianBlur(picture, (0, 0), rng.uniform(0.3, 2.5))
        elif kind < 0.7:
            length = int(rng.integers(2, 9))
            kernel = np.zeros((length, length), np.float32)
            kernel[length // 2, :] = 1 / length
            picture = cv2.filter2D(picture, -1, kernel)
        picture += rng.normal(0, rng.uniform(0, 5), picture.shape).astype(np.float32)
        return normalise(picture)


def normalise(picture):
    """As DigitCropper.classifierImage: outside the disc white, 3rd…97th percentile of the disc stretched to 0…255."""
    yy, xx = np.mgrid[0:CANVAS, 0:CANVAS].astype(np.float32)
    radius = np.hypot((xx + 0.5) / CANVAS * 2 - 1, (yy + 0.5) / CANVAS * 2 - 1)
    disc = radius <= 0.97
    low, high = np.percentile(picture[disc], [3, 97])
    stretched = np.clip((picture - low) * 255 / max(1.0, high - low), 0, 255)
    stretched[~disc] = 255
    return stretched.round().astype(np.uint8)


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: make-speed-disc-model.py FONTS_DIR OUTPUT.hpp")
    fonts_dir, output = sys.argv[1:]
    rng = np.random.default_rng(SEED)
    cv2.setRNGSeed(SEED)
    renderer = Renderer(fonts_dir)
    descriptor = hog()
    rows, labels = [], []
    for index, name in enumerate(CLASSES):
        for _ in range(SAMPLES_PER_CLASS):
            if name == "none":
                bar = rng.random() < 0.15
                text = NEGATIVE_TEXTS[rng.integers(len(NEGATIVE_TEXTS))]
                picture = renderer.sample(rng, text, bar=bar)
            else:
                picture = renderer.sample(rng, name)
            rows.append(features(picture, descriptor))
            labels.append(index)
    samples = np.array(rows, np.float32)
    targets = np.full((len(labels), len(CLASSES)), -1, np.float32)
    targets[np.arange(len(labels)), labels] = 1
    network = cv2.ml.ANN_MLP_create()
    network.setLayerSizes(np.array([samples.shape[1], HIDDEN, len(CLASSES)]))
    network.setActivationFunction(cv2.ml.ANN_MLP_SIGMOID_SYM, 1, 1)
    network.setTrainMethod(cv2.ml.ANN_MLP_RPROP)
    network.setTermCriteria((cv2.TERM_CRITERIA_MAX_ITER + cv2.TERM_CRITERIA_EPS, 300, 1e-4))
    network.train(samples, cv2.ml.ROW_SAMPLE, targets)
    _, outputs = network.predict(samples)
    accuracy = float((outputs.argmax(axis=1) == np.array(labels)).mean())
    print(f"make-speed-disc-model: {len(labels)} samples, {len(CLASSES)} classes, training accuracy {accuracy:.3f}")
    model = cv2.FileStorage(".yml", cv2.FILE_STORAGE_WRITE | cv2.FILE_STORAGE_MEMORY)
    network.write(model)
    # Six significant digits are plenty for a network's weights and keep the committed file small.
    header, body = model.releaseAndGetString().split("\n", 1)  # "%YAML:1.0" stays as it is
    text = header + "\n" + re.sub(r"-?\d+\.\d*(?:e[+-]\d+)?", lambda m: f"{float(m.group(0)):.6g}", body)
    with open(output, "w") as handle:
        handle.write("// Generated by scripts/make-speed-disc-model.py from rendered road-font digits; do not edit.\n")
        handle.write(f"// Classes (output index order): {' '.join(CLASSES)}\n")
        handle.write("static const char kSpeedDiscModel[] = R\"MODEL(" + text + ")MODEL\";\n")


if __name__ == "__main__":
    main()
