// Types and helpers shared by the element definitions of the plugin (not part of the public header).
#ifndef STREAMLENS_ELEMENTS_H
#define STREAMLENS_ELEMENTS_H

#include <gst/gst.h>
#include <gst/base/gstbasetransform.h>
#include <gst/video/video.h>
#include <gst/video/gstvideofilter.h>

#include "streamlens_gst_plugin.h"

G_BEGIN_DECLS

// The formats every drawing and analysis element works on in place.
#define STREAMLENS_VIDEO_CAPS GST_VIDEO_CAPS_MAKE ("{ I420, NV12 }")

// The author field of every element's metadata.
#define STREAMLENS_AUTHOR "StreamLens contributors"

// Base of streamlensdetect, streamlenssigns, streamlensannotate, streamlensoverlay and streamlensblur: a
// GstVideoFilter whose virtual methods forward to the Swift logic object.
typedef struct _GstStreamLensFilter {
  GstVideoFilter parent;
  // The Swift logic (retained), made in the subclass's instance_init and released in finalize.
  gpointer logic;
} GstStreamLensFilter;

typedef struct _GstStreamLensFilterClass {
  GstVideoFilterClass parent_class;
} GstStreamLensFilterClass;

GType gst_streamlens_filter_get_type (void);
#define GST_TYPE_STREAMLENS_FILTER (gst_streamlens_filter_get_type ())
#define GST_STREAMLENS_FILTER(obj) ((GstStreamLensFilter *) (obj))

GType gst_streamlens_detect_get_type (void);
GType gst_streamlens_signs_get_type (void);
GType gst_streamlens_annotate_get_type (void);
GType gst_streamlens_overlay_get_type (void);
GType gst_streamlens_stats_get_type (void);
GType gst_streamlens_blur_get_type (void);

// GObject property accessors that forward to the Swift logic of a GstStreamLensFilter or GstStreamLensStats.
void streamlens_filter_set_property (GObject *object, guint id, const GValue *value, GParamSpec *pspec);
void streamlens_filter_get_property (GObject *object, guint id, GValue *value, GParamSpec *pspec);

G_END_DECLS

#endif
