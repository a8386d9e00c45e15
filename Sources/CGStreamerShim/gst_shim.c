#include "gst_shim.h"

GstClockTime slx_clock_time_none(void) { return GST_CLOCK_TIME_NONE; }

GstClockTime slx_buffer_pts(GstBuffer *buffer) { return GST_BUFFER_PTS(buffer); }
void slx_buffer_set_pts(GstBuffer *buffer, GstClockTime pts) { GST_BUFFER_PTS(buffer) = pts; }
GstClockTime slx_buffer_duration(GstBuffer *buffer) { return GST_BUFFER_DURATION(buffer); }
void slx_buffer_set_duration(GstBuffer *buffer, GstClockTime duration) { GST_BUFFER_DURATION(buffer) = duration; }
gboolean slx_buffer_is_discont(GstBuffer *buffer) { return GST_BUFFER_FLAG_IS_SET(buffer, GST_BUFFER_FLAG_DISCONT); }

gboolean slx_buffer_is_writable(GstBuffer *buffer) { return gst_buffer_is_writable(buffer); }
GstBuffer *slx_buffer_make_writable(GstBuffer *buffer) { return gst_buffer_make_writable(buffer); }
GstBuffer *slx_buffer_ref(GstBuffer *buffer) { return gst_buffer_ref(buffer); }
void slx_buffer_unref(GstBuffer *buffer) { gst_buffer_unref(buffer); }
void slx_sample_unref(GstSample *sample) { gst_sample_unref(sample); }
void slx_caps_unref(GstCaps *caps) { gst_caps_unref(caps); }
void slx_message_unref(GstMessage *message) { gst_message_unref(message); }

GstMessageType slx_message_type(GstMessage *message) { return GST_MESSAGE_TYPE(message); }
const gchar *slx_message_source_name(GstMessage *message) { return GST_MESSAGE_SRC_NAME(message); }
gboolean slx_message_is_from(GstMessage *message, GstElement *element) { return GST_MESSAGE_SRC(message) == GST_OBJECT(element); }
const gchar *slx_object_name(gpointer object) { return GST_OBJECT_NAME(object); }

GstAppSink *slx_as_app_sink(GstElement *element) { return GST_IS_APP_SINK(element) ? GST_APP_SINK(element) : NULL; }
GstAppSrc *slx_as_app_src(GstElement *element) { return GST_IS_APP_SRC(element) ? GST_APP_SRC(element) : NULL; }
gboolean slx_is_bin(GstElement *element) { return GST_IS_BIN(element); }
gboolean slx_element_is_sink(GstElement *element) { return GST_OBJECT_FLAG_IS_SET(element, GST_ELEMENT_FLAG_SINK); }
const gchar *slx_element_klass(GstElement *element) {
    return gst_element_class_get_metadata(GST_ELEMENT_GET_CLASS(element), GST_ELEMENT_METADATA_KLASS);
}

GstVideoFormat slx_video_info_format(const GstVideoInfo *info) { return GST_VIDEO_INFO_FORMAT(info); }
guint8 *slx_video_frame_plane_data(GstVideoFrame *frame, guint plane) { return GST_VIDEO_FRAME_PLANE_DATA(frame, plane); }
gint slx_video_frame_plane_stride(GstVideoFrame *frame, guint plane) { return GST_VIDEO_FRAME_PLANE_STRIDE(frame, plane); }
guint slx_video_frame_n_planes(GstVideoFrame *frame) { return GST_VIDEO_FRAME_N_PLANES(frame); }
gint slx_video_info_fps_n(const GstVideoInfo *info) { return GST_VIDEO_INFO_FPS_N(info); }
gint slx_video_info_fps_d(const GstVideoInfo *info) { return GST_VIDEO_INFO_FPS_D(info); }
GstBufferCopyFlags slx_buffer_copy_metadata(void) { return GST_BUFFER_COPY_METADATA; }
GstStructure *slx_object_get_structure(gpointer object, const gchar *property) {
    GstStructure *value = NULL;
    g_object_get(object, property, &value, NULL);
    return value;
}
void slx_object_set_string(GstElement *element, const gchar *property, const gchar *value) {
    g_object_set(element, property, value, NULL);
}
void slx_object_set_int(GstElement *element, const gchar *property, gint value) {
    g_object_set(element, property, value, NULL);
}
void slx_object_set_caps(GstElement *element, const gchar *property, const gchar *caps_text) {
    GstCaps *caps = gst_caps_from_string(caps_text);
    g_object_set(element, property, caps, NULL);
    if (caps) gst_caps_unref(caps);
}

GObjectClass *slx_object_class(gpointer object) { return G_OBJECT_GET_CLASS(object); }

gboolean slx_object_has_property(gpointer object, const gchar *property) {
    return g_object_class_find_property(G_OBJECT_GET_CLASS(object), property) != NULL;
}

GType slx_gtype_string(void) { return G_TYPE_STRING; }
GType slx_gtype_double(void) { return G_TYPE_DOUBLE; }
GType slx_gtype_int(void) { return G_TYPE_INT; }
GType slx_gtype_boolean(void) { return G_TYPE_BOOLEAN; }
GType slx_gtype_uint64(void) { return G_TYPE_UINT64; }
GType slx_value_type(const GValue *value) { return G_VALUE_TYPE(value); }
void slx_log_warning(const gchar *message) { g_warning("%s", message); }
GstEventType slx_event_type(GstEvent *event) { return GST_EVENT_TYPE(event); }
gboolean slx_is_base_sink(gpointer object) { return object != NULL && GST_IS_BASE_SINK(object); }
GstObject *slx_message_source(GstMessage *message) { return GST_MESSAGE_SRC(message); }
gboolean slx_buffer_is_gap(GstBuffer *buffer) { return GST_BUFFER_FLAG_IS_SET(buffer, GST_BUFFER_FLAG_GAP); }

GstClockTime slx_sample_stream_time(GstSample *sample, GstClockTime pts) {
    const GstSegment *segment = gst_sample_get_segment(sample);
    if (segment == NULL || segment->format != GST_FORMAT_TIME || !GST_CLOCK_TIME_IS_VALID(pts)) return pts;
    guint64 stream_time = gst_segment_to_stream_time(segment, GST_FORMAT_TIME, pts);
    return GST_CLOCK_TIME_IS_VALID(stream_time) ? stream_time : pts;
}

GParamFlags slx_element_property_flags(void) {
    return (GParamFlags) (G_PARAM_READWRITE | G_PARAM_CONSTRUCT | GST_PARAM_MUTABLE_READY | GST_PARAM_DOC_SHOW_DEFAULT);
}
