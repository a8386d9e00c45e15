import Foundation

/// One option of StreamLens, declared once: its names in every place it applies (command line, pipeline file,
/// element property), its type and range, its default, its unit and its help.
///
/// The command line (`Sources/streamlens/RunOptions.swift`) takes its flag names, help and range checks from here,
/// the pipeline-file reader (`PipelineFile`) its keys and ranges, the GStreamer elements their property
/// specifications (names, blurbs, ranges, defaults: `streamlens_install_properties`), and
/// docs/reference/options.md is ``OptionSchema/referencePage()``. `OptionSchemaTests` hold the places equal.
public struct OptionSpec: Sendable, Equatable {
    /// The values an option takes.
    public enum Kind: Sendable, Equatable {
        /// A switch: given or not (a YAML boolean, a boolean property).
        case flag
        /// true or false.
        case bool
        /// A whole number within the range.
        case int(ClosedRange<Int>)
        /// A number within the range.
        case number(ClosedRange<Double>)
        /// One of these words.
        case choice([String])
        /// Free text of this form, checked where it is used (`hog | cascade:NAME|PATH | onnx:PATH`).
        case text(String)
        /// A file name (never empty).
        case path
        /// A YAML mapping or list of mappings that holds other keys.
        case section
    }

    /// A value: a default, or one given.
    public enum Value: Sendable, Equatable, CustomStringConvertible {
        case int(Int)
        case number(Double)
        case text(String)
        case bool(Bool)

        public var description: String {
            switch self {
            case .int(let value): "\(value)"
            case .number(let value): OptionSpec.format(value)
            case .text(let value): value
            case .bool(let value): value ? "true" : "false"
            }
        }
    }

    /// What `streamlens batch` does with a command-line option given to it.
    public enum BatchUse: Sendable, Equatable {
        /// Passed on to every file's run.
        case shared
        /// Refused: the batch names it per file (inputs, reports, events).
        case perFile
        /// Refused: only one run can use it (one timeline, one metrics port).
        case singleRun
        /// Batch's own or hidden: not passed on.
        case notPassed
    }

    /// An element property: which element, which name, and its default where the element differs from the
    /// command line (only where a command line default is no value at all, such as `--detector`).
    public struct Property: Sendable, Equatable {
        public let element: String
        public let name: String
        public let defaultValue: Value?

        public init(_ element: String, _ name: String, default defaultValue: Value? = nil) {
            self.element = element
            self.name = name
            self.defaultValue = defaultValue
        }
    }

    /// The command-line flag without dashes (`pool-size`), if the command line has it.
    public let flag: String?
    /// The pipeline-file key as a dotted path (`pool.size`; list items `stages.overlays.clip`), if files have it.
    public let key: String?
    /// The element properties it is.
    public let properties: [Property]
    public let kind: Kind
    /// The value used when none is given, if one is.
    public let defaultValue: Value?
    /// What happens when none is given and there is no single default (`the stage's own`).
    public let unset: String?
    /// The unit of a number (`s`, `px`).
    public let unit: String?
    public let help: String
    public let batch: BatchUse

    public init(
        flag: String? = nil, key: String? = nil, properties: [Property] = [], kind: Kind, default defaultValue: Value? = nil,
        unset: String? = nil, unit: String? = nil, help: String, batch: BatchUse = .shared
    ) {
        precondition(flag != nil || key != nil || !properties.isEmpty, "an option applies somewhere")
        if case .int(let range) = kind, case .int(let value)? = defaultValue { precondition(range.contains(value)) }
        if case .number(let range) = kind, case .number(let value)? = defaultValue { precondition(range.contains(value)) }
        if case .choice(let words) = kind, case .text(let value)? = defaultValue { precondition(words.contains(value)) }
        self.flag = flag
        self.key = key
        self.properties = properties
        self.kind = kind
        self.defaultValue = defaultValue
        self.unset = unset
        self.unit = unit
        self.help = help
        self.batch = batch
    }

    /// `--pool-size`.
    public var cliName: String? { flag.map { "--\($0)" } }

    /// The last component of ``key`` (`size` of `pool.size`).
    public var keyName: String? { key.map { String($0.split(separator: ".").last ?? "") } }

    /// The property of `element`, if the option is one of its properties.
    public func property(of element: String) -> Property? { properties.first { $0.element == element } }

    /// The default an element property has: its own, else the option's.
    public func defaultValue(of property: Property) -> Value? { property.defaultValue ?? defaultValue }

    // MARK: - Checks

    /// Nil when `value` is allowed; otherwise why not, in the words every place uses (`0 is out of range; allowed
    /// 1…64`).
    public func problem(with value: Int) -> String? {
        guard case .int(let range) = kind else { return "expected \(expected)" }
        return range.contains(value) ? nil : "\(value) is out of range; allowed \(Self.describe(range))"
    }

    public func problem(with value: Double) -> String? {
        switch kind {
        case .number(let range):
            guard value.isFinite, range.contains(value) else {
                return "\(value) is out of range; allowed \(Self.describe(range))\(unit.map { " \($0)" } ?? "")"
            }
            return nil
        case .int(let range):
            // A whole number written as 3.0 in YAML is still 3.
            guard value.rounded() == value, let whole = Int(exactly: value) else { return "expected a whole number" }
            return range.contains(whole) ? nil : "\(value) is out of range; allowed \(Self.describe(range))"
        default: return "expected \(expected)"
        }
    }

    public func problem(with text: String) -> String? {
        switch kind {
        case .choice(let words):
            words.contains(text) ? nil : "'\(text)' is not allowed; use one of: \(words.joined(separator: ", "))"
        case .path:
            text.trimmingCharacters(in: .whitespaces).isEmpty ? "is empty; give a file name" : nil
        case .text(let form):
            text.trimmingCharacters(in: .whitespaces).isEmpty ? "is empty; give \(form)" : nil
        default: nil
        }
    }

    /// What the option takes, in words (`a whole number 1…64`, `one of: auto, block, drop`).
    public var expected: String {
        switch kind {
        case .flag, .bool: "true or false"
        case .int(let range): "a whole number \(Self.describe(range))"
        case .number(let range): "a number \(Self.describe(range))\(unit.map { " \($0)" } ?? "")"
        case .choice(let words): "one of: \(words.joined(separator: ", "))"
        case .text(let form): form
        case .path: "a file name"
        case .section: "a mapping"
        }
    }

    static func describe(_ range: ClosedRange<Int>) -> String {
        range.upperBound == Int.max ? "\(range.lowerBound) or more" : "\(range.lowerBound)…\(range.upperBound)"
    }

    static func describe(_ range: ClosedRange<Double>) -> String { "\(format(range.lowerBound))…\(format(range.upperBound))" }

    /// A number as people write it: 30 rather than 30.0, 0.3 as it is.
    static func format(_ value: Double) -> String {
        value.rounded() == value && abs(value) < 1e15 ? String(Int(value)) : "\(value)"
    }
}
