internal import COpenCVDetection
import StreamLensCore

/// Owns one bridge detector (`slcv_detector *`) plus the result and error buffers reused for every frame, and
/// turns its C results into ``Detection`` values. The backends (``HOGPeopleDetector``, ``CascadeDetector``,
/// ``ONNXDetector``) configure it; `deinit` frees the OpenCV side.
///
/// ## Thread Safety
/// Not synchronized: one thread at a time, like the C handle it owns (see `opencv_detection.h`).
final class OpenCVDetectorHandle {
    /// At most this many boxes are taken from one frame (the bridge keeps the most confident).
    static let boxCapacity = 256
    private static let errorCapacity = 512

    let backendName: String
    private let handle: OpaquePointer
    private let boxes: UnsafeMutablePointer<slcv_box>
    private let errorBuffer: UnsafeMutablePointer<CChar>

    /// Calls `create` (one of the `slcv_detector_create_*` functions) and keeps the handle it makes.
    /// `loadError` turns a failed load's status and message into the error to throw.
    init(
        backendName: String,
        create: (UnsafeMutablePointer<OpaquePointer?>, UnsafeMutablePointer<CChar>, Int) -> slcv_status,
        loadError: (slcv_status, String) -> DetectionError
    ) throws {
        self.backendName = backendName
        let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Self.errorCapacity)
        errorBuffer.initialize(repeating: 0, count: Self.errorCapacity)
        var created: OpaquePointer?
        let status = create(&created, errorBuffer, Self.errorCapacity)
        guard status == SLCV_OK, let created else {
            let message = String(cString: errorBuffer)
            errorBuffer.deallocate()
            throw loadError(status, message)
        }
        self.handle = created
        self.errorBuffer = errorBuffer
        self.boxes = .allocate(capacity: Self.boxCapacity)
    }

    deinit {
        slcv_detector_destroy(handle)
        boxes.deallocate()
        errorBuffer.deallocate()
    }

    /// The YOLO layout the bridge decoded last (`SLCV_YOLO_*` raw value).
    var resolvedLayout: Int32 { slcv_detector_resolved_layout(handle) }

    /// Runs the bridge on `frame` and maps each box to source pixels; `className` names a class index.
    func detect(_ frame: AnalysisFrame, className: (Int) -> String) throws -> [Detection] {
        var image = try Self.bridgeImage(frame.planes)
        var count: Int32 = 0
        let status = slcv_detector_detect(
            handle, &image, boxes, Int32(Self.boxCapacity), &count, nil, errorBuffer, Self.errorCapacity)
        guard status == SLCV_OK else {
            let message = String(cString: errorBuffer)
            if status == SLCV_UNSUPPORTED_OUTPUT {
                throw DetectionError.unsupportedModelOutput(path: backendName, reason: message)
            }
            throw DetectionError.detectionFailed(backend: backendName, reason: message)
        }
        let scale = frame.scaleToSource
        var detections: [Detection] = []
        detections.reserveCapacity(Int(count))
        for index in 0..<Int(count) {
            let box = boxes[index]
            let analysisBox = BoundingBox(
                x: Double(box.x), y: Double(box.y), width: Double(box.width), height: Double(box.height))
            let classID = Int(box.class_id)
            detections.append(Detection(
                box: analysisBox.scaled(x: scale.x, y: scale.y), className: className(classID), classID: classID,
                confidence: Double(box.confidence)))
        }
        return detections
    }

    /// Describes the analysis planes to the bridge without copying them.
    private static func bridgeImage(_ planes: YUVPlanes) throws -> slcv_yuv_image {
        let chromaPixelStride = planes.layout == .nv12 ? 2 : 1
        guard planes.u.pixelStride == chromaPixelStride, planes.v.pixelStride == chromaPixelStride,
            planes.y.pixelStride == 1
        else {
            throw DetectionError.unsupportedFrame("planes are not plain \(planes.layout.rawValue)")
        }
        guard planes.width >= 2, planes.height >= 2 else {
            throw DetectionError.unsupportedFrame("frame is \(planes.width)x\(planes.height), smaller than 2x2")
        }
        return slcv_yuv_image(
            y: UnsafePointer(planes.y.base), u: UnsafePointer(planes.u.base), v: UnsafePointer(planes.v.base),
            y_stride: Int32(planes.y.stride), u_stride: Int32(planes.u.stride), v_stride: Int32(planes.v.stride),
            chroma_pixel_stride: Int32(chromaPixelStride), width: Int32(planes.width),
            height: Int32(planes.height))
    }
}
