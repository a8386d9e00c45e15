/// The GoPro metadata track of an MP4/MOV (`trak` whose `hdlr` is `meta` and whose sample description is `gpmd`):
/// where each sample's bytes lie in the file and when it plays, from the track's sample tables (ISO/IEC 14496-12
/// §8.6–8.7: `stts` durations, `stsz` sizes, `stsc` samples per chunk, `stco`/`co64` chunk offsets).
struct MetadataTrack: Equatable {
    struct Sample: Equatable {
        var offset: UInt64
        var size: Int
        /// Stream time of the sample's start and its duration, seconds.
        var start: Double
        var duration: Double
    }

    var samples: [Sample]

    /// The video's creation time (`mvhd`), seconds since 1970, when the file sets one; and its duration, seconds.
    struct MovieHeader: Equatable {
        var creationUTC: Double?
        var duration: Double?
    }

    /// Seconds between 1904-01-01 (the MP4 epoch) and 1970-01-01.
    static let mp4EpochOffset: Double = 2_082_844_800

    /// The movie header of a `moov` payload.
    static func movieHeader(in movie: [UInt8]) throws(MP4BoxError) -> MovieHeader? {
        let boxes = try MP4Box.children(of: movie, in: 0..<movie.count, what: "moov")
        guard let mvhd = boxes.first(where: { $0.type == "mvhd" }) else { return nil }
        let base = mvhd.payloadOffset
        let version = movie.uint8(at: base) ?? 0
        let creation: UInt64?
        let timescale: UInt32?
        let duration: UInt64?
        if version == 1 {
            creation = movie.uint64(at: base + 4)
            timescale = movie.uint32(at: base + 20)
            duration = movie.uint64(at: base + 24)
        } else {
            creation = movie.uint32(at: base + 4).map(UInt64.init)
            timescale = movie.uint32(at: base + 12)
            duration = movie.uint32(at: base + 16).map(UInt64.init)
        }
        let utc = creation.flatMap { $0 > 0 ? Double($0) - mp4EpochOffset : nil }
        let seconds = timescale.flatMap { scale in duration.map { scale > 0 ? Double($0) / Double(scale) : 0 } }
        return MovieHeader(creationUTC: utc.flatMap { $0 > 0 ? $0 : nil }, duration: seconds)
    }

    /// The first `gpmd` metadata track of a `moov` payload, or nil when there is none.
    static func find(in movie: [UInt8]) throws(MP4BoxError) -> MetadataTrack? {
        for trak in try MP4Box.children(of: movie, in: 0..<movie.count, what: "moov") where trak.type == "trak" {
            guard let mdia = try child("mdia", of: trak, in: movie),
                let hdlr = try child("hdlr", of: mdia, in: movie),
                movie.fourCC(at: hdlr.payloadOffset + 8) == "meta",
                let mdhd = try child("mdhd", of: mdia, in: movie),
                let minf = try child("minf", of: mdia, in: movie),
                let stbl = try child("stbl", of: minf, in: movie),
                let stsd = try child("stsd", of: stbl, in: movie),
                // stsd: version/flags, entry count, then the first entry: size, format.
                movie.fourCC(at: stsd.payloadOffset + 12) == "gpmd"
            else { continue }
            let version = movie.uint8(at: mdhd.payloadOffset) ?? 0
            guard let timescale = movie.uint32(at: mdhd.payloadOffset + (version == 1 ? 20 : 12)), timescale > 0 else {
                throw .broken("the metadata track's 'mdhd' has no timescale")
            }
            return MetadataTrack(samples: try samples(of: stbl, in: movie, timescale: Double(timescale)))
        }
        return nil
    }

    private static func child(_ type: String, of box: MP4Box, in bytes: [UInt8]) throws(MP4BoxError) -> MP4Box? {
        try MP4Box.children(of: bytes, in: box.payloadRange, what: box.type).first { $0.type == type }
    }

