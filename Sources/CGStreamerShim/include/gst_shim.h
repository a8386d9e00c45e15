// One-line wrappers for what Swift cannot import from GStreamer: function-like macros, checked casts and
// fixed-size array fields. No logic lives here; each function names the macro it wraps and the ownership of
// what it returns.
#ifndef STREAMLENS_GST_SHIM_H
#define STREAMLENS_GST_SHIM_H

#include <gst/gst.h>
#include <gst/app/app.h>
#include <gst/video/video.h>

// GST_CLOCK_TIME_NONE.
GstClockTime slx_clock_time_none(void);

// GST_BUFFER_PTS / GST_BUFFER_DURATION (read and write). The buffer stays borrowed.
GstClockTime slx_buffer_pts(GstBuffer *buffer);
void slx_buffer_set_pts(GstBuffer *buffer, GstClockTime pts);
GstClockTime slx_buffer_duration(GstBuffer *buffer);
void slx_buffer_set_duration(GstBuffer *buffer, GstClockTime duration);
// GST_BUFFER_FLAG_IS_SET(buffer, GST_BUFFER_FLAG_DISCONT).
gboolean slx_buffer_is_discont(GstBuffer *buffer);

// gst_buffer_is_writable (macro). Borrowed.
gboolean slx_buffer_is_writable(GstBuffer *buffer);
// gst_buffer_make_writable (macro). Takes the caller's reference (full) and returns one (full): the same
// buffer when the caller held the only reference, otherwise a copy.
GstBuffer *slx_buffer_make_writable(GstBuffer *buffer);
// gst_buffer_ref / gst_buffer_unref.
GstBuffer *slx_buffer_ref(GstBuffer *buffer);
void slx_buffer_unref(GstBuffer *buffer);
// gst_sample_unref.
void slx_sample_unref(GstSample *sample);
// `pts` in the stream time of `sample`'s segment (gst_segment_to_stream_time): an MP4 whose edit list starts its
// first frame at 80 ms (B-frames) has that frame at stream time 0. `pts` itself when there is no time segment or the
// timestamp lies outside it.
GstClockTime slx_sample_stream_time(GstSample *sample, GstClockTime pts);
// gst_caps_unref.
void slx_caps_unref(GstCaps *caps);
// gst_message_unref.
void slx_message_unref(GstMessage *message);

// GST_MESSAGE_TYPE. Borrowed message.
GstMessageType slx_message_type(GstMessage *message);
// GST_MESSAGE_SRC_NAME: the name of the object that posted the message (borrowed, may be NULL).
const gchar *slx_message_source_name(GstMessage *message);
// GST_MESSAGE_SRC is the top-level pipeline? (GST_MESSAGE_SRC(message) == GST_OBJECT(pipeline))
gboolean slx_message_is_from(GstMessage *message, GstElement *element);
// GST_OBJECT_NAME. Borrowed string.
const gchar *slx_object_name(gpointer object);

// GST_APP_SINK / GST_APP_SRC with GST_IS_APP_SINK / GST_IS_APP_SRC checks: NULL when the element is not one.
// Borrowed: no reference is added.
GstAppSink *slx_as_app_sink(GstElement *element);
GstAppSrc *slx_as_app_src(GstElement *element);
// GST_IS_BIN.
gboolean slx_is_bin(GstElement *element);
// GST_OBJECT_FLAG_IS_SET(element, GST_ELEMENT_FLAG_SINK): a sink, or a bin holding one.
gboolean slx_element_is_sink(GstElement *element);
// The element class's "klass" metadata (GST_ELEMENT_GET_CLASS + gst_element_class_get_metadata), e.g.
// "Codec/Muxer". Borrowed string; may be NULL.
const gchar *slx_element_klass(GstElement *element);

// GST_VIDEO_INFO_FORMAT / GST_VIDEO_FRAME_PLANE_DATA / GST_VIDEO_FRAME_PLANE_STRIDE / GST_VIDEO_FRAME_N_PLANES.
GstVideoFormat slx_video_info_format(const GstVideoInfo *info);
guint8 *slx_video_frame_plane_data(GstVideoFrame *frame, guint plane);
gint slx_video_frame_plane_stride(GstVideoFrame *frame, guint plane);
guint slx_video_frame_n_planes(GstVideoFrame *frame);
// GST_VIDEO_INFO_FPS_N / _D.
gint slx_video_info_fps_n(const GstVideoInfo *info);
gint slx_video_info_fps_d(const GstVideoInfo *info);

// GST_BUFFER_COPY_METADATA (flags, timestamps, offsets, metas).
GstBufferCopyFlags slx_buffer_copy_metadata(void);

// g_object_set(element, property, value, NULL) for a string property (variadic). GObject copies the value.
void slx_object_set_string(GstElement *element, const gchar *property, const gchar *value);
// g_object_set(element, property, value, NULL) for an int property (variadic).
void slx_object_set_int(GstElement *element, const gchar *property, gint value);
/// Sets a GstCaps property from its text form (`capsfilter caps=`).
void slx_object_set_caps(GstElement *element, const gchar *property, const gchar *caps_text);
// Whether `object`'s class has a property called `property` (g_object_class_find_property).
gboolean slx_object_has_property(gpointer object, const gchar *property);
// G_OBJECT_GET_CLASS(object), for g_object_class_find_property.
GObjectClass *slx_object_class(gpointer object);

// g_object_get (variadic) for one GstStructure-valued property; the caller owns (frees) the result.
GstStructure *slx_object_get_structure(gpointer object, const gchar *property);

// --- For the plugin's element layer (Sources/StreamLensGStreamer/Element) ---

// G_TYPE_STRING / G_TYPE_DOUBLE / G_TYPE_INT / G_TYPE_BOOLEAN / G_TYPE_UINT64 (fundamental GType macros).
GType slx_gtype_string(void);
GType slx_gtype_double(void);
GType slx_gtype_int(void);
GType slx_gtype_boolean(void);
GType slx_gtype_uint64(void);
// G_VALUE_TYPE. Borrowed value.
GType slx_value_type(const GValue *value);
// g_warning("%s", message) (variadic): GLib's warning log, e.g. for a property value that is not valid.
void slx_log_warning(const gchar *message);
// GST_EVENT_TYPE. Borrowed event.
GstEventType slx_event_type(GstEvent *event);
// GST_IS_BASE_SINK: is `object` (borrowed, may be NULL) a GstBaseSink?
gboolean slx_is_base_sink(gpointer object);
// GST_MESSAGE_SRC. Borrowed message; the source stays borrowed.
GstObject *slx_message_source(GstMessage *message);
// GST_BUFFER_FLAG_IS_SET(buffer, GST_BUFFER_FLAG_GAP).
gboolean slx_buffer_is_gap(GstBuffer *buffer);
// G_PARAM_READWRITE | G_PARAM_CONSTRUCT | GST_PARAM_MUTABLE_READY | GST_PARAM_DOC_SHOW_DEFAULT: the flags of every
// StreamLens element property (read at start, so a change applies from the next READY→PAUSED).
GParamFlags slx_element_property_flags(void);

#endif
