import Foundation

/// One ISO-BMFF box (ISO/IEC 14496-12 §4.2): its type and where its payload lies in the buffer it was found in.
struct MP4Box: Equatable {
    var type: String
    /// Offset of the payload (after the size, type and any 64-bit size) and its length, in the enclosing buffer.
    var payloadOffset: Int
    var payloadSize: Int

    /// The boxes laid end to end in `bytes[range]`. A box whose size runs past the range is an error (`what` names
    /// the parent for the message).
    static func children(of bytes: [UInt8], in range: Range<Int>, what: String) throws(MP4BoxError) -> [MP4Box] {
        var boxes: [MP4Box] = []
        var offset = range.lowerBound
        while offset + 8 <= range.upperBound {
            guard let size32 = bytes.uint32(at: offset), let type = bytes.fourCC(at: offset + 4) else {
                throw .broken("a box in \(what) at byte \(offset) has no readable header")
            }
            var header = 8
            var size = Int(size32)
            if size32 == 1 {
                guard let large = bytes.uint64(at: offset + 8), large <= UInt64(Int.max) else {
                    throw .broken("box '\(type)' in \(what) has a broken 64-bit size")
                }
                size = Int(large)
                header = 16
            } else if size32 == 0 {
                size = range.upperBound - offset
            }
            guard size >= header, offset + size <= range.upperBound else {
                throw .broken("box '\(type)' in \(what) runs past its end (\(size) bytes at byte \(offset))")
            }
            boxes.append(MP4Box(type: type, payloadOffset: offset + header, payloadSize: size - header))
            offset += size
        }
        return boxes
    }

    var payloadRange: Range<Int> { payloadOffset..<payloadOffset + payloadSize }
}

/// A broken box structure, said in words for ``TelemetryError/malformedContainer(path:detail:)``.
enum MP4BoxError: Error {
    case broken(String)
}

/// Reads the top-level boxes of a file without loading it: only `moov` (the index, small) is read whole.
struct MP4File {
    let path: String
    /// The `moov` box's bytes (its payload), or nil when the file has none.
    let movie: [UInt8]?
    /// Whether the file starts like an ISO-BMFF file (`ftyp`, `moov`, `mdat`, `free`, `wide` first).
    let isISOBMFF: Bool

    init(path: String) throws(TelemetryError) {
        self.path = path
        // Opening a FIFO or a device would wait for a writer: only regular files are looked into.
        guard Self.isRegularFile(path) else { throw .cannotRead(path: path, reason: "it is not a regular file") }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw .cannotRead(path: path, reason: "it cannot be opened")
        }
        defer { try? handle.close() }
        var offset: UInt64 = 0
        var movie: [UInt8]?
        var first = true
        var looksLikeMP4 = false
        do {
            let end = try handle.seekToEnd()
            while offset + 8 <= end {
                try handle.seek(toOffset: offset)
                let header = [UInt8](try handle.read(upToCount: 16) ?? Data())
                guard let size32 = header.uint32(at: 0), let type = header.fourCC(at: 4) else { break }
                if first {
                    looksLikeMP4 = ["ftyp", "moov", "mdat", "free", "wide", "skip"].contains(type)
                    first = false
                    if !looksLikeMP4 { break }
                }
                var size = UInt64(size32)
                var headerSize: UInt64 = 8
                if size32 == 1 {
                    guard let large = header.uint64(at: 8) else { break }
                    size = large
                    headerSize = 16
                } else if size32 == 0 {
                    size = end - offset
                }
                guard size >= headerSize, offset + size <= end else {
                    throw TelemetryError.malformedContainer(
                        path: path, detail: "top-level box '\(type)' runs past the end of the file")
                }
                if type == "moov" {
                    guard size < 512 << 20 else {
                        throw TelemetryError.malformedContainer(path: path, detail: "a 'moov' box of \(size) bytes")
                    }
                    try handle.seek(toOffset: offset + headerSize)
                    movie = [UInt8](try handle.read(upToCount: Int(size - headerSize)) ?? Data())
                }
                offset += size
            }
        } catch let error as TelemetryError {
            throw error
        } catch {
            throw .cannotRead(path: path, reason: error.localizedDescription)
        }
        self.movie = movie
        self.isISOBMFF = looksLikeMP4
    }

    static func isRegularFile(_ path: String) -> Bool {
        (try? FileManager.default.attributesOfItem(atPath: path)[.type] as? FileAttributeType) == .typeRegular
    }
}

/// Reads byte ranges of one file; closes it when released.
final class FileHandleReader {
    private let handle: FileHandle
    let path: String

    init?(path: String) {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        self.handle = handle
        self.path = path
    }

    deinit { try? handle.close() }

    /// `count` bytes at `offset` of the file.
    func read(offset: UInt64, count: Int) throws(TelemetryError) -> [UInt8] {
        do {
            try handle.seek(toOffset: offset)
            let data = try handle.read(upToCount: count) ?? Data()
            guard data.count == count else {
                throw TelemetryError.malformedContainer(
                    path: path, detail: "a sample of \(count) bytes at byte \(offset) runs past the end of the file")
            }
            return [UInt8](data)
        } catch let error as TelemetryError {
            throw error
        } catch {
            throw .cannotRead(path: path, reason: error.localizedDescription)
        }
    }
}