    /// A full box's table: `count` entries of `width` 32-bit words after version/flags (and `skip` more words).
    private static func table(
        _ box: MP4Box, in bytes: [UInt8], skip: Int = 0, width: Int
    ) throws(MP4BoxError) -> [[UInt32]] {
        let countOffset = box.payloadOffset + 4 + skip * 4
        guard let count = bytes.uint32(at: countOffset) else { throw .broken("'\(box.type)' has no entry count") }
        let start = countOffset + 4
        guard Int(count) <= (box.payloadRange.upperBound - start) / (4 * width) else {
            throw .broken("'\(box.type)' says \(count) entries but is too short for them")
        }
        return (0..<Int(count)).map { entry in
            (0..<width).map { word in bytes.uint32(at: start + (entry * width + word) * 4)! }
        }
    }

    private static func samples(of stbl: MP4Box, in bytes: [UInt8], timescale: Double) throws(MP4BoxError) -> [Sample] {
        let boxes = try MP4Box.children(of: bytes, in: stbl.payloadRange, what: "stbl")
        func box(_ type: String) -> MP4Box? { boxes.first { $0.type == type } }
        guard let stts = box("stts"), let stsz = box("stsz"), let stsc = box("stsc") else {
            throw .broken("the metadata track lacks one of 'stts', 'stsz', 'stsc'")
        }
        // Sizes: one for all (stsz sample_size ≠ 0) or one per sample.
        guard let fixedSize = bytes.uint32(at: stsz.payloadOffset + 4), let count = bytes.uint32(at: stsz.payloadOffset + 8)
        else { throw .broken("'stsz' is too short") }
        let sizes: [Int] =
            fixedSize != 0
            ? Array(repeating: Int(fixedSize), count: Int(count))
            : try table(stsz, in: bytes, skip: 1, width: 1).map { Int($0[0]) }
        // Chunk offsets: 32-bit (stco) or 64-bit (co64).
        var chunkOffsets: [UInt64]
        if let stco = box("stco") {
            chunkOffsets = try table(stco, in: bytes, width: 1).map { UInt64($0[0]) }
        } else if let co64 = box("co64") {
            chunkOffsets = try table(co64, in: bytes, width: 2).map { UInt64($0[0]) << 32 | UInt64($0[1]) }
        } else {
            throw .broken("the metadata track has neither 'stco' nor 'co64'")
        }
        // Samples per chunk: runs of (first chunk, samples per chunk), first chunk counted from 1.
        let runs = try table(stsc, in: bytes, width: 3)
        var offsets: [UInt64] = []
        offsets.reserveCapacity(sizes.count)
        for (runIndex, run) in runs.enumerated() {
            let firstChunk = Int(run[0]) - 1
            let lastChunk = runIndex + 1 < runs.count ? Int(runs[runIndex + 1][0]) - 1 : chunkOffsets.count
            guard firstChunk >= 0, firstChunk <= lastChunk, lastChunk <= chunkOffsets.count else {
                throw .broken("'stsc' names chunks that 'stco' does not have")
            }
            for chunk in firstChunk..<lastChunk {
                var offset = chunkOffsets[chunk]
                for _ in 0..<Int(run[1]) where offsets.count < sizes.count {
                    offsets.append(offset)
                    offset += UInt64(sizes[offsets.count - 1])
                }
            }
        }
        guard offsets.count == sizes.count else {
            throw .broken("the chunks hold \(offsets.count) samples but 'stsz' lists \(sizes.count)")
        }
        // Times: runs of (sample count, duration) in the media timescale.
        var durations: [UInt64] = []
        for run in try table(stts, in: bytes, width: 2) {
            for _ in 0..<Int(run[0]) where durations.count < sizes.count { durations.append(UInt64(run[1])) }
        }
        guard durations.count == sizes.count else {
            throw .broken("'stts' times \(durations.count) samples but 'stsz' lists \(sizes.count)")
        }
        // Whole ticks summed, divided once: no drift over an hour of samples.
        var ticks: UInt64 = 0
        return (0..<sizes.count).map { index in
            defer { ticks += durations[index] }
            return Sample(
                offset: offsets[index], size: sizes[index], start: Double(ticks) / timescale,
                duration: Double(durations[index]) / timescale)
        }
    }
}
