// The four video elements: each is a GstStreamLensFilter with its own metadata, pad templates and properties.
// Property values are validated and used by the Swift logic; the specifications here are what gst-inspect shows.
#include "elements.h"

// Declares a GstStreamLensFilter subclass whose instance_init creates the Swift logic of `kind`.
#define STREAMLENS_DEFINE_FILTER(TypeName, type_name, kind)                                         \
  typedef struct {                                                                                  \
    GstStreamLensFilter parent;                                                                     \
  } TypeName;                                                                                       \
  typedef struct {                                                                                  \
    GstStreamLensFilterClass parent_class;                                                          \
  } TypeName##Class;                                                                                \
  G_DEFINE_TYPE (TypeName, type_name, GST_TYPE_STREAMLENS_FILTER)                                   \
  static void type_name##_init (TypeName *self)                                                     \
  {                                                                                                 \
    GST_STREAMLENS_FILTER (self)->logic = streamlens_logic_new (kind, GST_ELEMENT (self));          \
  }

// What every video element's class_init does first: GObject does not inherit property accessors, so each class
// points them at the forwarding ones; and the I420/NV12 sink and src "always" pad templates.
static void
set_up_video_element_class (GObjectClass *object_class, GstElementClass *element_class)
{
  object_class->set_property = streamlens_filter_set_property;
  object_class->get_property = streamlens_filter_get_property;
  gst_element_class_add_pad_template (element_class,
      gst_pad_template_new ("sink", GST_PAD_SINK, GST_PAD_ALWAYS, gst_caps_from_string (STREAMLENS_VIDEO_CAPS)));
  gst_element_class_add_pad_template (element_class,
      gst_pad_template_new ("src", GST_PAD_SRC, GST_PAD_ALWAYS, gst_caps_from_string (STREAMLENS_VIDEO_CAPS)));
}


// --- streamlensdetect ---

STREAMLENS_DEFINE_FILTER (GstStreamLensDetect, gst_streamlens_detect, STREAMLENS_ELEMENT_DETECT)

enum { DETECT_PROP_0, DETECT_PROP_DETECTOR, DETECT_PROP_CONFIDENCE, DETECT_PROP_CLASSES, DETECT_PROP_INTERVAL,
       DETECT_PROP_SYNC_ANALYSIS };

static void
gst_streamlens_detect_class_init (GstStreamLensDetectClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);

  set_up_video_element_class (object_class, element_class);
  streamlens_install_string (object_class, DETECT_PROP_DETECTOR, "detector", "Detector",
      "hog (OpenCV people detector), cascade:NAME|PATH (fullbody, upperbody, frontalface, licence_plate or a "
      "cascade XML file) or onnx:PATH (a YOLO v5/v8/v11 network)", "hog");
  streamlens_install_double (object_class, DETECT_PROP_CONFIDENCE, "confidence", "Confidence",
      "Detections below this confidence are dropped", 0.0, 1.0, 0.5);
  streamlens_install_string (object_class, DETECT_PROP_CLASSES, "classes", "Classes",
      "Comma-separated class names (or ids) to keep; empty keeps every class", "");
  streamlens_install_double (object_class, DETECT_PROP_INTERVAL, "interval", "Interval",
      "Stream time in seconds between analysed frames (0 = every frame); lengthened while inference is slow, "
      "unless sync-analysis is set",
      0.0, 3600.0, 0.3);
  streamlens_install_boolean (object_class, DETECT_PROP_SYNC_ANALYSIS, "sync-analysis", "Synchronous analysis",
      "Wait for the analysis thread instead of skipping frames while it is busy (for files: every due frame is "
      "analysed); false never blocks the streaming thread (live sources)", FALSE);

  gst_element_class_set_static_metadata (element_class, "StreamLens object detection", "Filter/Analyzer/Video",
      "Detects and tracks objects (OpenCV HOG, cascades or ONNX YOLO) on its own thread and attaches them to buffers "
      "as GstVideoRegionOfInterestMeta (class as roi_type; confidence, track id and source in a \"detection\" "
      "parameter structure)", STREAMLENS_AUTHOR);
}

