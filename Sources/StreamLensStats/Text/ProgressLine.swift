import Foundation
import StreamLensCore

/// The one-line live progress shown while a run goes, e.g.
/// `frames 1234  29.9 fps  1.20× real time  drops 3 (pool_full 3)  ETA 0:42`.
public enum ProgressLine {
    /// Renders `snapshot`. `totalDuration` is the input's media duration (files); with it the line ends in an ETA.
    /// A stalled source shows `STALLED`; gaps in the source timestamps show as `gaps N`.
    public static func render(snapshot: RunSnapshot, totalDuration: Duration? = nil) -> String {
        var parts = ["frames \(snapshot.decoded)", String(format: "%.1f fps", snapshot.framesPerSecond)]
        if let factor = snapshot.realTimeFactor {
            parts.append(String(format: "%.2f× real time", factor))
        }
        var drops = "drops \(snapshot.droppedTotal)"
        let causes = DropCause.allCases.compactMap { cause in
            (snapshot.dropped[cause] ?? 0) > 0 ? "\(cause.rawValue) \(snapshot.dropped[cause]!)" : nil
        }
        if !causes.isEmpty { drops += " (\(causes.joined(separator: ", ")))" }
        parts.append(drops)
        if snapshot.gaps > 0 { parts.append("gaps \(snapshot.gaps)") }
        if snapshot.isStalled { parts.append("STALLED") }
        if let eta = estimatedTimeLeft(snapshot: snapshot, totalDuration: totalDuration) {
            parts.append("ETA \(clock(eta))")
        }
        return parts.joined(separator: "  ")
    }

    /// Media left divided by the speed so far; nil without a total duration or before there is output.
    static func estimatedTimeLeft(snapshot: RunSnapshot, totalDuration: Duration?) -> Duration? {
        guard let totalDuration, let position = snapshot.mediaPosition, let factor = snapshot.realTimeFactor,
            factor > 0
        else { return nil }
        let left = max(.zero, totalDuration - position)
        return left / factor
    }

    /// `m:ss`, or `h:mm:ss` from an hour up; rounded up so the ETA reaches 0:00 only at the end.
    static func clock(_ duration: Duration) -> String {
        let seconds = Int((Double(duration.nanoseconds) / 1e9).rounded(.up))
        let (hours, minutes, rest) = (seconds / 3600, seconds / 60 % 60, seconds % 60)
        return hours > 0
            ? String(format: "%d:%02d:%02d", hours, minutes, rest) : String(format: "%d:%02d", minutes, rest)
    }
}
