import Foundation

/// Creates (or truncates) a file for writing with `open(2)`, so that a failure says why in the system's words ("No
/// space left on device", "Permission denied", "No such file or directory") instead of a guess at the cause.
public enum NewFile {
    /// Why a file could not be created: the system's reason.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public let reason: String
        public var description: String { reason }
    }

    /// Opens `path` for writing, created or truncated, and writes `header` (if any) first; a file whose header could
    /// not be written (a full disk) is removed again. Only a regular file is written: opening never waits (a FIFO
    /// with no reader would block `open(2)` forever without `O_NONBLOCK`).
    public static func create(at path: String, header: Data? = nil) throws(Failure) -> FileHandle {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NONBLOCK, 0o644)
        guard descriptor >= 0 else { throw Failure(reason: String(cString: strerror(errno))) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            close(descriptor)
            throw Failure(reason: "it is not a regular file")
        }
        let file = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        if let header, !header.isEmpty {
            do { try file.write(contentsOf: header) } catch {
                try? file.close()
                unlink(path)
                throw Failure(reason: WriteFailure.reason(of: error))
            }
        }
        return file
    }
}