// --- streamlenssigns ---

STREAMLENS_DEFINE_FILTER (GstStreamLensSigns, gst_streamlens_signs, STREAMLENS_ELEMENT_SIGNS)

enum { SIGNS_PROP_0, SIGNS_PROP_REGION, SIGNS_PROP_CONFIDENCE, SIGNS_PROP_INTERVAL, SIGNS_PROP_SYNC_ANALYSIS,
       SIGNS_PROP_EXPIRY, SIGNS_PROP_TEXT_LINE_MODEL };

static void
gst_streamlens_signs_class_init (GstStreamLensSignsClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);

  set_up_video_element_class (object_class, element_class);
  streamlens_install_string (object_class, SIGNS_PROP_REGION, "region", "Region",
      "Speed-limit signs of this region: eu (5, 10…130 km/h) or us (5…85 mph)", "eu");
  streamlens_install_double (object_class, SIGNS_PROP_CONFIDENCE, "confidence", "Confidence",
      "OCR confidence below which a read of a sign is ignored", 0.0, 1.0, 0.7);
  streamlens_install_double (object_class, SIGNS_PROP_INTERVAL, "interval", "Interval",
      "Stream time in seconds between analysed frames (0 = every frame); several reads per sign are voted on",
      0.0, 3600.0, 0.08);
  streamlens_install_boolean (object_class, SIGNS_PROP_SYNC_ANALYSIS, "sync-analysis", "Synchronous analysis",
      "Wait for the analysis thread instead of skipping frames while it is busy (for files: every due frame is "
      "read); false never blocks the streaming thread (live sources)", FALSE);
  streamlens_install_double (object_class, SIGNS_PROP_EXPIRY, "expiry", "Limit expiry",
      "Seconds the current limit stays valid after its sign was last seen", 1.0, 86400.0, 180.0);
  streamlens_install_string (object_class, SIGNS_PROP_TEXT_LINE_MODEL, "text-line-model", "Text-line model",
      "The reader's text-line recogniser: a model file, off, or empty for the one scripts/install-text-line-model.sh "
      "installed", "");

  gst_element_class_set_static_metadata (element_class, "StreamLens speed-limit signs", "Filter/Analyzer/Video",
      "Reads speed-limit signs (red rings, Tesseract OCR, votes across frames) on its own thread; posts one "
      "\"streamlens-speed-limit\" element message per sign (value, unit, start, end, confidence, box, reads) and "
      "attaches the current limit to buffers as a GstVideoRegionOfInterestMeta of type speed_limit",
      STREAMLENS_AUTHOR);
}

// --- streamlensannotate ---

STREAMLENS_DEFINE_FILTER (GstStreamLensAnnotate, gst_streamlens_annotate, STREAMLENS_ELEMENT_ANNOTATE)

enum { ANNOTATE_PROP_0, ANNOTATE_PROP_BOXES, ANNOTATE_PROP_LABELS, ANNOTATE_PROP_BADGE, ANNOTATE_PROP_BADGE_REGION,
       ANNOTATE_PROP_HUD, ANNOTATE_PROP_SPOTLIGHT };

static void
gst_streamlens_annotate_class_init (GstStreamLensAnnotateClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);

  set_up_video_element_class (object_class, element_class);
  streamlens_install_boolean (object_class, ANNOTATE_PROP_BOXES, "boxes", "Boxes",
      "Draw a box around every region of interest", TRUE);
  streamlens_install_boolean (object_class, ANNOTATE_PROP_LABELS, "labels", "Labels",
      "Label every box with its class, confidence and track id", TRUE);
  streamlens_install_string (object_class, ANNOTATE_PROP_BADGE, "badge", "Speed-limit badge",
      "Corner of the current speed-limit badge: top-left, top-right, bottom-left, bottom-right or off", "top-right");
  streamlens_install_string (object_class, ANNOTATE_PROP_BADGE_REGION, "badge-region", "Badge region",
      "The road sign the badge copies, as streamlenssigns' region: eu (round, red ring) or us (the SPEED LIMIT plate)",
      "eu");
  streamlens_install_string (object_class, ANNOTATE_PROP_HUD, "hud", "HUD",
      "Corner of the frame-rate and dropped-frames display: top-left, top-right, bottom-left, bottom-right or off",
      "off");
  streamlens_install_double (object_class, ANNOTATE_PROP_SPOTLIGHT, "spotlight", "Spotlight",
      "Brightness kept outside the boxes (0…1); 1 turns the spotlight off", 0.0, 1.0, 1.0);

  gst_element_class_set_static_metadata (element_class, "StreamLens annotations", "Filter/Effect/Video",
      "Draws the GstVideoRegionOfInterestMeta of any upstream element (boxes, labels), the current speed-limit "
      "badge, a HUD and a spotlight, in place on I420/NV12", STREAMLENS_AUTHOR);
}

