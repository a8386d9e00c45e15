#!/usr/bin/env python3
"""Turns the text-line recogniser that the rapidocr-onnxruntime package ships (PP-OCRv4 "rec", Apache-2.0) into the
model the speed-limit reader runs with OpenCV 4.6's DNN module (COpenCVBridge, text_line_recogniser.cpp).

Usage: make-text-line-model.py PACKAGE_MODEL OUTPUT WIDTH

OpenCV 4.6 cannot import the packaged graph as it is, so this script rewrites it without changing what it computes:
- the input is fixed to 1 x 3 x 48 x WIDTH and the shape arithmetic folded away (onnxsim): OpenCV 4.6 refuses
  Shape on dynamic sizes;
- Clip takes its bounds as attributes (OpenCV 4.6 reads only the opset-6 form);
- constants become initialisers, and the layer-norm scales and shifts (one value per channel, broadcast over a
  sequence) are stored at the full sequence shape: OpenCV 4.6 broadcasts such a constant along the wrong axis;
- Gemm weights are stored transposed (transB = 1): OpenCV 4.6 takes the output count from the wrong axis otherwise;
- the last layer keeps only the classes the reader needs: CTC blank, the digits 0-9, then every other printable
  ASCII character of the dictionary (so that a letter is read as a letter, not forced onto a digit). The model's
  6 624 other (mostly CJK) characters go, which makes the layer 60 times smaller.

Output classes, in order (the bridge relies on it): 0 blank, 1-10 the digits "0"-"9", 11… other characters.
The list of those other characters is stored in the model's metadata ("classes") for reference.
"""
import string
import sys

import numpy as np
import onnx
import onnxsim
from onnx import helper, numpy_helper

HEIGHT = 48


def main(source, output, width):
    model = onnx.load(source)
    dictionary = next(p.value for p in model.metadata_props if p.key == "character").split("\n")
    # Class 0 is CTC's blank, then the dictionary, then a space (PaddleOCR's use_space_char).
    classes = ["<blank>"] + dictionary + [" "]

    dims = model.graph.input[0].type.tensor_type.shape.dim
    for dim, value in zip(dims, [1, 3, HEIGHT, width]):
        dim.ClearField("dim_param")
        dim.dim_value = value
    model, ok = onnxsim.simplify(model)
    if not ok:
        sys.exit("make-text-line-model: onnxsim could not check the simplified model")
    model = onnx.shape_inference.infer_shapes(model)
    shapes = {v.name: [d.dim_value for d in v.type.tensor_type.shape.dim] for v in model.graph.value_info}
    graph = model.graph

    # Constants as initialisers: OpenCV reads weights of Gemm and element-wise layers from either, but one place is
    # simpler to rewrite.
    nodes = []
    for node in graph.node:
        if node.op_type == "Constant":
            tensor = node.attribute[0].t
            tensor.name = node.output[0]
            graph.initializer.append(tensor)
        else:
            nodes.append(node)
    del graph.node[:]
    graph.node.extend(nodes)
    initialisers = {t.name: t for t in graph.initializer}

    def array(name):
        return numpy_helper.to_array(initialisers[name])

    def store(name, value):
        initialisers[name].CopyFrom(numpy_helper.from_array(np.ascontiguousarray(value), name))

    for node in graph.node:
        if node.op_type == "Clip" and len(node.input) > 1:
            bounds = [float(array(name)) if name else None for name in list(node.input[1:3])]
            del node.input[1:]
            for attribute, bound in zip(["min", "max"], bounds):
                if bound is not None:
                    node.attribute.append(helper.make_attribute(attribute, bound))
        elif node.op_type in ("Add", "Mul", "Sub", "Div") and node.input[1] in initialisers:
            value, shape = array(node.input[1]), shapes.get(node.input[0], [])
            if value.ndim == 1 and value.size > 1 and len(shape) == 3:
                store(node.input[1], np.broadcast_to(value.reshape(1, 1, -1), shape).astype(value.dtype))
        elif node.op_type == "Gemm":
            trans_b = next((a for a in node.attribute if a.name == "transB"), None)
            if trans_b is None:
                trans_b = helper.make_attribute("transB", 0)
                node.attribute.append(trans_b)
            if trans_b.i == 0:
                store(node.input[1], array(node.input[1]).T)
                trans_b.i = 1

    # The last Gemm (features → classes), the Reshape after it and the Softmax: keep the reader's classes only.
    last_gemm = [n for n in graph.node if n.op_type == "Gemm"][-1]
    weights, bias = array(last_gemm.input[1]), array(last_gemm.input[2])
    if weights.shape[0] != len(classes):
        sys.exit(f"make-text-line-model: the last layer has {weights.shape[0]} outputs, the dictionary {len(classes)}")
    printable = set(string.digits + string.ascii_letters + string.punctuation)
    others = [i for i, c in enumerate(classes) if c in printable and c not in string.digits]
    kept = [0] + [classes.index(d) for d in string.digits] + others
    store(last_gemm.input[1], weights[kept])
    store(last_gemm.input[2], bias[kept])
    for node in graph.node:
        if node.op_type == "Reshape" and node.input[0] == last_gemm.output[0]:
            target = array(node.input[1]).copy()
            target[-1] = len(kept)
            store(node.input[1], target)
    del graph.value_info[:]
    output_dims = graph.output[0].type.tensor_type.shape.dim
    output_dims[-1].ClearField("dim_param")
    output_dims[-1].dim_value = len(kept)

    del model.metadata_props[:]
    entry = model.metadata_props.add()
    entry.key, entry.value = "classes", "".join(classes[i] for i in kept[11:])
    onnx.save(model, output)
    print(f"make-text-line-model: {output}: input 1x3x{HEIGHT}x{width}, {len(kept)} classes")


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2], int(sys.argv[3]))
