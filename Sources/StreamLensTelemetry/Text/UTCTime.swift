/// UTC dates and times as seconds since 1970-01-01, computed directly (no calendar, no time zone database): the
/// readers only ever see UTC.
enum UTCTime {
    /// Days from 1970-01-01 to the given civil date (proleptic Gregorian calendar).
    static func days(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    static func seconds(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Double) -> Double? {
        guard (1...12).contains(month), (1...31).contains(day), (0...23).contains(hour), (0...59).contains(minute),
            second >= 0, second < 61
        else { return nil }
        return Double(days(year: year, month: month, day: day) * 86_400 + hour * 3_600 + minute * 60) + second
    }

    /// ISO 8601 as GPX writes it: `2024-05-01T10:20:30Z`, `2024-05-01T10:20:30.250Z`, `…+02:00`; nil otherwise.
    static func iso8601(_ text: some StringProtocol) -> Double? {
        let chars = Array(text.utf8)
        func number(_ range: Range<Int>) -> Int? {
            guard range.upperBound <= chars.count else { return nil }
            var value = 0
            for index in range {
                guard chars[index] >= 48, chars[index] <= 57 else { return nil }
                value = value * 10 + Int(chars[index] - 48)
            }
            return value
        }
        guard chars.count >= 19, chars[4] == 45, chars[7] == 45, chars[10] == 84 || chars[10] == 32,
            chars[13] == 58, chars[16] == 58,
            let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
            let hour = number(11..<13), let minute = number(14..<16), var second = number(17..<19).map(Double.init)
        else { return nil }
        var index = 19
        if index < chars.count, chars[index] == 46 {
            index += 1
            var scale = 0.1
            while index < chars.count, chars[index] >= 48, chars[index] <= 57 {
                second += Double(chars[index] - 48) * scale
                scale /= 10
                index += 1
            }
        }
        var zone = 0
        if index < chars.count {
            switch chars[index] {
            case 90: index += 1  // Z
            case 43, 45:  // +hh:mm or -hh:mm
                guard let hours = number(index + 1..<index + 3) else { return nil }
                let minutes = (index + 6 <= chars.count ? number(index + 4..<index + 6) : nil) ?? 0
                zone = (hours * 3_600 + minutes * 60) * (chars[index] == 43 ? 1 : -1)
                index = chars.count
            default: return nil
            }
        }
        return seconds(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
            .map { $0 - Double(zone) }
    }

    /// GPMF's GPSU: `yymmddhhmmss.sss` (years from 2000).
    static func gpsu(_ text: String) -> Double? {
        let chars = Array(text.utf8)
        guard chars.count >= 12 else { return nil }
        func pair(_ index: Int) -> Int? {
            guard chars[index] >= 48, chars[index] <= 57, chars[index + 1] >= 48, chars[index + 1] <= 57 else {
                return nil
            }
            return Int(chars[index] - 48) * 10 + Int(chars[index + 1] - 48)
        }
        guard let year = pair(0), let month = pair(2), let day = pair(4), let hour = pair(6), let minute = pair(8),
            let second = Double(String(decoding: chars[10...], as: UTF8.self))
        else { return nil }
        return seconds(year: 2000 + year, month: month, day: day, hour: hour, minute: minute, second: second)
    }
}
