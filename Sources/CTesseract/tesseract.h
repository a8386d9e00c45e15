// Tesseract's plain C API (capi.h) and Leptonica's pixel containers.
#include <tesseract/capi.h>
#include <leptonica/allheaders.h>
