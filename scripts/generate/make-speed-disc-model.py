#!/usr/bin/python3
"""Trains the speed-limit disc classifier (the reader's second recogniser) on rendered digits only: a small
convolutional network, written as ONNX bytes into a C++ header compiled into the bridge.

Each sample is what the reader's DigitCropper hands the classifier: the inside of a sign's ring, 72 × 72, illumination
flattened, the ring's red samples and everything outside the disc white, stretched so that the disc's 3rd luma
percentile is black and its 97th white (`DigitCropper.classifierImage`). Here that picture is drawn directly: a
value in a road font (fonts-opendin's OSP-DIN, fonts-roadgeek's RG2014 series), then made to look like what a dashcam
sees of a real sign: rendered at 9…60 px and blown up, focus blur, a smear of any direction and length (up to a fifth
of the disc), grey and shaded interiors, low contrast, dark ring remains at the rim, noise, JPEG, scale, position,
rotation and squeeze jitter. Classes: "none" (blank discs, other numbers, weights and widths, letters, bars) and every
European speed value (5, 10…130), in `SpeedDiscClassifier.classValues` order.

Network (input 1 × 1 × 32 × 32: the picture resized with INTER_AREA, values 0…1): three blocks of a 3 × 3
convolution, batch normalisation, ReLU and 2 × 2 max pooling (16, 32, 32 channels), a 64-unit layer, 15 outputs
(the bridge applies the softmax). Trained with PyTorch on the CPU, seeded; PyTorch is a development-time tool only:
the product runs the ONNX bytes with OpenCV's DNN module (Sources/COpenCVSigns/speed_disc_classifier.cpp).
It replaced a HOG + cv::ml::ANN_MLP classifier trained the same way: on the real GTSRB dev discs that one was sure
(≥ 0.7) and wrong on 14 of 361 located frames, this one on none.

No photograph is used (GTSRB's licence keeps it out of git, and the product must not depend on it).

The renderer (`Renderer`, `normalise`, `FONTS`, `VALUES`, `SEED`) is shared with scripts/generate/make-disc-templates.py.

Usage: make-speed-disc-model.py FONTS_DIR OUTPUT.hpp [--dump FOLDER]
  FONTS_DIR: .media-cache/media/fonts (scripts/datasets/fetch-media.sh);
  OUTPUT: Sources/COpenCVSigns/Generated/speed_disc_model.hpp (training takes minutes and needs torch, so
  scripts/generate/check-generated.sh does not re-run it).
  --dump writes every 200th training picture as a PNG. Needs Debian's python3-opencv (its freetype module draws the
  fonts) and python3-numpy, plus torch and onnx: e.g. `python3 -m venv --system-site-packages V; V/bin/pip install
  torch onnx "numpy<2"; V/bin/python scripts/generate/make-speed-disc-model.py …`. About 10 minutes on two cores.
"""

import io
import os
import sys

import cv2
import numpy as np

SEED = 20261123
CANVAS = 72
VALUES = [5] + list(range(10, 131, 10))
CLASSES = ["none"] + [str(v) for v in VALUES]  # class index = position; must match SpeedDiscClassifier.swift
SIDE = 32  # the network's input, as speed_disc_classifier.cpp feeds it
TRAINING_SEED = 20261127
SAMPLES_PER_CLASS = 2000  # "none" gets twice as many: it covers many shapes
EPOCHS = 14
NEGATIVE_TEXTS = ["35", "55", "25", "45", "65", "15", "75", "85", "95", "7,5t", "3,5t", "2,8m", "12t", "6t", "3m",
                  "1", "2", "3", "4", "6", "7", "8", "9", "0", "00", "05", "140", "150", "200", "A", "P", "STOP", "km",
                  "3,8", "4m", "t", "E", "H", ""]
FONTS = ["OSP-DIN.ttf", "RG2014C.ttf", "RG2014D.ttf", "RG2014E.ttf"]


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
            sys.exit(f"make-speed-disc-model: no road fonts in {fonts_dir}: run scripts/datasets/fetch-media.sh first")

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


def normalise(picture):
    """As DigitCropper.classifierImage: outside the disc white, 3rd…97th percentile of the disc stretched to 0…255."""
    yy, xx = np.mgrid[0:CANVAS, 0:CANVAS].astype(np.float32)
    radius = np.hypot((xx + 0.5) / CANVAS * 2 - 1, (yy + 0.5) / CANVAS * 2 - 1)
    disc = radius <= 0.97
    low, high = np.percentile(picture[disc], [3, 97])
    stretched = np.clip((picture - low) * 255 / max(1.0, high - low), 0, 255)
    stretched[~disc] = 255
    return stretched.round().astype(np.uint8)


