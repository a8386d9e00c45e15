import Foundation

/// Resolves cascade short names to the XML files of Debian's `opencv-data` package.
public struct CascadeCatalog: Sendable {
    /// A cascade file and the class name its detections get.
    public struct Entry: Sendable, Equatable {
        public var path: String
        public var className: String
    }

    /// Where `opencv-data` installs the Haar cascades.
    public static let defaultDirectory = "/usr/share/opencv4/haarcascades"

    /// Short name → (file name, class name). `licence_plate` is the Russian plate cascade, the only plate model
    /// OpenCV ships.
    public static let knownCascades: [String: (file: String, className: String)] = [
        "fullbody": ("haarcascade_fullbody.xml", "person"),
        "upperbody": ("haarcascade_upperbody.xml", "upper_body"),
        "lowerbody": ("haarcascade_lowerbody.xml", "lower_body"),
        "frontalface": ("haarcascade_frontalface_default.xml", "face"),
        "face": ("haarcascade_frontalface_default.xml", "face"),
        "profileface": ("haarcascade_profileface.xml", "face"),
        "licence_plate": ("haarcascade_russian_plate_number.xml", "licence_plate"),
        "license_plate": ("haarcascade_russian_plate_number.xml", "licence_plate"),
        "plate": ("haarcascade_russian_plate_number.xml", "licence_plate"),
    ]

    /// The folder short names resolve in.
    public let directory: String

    /// A catalog of the cascades in `directory`.
    public init(directory: String = CascadeCatalog.defaultDirectory) {
        self.directory = directory
    }

    /// A known short name, an empty name (meaning `frontalface`), or a path to an XML file (class name taken from
    /// the file name: `haarcascade_eye.xml` → `eye`).
    public func resolve(_ nameOrPath: String) throws -> Entry {
        let name = nameOrPath.isEmpty ? "frontalface" : nameOrPath
        if let known = Self.knownCascades[name.lowercased()] {
            let path = (directory as NSString).appendingPathComponent(known.file)
            guard FileManager.default.isReadableFile(atPath: path) else {
                throw DetectionError.fileNotFound(path: path, role: "cascade file (install opencv-data)")
            }
            return Entry(path: path, className: known.className)
        }
        let looksLikePath = name.contains("/") || name.hasSuffix(".xml")
        guard looksLikePath else { throw DetectionError.unknownCascade(name: name, searched: directory) }
        guard FileManager.default.isReadableFile(atPath: name) else {
            throw DetectionError.fileNotFound(path: name, role: "cascade file")
        }
        var stem = ((name as NSString).lastPathComponent as NSString).deletingPathExtension
        if stem.hasPrefix("haarcascade_") { stem.removeFirst("haarcascade_".count) }
        if stem.hasPrefix("lbpcascade_") { stem.removeFirst("lbpcascade_".count) }
        return Entry(path: name, className: stem)
    }
}
