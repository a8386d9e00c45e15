import Foundation
import StreamLensCore
import Testing

/// The plugin as GStreamer's tools see it: registered through gst-plugin-scanner, its elements, pads, caps and
/// documented properties in gst-inspect-1.0, and the same elements from Python.
@Suite(.serialized) struct PluginRegistrationTests {
    /// Each element with the properties it documents and their defaults as gst-inspect prints them.
    static let elements: [(name: String, properties: [(String, String)])] = [
        ("streamlensdetect", [
            ("detector", #"Default: "hog""#), ("confidence", "Default:             0.5"), ("classes", #"Default: """#),
            ("interval", "Default:             0.3"), ("sync-analysis", #"Default: "auto""#),
        ]),
        ("streamlenssigns", [
            ("region", #"Default: "eu""#), ("confidence", "Default:             0.7"),
            ("interval", "Default:            0.08"), ("sync-analysis", #"Default: "auto""#), ("expiry", "Default:             180"),
            ("text-line-model", #"Default: """#),
        ]),
        ("streamlensannotate", [
            ("boxes", "Default: true"), ("labels", "Default: true"), ("badge", #"Default: "top-right""#),
            ("badge-region", #"Default: "eu""#), ("hud", #"Default: "off""#), ("spotlight", "Default:               1"),
        ]),
        ("streamlensoverlay", [
            ("location", "Default: null"), ("x", "Default: 0"), ("y", "Default: 0"), ("width", "Default: 0"),
            ("height", "Default: 0"), ("opacity", "Default:               1"), ("trigger", #"Default: "always""#),
            ("anchor", #"Default: "frame""#), ("duration", "Default:              30"),
        ]),
        ("streamlensstats", [
            ("report", "Default: null"), ("interval", "Default:               1"), ("metrics-port", "Default: 0"),
            ("stall-threshold", "Default:               1"),
        ]),
        ("streamlensblur", [
            ("kinds", #"Default: "faces""#), ("style", #"Default: "gaussian""#), ("margin", "Default:             0.2"),
            ("confidence", "Default:             0.2"), ("hold", "Default:               1"),
            ("sync-analysis", #"Default: "auto""#),
        ]),
    ]

    @Test func theScannerRegistersThePluginWithItsSixElements() async throws {
        try PluginHarness.requirePlugin()
        // A fresh registry makes GStreamer scan the plugin folder with gst-plugin-scanner, in its own process.
        try? FileManager.default.removeItem(atPath: PluginHarness.registry)
        let result = try await PluginHarness.inspect("streamlens")
        #expect(result.status == 0, "stderr: \(result.standardError)")
        #expect(!result.standardError.contains("CRITICAL") && !result.standardError.contains("WARNING"),
                "stderr: \(result.standardError)")
        #expect(result.standardOutput.contains("Version                  \(StreamLensVersion.current)"))
        for element in Self.elements { #expect(result.standardOutput.contains("\(element.name): StreamLens")) }
        #expect(result.standardOutput.contains("6 elements"))
        #expect(FileManager.default.fileExists(atPath: PluginHarness.registry), "the scanner wrote no registry")
    }

    @Test(arguments: Self.elements.map(\.name))
    func inspectShowsPadsCapsAndDocumentedProperties(element: String) async throws {
        try PluginHarness.requirePlugin()
        let result = try await PluginHarness.inspect(element)
        #expect(result.status == 0, "stderr: \(result.standardError)")
        let text = result.standardOutput
        #expect(text.contains("SINK template: 'sink'") && text.contains("SRC template: 'src'"))
        #expect(text.contains("Availability: Always"))
        if element == "streamlensstats" {
            #expect(text.contains("video/x-raw"))
        } else {
            #expect(text.contains("format: { (string)I420, (string)NV12 }"))
        }
        let expected = try #require(Self.elements.first { $0.name == element })
        for (property, defaultText) in expected.properties {
            let lines = text.split(separator: "\n").map(String.init)
            let index = try #require(lines.firstIndex { $0.hasPrefix("  \(property) ") }, "\(property) not listed")
            let blurb = lines[index].split(separator: ":", maxSplits: 1).last.map(String.init) ?? ""
            #expect(blurb.trimmingCharacters(in: .whitespaces).count > 15, "\(property) has no documentation")
            #expect(lines[index + 2].contains(defaultText), "\(property): \(lines[index + 2])")
            #expect(lines[index + 1].contains("changeable only in NULL or READY state"))
        }
    }

    @Test func pythonCreatesEveryElementAndSeesItsProperties() async throws {
        try PluginHarness.requirePlugin()
        let script = """
            import gi, json
            gi.require_version("Gst", "1.0")
            from gi.repository import Gst
            Gst.init(None)
            names = \(Self.elements.map(\.name))
            found = {}
            for name in names:
                element = Gst.ElementFactory.make(name, None)
                found[name] = sorted(p.name for p in element.list_properties()) if element else None
            print(json.dumps(found))
            """
        let result = try await PluginHarness.run(PluginHarness.python, ["-c", script])
        #expect(result.status == 0, "stderr: \(result.standardError)")
        let found = try #require(
            try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: [String]])
        for element in Self.elements {
            let properties = try #require(found[element.name], "\(element.name) was not created")
            for (property, _) in element.properties { #expect(properties.contains(property), "\(element.name).\(property)") }
        }
    }
}
