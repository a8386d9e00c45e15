#!/usr/bin/python3
"""Reads what the StreamLens GStreamer elements produce, from Python (PyGObject), as JSON lines on stdout.

    GST_PLUGIN_PATH=$(swift build --show-bin-path) /usr/bin/python3 pipelines/gst-read-metas.py [PIPELINE]

- one line per buffer leaving the element named "metas" (else the last streamlens element) with its regions of
  interest, the standard GstVideoRegionOfInterestMeta that streamlensdetect and streamlenssigns attach:
  {"pts": 1.6, "regions": [{"type": "person", "box": [x, y, w, h], "confidence": 0.83, "track_id": 4, ...}]}
- one line per "streamlens-*" element message on the bus (a speed-limit sign, periodic statistics):
  {"message": "streamlens-speed-limit", "value": 60, "unit": "km/h", "start": 12.48, "end": 13.2, ...}

PIPELINE is a gst-launch-1.0 description; without one, the street clip of the media cache is read for signs and
people. Exits 0 at end-of-stream, 1 (with {"error": ...}) on an error. Needs the Debian packages python3-gi,
gir1.2-gstreamer-1.0, gir1.2-gst-plugins-base-1.0 and python3-gst-1.0 (scripts/setup.sh installs them); use the
system /usr/bin/python3, which sees them.
"""
import json
import os
import sys
import threading

import gi

gi.require_version("Gst", "1.0")
gi.require_version("GstVideo", "1.0")
from gi.repository import GLib, Gst, GstVideo  # noqa: E402

REPOSITORY = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MEDIA = os.environ.get("STREAMLENS_MEDIA", os.path.join(REPOSITORY, ".media-cache", "media"))
DEFAULT_PIPELINE = (
    f"filesrc location={os.path.join(MEDIA, 'bikes.mp4')} ! decodebin ! videoconvert ! video/x-raw,format=I420 "
    "! streamlenssigns sync-analysis=on ! streamlensdetect sync-analysis=on name=metas ! fakesink"
)


# Buffer lines come from a streaming thread and message lines from the main loop; print writes the text and the
# newline separately, so without the lock two records could share a line and one of them would be lost.
OUTPUT_LOCK = threading.Lock()


def emit(record):
    line = json.dumps(record) + "\n"
    with OUTPUT_LOCK:
        sys.stdout.write(line)
        sys.stdout.flush()


def plain(value):
    """A field value as JSON: GstValueArray (a box) becomes a list."""
    if isinstance(value, Gst.ValueArray):
        return [plain(value[index]) for index in range(len(value))]
    return value


def structure_fields(structure):
    fields = {}
    for index in range(structure.n_fields()):
        name = structure.nth_field_name(index)
        fields[name] = plain(structure.get_value(name))
    return fields


def regions_of(buffer):
    """The GstVideoRegionOfInterestMeta of a buffer; StreamLens numbers them 0, 1, 2… per buffer."""
    regions = []
    while True:
        meta = GstVideo.buffer_get_video_region_of_interest_meta_id(buffer, len(regions))
        if meta is None:
            return regions
        region = {"type": GLib.quark_to_string(meta.roi_type), "box": [meta.x, meta.y, meta.w, meta.h]}
        parameters = meta.get_param("detection")
        if parameters is not None:
            region.update(structure_fields(parameters))
        tracked = meta.get_param("object_id")
        if tracked is not None:
            region["object_id"] = structure_fields(tracked).get("id")
        regions.append(region)


def on_buffer(pad, info):
    buffer = info.get_buffer()
    pts = None if buffer.pts == Gst.CLOCK_TIME_NONE else buffer.pts / Gst.SECOND
    emit({"pts": pts, "regions": regions_of(buffer)})
    return Gst.PadProbeReturn.OK


def probed_element(pipeline):
    named = pipeline.get_by_name("metas")
    if named is not None:
        return named
    streamlens = [element for element in pipeline.iterate_sorted()
                  if element.get_factory() and element.get_factory().get_name().startswith("streamlens")]
    # iterate_sorted lists sinks first: the first StreamLens element found is the last one in the stream.
    return streamlens[0] if streamlens else None


def main():
    Gst.init(None)
    description = " ".join(sys.argv[1:]) or DEFAULT_PIPELINE
    try:
        pipeline = Gst.parse_launch(description)
    except GLib.Error as error:
        emit({"error": f"invalid pipeline: {error.message}"})
        return 1
    element = probed_element(pipeline)
    if element is not None:
        element.get_static_pad("src").add_probe(Gst.PadProbeType.BUFFER, on_buffer)
    pipeline.set_state(Gst.State.PLAYING)
    bus = pipeline.get_bus()
    status = 0
    while True:
        message = bus.timed_pop_filtered(
            Gst.CLOCK_TIME_NONE, Gst.MessageType.EOS | Gst.MessageType.ERROR | Gst.MessageType.ELEMENT)
        if message.type == Gst.MessageType.ELEMENT:
            structure = message.get_structure()
            if structure.get_name().startswith("streamlens-"):
                emit({"message": structure.get_name(), "source": message.src.get_name(),
                      **structure_fields(structure)})
            continue
        if message.type == Gst.MessageType.ERROR:
            error, _ = message.parse_error()
            emit({"error": f"{message.src.get_name()}: {error.message}"})
            status = 1
        break
    pipeline.set_state(Gst.State.NULL)
    return status


if __name__ == "__main__":
    sys.exit(main())
