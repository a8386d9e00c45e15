// The GStreamer headers StreamLens uses: core, app (appsink/appsrc) and video (frames, converter).
#include <gst/gst.h>
#include <gst/app/app.h>
#include <gst/video/video.h>
#include <gst/pbutils/pbutils.h>
