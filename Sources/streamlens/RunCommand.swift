import ArgumentParser
import Foundation
import StreamLens
import StreamLensCompositing
import StreamLensDetection

/// `streamlens run [FILE.yaml] [--input …] [--output …]`: flags override the pipeline file.
struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run a pipeline. Without a file or --input, runs the built-in demo.",
        discussion: """
            INPUT is a file (mp4, mkv, webm, mov, avi, jpg…), a URI (file://, rtsp://, http://), a camera \
            (/dev/videoN) or a GStreamer source description ending in raw video. OUTPUT is a file (.mp4/.mov/.mkv \
            H.264, .webm VP9), 'null', or a GStreamer sink description.
            Exit status: 0 done, 1 failed, 2 bad arguments, a bad pipeline file or an output that would overwrite \
            the input, 130 interrupted. Files are written as NAME.partial and renamed when complete.
            """
    )

    @Argument(help: "A pipeline file (YAML), e.g. pipelines/dashcam-file.yaml.")
    var pipelineFile: String?

    @OptionGroup var options: RunOptions

    mutating func run() throws {
        let configuration: RunConfiguration
        do {
            configuration = try options.makeConfiguration(pipelineFile: pipelineFile)
        } catch {
            printError(error)
            throw ExitCode(2)
        }
        let session = RunSession(configuration: configuration)
        throw ExitCode(session.execute())
    }
}

extension RunCommand {
    static let annotationNames = ["boxes", "labels", "badge", "hud", "spotlight", "none"]

    /// `--annotate boxes,labels,badge,hud,spotlight` → what to draw (badge top-right, HUD bottom-left, spotlight 30 %).
    static func annotations(from list: String) throws(RunError) -> AnnotationConfiguration {
        let names = Set(list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
        if let unknown = names.first(where: { !annotationNames.contains($0) }) {
            throw .invalidConfiguration(
                file: nil, key: "--annotate", problem: "'\(unknown)' is not allowed; use \(annotationNames.joined(separator: ", "))")
        }
        return AnnotationConfiguration(
            boxes: names.contains("boxes"), labels: names.contains("labels"),
            speedLimitBadge: names.contains("badge") ? FrameCorner.topRight.rawValue : "off",
            hud: names.contains("hud") ? FrameCorner.bottomLeft.rawValue : "off",
            spotlight: names.contains("spotlight") ? 0.3 : nil)
    }
}
