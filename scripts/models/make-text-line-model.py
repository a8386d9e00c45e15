#!/usr/bin/env python3
"""Turns the text-line recogniser that the rapidocr-onnxruntime package ships (PP-OCRv4 "rec", Apache-2.0) into the
model the speed-limit reader runs with OpenCV 4.6's DNN module (COpenCVSigns, text_line_recogniser.cpp).

Usage: make-text-line-model.py PACKAGE_MODEL OUTPUT WIDTH

OpenCV 4.6 cannot import the packaged graph as it is, so this script rewrites it without changing what it computes:
- the input is fixed to 1 x 3 x 48 x WIDTH and the shape arithmetic folded away (onnxsim): OpenCV 4.6 refuses
  Shape on dynamic sizes;
- Clip takes its bounds as attributes (OpenCV 4.6 reads only the opset-6 form);
- constants become initialisers, and the layer-norm scales and shifts (one value per channel, broadcast over a
  sequence) are stored at the full sequence shape: OpenCV 4.6 broadcasts such a constant along the wrong axis;
- Gemm weights are stored transposed (transB = 1): OpenCV 4.6 takes the output count from the wrong axis otherwise;
- the single value added to a convolution's output (the network's learnable shift after each convolution) goes into
  the convolution's bias: OpenCV 4.6 would fuse that Add into the convolution at the first forward pass and keep a
  second copy of the weights to do it (4.3 MB resident);
- the learnable affine after each activation (two single values) goes into the convolution that reads it (its
  weights, and its bias unless it pads: then an Add stays before it), and each hard-swish (four nodes) is written
  as x * HardSigmoid(x), which OpenCV 4.6 runs as one layer: a forward pass ~5 % less CPU;
- each 5 x 5 depthwise convolution becomes the sum of four 3 x 3 ones, one per quarter of its kernel (zero-filled,
  with the padding that lines each quarter up): OpenCV 4.6 has a fast path for 3 x 3 depthwise convolutions only,
  and the 5 x 5 ones took most of a forward pass;
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
        store_initialiser(graph, initialisers, name, value)

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

    shifts_folded = fold_shifts_into_convolutions(graph, initialisers)
    affines_folded = fold_affines_into_convolutions(graph, initialisers)
    hard_swishes = write_hard_swishes_as_one_layer(graph, initialisers)
    convolutions_split = split_depthwise_convolutions(graph, initialisers)

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
    print(f"make-text-line-model: {output}: input 1x3x{HEIGHT}x{width}, {len(kept)} classes, "
          f"{shifts_folded} shifts and {affines_folded} affines moved into convolutions, {hard_swishes} hard-swishes "
          f"rewritten, {convolutions_split} 5 x 5 convolutions split")


def fold_shifts_into_convolutions(graph, initialisers):
    """Adds each single value that is added to a convolution's output (the network's learnable shift after every
    convolution) to the convolution's bias instead, where that Add is the output's only reader. Returns how many.

    OpenCV 4.6 fuses such an Add into the convolution itself at the first forward pass, and copies the convolution's
    weights to do so: 4.3 MB more resident memory for this model. Folded here, the weights are
    kept once.
    """
    readers = node_readers(graph)
    folded = set()
    for conv in graph.node:
        if not is_plain_convolution(conv, initialisers):
            continue
        add = only_reader(readers, conv.output[0])
        shift = single_value_input(add, "Add", initialisers)
        if shift is None or shift[1] != conv.output[0]:
            continue
        bias_name = conv.output[0] + "/shifted_bias"
        store_initialiser(graph, initialisers, bias_name, bias_of(conv, initialisers) + shift[0])
        del conv.input[2:]
        conv.input.append(bias_name)
        conv.output[0] = add.output[0]
        folded.add(id(add))
    remove_nodes(graph, folded, initialisers)
    return len(folded)


def fold_affines_into_convolutions(graph, initialisers):
    """Moves the learnable affine after each activation (y = s * x + t, two single values) into the convolution that
    reads y, where the Add is the Mul's only reader, the convolution y's, and nothing else reads its weights. s scales
    the weights; t goes into the bias when the convolution pads nothing (t times the sum of each output's weights),
    else stays as one Add of t / s before it, so that its padding is still zero. Returns how many affines moved.
    """
    readers = node_readers(graph)
    removed, moved = set(), 0
    for mul in graph.node:
        scale = single_value_input(mul, "Mul", initialisers)
        add = only_reader(readers, mul.output[0]) if scale is not None and abs(scale[0]) > 1e-6 else None
        shift = single_value_input(add, "Add", initialisers)
        if shift is None or shift[1] != mul.output[0]:
            continue
        conv = only_reader(readers, add.output[0])
        if not is_plain_convolution(conv, initialisers) or conv.input[0] != add.output[0] \
                or len(readers[conv.input[1]]) != 1:
            continue
        (s, x), t = scale, shift[0]
        weights = numpy_helper.to_array(initialisers[conv.input[1]])
        store_initialiser(graph, initialisers, conv.input[1], weights * s)
        attributes = {a.name: helper.get_attribute_value(a) for a in conv.attribute}
        pads = attributes.get("pads", [0, 0, 0, 0])
        auto_pad = attributes.get("auto_pad", b"NOTSET")
        if all(pad == 0 for pad in pads) and auto_pad in (b"NOTSET", b"VALID"):
            bias_name = conv.output[0] + "/affine_bias"
            store_initialiser(graph, initialisers, bias_name,
                              bias_of(conv, initialisers) + t * weights.sum(axis=(1, 2, 3)))
            del conv.input[2:]
            conv.input.append(bias_name)
            conv.input[0] = x
            removed.update((id(mul), id(add)))
        else:
            shift_name = add.output[0] + "/shift_over_scale"
            store_initialiser(graph, initialisers, shift_name, np.array([t / s], dtype=weights.dtype))
            del add.input[:]
            add.input.extend([x, shift_name])
            removed.add(id(mul))
        moved += 1
    remove_nodes(graph, removed, initialisers)
    return moved


def write_hard_swishes_as_one_layer(graph, initialisers):
    """Writes each hard-swish, x * clip(x + 3, 0, 6) / 6 (four nodes), as x * HardSigmoid(x) with alpha 1/6 and beta
    1/2, which OpenCV 4.6 runs as a single HardSwish layer. Returns how many.
    """
    readers = node_readers(graph)
    replacements = {}
    for add in graph.node:
        three = single_value_input(add, "Add", initialisers)
        if three is None or three[0] != 3.0:
            continue
        x = three[1]
        clip = only_reader(readers, add.output[0])
        bounds = {a.name: helper.get_attribute_value(a) for a in clip.attribute} if clip is not None else {}
        if clip is None or clip.op_type != "Clip" or bounds.get("min") != 0.0 or bounds.get("max") != 6.0:
            continue
        mul = only_reader(readers, clip.output[0])
        if mul is None or mul.op_type != "Mul" or sorted(mul.input) != sorted([x, clip.output[0]]):
            continue
        div = only_reader(readers, mul.output[0])
        six = single_value_input(div, "Div", initialisers)
        if six is None or six[0] != 6.0 or div.input[0] != mul.output[0]:
            continue
        gate = clip.output[0] + "/hard_sigmoid"
        replacements[id(add)] = [
            helper.make_node("HardSigmoid", [x], [gate], name=gate, alpha=1.0 / 6, beta=0.5),
            helper.make_node("Mul", [x, gate], [div.output[0]], name=div.output[0])]
        replacements.update({id(node): [] for node in (clip, mul, div)})
    rewritten = [new for node in graph.node for new in replacements.get(id(node), [node])]
    del graph.node[:]
    graph.node.extend(rewritten)
    drop_unused_initialisers(graph, initialisers)
    return sum(1 for nodes in replacements.values() if nodes)


def node_readers(graph):
    """The nodes reading each tensor, by name; a graph output counts as a reader (None)."""
    readers = {}
    for node in graph.node:
        for name in node.input:
            readers.setdefault(name, []).append(node)
    for output in graph.output:
        readers.setdefault(output.name, []).append(None)
    return readers


def only_reader(readers, name):
    """The one node reading tensor `name`, or None (none, several, or the graph's output)."""
    nodes = readers.get(name, [])
    return nodes[0] if len(nodes) == 1 else None


def single_value_input(node, op_type, initialisers):
    """(value, other input) when `node` is an `op_type` of two inputs one of which is a single-value initialiser."""
    if node is None or node.op_type != op_type or len(node.input) != 2:
        return None
    for constant, other in (node.input, reversed(node.input)):
        value = numpy_helper.to_array(initialisers[constant]) if constant in initialisers else None
        if value is not None and value.size == 1:
            return float(value.reshape(())), other
    return None


def is_plain_convolution(node, initialisers):
    """A 2-D Conv whose weights (and bias, if any) are initialisers."""
    return node is not None and node.op_type == "Conv" and node.input[1] in initialisers \
        and len(initialisers[node.input[1]].dims) == 4 \
        and (len(node.input) < 3 or not node.input[2] or node.input[2] in initialisers)


def bias_of(conv, initialisers):
    """The convolution's bias, zeros when it has none."""
    if len(conv.input) > 2 and conv.input[2]:
        return numpy_helper.to_array(initialisers[conv.input[2]])
    return np.zeros(initialisers[conv.input[1]].dims[0], dtype=np.float32)


def store_initialiser(graph, initialisers, name, value):
    """Sets initialiser `name` to `value` (of its own type), adding it when it is new."""
    tensor = numpy_helper.from_array(np.ascontiguousarray(value), name)
    if name in initialisers:
        initialisers[name].CopyFrom(tensor)
    else:
        graph.initializer.append(tensor)
        initialisers[name] = tensor


def remove_nodes(graph, removed, initialisers):
    kept = [node for node in graph.node if id(node) not in removed]
    del graph.node[:]
    graph.node.extend(kept)
    drop_unused_initialisers(graph, initialisers)


def drop_unused_initialisers(graph, initialisers):
    still_used = {name for node in graph.node for name in node.input} \
        | {value.name for value in list(graph.input) + list(graph.output)}
    for tensor in [t for t in graph.initializer if t.name not in still_used]:
        graph.initializer.remove(tensor)
        del initialisers[tensor.name]


def split_depthwise_convolutions(graph, initialisers):
    """Rewrites each 5 x 5 depthwise convolution (padding 2, any stride) as four 3 x 3 ones and a Sum; returns how many.

    Output row i of the 5 x 5 one reads input rows s*i - 2 ... s*i + 2. The quarter of kernel rows 0-2 is a 3 x 3
    kernel padded 2 above and 0 below; the quarter of rows 3-4 sits in rows 1-2 of a 3 x 3 kernel (row 0 zero),
    padded 0 above and 2 below, so that it reads rows s*i + 1 and s*i + 2. Columns likewise. Every output keeps its
    size; the bias is added once. The 5 x 5 weights, no longer used, are dropped.
    """
    # Per half of the kernel (rows or columns): its slice, the padding before it, where it sits in the 3 x 3 kernel.
    halves = ((slice(0, 3), 2, 0), (slice(3, 5), 0, 1))
    rewritten, split = [], 0
    for node in graph.node:
        attributes = {a.name: helper.get_attribute_value(a) for a in node.attribute}
        weights = initialisers.get(node.input[1]) if node.op_type == "Conv" and len(node.input) > 1 else None
        if weights is None or list(weights.dims[1:]) != [1, 5, 5] or attributes.get("group") != weights.dims[0] \
                or list(attributes.get("pads", [])) != [2, 2, 2, 2] \
                or any(d != 1 for d in attributes.get("dilations", [1, 1])):
            rewritten.append(node)
            continue
        kernel = numpy_helper.to_array(weights)
        channels = kernel.shape[0]
        quarters = []
        for row_half, (rows, top, first_row) in enumerate(halves):
            for column_half, (columns, left, first_column) in enumerate(halves):
                piece = kernel[:, :, rows, columns]
                quarter = np.zeros((channels, 1, 3, 3), dtype=kernel.dtype)
                quarter[:, :, first_row:first_row + piece.shape[2], first_column:first_column + piece.shape[3]] = piece
                name = f"{node.output[0]}/quarter{row_half}{column_half}"
                store_initialiser(graph, initialisers, name + "/weights", quarter)
                bias = list(node.input[2:3]) if not quarters else []
                rewritten.append(helper.make_node(
                    "Conv", [node.input[0], name + "/weights"] + bias, [name], name=name, group=channels,
                    kernel_shape=[3, 3], pads=[top, left, 2 - top, 2 - left],
                    strides=list(attributes.get("strides", [1, 1]))))
                quarters.append(name)
        rewritten.append(helper.make_node("Sum", quarters, [node.output[0]], name=node.output[0] + "/sum"))
        split += 1
    del graph.node[:]
    graph.node.extend(rewritten)
    drop_unused_initialisers(graph, initialisers)
    return split


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2], int(sys.argv[3]))
