import Foundation
import StreamLensTelemetry

/// The drive's track as an inline SVG, with no map tiles (it draws offline): an equirectangular projection —
/// x = longitude × cos(middle latitude), y = latitude — scaled to the track's bounds, north up. One line per pair of
/// consecutive looks of the ``DriveProfile`` (a dropout leaves a gap), stroked by the first look's standing against
/// the limit; the signs passed as discs with their value; a scale bar.
struct DriveMapChart {
    let profile: DriveProfile

    static let width = 760.0
    static let height = 480.0
    private static let margin = 24.0
    /// Below a drive this small (degrees), the bounds are widened to it: a car standing still is a dot, not a zoom into
    /// the receiver's noise.
    private static let minimumSpan = 0.0005

    /// The stroke of a segment by its first look's standing (also the legend's).
    static func colour(_ standing: DriveProfile.Standing) -> String {
        switch standing {
        case .under: "#1e8e3e"
        case .within: "#f29900"
        case .over: "#d93025"
        case .noLimit: "#5b8def"
        case .unknown: "#9aa3b0"
        }
    }

    static func label(_ standing: DriveProfile.Standing) -> String {
        switch standing {
        case .under: "at or under the limit"
        case .within: "over, within tolerance"
        case .over: "over the tolerance"
        case .noLimit: "no limit read"
        case .unknown: "speed unknown"
        }
    }

    func render() -> String {
        var svg = SVGCanvas(width: Self.width, height: Self.height)
        let looks = profile.looks
        let latitudes = looks.map(\.latitude) + profile.signs.map(\.position.latitude)
        let longitudes = looks.map(\.longitude) + profile.signs.map(\.position.longitude)
        guard let south = latitudes.min(), let north = latitudes.max(), let west = longitudes.min(),
            let east = longitudes.max()
        else {
            svg.text("no position during the video", x: Self.width / 2, y: Self.height / 2, className: "empty", anchor: "middle")
            return svg.render(id: "drive-map", label: "track of the drive (empty)")
        }
        let middle = (south + north) / 2
        let squeeze = cos(middle * .pi / 180)
        let spanX = max((east - west) * squeeze, Self.minimumSpan)
        let spanY = max(north - south, Self.minimumSpan)
        let scale = min((Self.width - 2 * Self.margin) / spanX, (Self.height - 2 * Self.margin) / spanY)
        let centreX = (west + east) / 2 * squeeze
        let centreY = middle
        func point(latitude: Double, longitude: Double) -> (x: Double, y: Double) {
            (Self.width / 2 + (longitude * squeeze - centreX) * scale, Self.height / 2 - (latitude - centreY) * scale)
        }

        for (index, look) in looks.enumerated() where index + 1 < looks.count {
            let next = looks[index + 1]
            guard next.time - look.time <= profile.step * 1.5 else { continue }
            let from = point(latitude: look.latitude, longitude: look.longitude)
            let to = point(latitude: next.latitude, longitude: next.longitude)
            var data = [
                ("t0", SVGCanvas.number(look.time)), ("t1", SVGCanvas.number(next.time)),
                ("standing", look.standing.rawValue),
            ]
            if let speed = look.speed { data.append(("speed", String(format: "%.1f", speed))) }
            if let limit = look.limit { data.append(("limit", String(limit))) }
            svg.line(
                x1: from.x, y1: from.y, x2: to.x, y2: to.y, className: "track-segment", data: data,
                attributes: [("stroke", Self.colour(look.standing))])
        }
        for sign in profile.signs {
            let at = point(latitude: sign.position.latitude, longitude: sign.position.longitude)
            svg.circle(
                x: at.x, y: at.y, radius: 11, className: "sign",
                data: [
                    ("value", String(sign.value)), ("unit", sign.unit), ("time", SVGCanvas.number(sign.end)),
                    ("lat", String(sign.position.latitude)), ("lon", String(sign.position.longitude)),
                ],
                title: "\(sign.value) \(sign.unit) sign passed at \(SVGCanvas.number(sign.end)) s")
            svg.text(String(sign.value), x: at.x, y: at.y + 4, className: "sign-value", anchor: "middle")
        }
        // Scale bar: a round number of metres about a fifth of the width.
        let metresPerUnit = Geodesy.earthRadius * .pi / 180 / scale
        let metres = TimelineChart.niceStep(metresPerUnit * Self.width / 5)
        let barLength = metres / metresPerUnit
        let barY = Self.height - 10
        svg.line(x1: 10, y1: barY, x2: 10 + barLength, y2: barY, className: "scale-bar", data: [("metres", SVGCanvas.number(metres))])
        svg.text(
            metres >= 1000 ? "\(SVGCanvas.number(metres / 1000)) km" : "\(SVGCanvas.number(metres)) m",
            x: 14 + barLength, y: barY + 4, className: "tick")
        svg.text("N ↑", x: Self.width - 10, y: 18, className: "tick", anchor: "end")
        return svg.render(id: "drive-map", label: "track of the drive coloured by speed against the limit")
    }

    /// The colours the page explains below the map.
    static var legend: String {
        let items = DriveProfile.Standing.allCases.map { standing in
            "<span class=\"key\"><span class=\"swatch\" style=\"background:\(colour(standing))\"></span>"
                + "\(HTMLText.escape(label(standing)))</span>"
        }
        return "<p class=\"legend\">" + items.joined(separator: " ") + "</p>"
    }
}
