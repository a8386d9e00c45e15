internal import COpenCVDetection

/// Process-wide facts and settings of the OpenCV library behind the detectors.
///
/// ## Thread Safety
/// ``threadCount`` changes a global OpenCV setting: set it once at start-up, before detectors run.
public enum OpenCVRuntime {
    /// OpenCV's version, for reports (`4.6.0` on Debian 12).
    public static var version: String { String(cString: slcv_version()) }

    /// Threads OpenCV's parallel loops (HOG, cascades, dnn) may use. 1 keeps detection on its analysis thread,
    /// leaving the other cores to decoding and encoding.
    public static var threadCount: Int {
        get { Int(slcv_thread_count()) }
        set { slcv_set_thread_count(Int32(clamping: max(0, newValue))) }
    }
}
