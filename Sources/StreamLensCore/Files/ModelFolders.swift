/// Where StreamLens's installed models live: the folders scripts/models/install-text-line-model.sh and
/// scripts/models/install-detector-model.sh write to (scripts/lib/packages.sh's `choose_model_dir`), in the order a run looks
/// in them. One list for every model, so that the scripts and the readers cannot drift apart.
public enum ModelFolders {
    /// The folder `STREAMLENS_MODEL_DIR` names, when it is set: the install scripts then write there and nowhere else.
    public static func given(environment: [String: String]) -> String? {
        environment["STREAMLENS_MODEL_DIR"].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The folders the install scripts write to without `STREAMLENS_MODEL_DIR` (/usr/local/share/streamlens when
    /// writable, else ~/.local/share/streamlens), then the system's /usr/share/streamlens.
    public static func standard(environment: [String: String]) -> [String] {
        var folders = ["/usr/local/share/streamlens"]
        if let home = environment["HOME"], !home.isEmpty { folders.append(home + "/.local/share/streamlens") }
        folders.append("/usr/share/streamlens")
        return folders
    }
}
