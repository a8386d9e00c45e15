/// Errors of finding a batch's inputs.
public enum BatchInputError: Error, Sendable, CustomStringConvertible {
    /// An input names nothing.
    case notFound(path: String)
    /// A line of an `@LIST` file names nothing.
    case notFoundInList(path: String, list: String, line: Int)
    /// A file or folder could not be read.
    case unreadable(path: String)
    /// Two inputs would write the same outputs.
    case sameOutputName(String, first: String, second: String)
    /// The inputs hold no video file.
    case noVideoFiles

    public var description: String {
        switch self {
        case .notFound(let path):
            "input '\(path)' does not exist: give video files, folders or @LIST files"
        case .notFoundInList(let path, let list, let line):
            "'\(path)' (\(list), line \(line)) does not exist: correct or remove that line"
        case .unreadable(let path):
            "cannot read '\(path)': check its permissions"
        case .sameOutputName(let name, let first, let second):
            "'\(first)' and '\(second)' would both write '\(name)' (neither their folders' names nor their extensions tell them apart): give them in separate batches or rename one"
        case .noVideoFiles:
            "no video files in the inputs: give video files, folders holding some, or @LIST files"
        }
    }
}
