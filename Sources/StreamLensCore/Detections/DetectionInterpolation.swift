/// The results to draw on a frame that lies between two frames a stage analysed (frame-accurate runs).
///
/// - A track seen in both results (same ``Detection/trackID`` and class) moves in a straight line from its box in
///   `before` to its box in `after`, by the frame's position between the two.
/// - A detection only in `before` (no track id, or a track the later analysis no longer reports) stays as it was:
///   it is what the stage showed last.
/// - A detection only in `after` is not drawn yet: nothing from beyond the analysed frame at or after this one.
public enum DetectionInterpolation {
    /// Writes into `items` (emptied first, its storage reused) the detections at `fraction` of the way from
    /// `before` (0) to `after` (1).
    public static func blend(
        _ before: Detections, _ after: Detections, fraction: Double, into items: inout [Detection]
    ) {
        items.removeAll(keepingCapacity: true)
        let t = min(max(fraction, 0), 1)
        for detection in before.items {
            guard let id = detection.trackID,
                let later = after.items.first(where: { $0.trackID == id && $0.className == detection.className })
            else {
                items.append(detection)
                continue
            }
            var moved = detection
            moved.box = BoundingBox(
                x: detection.box.x + (later.box.x - detection.box.x) * t,
                y: detection.box.y + (later.box.y - detection.box.y) * t,
                width: detection.box.width + (later.box.width - detection.box.width) * t,
                height: detection.box.height + (later.box.height - detection.box.height) * t)
            items.append(moved)
        }
    }
}
