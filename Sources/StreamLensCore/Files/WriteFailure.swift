import Foundation

/// Why a write to a file failed, in the words of the system ("No space left on device"), for the one line that tells
/// the user which file is incomplete and why.
public enum WriteFailure {
    /// The system's reason inside `error` (Foundation wraps the `errno` of a failed `write(2)`), else its own text.
    public static func reason(of error: any Error) -> String {
        let wrapped = error as NSError
        if let underlying = wrapped.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(underlying.code)))
        }
        if wrapped.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(wrapped.code))) }
        if wrapped.domain == NSCocoaErrorDomain, wrapped.code == CocoaError.fileWriteOutOfSpace.rawValue {
            return String(cString: strerror(ENOSPC))
        }
        return wrapped.localizedDescription
    }
}
