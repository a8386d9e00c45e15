import ArgumentParser
import StreamLens
import StreamLensOptions

/// The GPS options of `run` (docs/guides/gps.md): `--gps`, `--gps-offset` (its exports are `--export`'s).
struct TelemetryRunOptions: ParsableArguments {
    typealias O = OptionSchema

    @Option(name: .customLong(O.gps.flag!), help: O.gps.argumentHelp())
    var gps: String?

    @Option(name: .customLong(O.gpsOffset.flag!), parsing: .unconditional, help: O.gpsOffset.argumentHelp())
    var gpsOffset: Double?

    /// The options given, as `run` arguments.
    var given: [(option: OptionSpec, arguments: [String])] {
        var given: [(option: OptionSpec, arguments: [String])] = []
        if let gps { given.append((O.gps, [O.gps.cliName!, gps])) }
        if let gpsOffset { given.append((O.gpsOffset, [O.gpsOffset.cliName!, gpsOffset.description])) }
        return given
    }

    /// Flags on top of the pipeline file's `source.gps` and `source.gps_offset`.
    func apply(to configuration: inout RunConfiguration) throws(RunError) {
        if let gps {
            configuration.telemetry.source = TelemetrySettings.Source(parsing: gps)
            configuration.telemetry.sourceSetIn = nil
        }
        if let gpsOffset { configuration.telemetry.offset = gpsOffset }
    }
}
