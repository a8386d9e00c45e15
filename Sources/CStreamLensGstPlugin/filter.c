// GstStreamLensFilter: the abstract GstVideoFilter base of the five video elements. Every virtual method forwards
// to the element's Swift logic; the subclasses (elements.c) only add metadata, pad templates and properties.
#include "elements.h"

G_DEFINE_ABSTRACT_TYPE (GstStreamLensFilter, gst_streamlens_filter, GST_TYPE_VIDEO_FILTER)

static void
gst_streamlens_filter_finalize (GObject *object)
{
  GstStreamLensFilter *self = GST_STREAMLENS_FILTER (object);
  if (self->logic) {
    streamlens_logic_free (self->logic);
    self->logic = NULL;
  }
  G_OBJECT_CLASS (gst_streamlens_filter_parent_class)->finalize (object);
}

void
streamlens_filter_set_property (GObject *object, guint id, const GValue *value, GParamSpec *pspec)
{
  (void) id;
  streamlens_logic_set_property (GST_STREAMLENS_FILTER (object)->logic, pspec->name, value);
}

void
streamlens_filter_get_property (GObject *object, guint id, GValue *value, GParamSpec *pspec)
{
  (void) id;
  streamlens_logic_get_property (GST_STREAMLENS_FILTER (object)->logic, pspec->name, value);
}

static gboolean
gst_streamlens_filter_start (GstBaseTransform *trans)
{
  switch (streamlens_logic_start (GST_STREAMLENS_FILTER (trans)->logic)) {
    case STREAMLENS_START_PROCESS:
      gst_base_transform_set_passthrough (trans, FALSE);
      return TRUE;
    case STREAMLENS_START_PASSTHROUGH:
      gst_base_transform_set_passthrough (trans, TRUE);
      return TRUE;
    case STREAMLENS_START_FAILED:
    default:
      return FALSE;
  }
}

static gboolean
gst_streamlens_filter_stop (GstBaseTransform *trans)
{
  return streamlens_logic_stop (GST_STREAMLENS_FILTER (trans)->logic);
}

static gboolean
gst_streamlens_filter_set_info (GstVideoFilter *filter, GstCaps *incaps, GstVideoInfo *in_info,
    GstCaps *outcaps, GstVideoInfo *out_info)
{
  (void) in_info;
  (void) outcaps;
  (void) out_info;
  return streamlens_logic_set_caps (GST_STREAMLENS_FILTER (filter)->logic, incaps);
}

// Lets the logic choose the buffer to work on: a drawing element that will write takes a pooled copy of a buffer it
// does not own (as the command line does), and leaves a buffer it will not touch as it is.
static GstFlowReturn
gst_streamlens_filter_prepare_output_buffer (GstBaseTransform *trans, GstBuffer *input, GstBuffer **output)
{
  if (!gst_base_transform_is_passthrough (trans)) {
    GstBuffer *prepared = streamlens_logic_prepare_output (GST_STREAMLENS_FILTER (trans)->logic, input);
    if (prepared != NULL) {
      // GstBaseTransform drops `input` when `prepared` replaces it.
      *output = prepared;
      return GST_FLOW_OK;
    }
  }
  return GST_BASE_TRANSFORM_CLASS (gst_streamlens_filter_parent_class)->prepare_output_buffer (trans, input, output);
}

// Replaces GstVideoFilter's transform_ip, which maps every frame for writing: the logic maps a frame only when it
// has something to read or draw, so metadata-only work never copies pixels.
static GstFlowReturn
gst_streamlens_filter_transform_ip (GstBaseTransform *trans, GstBuffer *buffer)
{
  if (G_UNLIKELY (!GST_VIDEO_FILTER (trans)->negotiated)) {
    GST_ELEMENT_ERROR (trans, CORE, NEGOTIATION, (NULL), ("no format negotiated before the first buffer"));
    return GST_FLOW_NOT_NEGOTIATED;
  }
  return streamlens_logic_transform (GST_STREAMLENS_FILTER (trans)->logic, buffer);
}

static gboolean
gst_streamlens_filter_sink_event (GstBaseTransform *trans, GstEvent *event)
{
  streamlens_logic_sink_event (GST_STREAMLENS_FILTER (trans)->logic, event);
  return GST_BASE_TRANSFORM_CLASS (gst_streamlens_filter_parent_class)->sink_event (trans, event);
}

static void
gst_streamlens_filter_class_init (GstStreamLensFilterClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GstBaseTransformClass *transform_class = GST_BASE_TRANSFORM_CLASS (klass);
  GstVideoFilterClass *filter_class = GST_VIDEO_FILTER_CLASS (klass);

  object_class->finalize = gst_streamlens_filter_finalize;
  transform_class->start = GST_DEBUG_FUNCPTR (gst_streamlens_filter_start);
  transform_class->stop = GST_DEBUG_FUNCPTR (gst_streamlens_filter_stop);
  transform_class->prepare_output_buffer = GST_DEBUG_FUNCPTR (gst_streamlens_filter_prepare_output_buffer);
  transform_class->transform_ip = GST_DEBUG_FUNCPTR (gst_streamlens_filter_transform_ip);
  transform_class->sink_event = GST_DEBUG_FUNCPTR (gst_streamlens_filter_sink_event);
  filter_class->set_info = GST_DEBUG_FUNCPTR (gst_streamlens_filter_set_info);
}

static void
gst_streamlens_filter_init (GstStreamLensFilter *self)
{
  self->logic = NULL;
  // Dropping late frames is the sink's decision, counted there; the elements never drop on QoS themselves.
  gst_base_transform_set_qos_enabled (GST_BASE_TRANSFORM (self), FALSE);
}
