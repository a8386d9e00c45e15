import StreamLensCore

/// A white upright rectangle found in an analysis frame: a possible US "SPEED LIMIT" sign (R2-1), before anything
/// is read.
struct RectangularSignCandidate: Sendable, Equatable {
    /// The white plate inside the black border, in analysis-frame luma pixels.
    var plate: BoundingBox
    /// Mean luma of the plate's bright samples: the paper level the cropper stretches to white.
    var paperLevel: Double

    /// The whole sign, border included (the border is about 4 % of the height on each side): what is tracked and
    /// reported, so that the box matches what a viewer calls the sign.
    var box: BoundingBox {
        let marginX = 0.05 * plate.width
        let marginY = 0.04 * plate.height
        return BoundingBox(
            x: plate.x - marginX, y: plate.y - marginY, width: plate.width + 2 * marginX,
            height: plate.height + 2 * marginY)
    }
}
