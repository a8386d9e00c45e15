extension OptionSchema {
    /// docs/reference/options.md: every option with its names in each place, its values, default and help.
    /// `scripts/generate/generate-reference.sh` writes it; `OptionSchemaTests.theReferencePageIsCurrent` fails when it is stale.
    public static func referencePage() -> String {
        var lines = [
            "<!-- Generated from Sources/StreamLensOptions/OptionSchema.swift by scripts/generate/generate-reference.sh: do not edit. -->",
            "# Options",
            "",
            "Every option of StreamLens, declared once in `OptionSchema`: the command line (`streamlens run`, and "
                + "`streamlens batch`, which passes the shared ones to every file), the pipeline file (YAML keys as "
                + "dotted paths; `stages.overlays.*` are the keys of each overlay in the list) and the GStreamer "
                + "elements' properties take their names, ranges and defaults from it.",
            "",
        ]
        let groups: [(String, [OptionSpec])] = [
            ("Source", [input, reconnect, reconnectMax, stallTimeout]),
            ("Pool and analysis", [poolSize, backpressure, analysisInterval, syncAnalysis]),
            ("Object detection", [
                detector, confidence, iou, inputSize, classNames, classes, exclude, detectorInterval, everyNthFrame,
                budget, maxConcurrent, maxAge, maxMissed, smoothing, primarySubject, analysisWidth,
            ]),
            ("Speed limits", [speedLimits, signConfidence, signExpiry, signInterval, textLineModel]),
            ("Drawing", [frameStamp, annotate, boxes, labels, badge, badgeRegion, hud, spotlight, annotationSources]),
            ("Overlays", [
                overlay, overlayCache, overlayClip, overlayWhen, overlayAt, overlayX, overlayY, overlaySize, overlayWidth,
                overlayHeight, overlayMargin, overlayScale, overlayMinWidth, overlayMaxWidth, overlayMinConfidence,
                overlayFadeIn, overlayFadeOut, overlayMaxInstances, overlayMaxAge, overlayOpacity,
            ]),
            ("Output", [output, encoderPreset]),
            ("Reports and statistics", [
                report, timeline, html, events, subtitles, progress, quiet, metricsPort, statsMetricsPort, statsInterval,
                stallThreshold,
            ]),
            ("Run control", [shutdownGrace, watchdog, noStatistics, keepPartialOnInterrupt]),
            ("Tracking", trackingOptions),
            ("GPS telemetry", telemetryOptions),
            ("Exports", exportOptions),
            ("Privacy", privacyOptions),
        ]
        precondition(groups.flatMap(\.1) == all, "every option is in one group, in the order of `all`")
        for (title, options) in groups {
            lines += ["## \(title)", "", "| Command line | Pipeline file | Element property | Values | Default | What it does |",
                      "|---|---|---|---|---|---|"]
            for option in options {
                let flag = option.cliName.map { "`\($0)`" } ?? ""
                let key = option.key.map { "`\($0)`" } ?? ""
                let properties = option.properties.map { property -> String in
                    let own = property.defaultValue.map { " (default `\(shown($0))`)" } ?? ""
                    return "`\(property.element) \(property.name)`\(own)"
                }.joined(separator: "<br>")
                let defaultText = option.defaultValue.map { "`\(shown($0))`" } ?? option.unset ?? ""
                let row = [flag, key, properties, option.expected, defaultText, option.help]
                lines.append("| " + row.map { $0.replacingPipes() }.joined(separator: " | ") + " |")
            }
            lines.append("")
        }
        lines += [
            "Batch: `--input`, `--report`, `--events` and `--subtitles` are named per file by `streamlens batch`; "
                + "`--timeline`, `--html`, `--metrics-port` and `--export` apply to one run only.",
            "",
        ]
        return lines.joined(separator: "\n")
    }

    private static func shown(_ value: OptionSpec.Value) -> String {
        if case .text(let text) = value, text.isEmpty { return "\"\"" }
        return value.description
    }
}

extension String {
    /// A table cell: `|` would end it.
    fileprivate func replacingPipes() -> String {
        var result = ""
        for character in self { result += character == "|" ? "\\|" : String(character) }
        return result
    }
}
