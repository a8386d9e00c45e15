/// What a region's speed-limit signs look like, which decides the locator ``SpeedLimitStage`` runs.
enum SignShape: Sendable, Equatable {
    /// A red ring around dark digits on a white or yellow disc (Europe): ``RedRingLocator``.
    case redRing
    /// A white upright rectangle reading "SPEED LIMIT" above the number (US R2-1): ``UsSignReader``.
    case whiteRectangle
}

extension SpeedLimitProfile {
    /// The shape of this region's signs: white rectangles in the US, red rings everywhere else.
    var signShape: SignShape { name == SpeedLimitProfile.unitedStates.name ? .whiteRectangle : .redRing }
}
