// Plain C interface to the OpenCV (C++) detectors. See issue 5.
#ifndef STREAMLENS_OPENCV_BRIDGE_H
#define STREAMLENS_OPENCV_BRIDGE_H
#ifdef __cplusplus
extern "C" {
#endif
// OpenCV's version string, for reports.
const char *slcv_version(void);
#ifdef __cplusplus
}
#endif
#endif
