import Foundation
import StreamLensCore

/// What the privacy stage can hide (`--blur`, a pipeline file's `stages.privacy.blur`, the `streamlensblur`
/// element's `kinds`), each with the detector that finds it: the one place the command line and the element build
/// their detectors from.
public enum PrivacyKind: String, Sendable, Equatable, CaseIterable {
    case faces
    case plates

    /// A value of `blur`/`kinds` that names nothing StreamLens can hide.
    public struct Unknown: Error, CustomStringConvertible {
        public let description: String
    }

    /// The kinds in `text` (comma-separated, each once, in the order given); throws the problem in one line for an
    /// unknown word or an empty list.
    public static func parse(_ text: String) throws(Unknown) -> [PrivacyKind] {
        var kinds: [PrivacyKind] = []
        let words = allCases.map(\.rawValue).joined(separator: ", ")
        for word in text.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) where !word.isEmpty {
            guard let kind = PrivacyKind(rawValue: word) else {
                throw Unknown(description: "cannot blur '\(word)': use \(words) or off")
            }
            if !kinds.contains(kind) { kinds.append(kind) }
        }
        guard !kinds.isEmpty else { throw Unknown(description: "say what to blur: \(words), or off") }
        return kinds
    }

    /// The installed model files of this kind's detector (the plate detector runs two input sizes); throws
    /// ``DetectionError/modelNotInstalled(name:searched:install:)`` (one line naming the install script) when one is
    /// missing.
    public func requireModels() throws -> [String] {
        switch self {
        case .faces: [try CenterFaceDetector.requireInstalled()]
        case .plates: try PlateDetector.requireInstalled()
        }
    }

    /// Loads this kind's detector from `modelPaths` (``requireModels()``), keeping detections scored at least
    /// `confidence`. Runs on the analysis thread (the privacy stage loads its detectors at its first frame).
    public func makeDetector(modelPaths: [String], confidence: Double) throws -> any ObjectDetector {
        switch self {
        case .faces:
            var options = CenterFaceDetector.Options()
            options.confidenceThreshold = confidence
            return try CenterFaceDetector(modelPath: modelPaths[0], options: options)
        case .plates:
            var options = PlateDetector.Options()
            options.confidenceThreshold = confidence
            return try PlateDetector(modelPaths: modelPaths, options: options)
        }
    }

    /// The privacy stage for `kinds`: the models are found now (a missing one throws before anything runs) and
    /// loaded on the analysis thread at the first frame, or now with `loadNow` (an element, whose READY→PAUSED then
    /// fails on a model that does not load instead of passing frames it cannot blur).
    public static func makeStage(
        kinds: [PrivacyKind], configuration: PrivacyStage.Configuration, loadNow: Bool = false
    ) throws -> PrivacyStage {
        let models = try kinds.map { ($0, try $0.requireModels()) }
        let confidence = configuration.confidenceThreshold
        let backendName = kinds.map(\.backendName).joined(separator: "+")
        if loadNow {
            // Handed to the analysis thread once, by the stage's first frame; never used here again.
            nonisolated(unsafe) let loaded = try models.map { kind, paths in
                try kind.makeDetector(modelPaths: paths, confidence: confidence)
            }
            return try PrivacyStage(backendName: backendName, configuration: configuration) { loaded }
        }
        return try PrivacyStage(backendName: backendName, configuration: configuration) {
            try models.map { kind, paths in try kind.makeDetector(modelPaths: paths, confidence: confidence) }
        }
    }

    /// The detector's name in reports.
    public var backendName: String {
        switch self {
        case .faces: "centerface"
        case .plates: "clp-det"
        }
    }
}
