#!/usr/bin/env python3
"""Builds the tiny ONNX models the detection tests decode, with outputs known exactly.

Each model reads a 1x3xHxW image, averages it per channel (GlobalAveragePool), and feeds the three means through
a 1x1 convolution whose bias holds the wanted output and whose weights are zero (fixed models) or pick channel
means (the probe). A Reshape gives the YOLO layout. So the output is fixed by construction, yet it depends on the
input graph-wise, which keeps OpenCV from folding the network away.

Usage: make-test-onnx.py OUTPUT_DIR [--bench]   (needs `pip install onnx`)

Writes:
  yolov8-fixed.onnx   1x7x16  YOLOv8/v11 layout, classes person, car, dog (see FIXED_V8 below)
  yolov5-fixed.onnx   1x16x8  YOLOv5 layout with objectness, same classes (see FIXED_V5)
  yolov8-malformed.onnx  1x7x16  v8 layout with NaN, infinite and negative values and a score of 5 (MALFORMED_V8)
  probe-v8.onnx       1x5x1   one v8 candidate (cx, cy, w) = (300 mean R, 300 mean G + 150, 300 mean B) of the
                              network input, height 10, score 1: tells the tests what the letterboxed input was
  centroid-v8.onnx    1x7x1   one person at the brightness centroid of the network input, 64x64 network pixels,
                              score 1: finds a bright object on black exactly (frame-accuracy tests)
  classes.txt         person, car, dog
The Swift tests (Tests/StreamLensDetectionTests/ONNXDetectorTests.swift) hold the expected decoded boxes.

With --bench it also writes
  bench-yolov8n-shaped.onnx   a plain conv network with random (seeded) weights, 640x640 input, three heads at
                              strides 8/16/32 concatenated to 1x84x8400 like YOLOv8n, about 7 GFLOPs: detects
                              nothing, but costs about what a real small YOLO costs (for timing only)
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

INPUT_SIZE = 320
CLASSES = ["person", "car", "dog"]

# YOLOv8 candidates in network-input pixels: (cx, cy, w, h, score person, score car, score dog).
FIXED_V8 = [
    (100, 150, 40, 80, 0.90, 0.00, 0.00),  # kept
    (104, 150, 40, 80, 0.80, 0.00, 0.00),  # IoU 0.82 with the first: suppressed by NMS
    (100, 150, 40, 80, 0.00, 0.70, 0.00),  # same box, other class: kept (NMS is per class)
    (250, 200, 20, 20, 0.00, 0.00, 0.30),  # below the 0.5 threshold
    (250, 160, 60, 40, 0.60, 0.00, 0.00),  # kept
    (124, 150, 40, 80, 0.85, 0.00, 0.00),  # IoU 0.25 with the first: kept
    (310, 90, 40, 60, 0.55, 0.00, 0.00),   # reaches into the padding and past the right edge: clamped
]
V8_CANDIDATES = 16  # the rest are all-zero candidates

# What a broken export can emit, in the same layout: only the first and the last are usable.
MALFORMED_V8 = [
    (100, 150, 40, 80, 0.90, 0.00, 0.00),           # kept
    (float("nan"), 150, 40, 80, 0.95, 0.00, 0.00),  # NaN centre: dropped
    (250, 160, -40, 40, 0.95, 0.00, 0.00),          # negative width: dropped (and must not upset NMS)
    (250, 100, 40, 40, float("inf"), 0.00, 0.00),   # infinite score: dropped
    (250, 200, 40, 40, 0.00, 5.00, 0.00),           # a logit, not a probability: kept as confidence 1
]

# YOLOv5 candidates: (cx, cy, w, h, objectness, score person, score car, score dog).
FIXED_V5 = [
    (260, 230, 40, 40, 0.90, 0.60, 0.00, 0.00),    # 0.9 x 0.6 = 0.54: kept
    (60, 60, 40, 40, 0.90, 0.00, 0.50, 0.00),      # 0.9 x 0.5 = 0.45: below 0.5
    (200, 100, 40, 40, 0.40, 1.00, 0.00, 0.00),    # objectness 0.4: below 0.5
    (60, 200, 40, 40, 1.00, 0.70, 0.00, 0.80),     # best class dog 0.8: kept as dog
    (170, 160, 100, 100, 1.00, 0.95, 0.00, 0.00),  # kept
    (175, 160, 100, 100, 0.80, 0.90, 0.00, 0.00),  # 0.72, IoU 0.90 with the one above: suppressed
]
V5_CANDIDATES = 16  # more candidates than attributes, as in real models

PROBE_GAIN = 300


def fixed_model(values, output_shape, name):
    """A model whose single output is `values` reshaped to `output_shape`, whatever the input."""
    count = int(np.prod(output_shape))
    bias = np.zeros(count, dtype=np.float32)
    bias[: values.size] = values.ravel()
    weights = np.zeros((count, 3, 1, 1), dtype=np.float32)
    return build(weights, bias, output_shape, name)


def finished_model(nodes, initializers, name, input_size, output_shape, producer="streamlens-test"):
    """The checked model of `nodes` from a 1×3×input_size² "images" input to an "output0" of `output_shape`."""
    image = helper.make_tensor_value_info("images", TensorProto.FLOAT, [1, 3, input_size, input_size])
    output = helper.make_tensor_value_info("output0", TensorProto.FLOAT, list(output_shape))
    graph = helper.make_graph(nodes, name, [image], [output], initializers)
    model = helper.make_model(graph, producer_name=producer, opset_imports=[helper.make_opsetid("", 11)])
    model.ir_version = 7  # old enough for OpenCV 4.6's importer
    onnx.checker.check_model(model)
    return model


def build(weights, bias, output_shape, name):
    initializers = [
        numpy_helper.from_array(weights, "conv_weight"),
        numpy_helper.from_array(bias, "conv_bias"),
        numpy_helper.from_array(np.array(output_shape, dtype=np.int64), "output_shape"),
    ]
    nodes = [
        helper.make_node("GlobalAveragePool", ["images"], ["channel_means"]),
        helper.make_node("Conv", ["channel_means", "conv_weight", "conv_bias"], ["values"], kernel_shape=[1, 1]),
        helper.make_node("Reshape", ["values", "output_shape"], ["output0"]),
    ]
    return finished_model(nodes, initializers, name, INPUT_SIZE, output_shape)


def v8_values():
    # Layout 1 x (4 + classes) x candidates: attribute rows, one column per candidate.
    table = np.zeros((4 + len(CLASSES), V8_CANDIDATES), dtype=np.float32)
    for column, candidate in enumerate(FIXED_V8):
        table[:, column] = candidate
    return table


def malformed_v8_values():
    table = np.zeros((4 + len(CLASSES), V8_CANDIDATES), dtype=np.float32)
    for column, candidate in enumerate(MALFORMED_V8):
        table[:, column] = candidate
    return table


def v5_values():
    # Layout 1 x candidates x (5 + classes): one row per candidate.
    table = np.zeros((V5_CANDIDATES, 5 + len(CLASSES)), dtype=np.float32)
    for row, candidate in enumerate(FIXED_V5):
        table[row, :] = candidate
    return table


def probe_model():
    # One v8 candidate (rows cx, cy, w, h, score): cx = 300 mean R, cy = 300 mean G + 150, w = 300 mean B,
    # h = 10, score 1. The network input is RGB scaled to 0…1, so the means reveal colour order, scale and
    # padding; the offsets keep the box inside the letterboxed frame of the tests.
    weights = np.zeros((5, 3, 1, 1), dtype=np.float32)
    weights[0, 0, 0, 0] = PROBE_GAIN
    weights[1, 1, 0, 0] = PROBE_GAIN
    weights[2, 2, 0, 0] = PROBE_GAIN
    bias = np.array([0, 150, 0, 10, 1], dtype=np.float32)
    return build(weights, bias, (1, 5, 1), "probe_v8")


CENTROID_BOX = 64


def centroid_model():
    # A full-frame convolution gives mean(I·x), mean(I·y) and mean(I) of the input brightness I (mean of the three
    # channels, pixel centres at +0.5); two 1x1 convolutions line up (mean(I·x), mean(I·y)) and (mean(I), mean(I)),
    # and their quotient is the brightness centroid: the box centre. A third 1x1 convolution with zero weights
    # supplies the constant rows (w, h, score person, car, dog).
    n = INPUT_SIZE * INPUT_SIZE
    ys, xs = np.mgrid[0:INPUT_SIZE, 0:INPUT_SIZE].astype(np.float32) + 0.5
    moments = np.zeros((3, 3, INPUT_SIZE, INPUT_SIZE), dtype=np.float32)
    for channel in range(3):
        moments[0, channel] = xs / (3 * n)
        moments[1, channel] = ys / (3 * n)
        moments[2, channel] = 1.0 / (3 * n)
    numerator = np.zeros((2, 3, 1, 1), dtype=np.float32)
    numerator[0, 0, 0, 0] = 1
    numerator[1, 1, 0, 0] = 1
    denominator = np.zeros((2, 3, 1, 1), dtype=np.float32)
    denominator[0, 2, 0, 0] = 1
    denominator[1, 2, 0, 0] = 1
    constants_bias = np.array([CENTROID_BOX, CENTROID_BOX, 1, 0, 0], dtype=np.float32)
    initializers = [
        numpy_helper.from_array(moments, "moments_w"),
        numpy_helper.from_array(numerator, "numerator_w"),
        numpy_helper.from_array(denominator, "denominator_w"),
        numpy_helper.from_array(np.zeros((5, 3, 1, 1), dtype=np.float32), "constants_w"),
        numpy_helper.from_array(constants_bias, "constants_b"),
        numpy_helper.from_array(np.array([1, 7, 1], dtype=np.int64), "output_shape"),
    ]
    nodes = [
        helper.make_node("Conv", ["images", "moments_w"], ["moments"], kernel_shape=[INPUT_SIZE, INPUT_SIZE]),
        helper.make_node("Conv", ["moments", "numerator_w"], ["numerator"], kernel_shape=[1, 1]),
        helper.make_node("Conv", ["moments", "denominator_w"], ["denominator"], kernel_shape=[1, 1]),
        helper.make_node("Div", ["numerator", "denominator"], ["centre"]),
        helper.make_node("Conv", ["moments", "constants_w", "constants_b"], ["constants"], kernel_shape=[1, 1]),
        helper.make_node("Concat", ["centre", "constants"], ["values"], axis=1),
        helper.make_node("Reshape", ["values", "output_shape"], ["output0"]),
    ]
    return finished_model(nodes, initializers, "centroid_v8", INPUT_SIZE, [1, 7, 1])


def bench_model():
    rng = np.random.default_rng(5)
    initializers = []
    nodes = []

    def conv(source, name, in_channels, out_channels, kernel, stride, relu=True, gain=1.0, bias=0.0):
        fan_in = in_channels * kernel * kernel
        weight = (rng.standard_normal((out_channels, in_channels, kernel, kernel)) * gain * np.sqrt(2.0 / fan_in))
        initializers.append(numpy_helper.from_array(weight.astype(np.float32), name + "_w"))
        initializers.append(numpy_helper.from_array(np.full(out_channels, bias, dtype=np.float32), name + "_b"))
        pad = kernel // 2
        nodes.append(helper.make_node("Conv", [source, name + "_w", name + "_b"], [name + "_conv"],
                                      kernel_shape=[kernel, kernel], strides=[stride, stride], pads=[pad] * 4))
        if not relu:
            return name + "_conv"
        nodes.append(helper.make_node("Relu", [name + "_conv"], [name]))
        return name

    x = conv("images", "stem", 3, 16, 3, 2)
    x = conv(x, "down1", 16, 32, 3, 2)
    x = conv(conv(x, "c1a", 32, 32, 3, 1), "c1b", 32, 32, 3, 1)
    features = []
    channels = 32
    for level, width in enumerate([64, 128, 256]):
        x = conv(x, f"down{level + 2}", channels, width, 3, 2)
        x = conv(conv(x, f"c{level + 2}a", width, width, 3, 1), f"c{level + 2}b", width, width, 3, 1)
        features.append((x, width))
        channels = width
    heads = []
    for level, (feature, width) in enumerate(features):
        h = conv(feature, f"head{level}", width, width, 3, 1)
        # Tiny weights and a negative bias: scores stay near sigmoid(-5), so nothing passes the threshold.
        h = conv(h, f"pred{level}", width, 84, 1, 1, relu=False, gain=0.01, bias=-5.0)
        nodes.append(helper.make_node("Sigmoid", [h], [f"score{level}"]))
        initializers.append(numpy_helper.from_array(np.array([1, 84, -1], dtype=np.int64), f"flat{level}_shape"))
        nodes.append(helper.make_node("Reshape", [f"score{level}", f"flat{level}_shape"], [f"flat{level}"]))
        heads.append(f"flat{level}")
    nodes.append(helper.make_node("Concat", heads, ["output0"], axis=2))
    return finished_model(nodes, initializers, "bench_yolov8n_shaped", 640, [1, 84, 8400],
                          producer="streamlens-bench")


def main():
    arguments = [a for a in sys.argv[1:] if a != "--bench"]
    if len(arguments) != 1:
        sys.exit("usage: make-test-onnx.py OUTPUT_DIR [--bench]")
    out = arguments[0]
    os.makedirs(out, exist_ok=True)
    onnx.save(fixed_model(v8_values(), (1, 4 + len(CLASSES), V8_CANDIDATES), "fixed_v8"),
              os.path.join(out, "yolov8-fixed.onnx"))
    onnx.save(fixed_model(v5_values(), (1, V5_CANDIDATES, 5 + len(CLASSES)), "fixed_v5"),
              os.path.join(out, "yolov5-fixed.onnx"))
    onnx.save(fixed_model(malformed_v8_values(), (1, 4 + len(CLASSES), V8_CANDIDATES), "malformed_v8"),
              os.path.join(out, "yolov8-malformed.onnx"))
    onnx.save(probe_model(), os.path.join(out, "probe-v8.onnx"))
    onnx.save(centroid_model(), os.path.join(out, "centroid-v8.onnx"))
    with open(os.path.join(out, "classes.txt"), "w") as names:
        names.write("\n".join(CLASSES) + "\n")
    if "--bench" in sys.argv[1:]:
        onnx.save(bench_model(), os.path.join(out, "bench-yolov8n-shaped.onnx"))


if __name__ == "__main__":
    main()
