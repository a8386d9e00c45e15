// Object detectors behind the Detections contract. See issue 5.
import StreamLensCore
