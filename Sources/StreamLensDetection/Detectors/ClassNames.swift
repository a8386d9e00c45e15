import Foundation

/// Names of a model's classes, index = class id: read from a file (one name per line) or the 80 COCO classes
/// most YOLO exports are trained on.
public struct ClassNames: Sendable, Equatable {
    /// Name of each class id, in id order.
    public let names: [String]

    /// Names given in id order.
    public init(_ names: [String]) { self.names = names }

    /// Reads one name per line; surrounding blanks and trailing empty lines are ignored.
    public init(contentsOf path: String) throws {
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8)
        else {
            throw DetectionError.fileNotFound(path: path, role: "class-names file")
        }
        // By newline characters, not "\n": a file saved on Windows ends its lines with "\r\n", one Character.
        var lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
            .map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        while lines.last?.isEmpty == true { lines.removeLast() }
        guard !lines.isEmpty else { throw DetectionError.invalidOption("class-names file '\(path)' is empty") }
        if let blank = lines.firstIndex(where: \.isEmpty) {
            throw DetectionError.invalidOption(
                "class-names file '\(path)' has an empty line \(blank + 1): every class id needs a name")
        }
        names = lines
    }

    /// The name of class `id`; `class_<id>` beyond the list.
    public func name(of id: Int) -> String {
        names.indices.contains(id) ? names[id] : "class_\(id)"
    }

    /// Class ids for `entries`: names of this list or ids within it. Throws for anything else.
    public func ids(for entries: [String]) throws -> [Int] {
        try entries.map { entry in
            if let index = names.firstIndex(of: entry) { return index }
            if let number = Int(entry), names.indices.contains(number) { return number }
            let sample = names.prefix(8).joined(separator: ", ") + (names.count > 8 ? ", …" : "")
            let ids = names.count == 1 ? "id 0" : "ids 0…\(names.count - 1)"
            throw DetectionError.unknownClass(name: entry, available: "\(sample); or \(ids)")
        }
    }

    /// `entries` (names of this list or class ids) as the names detections carry; throws for an unknown entry.
    public func names(for entries: [String]) throws -> [String] {
        try ids(for: entries).map { names[$0] }
    }

    /// The 80 classes of the COCO data set in their usual index order.
    public static let coco = ClassNames([
        "person", "bicycle", "car", "motorcycle", "airplane", "bus", "train", "truck", "boat", "traffic light",
        "fire hydrant", "stop sign", "parking meter", "bench", "bird", "cat", "dog", "horse", "sheep", "cow",
        "elephant", "bear", "zebra", "giraffe", "backpack", "umbrella", "handbag", "tie", "suitcase", "frisbee",
        "skis", "snowboard", "sports ball", "kite", "baseball bat", "baseball glove", "skateboard", "surfboard",
        "tennis racket", "bottle", "wine glass", "cup", "fork", "knife", "spoon", "bowl", "banana", "apple",
        "sandwich", "orange", "broccoli", "carrot", "hot dog", "pizza", "donut", "cake", "chair", "couch",
        "potted plant", "bed", "dining table", "toilet", "tv", "laptop", "mouse", "remote", "keyboard",
        "cell phone", "microwave", "oven", "toaster", "sink", "refrigerator", "book", "clock", "vase", "scissors",
        "teddy bear", "hair drier", "toothbrush",
    ])
}
