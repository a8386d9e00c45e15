import StreamLensGStreamer
import StreamLensOptions
import Synchronization

/// The Swift side of one StreamLens element instance: its property values and what it does on each virtual method
/// the C layer forwards (start, stop, caps, transform, sink events).
///
/// Subclasses override the `begin`/`end`/`negotiate`/`process`/`handle` hooks; this class keeps the property
/// values (the GParamSpecs, installed from the option schema by ``ElementProperties``, define the properties, their
/// ranges and defaults, which GObject sets at construction — or which ``property(_:)`` reads when it did not) and checks the string values the specs cannot:
/// a value that is not valid is logged at once (`g_warning`) and fails the next start with an ERROR naming the
/// property and what it accepts.
///
/// ## Thread Safety
/// Property values sit behind a mutex (GObject may set them from any thread). Everything else a subclass keeps is
/// touched by one thread at a time, as GStreamer orders them: `begin` and `end` on the state-change thread while no
/// data flows, `negotiate`, `process` and `handle` on the streaming thread in between.
class ElementLogic: @unchecked Sendable {
    /// The check of one property's values beyond what its GParamSpec enforces (a detector, a region, a corner…).
    struct PropertyRule {
        let name: String
        /// The allowed values in words, for messages ("hog, cascade:NAME|PATH or onnx:PATH").
        let allowed: String
        /// Nil when `value` is valid; otherwise why not.
        let check: @Sendable (PropertyValue) -> String?

        init(_ name: String, allowed: String, check: @escaping @Sendable (PropertyValue) -> String?) {
            self.name = name
            self.allowed = allowed
            self.check = check
        }

        /// Property `name` takes one of the words of the schema's `option` (a `.choice`).
        init(choiceOf option: OptionSpec, _ name: String) {
            guard case .choice(let words) = option.kind else { preconditionFailure("\(name) is not a choice") }
            self.init(name, allowed: words.joined(separator: ", ")) { value in
                words.contains(value.stringValue ?? "") ? nil : "not one of its values"
            }
        }
    }

    /// What `begin` decided.
    enum Start {
        case failed
        case process
        case passthrough
    }

    let element: ElementHandle
    let rules: [PropertyRule]
    private let values = Mutex<[String: PropertyValue]>([:])

    init(element: ElementHandle, rules: [PropertyRule] = []) {
        self.element = element
        self.rules = rules
    }

    // MARK: - Properties

    final func setProperty(_ name: String, _ value: PropertyValue) {
        values.withLock { $0[name] = value }
        if let problem = problem(with: name, value: value) { ElementHandle.logWarning(problem) }
    }

    /// The value set, else the property's default. GObject sets every default at construction, except for a
    /// property given a value out of its range there (`gst-launch … expiry=0`): GLib warns and sets nothing, which
    /// read as 0 — an expiry of 0 crashed the element, a spotlight of 0 blacked out the video.
    final func property(_ name: String) -> PropertyValue? {
        values.withLock { $0[name] } ?? element.defaultValue(of: name)
    }

    final func string(_ name: String) -> String? { property(name)?.stringValue }
    final func double(_ name: String) -> Double { property(name)?.doubleValue ?? 0 }
    final func int(_ name: String) -> Int { property(name)?.intValue ?? 0 }
    final func bool(_ name: String) -> Bool { property(name)?.boolValue ?? false }
    /// A double property in seconds, as a duration.
    final func seconds(_ name: String) -> Duration { .nanoseconds(Int64((double(name) * 1_000_000_000).rounded())) }

    /// One line saying what is wrong with `value` for property `name`, or nil.
    private func problem(with name: String, value: PropertyValue) -> String? {
        guard let rule = rules.first(where: { $0.name == name }), let reason = rule.check(value) else { return nil }
        let shown: String = switch value {
        case .string(let text): "'\(text ?? "")'"
        case .double(let number): "\(number)"
        case .int(let number): "\(number)"
        case .bool(let flag): "\(flag)"
        }
        return "\(element.name): property '\(name)' cannot be \(shown): \(reason); use \(rule.allowed)"
    }

    // MARK: - Life cycle (called by the trampolines)

    /// READY→PAUSED: checks every property, then `begin`.
    final func start() -> Start {
        for rule in rules {
            guard let value = property(rule.name), let problem = problem(with: rule.name, value: value) else { continue }
            element.postError(.settings, problem)
            return .failed
        }
        return begin()
    }

    /// PAUSED→READY.
    final func stop() -> Bool {
        end()
        return true
    }

    // MARK: - Hooks for subclasses

    /// Builds what the element needs to run from its properties; posts an ERROR and returns `.failed` when it cannot.
    func begin() -> Start { .process }
    /// Releases what `begin` built; safe to call after a failed `begin`.
    func end() {}
    /// The negotiated input caps (`GstCaps *`, borrowed); false refuses them.
    func negotiate(caps: UnsafeMutableRawPointer) -> Bool { true }
    /// The buffer `process` will get: `input` itself, or a new buffer (a full reference) that replaces it; nil lets
    /// GstBaseTransform decide (a metadata-writable buffer sharing the pixels).
    func prepareOutput(_ input: BufferHandle) -> UnsafeMutableRawPointer? { nil }
    /// One buffer, in place.
    func process(_ buffer: BufferHandle) -> FlowResult { .ok }
    /// An event on the sink pad, before it goes downstream (serialized ones in stream order, on the streaming thread).
    func handle(_ event: SinkPadEvent) {}
    /// streamlensstats: a buffer reached the sink pad / its push downstream returned.
    func bufferArrived(_ buffer: BufferHandle) {}
    func bufferPushed(_ result: FlowResult) {}
    /// streamlensstats: PLAYING→PAUSED (false) or PAUSED→PLAYING (true), on the state-change thread.
    func playingChanged(_ playing: Bool) {}
}

/// Why an element could not start: the ERROR it posts.
struct ElementSetupError: Error {
    let problem: ElementHandle.Problem
    let message: String

    init(_ problem: ElementHandle.Problem, _ message: String) {
        self.problem = problem
        self.message = message
    }
}
