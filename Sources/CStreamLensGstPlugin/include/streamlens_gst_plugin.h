// The GObject side of the StreamLens GStreamer plugin (libgststreamlens.so): type registration, pad templates,
// property specifications and the virtual methods, each of which forwards to the element's logic in Swift
// (Sources/StreamLensGstPlugin). No element logic lives in C.
#ifndef STREAMLENS_GST_PLUGIN_H
#define STREAMLENS_GST_PLUGIN_H

#include <gst/gst.h>

G_BEGIN_DECLS

// Which element a Swift logic object drives (the argument of streamlens_logic_new).
typedef enum {
  STREAMLENS_ELEMENT_DETECT = 0,
  STREAMLENS_ELEMENT_SIGNS = 1,
  STREAMLENS_ELEMENT_ANNOTATE = 2,
  STREAMLENS_ELEMENT_OVERLAY = 3,
  STREAMLENS_ELEMENT_STATS = 4,
  STREAMLENS_ELEMENT_BLUR = 5,
} StreamLensElementKind;

// What streamlens_logic_start decided.
typedef enum {
  // Start failed; the logic has posted an ERROR message saying why.
  STREAMLENS_START_FAILED = 0,
  // Buffers go through transform.
  STREAMLENS_START_PROCESS = 1,
  // Nothing to do with the pixels or metadata: the element runs in GstBaseTransform passthrough.
  STREAMLENS_START_PASSTHROUGH = 2,
} StreamLensStartResult;

// --- Implemented in Swift (@_cdecl, Sources/StreamLensGstPlugin/Entry/ElementTrampolines.swift) ---
// `logic` is the object streamlens_logic_new returned (retained once); streamlens_logic_free releases it.
// Pointers passed in are borrowed for the duration of the call.

// Called from each element's class_init: installs the properties of `element` (its factory name) on `klass` from the
// option schema (Sources/StreamLensOptions), which the command line and the pipeline file also read.
void streamlens_install_properties(GObjectClass *klass, const gchar *element);
// Called from instance_init: must be cheap (gst-inspect and the registry scanner create instances).
void *streamlens_logic_new(StreamLensElementKind kind, GstElement *element);
void streamlens_logic_free(void *logic);
// GObject set_property/get_property, by property name; `value` is initialised to the property's type.
void streamlens_logic_set_property(void *logic, const gchar *name, const GValue *value);
void streamlens_logic_get_property(void *logic, const gchar *name, GValue *value);
// GstBaseTransform start (READY→PAUSED) and stop (PAUSED→READY).
StreamLensStartResult streamlens_logic_start(void *logic);
gboolean streamlens_logic_stop(void *logic);
// The negotiated input caps (GstVideoFilter set_info / GstBaseTransform set_caps).
gboolean streamlens_logic_set_caps(void *logic, GstCaps *caps);
// GstBaseTransform prepare_output_buffer (not in passthrough): the buffer transform_ip will get, `input` itself or a
// new buffer (full reference) that replaces it; NULL leaves the choice to GstBaseTransform (a metadata-writable copy
// that shares the pixels).
GstBuffer *streamlens_logic_prepare_output(void *logic, GstBuffer *input);
// GstBaseTransform transform_ip, on the buffer prepare_output chose.
GstFlowReturn streamlens_logic_transform(void *logic, GstBuffer *buffer);
// An event reached the sink pad; called before GstBaseTransform handles it (and forwards it downstream).
void streamlens_logic_sink_event(void *logic, GstEvent *event);
// streamlensstats only: a buffer reached the sink pad / the push downstream returned `result`.
void streamlens_logic_buffer_arrived(void *logic, GstBuffer *buffer);
void streamlens_logic_buffer_pushed(void *logic, GstFlowReturn result);
// streamlensstats only: the element goes PLAYING→PAUSED (playing FALSE) or PAUSED→PLAYING (TRUE), on the
// state-change thread.
void streamlens_logic_playing_changed(void *logic, gboolean playing);

// --- Implemented in C ---
// The plugin descriptor GStreamer's loader looks up in libgststreamlens.so (what GST_PLUGIN_DEFINE exports).
const GstPluginDesc *gst_plugin_streamlens_get_desc(void);
// Registers the six elements with `plugin` (also usable for static registration in an application).
gboolean streamlens_plugin_register_elements(GstPlugin *plugin);

G_END_DECLS

#endif