def degraded(renderer, rng, text, bar=False):
    """One rendered disc made to look like a small, soft, smeared, dim real one, normalised as the cropper does."""
    side = CANVAS * 4
    scale = rng.uniform(0.70, 0.95)
    ink = renderer.text(rng, text, scale).astype(np.float32) / 255
    if bar:
        ink = np.zeros((side, side), np.float32)
        h = int(side * rng.uniform(0.12, 0.3))
        cv2.rectangle(ink, (int(side * 0.15), side // 2 - h // 2), (int(side * 0.85), side // 2 + h // 2), 1, -1)
    angle = rng.uniform(-7, 7)
    shift = rng.uniform(-0.07, 0.07, 2) * side
    matrix = cv2.getRotationMatrix2D((side / 2, side / 2), angle, rng.uniform(0.88, 1.1))
    matrix[:, 2] += shift
    # Seen a little from the side: squeezed across.
    squeeze = rng.uniform(0.82, 1.0)
    matrix[0, :] *= squeeze
    matrix[0, 2] += side / 2 * (1 - squeeze)
    ink = cv2.warpAffine(ink, matrix, (side, side))
    paper = rng.uniform(110, 255)
    dark = rng.uniform(0, max(1, paper - rng.uniform(25, 200)))
    picture = paper - (paper - dark) * ink
    gradient = np.linspace(-1, 1, side, dtype=np.float32)
    direction = rng.uniform(0, 2 * np.pi)
    shade = np.cos(direction) * gradient[None, :] + np.sin(direction) * gradient[:, None]
    picture *= 1 + rng.uniform(0, 0.15) * shade
    if rng.random() < 0.5:
        yy, xx = np.mgrid[0:side, 0:side].astype(np.float32)
        radius = np.hypot(xx - side / 2 + 0.5, yy - side / 2 + 0.5) / (side / 2)
        start = rng.uniform(0.84, 0.97)
        picture = np.where(radius > start, picture * rng.uniform(0.35, 0.85), picture)
    resolution = int(rng.uniform(9, 60))
    picture = cv2.resize(picture, (resolution, resolution), interpolation=cv2.INTER_AREA)
    picture = cv2.resize(picture, (CANVAS, CANVAS), interpolation=cv2.INTER_LINEAR)
    kind = rng.random()
    if kind < 0.35:
        picture = cv2.GaussianBlur(picture, (0, 0), rng.uniform(0.3, 3.5))
    elif kind < 0.75:
        # A smear along any direction, up to a fifth of the disc (a panning camera, a shaking car).
        length = int(rng.integers(2, 16))
        kernel = np.zeros((length, length), np.float32)
        kernel[length // 2, :] = 1 / length
        rotation = cv2.getRotationMatrix2D(((length - 1) / 2, (length - 1) / 2), rng.uniform(0, 180), 1)
        kernel = cv2.warpAffine(kernel, rotation, (length, length))
        kernel /= max(kernel.sum(), 1e-6)
        picture = cv2.filter2D(picture, -1, kernel)
        if rng.random() < 0.3:
            picture = cv2.GaussianBlur(picture, (0, 0), rng.uniform(0.3, 1.5))
    picture += rng.normal(0, rng.uniform(0, 7), picture.shape).astype(np.float32)
    if rng.random() < 0.5:
        ok, encoded = cv2.imencode(".jpg", np.clip(picture, 0, 255).astype(np.uint8),
                                   [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(30, 90))])
        picture = cv2.imdecode(encoded, cv2.IMREAD_GRAYSCALE).astype(np.float32)
    return normalise(picture)


def network_input(picture):
    return cv2.resize(picture, (SIDE, SIDE), interpolation=cv2.INTER_AREA).astype(np.float32) / 255


def make_network(nn):
    """The classifier's layers (`nn`: torch.nn, imported only when training)."""

    def block(inputs, outputs):
        return [nn.Conv2d(inputs, outputs, 3, padding=1), nn.BatchNorm2d(outputs), nn.ReLU(), nn.MaxPool2d(2)]

    return nn.Sequential(*block(1, 16), *block(16, 32), *block(32, 32), nn.Flatten(), nn.Linear(32 * 4 * 4, 64),
                         nn.ReLU(), nn.Dropout(0.3), nn.Linear(64, len(CLASSES)))


def make_set(renderer, rng, per_class):
    pictures, labels = [], []
    for index, name in enumerate(CLASSES):
        count = per_class * 2 if name == "none" else per_class
        for _ in range(count):
            if name == "none":
                picture = degraded(renderer, rng, NEGATIVE_TEXTS[rng.integers(len(NEGATIVE_TEXTS))],
                                   bar=rng.random() < 0.15)
            else:
                picture = degraded(renderer, rng, name)
            pictures.append(picture)
            labels.append(index)
    return pictures, np.array(labels, np.int64)


def main():
    arguments = sys.argv[1:]
    dump = None
    if "--dump" in arguments:
        at = arguments.index("--dump")
        dump = arguments[at + 1]
        del arguments[at:at + 2]
    if len(arguments) != 2:
        sys.exit("usage: make-speed-disc-model.py FONTS_DIR OUTPUT.hpp [--dump FOLDER]")
    fonts_dir, output = arguments
    import torch  # development-time only (see the module's notes)
    from torch import nn
    rng = np.random.default_rng(TRAINING_SEED)
    cv2.setRNGSeed(TRAINING_SEED)
    torch.manual_seed(TRAINING_SEED)
    torch.set_num_threads(max(1, os.cpu_count() or 1))
    renderer = Renderer(fonts_dir)
    pictures, labels = make_set(renderer, rng, SAMPLES_PER_CLASS)
    check_pictures, check_labels = make_set(renderer, rng, max(50, SAMPLES_PER_CLASS // 10))
    if dump:
        os.makedirs(dump, exist_ok=True)
        for index in range(0, len(pictures), max(1, len(pictures) // 200)):
            cv2.imwrite(os.path.join(dump, f"{CLASSES[labels[index]]}_{index:06d}.png"), pictures[index])
    inputs = torch.from_numpy(np.stack([network_input(p) for p in pictures])[:, None])
    targets = torch.from_numpy(labels)
    check_inputs = torch.from_numpy(np.stack([network_input(p) for p in check_pictures])[:, None])
    check_targets = torch.from_numpy(check_labels)

    model = make_network(nn)
    optimiser = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=1e-4)
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimiser, max_lr=3e-3, total_steps=EPOCHS * (len(inputs) // 128 + 1))
    loss_function = nn.CrossEntropyLoss(label_smoothing=0.05)
    for epoch in range(EPOCHS):
        model.train()
        order = torch.randperm(len(inputs))
        total = 0.0
        for start in range(0, len(inputs), 128):
            batch = order[start:start + 128]
            optimiser.zero_grad()
            loss = loss_function(model(inputs[batch]), targets[batch])
            loss.backward()
            optimiser.step()
            schedule.step()
            total += float(loss.detach()) * len(batch)
        model.eval()
        with torch.no_grad():
            predicted = model(check_inputs).argmax(1)
        accuracy = float((predicted == check_targets).float().mean())
        print(f"epoch {epoch + 1}: loss {total / len(inputs):.4f}, held-out rendered accuracy {accuracy:.4f}",
              flush=True)

    model.eval()
    buffer = io.BytesIO()
    torch.onnx.export(model, torch.zeros(1, 1, SIDE, SIDE), buffer, input_names=["disc"], output_names=["scores"],
                      opset_version=11, do_constant_folding=True, dynamo=False)
    data = buffer.getvalue()
    with open(output, "w") as handle:
        handle.write("// Generated by scripts/generate/make-speed-disc-model.py from rendered road-font digits; do not edit.\n")
        handle.write(f"// Classes (output index order): {' '.join(CLASSES)}\n")
        handle.write(f"// Input: 1 x 1 x {SIDE} x {SIDE}, grey 0...1. ONNX, {len(data)} bytes.\n")
        handle.write(f"static const int kSpeedDiscModelSide = {SIDE};\n")
        handle.write("static const unsigned char kSpeedDiscModel[] = {\n")
        for start in range(0, len(data), 24):
            handle.write("    " + ", ".join(f"0x{b:02x}" for b in data[start:start + 24]) + ",\n")
        handle.write("};\n")
    print(f"make-speed-disc-model: {len(labels)} samples, {len(CLASSES)} classes, {len(data)} bytes of ONNX -> {output}")



if __name__ == "__main__":
    main()
