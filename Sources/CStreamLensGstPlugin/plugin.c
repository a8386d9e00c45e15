// The plugin entry point: GST_PLUGIN_DEFINE exports gst_plugin_streamlens_get_desc, which GStreamer's loader
// (gst-plugin-scanner, gst-launch-1.0, applications) looks up in libgststreamlens.so, and
// gst_plugin_streamlens_register for applications that link the library and register it statically.
//
// Loading must stay cheap and side-effect free: the registry scanner loads the library in its own process only to
// list the elements. Nothing here starts threads or opens models; each element's Swift logic does its work from
// READY→PAUSED on.
#include "elements.h"

// Source module name recorded in the descriptor (GST_PLUGIN_DEFINE reads PACKAGE).
#define PACKAGE "streamlens"
// The StreamLens release; keep in step with StreamLensVersion.current (the plugin tests compare the two).
#define STREAMLENS_PLUGIN_VERSION "0.1.0"

gboolean
streamlens_plugin_register_elements (GstPlugin *plugin)
{
  gst_type_mark_as_plugin_api (GST_TYPE_STREAMLENS_FILTER, 0);
  return gst_element_register (plugin, "streamlensdetect", GST_RANK_NONE, gst_streamlens_detect_get_type ())
      && gst_element_register (plugin, "streamlenssigns", GST_RANK_NONE, gst_streamlens_signs_get_type ())
      && gst_element_register (plugin, "streamlensannotate", GST_RANK_NONE, gst_streamlens_annotate_get_type ())
      && gst_element_register (plugin, "streamlensoverlay", GST_RANK_NONE, gst_streamlens_overlay_get_type ())
      && gst_element_register (plugin, "streamlensstats", GST_RANK_NONE, gst_streamlens_stats_get_type ())
      && gst_element_register (plugin, "streamlensblur", GST_RANK_NONE, gst_streamlens_blur_get_type ());
}

GST_PLUGIN_DEFINE (GST_VERSION_MAJOR, GST_VERSION_MINOR, streamlens,
    "StreamLens video analytics: object detection, speed-limit signs, privacy blur, annotations, looping overlays, "
    "statistics",
    streamlens_plugin_register_elements, STREAMLENS_PLUGIN_VERSION, "Apache 2.0", "StreamLens",
    "StreamLens")
