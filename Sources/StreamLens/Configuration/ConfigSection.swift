import StreamLensOptions
import Yams

/// A mapping in a pipeline file, read with checks: every key must be known, every value of the expected type and
/// range; each problem names the file, the full key and what is allowed.
public struct ConfigSection {
    /// The pipeline file, for messages.
    public let file: String
    /// Dotted path of this section (`stages.detector`), empty at the top.
    public let path: String
    private let mapping: Node.Mapping

    init(file: String, path: String, mapping: Node.Mapping) {
        self.file = file
        self.path = path
        self.mapping = mapping
    }

    /// Parses YAML text; the top level must be a mapping.
    public static func parse(_ text: String, file: String) throws(RunError) -> ConfigSection {
        let node: Node?
        do { node = try Yams.compose(yaml: text) } catch {
            // Yams quotes the whole file as its context: say which key, where, and what to do instead.
            if case YamlError.duplicatedKeysInMapping(let duplicates, let context) = error {
                let names = duplicates.map { "'\($0)'" }.joined(separator: ", ")
                throw .invalidConfiguration(
                    file: file, key: "(file)",
                    problem: "\(names) given twice in one section (the first at line \(context.mark.line)); keep one")
            }
            throw .invalidConfiguration(file: file, key: "(file)", problem: "not valid YAML: \(error)")
        }
        guard let mapping = node?.mapping else {
            throw .invalidConfiguration(file: file, key: "(file)", problem: "expected a mapping of sections at the top level")
        }
        return ConfigSection(file: file, path: "", mapping: mapping)
    }

    /// The keys present.
    public var keys: [String] { mapping.keys.compactMap(\.string) }

    /// Fails on the first key not in `allowed`.
    public func rejectUnknownKeys(_ allowed: [String]) throws(RunError) {
        // A key that is not text (`? [a] : 1`) is no key of ours either; `keys` would skip it silently.
        if mapping.keys.contains(where: { $0.scalar == nil }) {
            throw .invalidConfiguration(
                file: file, key: path.isEmpty ? "(top level)" : path,
                problem: "a key is a list or a mapping, not a name; allowed here: \(allowed.joined(separator: ", "))")
        }
        for key in keys where !allowed.contains(key) {
            throw problem(key, "unknown key; allowed here: \(allowed.joined(separator: ", "))")
        }
    }

    public func fullKey(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    /// A RunError for `key`.
    public func problem(_ key: String, _ text: String) -> RunError {
        .invalidConfiguration(file: file, key: fullKey(key), problem: text)
    }

    public func contains(_ key: String) -> Bool { mapping[key] != nil }

    /// The mapping under `key`, whose keys must be among `allowed` (the message for a plain value names them).
    public func section(_ key: String, keys allowed: [String]) throws(RunError) -> ConfigSection? {
        guard let node = mapping[key] else { return nil }
        guard let child = node.mapping else {
            throw problem(key, "expected a mapping with the keys \(allowed.joined(separator: ", "))")
        }
        let section = ConfigSection(file: file, path: fullKey(key), mapping: child)
        try section.rejectUnknownKeys(allowed)
        return section
    }

    public func string(_ key: String) throws(RunError) -> String? {
        guard let node = mapping[key] else { return nil }
        guard let scalar = node.scalar else { throw problem(key, "expected a text value") }
        return scalar.string
    }

    public func bool(_ key: String) throws(RunError) -> Bool? {
        guard let node = mapping[key] else { return nil }
        guard let value = node.bool else { throw problem(key, "expected true or false, got '\(node.string ?? "?")'") }
        return value
    }

    /// A list of text values (a single value counts as a list of one).
    public func strings(_ key: String) throws(RunError) -> [String]? {
        guard let node = mapping[key] else { return nil }
        if let scalar = node.scalar { return [scalar.string] }
        guard let sequence = node.sequence else { throw problem(key, "expected a list of text values") }
        var values: [String] = []
        for item in sequence {
            guard let scalar = item.scalar else { throw problem(key, "expected a list of text values") }
            values.append(scalar.string)
        }
        return values
    }

    /// A list of mappings.
    public func sections(_ key: String, keys allowed: [String]) throws(RunError) -> [ConfigSection]? {
        guard let node = mapping[key] else { return nil }
        guard let sequence = node.sequence else { throw problem(key, "expected a list of mappings") }
        var result: [ConfigSection] = []
        for (index, item) in sequence.enumerated() {
            guard let child = item.mapping else {
                throw problem("\(key)[\(index)]", "expected a mapping with the keys \(allowed.joined(separator: ", "))")
            }
            let section = ConfigSection(file: file, path: "\(fullKey(key))[\(index)]", mapping: child)
            try section.rejectUnknownKeys(allowed)
            result.append(section)
        }
        return result
    }
}

// MARK: - Reading an option of the schema

extension ConfigSection {
    /// The keys the schema allows here (`OptionSchema.keys(under:)`), list indexes ignored.
    var schemaKeys: [String] { OptionSchema.keys(under: schemaPath) }

