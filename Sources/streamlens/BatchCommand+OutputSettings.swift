import StreamLens
import StreamLensBatch
import StreamLensCore
import StreamLensDetection

extension BatchCommand {
    /// The catalog's settings line for a batch run with `configuration` (``OutputSettings``): the privacy settings,
    /// the identity of each model they use and the StreamLens version, or empty without `--blur`.
    static func outputSettings(of configuration: RunConfiguration) throws -> String {
        guard let privacy = configuration.privacy else { return "" }
        var pairs: [(name: String, value: String)] = [
            ("blur", privacy.kinds.map(\.rawValue).joined(separator: ",")), ("style", privacy.style.rawValue),
            ("margin", "\(privacy.margin)"), ("confidence", "\(privacy.confidence)"),
            ("hold", "\(privacy.hold.seconds)"),
        ]
        for kind in privacy.kinds {
            for (index, path) in try kind.requireModels().enumerated() {
                let name = index == 0 ? "model.\(kind.rawValue)" : "model.\(kind.rawValue).\(index + 1)"
                pairs.append((name, try OutputSettings.modelIdentity(ofFileAt: path)))
            }
        }
        pairs.append(("version", StreamLensVersion.current))
        return OutputSettings.line(pairs)
    }
}
