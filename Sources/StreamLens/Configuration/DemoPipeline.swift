import Foundation
import StreamLensCompositing
import StreamLensDetection

/// The built-in demo: what `streamlens run` does with no pipeline file and no input. It needs no file from the user:
/// the street scene is the real footage that `scripts/demo.sh` fetches (`bikes.mp4`, see MEDIA.md), or, without it,
/// GStreamer's own test pattern; a 50 km/h sign drawn from the SVG below is placed into the scene by GStreamer's
/// `rsvgoverlay`, and StreamLens then reads it, finds the people (HOG), tracks and badges them, and reports on every
/// frame.
public enum DemoPipeline {
    /// A European 50 km/h sign: red ring, white disc, black digits.
    static let signSVG = """
        <svg xmlns='http://www.w3.org/2000/svg' width='200' height='200' viewBox='0 0 200 200'>\
        <circle cx='100' cy='100' r='89' fill='white' stroke='#c81414' stroke-width='20'/>\
        <text x='100' y='131' font-family='DejaVu Sans' font-weight='bold' font-size='88' text-anchor='middle' \
        fill='#111'>50</text></svg>
        """

    /// The street clip, when the media has been fetched.
    static var streetClip: String? {
        let media = ProcessInfo.processInfo.environment["STREAMLENS_MEDIA"].flatMap { $0.isEmpty ? nil : $0 }
            ?? ".media-cache/media"
        let candidates = [media + "/bikes.mp4", "../.media-cache/media/bikes.mp4"]
        return candidates.map { URL(fileURLWithPath: $0).standardizedFileURL.path }
            .first { FileManager.default.isReadableFile(atPath: $0) }
    }

    /// The scene: the street (or a test pattern) with the sign placed at the right side of the road.
    static var input: String {
        let scene: String
        if let clip = streetClip {
            scene = "uridecodebin uri=\(quoted(URL(fileURLWithPath: clip).absoluteString)) ! videoconvert"
        } else {
            scene = "videotestsrc pattern=smpte num-buffers=250 ! video/x-raw,width=640,height=272,framerate=25/1 ! videoconvert"
        }
        return "\(scene) ! rsvgoverlay x=500 y=60 width=80 height=80 data=\(quoted(signSVG)) ! videoconvert"
    }

    public static func configuration() throws(RunError) -> RunConfiguration {
        var configuration = RunConfiguration(input: InputSource(parsing: input))
        configuration.inputName = "built-in demo: \(streetClip.map { URL(fileURLWithPath: $0).lastPathComponent } ?? "test pattern") with a 50 km/h sign"
        configuration.output = try OutputTarget(parsing: "streamlens-demo.mp4")
        configuration.speedLimits = SpeedLimitOptions()
        configuration.detection = ObjectDetectionOptions(detector: .hog)
        configuration.annotations = AnnotationConfiguration(
            boxes: true, labels: true, speedLimitBadge: FrameCorner.topRight.rawValue, hud: FrameCorner.bottomLeft.rawValue)
        configuration.reportPath = "streamlens-demo-report.json"
        configuration.htmlPath = "streamlens-demo-report.html"
        configuration.eventsPath = "streamlens-demo-events.jsonl"
        configuration.subtitlesPath = "streamlens-demo-limits.vtt"
        return configuration
    }
}
