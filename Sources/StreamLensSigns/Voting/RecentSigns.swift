import StreamLensCore

/// The signs decided most recently, to keep one physical sign from writing two events.
///
/// A sign's track can break in two — a frame where the faint ring and the circle give different sizes, a sighting
/// lost and found again as a new track — and both pieces may reach a decision (a piece seen once confirms with its
/// one read, like a still image). Two decisions with the same value whose spans touch (gap at most ``maximumGap``) at
/// nearly the same place (where one piece ends and the other starts, centres within 1.5 sign sizes per analysed frame
/// between them) are one sign: the second is a piece of the first (``place(value:firstSeen:lastSeen:firstBox:lastBox:)``),
/// which lengthens the first's event while it is held (``HeldSignEvents``) and is not written again.
///
/// ## Thread Safety
/// Not synchronized: owned by one ``SpeedLimitStage`` and used on its analysis thread.
struct RecentSigns {
    struct Entry {
        /// Names the sign for ``Placement`` (counts up from 0).
        var id: Int
        var value: Int
        var firstSeen: Duration
        var lastSeen: Duration
        var firstBox: BoundingBox
        var lastBox: BoundingBox
    }

    /// Largest gap in stream time between two pieces of one sign.
    let maximumGap: Duration

    /// The gap the stage allows: 2.5 of the tracker's timeouts (1 s by default). A dark sign can go unlocated for
    /// longer than the tracker waits for it — on GTSDB's photographs an "80" and a "70" for 0.48 and 0.72 s, each
    /// then found again as a new track and written twice — while the next sign of the same value
    /// is seconds of driving away.
    static func allowedGap(trackTimeout: Duration) -> Duration { trackTimeout * 2.5 }

    private(set) var entries: [Entry] = []
    private static let capacity = 8
    private var nextID = 0

    /// What a decided sign turned out to be.
    enum Placement: Equatable {
        /// A sign not seen before, remembered under this id.
        case newSign(id: Int)
        /// A piece of the sign remembered under this id (now extended by the piece).
        case pieceOf(id: Int)
    }

    init(maximumGap: Duration) {
        self.maximumGap = maximumGap
        entries.reserveCapacity(Self.capacity)
    }

    /// Forgets every written sign (the timeline restarted).
    mutating func forgetAll() {
        entries.removeAll(keepingCapacity: true)
    }

    /// Whether a sign first seen at `firstSeen` at `firstBox` (still in view) may yet turn out a later piece of the
    /// sign remembered under `id`: it came within ``maximumGap`` of that sign's last sighting, near where it was last
    /// seen.
    func mayContinue(_ id: Int, firstSeen: Duration, firstBox: BoundingBox) -> Bool {
        guard let entry = entries.first(where: { $0.id == id }), firstSeen <= entry.lastSeen + maximumGap else {
            return false
        }
        return Self.near(firstBox, entry.lastBox, gap: firstSeen - entry.lastSeen)
    }

    /// A sign drifts up to 1.5 of its sizes per analysed frame; a piece that starts after missed frames may have
    /// drifted that much per frame missed.
    private static func near(_ a: BoundingBox, _ b: BoundingBox, gap: Duration) -> Bool {
        let dx = a.center.x - b.center.x
        let dy = a.center.y - b.center.y
        let frames = max(1, (gap / SpeedLimitConfiguration.recommendedInterval).rounded())
        return (dx * dx + dy * dy).squareRoot() <= 1.5 * frames * max(a.width, a.height, b.width, b.height)
    }

    /// Which remembered sign a sign read as `value`, seen from `firstSeen` at `firstBox` to `lastSeen` at `lastBox`
    /// (source pixels), is a piece of — or that it is a new one, now remembered.
    mutating func place(
        value: Int, firstSeen: Duration, lastSeen: Duration, firstBox: BoundingBox, lastBox: BoundingBox
    ) -> Placement {
        for index in entries.indices where entries[index].value == value {
            let entry = entries[index]
            guard firstSeen <= entry.lastSeen + maximumGap, lastSeen + maximumGap >= entry.firstSeen else { continue }
            // The later piece starts near where the earlier one ended (or they overlap in time at one place).
            guard Self.near(firstBox, entry.lastBox, gap: firstSeen - entry.lastSeen)
                || Self.near(entry.firstBox, lastBox, gap: entry.firstSeen - lastSeen)
            else { continue }
            // Extend the written sign so that a third piece still joins it.
            if lastSeen > entry.lastSeen {
                entries[index].lastSeen = lastSeen
                entries[index].lastBox = lastBox
            }
            if firstSeen < entry.firstSeen {
                entries[index].firstSeen = firstSeen
                entries[index].firstBox = firstBox
            }
            return .pieceOf(id: entry.id)
        }
        if entries.count == Self.capacity { entries.removeFirst() }
        let id = nextID
        nextID += 1
        entries.append(
            Entry(id: id, value: value, firstSeen: firstSeen, lastSeen: lastSeen, firstBox: firstBox, lastBox: lastBox))
        return .newSign(id: id)
    }
}
