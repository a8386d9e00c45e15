import StreamLensCore

/// The signs whose events were written most recently, to keep one physical sign from writing two events.
///
/// A sign's track can break in two — a frame where the faint ring and the circle give different sizes, a sighting
/// lost and found again as a new track — and both pieces may reach a decision (a piece seen once confirms with its
/// one read, like a still image). Two decisions with the same value whose spans touch (gap at most ``maximumGap``) at
/// nearly the same place (where one piece ends and the other starts, centres within 1.5 sign sizes per analysed frame between them) are one sign: the
/// second is not written again.
///
/// ## Thread Safety
/// Not synchronized: owned by one ``SpeedLimitStage`` and used on its analysis thread.
struct RecentSigns {
    struct Entry {
        var value: Int
        var firstSeen: Duration
        var lastSeen: Duration
        var firstBox: BoundingBox
        var lastBox: BoundingBox
    }

    /// Largest gap in stream time between two pieces of one sign (the tracker's timeout: a longer gap closes a track
    /// for good).
    let maximumGap: Duration
    private(set) var entries: [Entry] = []
    private static let capacity = 8

    init(maximumGap: Duration) {
        self.maximumGap = maximumGap
        entries.reserveCapacity(Self.capacity)
    }

    /// Forgets every written sign (the timeline restarted).
    mutating func forgetAll() {
        entries.removeAll(keepingCapacity: true)
    }

    /// Whether a sign read as `value`, seen from `firstSeen` at `firstBox` to `lastSeen` at `lastBox` (source pixels),
    /// is a piece of a sign already written; if not, remembers it.
    mutating func isRepeat(
        value: Int, firstSeen: Duration, lastSeen: Duration, firstBox: BoundingBox, lastBox: BoundingBox
    ) -> Bool {
        // A sign drifts up to 1.5 of its sizes per analysed frame; a piece that starts after missed frames may have
        // drifted that much per frame missed.
        func near(_ a: BoundingBox, _ b: BoundingBox, gap: Duration) -> Bool {
            let dx = a.center.x - b.center.x
            let dy = a.center.y - b.center.y
            let frames = max(1, (gap / SpeedLimitConfiguration.recommendedInterval).rounded())
            return (dx * dx + dy * dy).squareRoot() <= 1.5 * frames * max(a.width, a.height, b.width, b.height)
        }
        for index in entries.indices where entries[index].value == value {
            let entry = entries[index]
            guard firstSeen <= entry.lastSeen + maximumGap, lastSeen + maximumGap >= entry.firstSeen else { continue }
            // The later piece starts near where the earlier one ended (or they overlap in time at one place).
            guard near(firstBox, entry.lastBox, gap: firstSeen - entry.lastSeen)
                || near(entry.firstBox, lastBox, gap: entry.firstSeen - lastSeen)
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
            return true
        }
        if entries.count == Self.capacity { entries.removeFirst() }
        entries.append(Entry(value: value, firstSeen: firstSeen, lastSeen: lastSeen, firstBox: firstBox, lastBox: lastBox))
        return false
    }
}
