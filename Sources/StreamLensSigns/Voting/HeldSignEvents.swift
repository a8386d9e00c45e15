import StreamLensCore

/// Events decided but not written yet, so that a sign whose track broke in two is written once, over its whole span.
///
/// A sign re-found as a new track (a scene cut, a bigger ring taking its place for two frames) used to write the first
/// piece's event at once and drop the second piece as a repeat (``RecentSigns``): a sign 1.2 s in view was written for
/// 0.24 s. Now an event waits while an open track may still turn out a later piece of its sign —
/// one that came within ``RecentSigns/maximumGap`` of the sign's last sighting, near it
/// (``RecentSigns/mayContinue(_:firstSeen:firstBox:)``), and has confirmed the same value or, for at most
/// ``undecidedWait``, none yet — and such a piece, once decided, lengthens it (``SpeedLimitEvent/join(_:)``).
/// Events are written in the order they were decided.
///
/// ## Thread Safety
/// Not synchronized: owned by one ``SpeedLimitStage`` and used on its analysis thread.
struct HeldSignEvents {
    /// How long an open track that has confirmed no value yet may hold an event back.
    static let undecidedWait: Duration = .milliseconds(800)

    /// A held event and its sign's ``RecentSigns`` id.
    private struct Held {
        var sign: Int
        var event: SpeedLimitEvent
    }

    /// The held events, oldest first.
    private var held: [Held] = []

    init() { held.reserveCapacity(4) }

    /// Holds the event of a sign not seen before (``RecentSigns/Placement/newSign(id:)``).
    mutating func hold(_ event: SpeedLimitEvent, sign: Int) {
        held.append(Held(sign: sign, event: event))
    }

    /// Lengthens the held event of `sign` by a later piece of it; false when that event was written already (the
    /// piece is then dropped: the sign is in the file).
    @discardableResult
    mutating func join(_ piece: SpeedLimitEvent, toSign sign: Int) -> Bool {
        guard let index = held.firstIndex(where: { $0.sign == sign }) else { return false }
        held[index].event.join(piece)
        return true
    }

    /// Hands `write` the held events, oldest first, up to the first that one of `openTracks` may still lengthen at
    /// `pts`; all of them when `pts` is nil (the end of the stream, a restarted timeline).
    mutating func release(
        at pts: Duration?, openTracks: [SignTrack], recentSigns: RecentSigns, write: (SpeedLimitEvent) -> Void
    ) {
        while let first = held.first {
            if let pts, openTracks.contains(where: { Self.track($0, mayLengthen: first, at: pts, recentSigns) }) {
                return
            }
            write(first.event)
            held.removeFirst()
        }
    }

    private static func track(
        _ track: SignTrack, mayLengthen held: Held, at pts: Duration, _ recentSigns: RecentSigns
    ) -> Bool {
        let mayStillConfirm = track.confirmedValue == nil && pts - track.firstSeen <= undecidedWait
        guard track.confirmedValue == held.event.value || mayStillConfirm else { return false }
        return recentSigns.mayContinue(held.sign, firstSeen: track.firstSeen, firstBox: track.firstSourceBox)
    }
}
