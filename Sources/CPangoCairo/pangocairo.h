// Cairo for raster drawing, Pango for text layout and shaping.
#include <cairo.h>
#include <pango/pangocairo.h>
