import Foundation

/// NMEA 0183 sentences (any talker: `GP`, `GN`, `GL`…): `RMC` (time, date, validity, position, speed over ground),
/// `GGA` (time, position, fix quality, HDOP, altitude) and `VTG` (speed in km/h). Sentences of one epoch (the same
/// time of day) make one fix; `VTG`, which carries no time, belongs to the epoch before it.
///
/// A sentence whose checksum (`*hh`, the XOR of the characters between `$` and `*`) is wrong is skipped and counted;
/// so is a sentence too short for its fields. A sentence without a checksum is taken as it is (NMEA makes it
/// optional for most sentences). `RMC` status `V` and `GGA` quality 0 are epochs without a fix: they are kept with
/// fix 0 and never used as positions.
public enum NMEAReader {
    public static func track(from text: String) -> GPSTrack {
        var fixes: [GeoFix] = []
        var skipped = 0
        var epoch: Epoch?
        var date: Int?  // days since 1970 of the last RMC
        var dayOffset = 0
        var lastTimeOfDay: Double?

        func flush() {
            if let built = epoch?.fix(date: date) { fixes.append(built) }
            epoch = nil
        }

        for rawLine in text.split(whereSeparator: \.isNewline) {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            guard let start = line.firstIndex(of: "$") else { continue }
            guard let body = checkedBody(of: line[start...]) else {
                skipped += 1
                continue
            }
            let fields = body.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            guard let name = fields.first, name.count >= 5 else { continue }
            let kind = name.suffix(3)
            if kind == "VTG" {
                guard fields.count > 7 else { skipped += 1; continue }
                if let kmh = Double(fields[7]) { epoch?.speed = kmh / 3.6 }
                else if let knots = Double(fields[5]) { epoch?.speed = knots * knotsToMetresPerSecond }
                continue
            }
            guard kind == "RMC" || kind == "GGA" else { continue }
            guard fields.count > (kind == "RMC" ? 9 : 9), var timeOfDay = timeOfDay(fields[1]) else {
                skipped += 1
                continue
            }
            if kind == "RMC", let day = Self.date(fields[9]) {
                if date != day { dayOffset = 0 }
                date = day
            }
            // A log without RMC dates that runs past midnight: times of day start again from 0.
            if let last = lastTimeOfDay, timeOfDay + Double(dayOffset) * 86_400 < last - 43_200 { dayOffset += 1 }
            timeOfDay += Double(dayOffset) * 86_400
            if epoch?.timeOfDay != timeOfDay {
                flush()
                epoch = Epoch(timeOfDay: timeOfDay)
            }
            lastTimeOfDay = timeOfDay
            let latitude = coordinate(fields[kind == "RMC" ? 3 : 2], hemisphere: fields[kind == "RMC" ? 4 : 3])
            let longitude = coordinate(fields[kind == "RMC" ? 5 : 4], hemisphere: fields[kind == "RMC" ? 6 : 5])
            if let latitude, let longitude {
                epoch?.latitude = latitude
                epoch?.longitude = longitude
            }
            if kind == "RMC" {
                let valid = epoch?.valid ?? true
                epoch?.valid = valid && fields[2] == "A"
                if let knots = Double(fields[7]) { epoch?.speed = knots * knotsToMetresPerSecond }
            } else {
                let quality = Int(fields[6]) ?? 0
                let valid = epoch?.valid ?? true
                epoch?.valid = valid && quality > 0
                epoch?.precision = Double(fields[8])
                epoch?.altitude = Double(fields[9])
            }
        }
        flush()
        return GPSTrack(source: .nmea, fixes: fixes, skipped: skipped)
    }

    static let knotsToMetresPerSecond = 1852.0 / 3600.0

    /// What one epoch's sentences said.
    struct Epoch {
        var timeOfDay: Double
        var latitude: Double?
        var longitude: Double?
        var altitude: Double?
        var speed: Double?
        var precision: Double?
        var valid: Bool?

        func fix(date: Int?) -> GeoFix? {
            guard let latitude, let longitude else { return nil }
            let utc = Double(date ?? 0) * 86_400 + timeOfDay
            return GeoFix(
                utc: utc, latitude: latitude, longitude: longitude, altitude: altitude, speed: speed,
                fix: valid == false ? 0 : nil, precision: precision)
        }
    }

    /// The sentence between `$` and `*` when its checksum is right or absent; nil when it is wrong.
    static func checkedBody(of sentence: Substring) -> Substring? {
        let afterDollar = sentence.dropFirst()
        guard let star = afterDollar.firstIndex(of: "*") else { return afterDollar }
        let body = afterDollar[..<star]
        let given = afterDollar[afterDollar.index(after: star)...].prefix(2)
        guard given.count == 2, let expected = UInt8(given, radix: 16) else { return nil }
        let sum = body.utf8.reduce(UInt8(0), ^)
        return sum == expected ? body : nil
    }

    /// `hhmmss.sss` as seconds of the day.
    static func timeOfDay(_ field: String) -> Double? {
        let chars = Array(field.utf8)
        guard chars.count >= 6, let hours = Int(field.prefix(2)), let minutes = Int(field.dropFirst(2).prefix(2)),
            let seconds = Double(field.dropFirst(4)), hours < 24, minutes < 60, seconds < 61
        else { return nil }
        return Double(hours * 3_600 + minutes * 60) + seconds
    }

    /// `ddmmyy` as days since 1970 (years 80…99 are 1980s and 1990s, the rest 2000s).
    static func date(_ field: String) -> Int? {
        guard field.count == 6, let day = Int(field.prefix(2)), let month = Int(field.dropFirst(2).prefix(2)),
            let year = Int(field.suffix(2)), (1...12).contains(month), (1...31).contains(day)
        else { return nil }
        return UTCTime.days(year: year >= 80 ? 1900 + year : 2000 + year, month: month, day: day)
    }

    /// `ddmm.mmmm` / `dddmm.mmmm` with its hemisphere as signed degrees.
    static func coordinate(_ field: String, hemisphere: String) -> Double? {
        guard let value = Double(field), let dot = field.firstIndex(of: ".") ?? Optional(field.endIndex) else {
            return nil
        }
        let degreeDigits = field.distance(from: field.startIndex, to: dot) - 2
        guard degreeDigits >= 1 else { return nil }
        let degrees = (value / 100).rounded(.towardZero)
        let minutes = value - degrees * 100
        guard minutes < 60 else { return nil }
        let signed = degrees + minutes / 60
        switch hemisphere {
        case "N", "E": return signed
        case "S", "W": return -signed
        default: return nil
        }
    }
}
