/// GPS telemetry: where the track comes from and how it lines up with the video (docs/guides/gps.md).
extension OptionSchema {
    public static let gps = OptionSpec(
        flag: "gps", key: "source.gps", properties: [.init(Element.signs, "gps", default: .text("off"))],
        kind: .text("auto | off | FILE (GPX, NMEA, CSV, or an MP4/MOV with GPMF)"), default: .text("auto"),
        help: "GPS telemetry: auto reads a GoPro GPMF track from an MP4/MOV input (none otherwise); a file is a GPX "
            + "track, an NMEA 0183 log, a CSV (time,lat,lon[,speed]) or another GoPro file; off reads none. With it, "
            + "speed_limit events carry where the sign was passed and speeding events are written.")
    public static let gpsOffset = OptionSpec(
        flag: "gps-offset", key: "source.gps_offset", properties: [.init(Element.signs, "gps-offset")],
        kind: .number(-86_400...86_400), default: .number(0), unit: "s",
        help: "Seconds added to the GPS track's times to line it up with the video (when the track and the video share "
            + "no clock, a file's track starts at the video's start).")
    static let telemetryOptions: [OptionSpec] = [gps, gpsOffset]
}
