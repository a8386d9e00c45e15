#!/usr/bin/env python3
"""Cuts a GoPro MP4 down to its GPMF metadata track: ftyp, a moov holding mvhd and the `gpmd` trak only (its sample
table rewritten to one sample per chunk), and an mdat holding only that track's samples, byte for byte.

Usage: python3 scripts/generate/make-gpmf-fixture.py IN.mp4 OUT.mp4
Made once from gopro/gpmf-parser's samples/max-heromode.mp4 (Apache-2.0 or MIT, see MEDIA.md) into
Tests/Fixtures/gpmf/max-heromode-gpmd.mp4: the real payloads and timings in 60 KB instead of 3.7 MB, so the MP4 walk
is tested in CI, where the full sample is not available. StreamLensTelemetryTests read both and expect the same fixes.
"""
import struct
import sys

CONTAINERS = {b"moov", b"trak", b"mdia", b"minf", b"stbl", b"dinf", b"edts"}


def boxes(data, start, end):
    out = []
    offset = start
    while offset + 8 <= end:
        size, kind = struct.unpack(">I4s", data[offset:offset + 8])
        header = 8
        if size == 1:
            size = struct.unpack(">Q", data[offset + 8:offset + 16])[0]
            header = 16
        elif size == 0:
            size = end - offset
        out.append((kind, data[offset + header:offset + size]))
        offset += size
    return out


def box(kind, payload):
    return struct.pack(">I4s", 8 + len(payload), kind) + payload


def full_table(kind, rows, fmt):
    return box(kind, struct.pack(">II", 0, len(rows)) + b"".join(struct.pack(fmt, *row) for row in rows))


def sample_table(stbl):
    children = dict(boxes(stbl, 0, len(stbl)))
    stsz = children[b"stsz"]
    fixed, count = struct.unpack(">II", stsz[4:12])
    sizes = [fixed] * count if fixed else list(struct.unpack(">%dI" % count, stsz[12:12 + 4 * count]))
    if b"stco" in children:
        n = struct.unpack(">I", children[b"stco"][4:8])[0]
        chunks = list(struct.unpack(">%dI" % n, children[b"stco"][8:8 + 4 * n]))
    else:
        n = struct.unpack(">I", children[b"co64"][4:8])[0]
        chunks = list(struct.unpack(">%dQ" % n, children[b"co64"][8:8 + 8 * n]))
    n = struct.unpack(">I", children[b"stsc"][4:8])[0]
    runs = [struct.unpack(">III", children[b"stsc"][8 + 12 * i:20 + 12 * i]) for i in range(n)]
    offsets = []
    for index, (first, per_chunk, _) in enumerate(runs):
        last = runs[index + 1][0] - 1 if index + 1 < len(runs) else len(chunks)
        for chunk in range(first - 1, last):
            offset = chunks[chunk]
            for _ in range(per_chunk):
                if len(offsets) < len(sizes):
                    offsets.append(offset)
                    offset += sizes[len(offsets) - 1]
    return sizes, offsets


def rebuild(kind, payload, sample_offsets):
    """The box with its stbl's chunk tables replaced: one sample per chunk at `sample_offsets`."""
    if kind == b"stbl":
        kept = b"".join(box(k, p) for k, p in boxes(payload, 0, len(payload)) if k not in (b"stsc", b"stco", b"co64"))
        stsc = full_table(b"stsc", [(1, 1, 1)], ">III")
        stco = full_table(b"stco", [(o,) for o in sample_offsets], ">I")
        return box(kind, kept + stsc + stco)
    if kind in CONTAINERS:
        return box(kind, b"".join(rebuild(k, p, sample_offsets) for k, p in boxes(payload, 0, len(payload))))
    return box(kind, payload)


def find(payload, path):
    for kind, inner in boxes(payload, 0, len(payload)):
        if kind == path[0]:
            return inner if len(path) == 1 else find(inner, path[1:])
    return None


def main():
    source, target = sys.argv[1], sys.argv[2]
    data = open(source, "rb").read()
    top = boxes(data, 0, len(data))
    ftyp = next(p for k, p in top if k == b"ftyp")
    moov = next(p for k, p in top if k == b"moov")
    mvhd = next(p for k, p in boxes(moov, 0, len(moov)) if k == b"mvhd")
    for kind, trak in boxes(moov, 0, len(moov)):
        if kind != b"trak":
            continue
        hdlr = find(trak, [b"mdia", b"hdlr"])
        stsd = find(trak, [b"mdia", b"minf", b"stbl", b"stsd"])
        if hdlr and hdlr[8:12] == b"meta" and stsd and stsd[12:16] == b"gpmd":
            break
    else:
        sys.exit(f"{source}: no gpmd metadata track")
    sizes, offsets = sample_table(find(trak, [b"mdia", b"minf", b"stbl"]))
    samples = b"".join(data[o:o + s] for o, s in zip(offsets, sizes))
    head = box(b"ftyp", ftyp)
    placeholder = box(b"moov", box(b"mvhd", mvhd) + rebuild(b"trak", trak, [0] * len(sizes)))
    start = len(head) + len(placeholder) + 8
    new_offsets, position = [], start
    for size in sizes:
        new_offsets.append(position)
        position += size
    moov_out = box(b"moov", box(b"mvhd", mvhd) + rebuild(b"trak", trak, new_offsets))
    assert len(moov_out) == len(placeholder)
    open(target, "wb").write(head + moov_out + box(b"mdat", samples))
    print(f"{target}: {len(sizes)} samples, {len(samples)} bytes of GPMF")


if __name__ == "__main__":
    main()
