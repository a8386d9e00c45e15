#include "overlay_shim.h"

void slx_overlay_set_string_property(GstElement *element, const gchar *property, const gchar *value) {
    g_object_set(element, property, value, NULL);
}
