import Foundation
import Synchronization

/// A file written as whole records (lines of events, of tracks): each append lands whole or not at all. A write that
/// fails (a full disk) is cut back to the end of the last whole record, the file is closed, and later appends are
/// dropped; ``writeFailure`` says why, so that the run can fail at its end and keep the file's `.partial` name.
///
/// ## Thread Safety
/// Appends are serialized by a mutex; any thread may append or close.
public final class RecordFile: Sendable {
    private let handle: Mutex<FileHandle?>
    private let firstWriteFailure = Mutex<String?>(nil)

    /// Creates (truncating) `path`; throws ``NewFile/Failure`` with the reason.
    public init(creating path: String) throws(NewFile.Failure) {
        handle = Mutex(try NewFile.create(at: path))
    }

    /// Appends `record`, whole, unless an earlier append failed or the file was closed.
    public func append(_ record: Data) {
        handle.withLock { openFile in
            guard let file = openFile else { return }
            let start = try? file.offset()
            // write(contentsOf:) throws where write(_:) would trap: a lost record must not stop the video.
            do { try file.write(contentsOf: record) } catch {
                firstWriteFailure.withLock { $0 = $0 ?? WriteFailure.reason(of: error) }
                if let start { try? file.truncate(atOffset: start) }
                try? file.close()
                openFile = nil
            }
        }
    }

    /// Why an append failed (the records from then on are lost), or nil.
    public var writeFailure: String? { firstWriteFailure.withLock { $0 } }

    /// Closes the file; later appends are dropped.
    public func close() {
        handle.withLock { file in
            try? file?.close()
            file = nil
        }
    }
}
