#include "opencv_bridge.h"
#include <opencv2/core.hpp>

const char *slcv_version(void) { return CV_VERSION; }
