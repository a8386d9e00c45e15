// streamlensstats: a passthrough GstBaseTransform for any raw video. It wraps the sink pad's chain function so the
// Swift logic sees each buffer arrive and learns when the push downstream returned (arrival → output latency,
// backpressure); everything else is GstBaseTransform's passthrough.
#include "elements.h"

typedef struct {
  GstBaseTransform parent;
  // The Swift logic (retained), released in finalize.
  gpointer logic;
  // GstBaseTransform's own chain function, called from ours.
  GstPadChainFunction base_chain;
} GstStreamLensStats;

typedef struct {
  GstBaseTransformClass parent_class;
} GstStreamLensStatsClass;

G_DEFINE_TYPE (GstStreamLensStats, gst_streamlens_stats, GST_TYPE_BASE_TRANSFORM)

#define GST_STREAMLENS_STATS(obj) ((GstStreamLensStats *) (obj))

static void
gst_streamlens_stats_finalize (GObject *object)
{
  GstStreamLensStats *self = GST_STREAMLENS_STATS (object);
  if (self->logic) {
    streamlens_logic_free (self->logic);
    self->logic = NULL;
  }
  G_OBJECT_CLASS (gst_streamlens_stats_parent_class)->finalize (object);
}

static void
gst_streamlens_stats_set_property (GObject *object, guint id, const GValue *value, GParamSpec *pspec)
{
  (void) id;
  streamlens_logic_set_property (GST_STREAMLENS_STATS (object)->logic, pspec->name, value);
}

static void
gst_streamlens_stats_get_property (GObject *object, guint id, GValue *value, GParamSpec *pspec)
{
  (void) id;
  streamlens_logic_get_property (GST_STREAMLENS_STATS (object)->logic, pspec->name, value);
}

static gboolean
gst_streamlens_stats_start (GstBaseTransform *trans)
{
  return streamlens_logic_start (GST_STREAMLENS_STATS (trans)->logic) != STREAMLENS_START_FAILED;
}

static gboolean
gst_streamlens_stats_stop (GstBaseTransform *trans)
{
  return streamlens_logic_stop (GST_STREAMLENS_STATS (trans)->logic);
}

static gboolean
gst_streamlens_stats_set_caps (GstBaseTransform *trans, GstCaps *incaps, GstCaps *outcaps)
{
  (void) outcaps;
  return streamlens_logic_set_caps (GST_STREAMLENS_STATS (trans)->logic, incaps);
}

static gboolean
gst_streamlens_stats_sink_event (GstBaseTransform *trans, GstEvent *event)
{
  streamlens_logic_sink_event (GST_STREAMLENS_STATS (trans)->logic, event);
  return GST_BASE_TRANSFORM_CLASS (gst_streamlens_stats_parent_class)->sink_event (trans, event);
}

// PLAYING→PAUSED and back: the logic keeps a user's pause out of the source's figures (a paused live source is
// silent, and the push held in the paused sink is not backpressure). Told before chaining up both ways: downstream
// elements change state first, so a held push may return before this element's own transition.
static GstStateChangeReturn
gst_streamlens_stats_change_state (GstElement *element, GstStateChange transition)
{
  GstStreamLensStats *self = GST_STREAMLENS_STATS (element);
  if (transition == GST_STATE_CHANGE_PLAYING_TO_PAUSED)
    streamlens_logic_playing_changed (self->logic, FALSE);
  else if (transition == GST_STATE_CHANGE_PAUSED_TO_PLAYING)
    streamlens_logic_playing_changed (self->logic, TRUE);
  return GST_ELEMENT_CLASS (gst_streamlens_stats_parent_class)->change_state (element, transition);
}

// Our chain function: arrival, then GstBaseTransform's chain (which pushes downstream), then the push result.
static GstFlowReturn
gst_streamlens_stats_chain (GstPad *pad, GstObject *parent, GstBuffer *buffer)
{
  GstStreamLensStats *self = GST_STREAMLENS_STATS (parent);
  streamlens_logic_buffer_arrived (self->logic, buffer);
  GstFlowReturn result = self->base_chain (pad, parent, buffer);
  streamlens_logic_buffer_pushed (self->logic, result);
  return result;
}

static void
gst_streamlens_stats_class_init (GstStreamLensStatsClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBaseTransformClass *transform_class = GST_BASE_TRANSFORM_CLASS (klass);

  object_class->finalize = gst_streamlens_stats_finalize;
  object_class->set_property = gst_streamlens_stats_set_property;
  object_class->get_property = gst_streamlens_stats_get_property;
  element_class->change_state = GST_DEBUG_FUNCPTR (gst_streamlens_stats_change_state);
  transform_class->start = GST_DEBUG_FUNCPTR (gst_streamlens_stats_start);
  transform_class->stop = GST_DEBUG_FUNCPTR (gst_streamlens_stats_stop);
  transform_class->set_caps = GST_DEBUG_FUNCPTR (gst_streamlens_stats_set_caps);
  transform_class->sink_event = GST_DEBUG_FUNCPTR (gst_streamlens_stats_sink_event);
  transform_class->passthrough_on_same_caps = TRUE;

  streamlens_install_properties (object_class, "streamlensstats");

  gst_element_class_set_static_metadata (element_class, "StreamLens statistics", "Filter/Analyzer/Video",
      "Passes video through and records what happened to every frame: drops (late at the sink, from QoS) and "
      "source gaps, arrival jitter, latency, stalls versus backpressure; periodic \"streamlens-stats\" messages, "
      "a JSON report at end-of-stream, optional Prometheus metrics", STREAMLENS_AUTHOR);
  gst_element_class_add_pad_template (element_class,
      gst_pad_template_new ("sink", GST_PAD_SINK, GST_PAD_ALWAYS, gst_caps_from_string ("video/x-raw")));
  gst_element_class_add_pad_template (element_class,
      gst_pad_template_new ("src", GST_PAD_SRC, GST_PAD_ALWAYS, gst_caps_from_string ("video/x-raw")));
}

static void
gst_streamlens_stats_init (GstStreamLensStats *self)
{
  GstBaseTransform *trans = GST_BASE_TRANSFORM (self);
  gst_base_transform_set_passthrough (trans, TRUE);
  gst_base_transform_set_in_place (trans, TRUE);
  gst_base_transform_set_qos_enabled (trans, FALSE);
  self->base_chain = GST_PAD_CHAINFUNC (trans->sinkpad);
  gst_pad_set_chain_function (trans->sinkpad, GST_DEBUG_FUNCPTR (gst_streamlens_stats_chain));
  self->logic = streamlens_logic_new (STREAMLENS_ELEMENT_STATS, GST_ELEMENT (self));
}
