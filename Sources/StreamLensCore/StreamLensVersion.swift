/// The StreamLens release, reported in run reports (command line and GStreamer plugin) and by the plugin's
/// descriptor (Sources/CStreamLensGstPlugin/plugin.c keeps the same string; the plugin tests compare them).
public enum StreamLensVersion {
    public static let current = "0.1.0"
}
