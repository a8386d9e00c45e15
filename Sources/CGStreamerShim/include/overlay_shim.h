// One-line wrappers used by the overlay clip decoder (StreamLensGStreamer/Overlay) for what Swift cannot call:
// variadic GObject setters. No logic lives here.
#ifndef STREAMLENS_OVERLAY_SHIM_H
#define STREAMLENS_OVERLAY_SHIM_H

#include <gst/gst.h>

// g_object_set(element, property, value, NULL) for a string property. The value is copied by GObject.
void slx_overlay_set_string_property(GstElement *element, const gchar *property, const gchar *value);

#endif
