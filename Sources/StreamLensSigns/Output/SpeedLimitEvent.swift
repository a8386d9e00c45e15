import StreamLensTelemetry

/// One physical sign, as written to the event log (`--events`):
/// `{"type":"speed_limit","value":60,"unit":"km/h","start":12.48,"end":13.2,"confidence":0.97,"box":[x,y,w,h],"reads":5}`.
public struct SpeedLimitEvent: Codable, Sendable, Equatable {
    /// Always `speed_limit`.
    public var type: String
    /// The confirmed speed.
    public var value: Int
    /// `km/h` or `mph`, from the region profile.
    public var unit: String
    /// Stream time of the first sighting, in seconds (millisecond precision).
    public var start: Double
    /// Stream time of the last sighting, in seconds (millisecond precision).
    public var end: Double
    /// Mean OCR confidence of the reads that agreed (0…1, three decimals).
    public var confidence: Double
    /// `[x, y, width, height]` of the nearest sighting, in source pixels.
    public var box: [Int]
    /// Reads that agreed on ``value``.
    public var reads: Int
    /// Where the sign was passed (the vehicle's position at ``end``), when the run has a GPS track that knows it.
    public var position: GeoPosition?

    public init(
        value: Int, unit: String, start: Double, end: Double, confidence: Double, box: [Int], reads: Int
    ) {
        type = "speed_limit"
        self.value = value
        self.unit = unit
        self.start = (start * 1000).rounded() / 1000
        self.end = (end * 1000).rounded() / 1000
        self.confidence = (confidence * 1000).rounded() / 1000
        self.box = box
        self.reads = reads
    }
}

extension SpeedLimitEvent {
    /// Lengthens this event by a later piece of the same sign (its track broke in two): the span of both, their reads
    /// together with their mean confidence, and the box of the nearer sighting.
    mutating func join(_ piece: SpeedLimitEvent) {
        let weight = Double(reads + piece.reads)
        let joinedConfidence =
            weight > 0 ? (confidence * Double(reads) + piece.confidence * Double(piece.reads)) / weight : confidence
        start = min(start, piece.start)
        end = max(end, piece.end)
        confidence = (joinedConfidence * 1000).rounded() / 1000
        reads += piece.reads
        if piece.box.count == 4, box.count == 4, piece.box[2] * piece.box[3] > box[2] * box[3] { box = piece.box }
    }
}