// --- streamlensoverlay ---

STREAMLENS_DEFINE_FILTER (GstStreamLensOverlay, gst_streamlens_overlay, STREAMLENS_ELEMENT_OVERLAY)

enum { OVERLAY_PROP_0, OVERLAY_PROP_LOCATION, OVERLAY_PROP_X, OVERLAY_PROP_Y, OVERLAY_PROP_WIDTH,
       OVERLAY_PROP_HEIGHT, OVERLAY_PROP_OPACITY, OVERLAY_PROP_TRIGGER, OVERLAY_PROP_ANCHOR, OVERLAY_PROP_DURATION };

static void
gst_streamlens_overlay_class_init (GstStreamLensOverlayClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);

  set_up_video_element_class (object_class, element_class);
  streamlens_install_string (object_class, OVERLAY_PROP_LOCATION, "location", "Location",
      "Clip to loop: anything GStreamer decodes with alpha (WebM VP8/VP9 alpha, ProRes 4444, PNG/GIF/WebP, SVG)",
      NULL);
  streamlens_install_int (object_class, OVERLAY_PROP_X, "x", "X",
      "Left edge of the clip in frame pixels (anchor=frame)", -16384, 16384, 0);
  streamlens_install_int (object_class, OVERLAY_PROP_Y, "y", "Y",
      "Top edge of the clip in frame pixels (anchor=frame)", -16384, 16384, 0);
  streamlens_install_int (object_class, OVERLAY_PROP_WIDTH, "width", "Width",
      "Width of the clip in pixels; 0 keeps the clip's own size (with height 0) or its aspect ratio. On a box "
      "anchor: the clip's fixed width (0 follows the box's width, 32…512)", 0, 16384, 0);
  streamlens_install_int (object_class, OVERLAY_PROP_HEIGHT, "height", "Height",
      "Height of the clip in pixels; 0 keeps the clip's own size (with width 0) or its aspect ratio", 0, 16384, 0);
  streamlens_install_double (object_class, OVERLAY_PROP_OPACITY, "opacity", "Opacity",
      "Multiplies the clip's alpha", 0.0, 1.0, 1.0);
  streamlens_install_string (object_class, OVERLAY_PROP_TRIGGER, "trigger", "Trigger",
      "When the clip shows: always, class:NAME (one per region of interest of that class), speed_limit (each "
      "newly read limit) or speed_limit=VALUE", "always");
  streamlens_install_string (object_class, OVERLAY_PROP_ANCHOR, "anchor", "Anchor",
      "Where the clip sits: frame (at x,y), a frame corner (top-left, top-right, bottom-left, bottom-right) or, "
      "for class triggers, on the box: box:centre, box:top, box:bottom, box:top-left, box:top-right, "
      "box:bottom-left, box:bottom-right", "frame");
  streamlens_install_double (object_class, OVERLAY_PROP_DURATION, "duration", "Duration",
      "Seconds a triggered clip stays at most (it fades out before); always-on clips stay", 0.1, 86400.0, 30.0);

  gst_element_class_set_static_metadata (element_class, "StreamLens looping overlay", "Filter/Effect/Video",
      "Blends a looping alpha clip in place on I420/NV12, always or when a region of interest of a class or a new "
      "speed limit appears (GstVideoRegionOfInterestMeta from upstream)", STREAMLENS_AUTHOR);
}
