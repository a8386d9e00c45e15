import Foundation
import StreamLensCore
import Synchronization

/// Streams one CSV row per frame to `--timeline PATH.csv` as frames leave or are dropped.
///
/// Columns: `index,pts_ms,arrival_ms,pool_wait_ms,composite_ms,push_ms,output_ms,latency_ms,analysis_lag_ms,dropped_cause`.
/// Times are milliseconds with three decimals, `arrival_ms` and `output_ms` relative to the start of the run.
/// A dropped frame has `dropped_cause` set and empty timing columns (its `arrival_ms` is the drop time when its
/// arrival is too old to remember). Frames the sink drops after output carry no per-frame event, so they stay
/// output rows; the report counts them.
///
/// Rows collect in a fixed 64 KiB buffer written out when full and by ``flush()``/``close()``: memory is bounded and
/// the frame path does not allocate per row. An interrupted run keeps every row written before the last flush;
/// the runner flushes in ``RunRecorder/finish(at:)`` and may call ``flush()`` on its own ticks.
///
/// ## Thread Safety
/// Rows from any thread are serialized by a mutex; a row is appended whole.
public final class TimelineWriter: Sendable {
    public static let header =
        "index,pts_ms,arrival_ms,pool_wait_ms,composite_ms,push_ms,output_ms,latency_ms,analysis_lag_ms,dropped_cause\n"
    private static let bufferCapacity = 64 * 1024
    /// Room for the longest row: 9 numeric columns of at most 25 bytes, separators and a cause name.
    private static let longestRow = 320

    public let path: String
    private let state: Mutex<State>

    private struct State {
        var file: FileHandle?
        var buffer: [UInt8]
        var rows = 0
        /// Bytes on disk: where a failed write is cut back to, so the file ends with a whole row.
        var bytesWritten: UInt64 = 0
        var writeError: String?
    }

    /// Creates (truncating) `path` and writes the header.
    public init(path: String) throws(StatsError) {
        self.path = path
        let file: FileHandle
        do { file = try NewFile.create(at: path) } catch { throw .cannotWrite(path: path, reason: error.reason) }
        var buffer: [UInt8] = []
        buffer.reserveCapacity(Self.bufferCapacity)
        buffer.append(contentsOf: Self.header.utf8)
        state = Mutex(State(file: file, buffer: buffer))
    }

    /// Rows appended so far (not counting the header).
    public var rowCount: Int { state.withLock { $0.rows } }

    /// Why writing failed (rows from then on are lost: none is written after it), or nil.
    public var writeFailure: String? { state.withLock { $0.writeError } }

    /// Appends the row of a frame that left StreamLens; `origin` is the start of the run.
    public func frameOutput(index: Int, pts: Duration?, timing: FrameTiming, origin: Duration) {
        state.withLock { state in
            Self.makeRoom(&state)
            state.buffer.appendInteger(index)
            // Field by field rather than over an array literal, which would allocate per row.
            state.buffer.appendField(pts)
            state.buffer.appendField(timing.arrival - origin)
            state.buffer.appendField(timing.poolWait)
            state.buffer.appendField(timing.compositeTime)
            state.buffer.appendField(timing.pushTime)
            state.buffer.appendField(timing.outputAt - origin)
            state.buffer.appendField(timing.latency)
            state.buffer.appendField(timing.analysisLag)
            // Empty dropped_cause.
            state.buffer.appendComma()
            state.buffer.append(UInt8(ascii: "\n"))
            state.rows += 1
        }
    }

    /// Appends the row of a dropped frame; `arrival` is relative to the start of the run.
    public func frameDropped(index: Int, pts: Duration?, arrival: Duration, cause: DropCause) {
        state.withLock { state in
            Self.makeRoom(&state)
            state.buffer.appendInteger(index)
            state.buffer.appendField(pts)
            state.buffer.appendField(arrival)
            // Six empty timing columns, then the cause.
            for _ in 0..<7 { state.buffer.appendComma() }
            state.buffer.append(contentsOf: cause.rawValue.utf8)
            state.buffer.append(UInt8(ascii: "\n"))
            state.rows += 1
        }
    }

    /// Writes buffered rows to the file.
    public func flush() {
        state.withLock { Self.writeBuffer(&$0) }
    }

    /// Flushes and closes the file; later rows are discarded.
    public func close() {
        state.withLock { state in
            Self.writeBuffer(&state)
            try? state.file?.close()
            state.file = nil
        }
    }

    private static func makeRoom(_ state: inout State) {
        if state.buffer.count + longestRow > bufferCapacity { writeBuffer(&state) }
    }

    private static func writeBuffer(_ state: inout State) {
        defer { state.buffer.removeAll(keepingCapacity: true) }
        // After a failed write the rows stop: a timeline with a hole would look whole.
        guard let file = state.file, !state.buffer.isEmpty, state.writeError == nil else { return }
        do {
            try file.write(contentsOf: state.buffer)
            state.bytesWritten += UInt64(state.buffer.count)
        } catch {
            state.writeError = WriteFailure.reason(of: error)
            // A write cut short (a full disk) may end mid-row: the rows before it stay, whole.
            try? file.truncate(atOffset: state.bytesWritten)
        }
    }
}

/// Appends CSV fields to a byte buffer without building strings (no allocation once the buffer has room).
extension Array where Element == UInt8 {
    fileprivate mutating func appendInteger(_ value: Int) {
        appendDigits(of: UInt64(value.magnitude), negative: value < 0)
    }

    /// Milliseconds with exactly three decimals (rounded to the microsecond); nothing for nil (an empty field).
    fileprivate mutating func appendMilliseconds(_ duration: Duration?) {
        guard let duration else { return }
        let nanoseconds = duration.nanoseconds
        let microseconds = (UInt64(nanoseconds.magnitude) + 500) / 1000
        appendDigits(of: microseconds / 1000, negative: nanoseconds < 0 && microseconds > 0)
        append(UInt8(ascii: "."))
        let fraction = microseconds % 1000
        append(UInt8(ascii: "0") + UInt8(fraction / 100))
        append(UInt8(ascii: "0") + UInt8(fraction / 10 % 10))
        append(UInt8(ascii: "0") + UInt8(fraction % 10))
    }

    fileprivate mutating func appendComma() { append(UInt8(ascii: ",")) }

    /// A comma, then the duration in milliseconds.
    fileprivate mutating func appendField(_ duration: Duration?) {
        appendComma()
        appendMilliseconds(duration)
    }

    private mutating func appendDigits(of value: UInt64, negative: Bool) {
        if negative { append(UInt8(ascii: "-")) }
        // The highest power of ten not above the value, then digits from the top.
        var divisor: UInt64 = 1
        while value / divisor >= 10 { divisor *= 10 }
        while divisor > 0 {
            append(UInt8(ascii: "0") + UInt8(value / divisor % 10))
            divisor /= 10
        }
    }
}