    /// This section's path as the schema writes keys: `stages.overlays[2]` is `stages.overlays`.
    private var schemaPath: String {
        path.split(separator: ".").map { $0.split(separator: "[").first.map(String.init) ?? "" }.joined(separator: ".")
    }

    /// The key of `option` in this section; a programming error when the option lives elsewhere.
    private func name(of option: OptionSpec) -> String {
        guard let key = option.key, let name = option.keyName, key == (schemaPath.isEmpty ? name : "\(schemaPath).\(name)")
        else { preconditionFailure("\(option.key ?? "?") is not a key of '\(schemaPath)'") }
        return name
    }

    /// The subsection `key`, with the keys the schema lists under it.
    func section(_ key: String) throws(RunError) -> ConfigSection? {
        try section(key, keys: OptionSchema.keys(under: schemaPath.isEmpty ? key : "\(schemaPath).\(key)"))
    }

    /// The list of subsections `key` (`stages.overlays`), each with the keys the schema lists under it.
    func sections(_ key: String) throws(RunError) -> [ConfigSection]? {
        try sections(key, keys: OptionSchema.keys(under: schemaPath.isEmpty ? key : "\(schemaPath).\(key)"))
    }

    func int(_ option: OptionSpec) throws(RunError) -> Int? {
        let key = name(of: option)
        guard let node = mapping[key] else { return nil }
        guard let value = node.int else { throw problem(key, "expected a whole number, got '\(node.string ?? "?")'") }
        if let problem = option.problem(with: value) { throw self.problem(key, problem) }
        return value
    }

    func double(_ option: OptionSpec) throws(RunError) -> Double? {
        let key = name(of: option)
        guard let node = mapping[key] else { return nil }
        guard let value = node.float ?? node.int.map(Double.init) else {
            throw problem(key, "expected a number, got '\(node.string ?? "?")'")
        }
        if let problem = option.problem(with: value) { throw self.problem(key, problem) }
        return value
    }

    /// A number of seconds as a Duration (millisecond precision).
    func duration(_ option: OptionSpec) throws(RunError) -> Duration? {
        try double(option).map { .milliseconds(Int64(($0 * 1000).rounded())) }
    }

    func bool(_ option: OptionSpec) throws(RunError) -> Bool? { try bool(name(of: option)) }

    /// Text of an option whose kind checks it (a choice, a file name); free text as it is.
    func string(_ option: OptionSpec) throws(RunError) -> String? {
        let key = name(of: option)
        guard let value = try string(key) else { return nil }
        if let problem = option.problem(with: value) { throw self.problem(key, problem) }
        return value
    }

    func strings(_ option: OptionSpec) throws(RunError) -> [String]? { try strings(name(of: option)) }
}
