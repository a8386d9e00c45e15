import Foundation
import StreamLensCore
import Testing

@testable import StreamLensSigns

/// The disc normalisation variants: a soft real "5" breaks into its flag and its bowl, which the standard crop
/// rejects as marks beside the digits and the joining variants read as one glyph.
struct DiscVariantTests {
    static let center = 100.0
    static let radius = 40.0
    static let candidate = RingCandidate(
        centerX: center, centerY: center, radiusX: radius, radiusY: radius, innerRadiusX: 0.74 * radius,
        innerRadiusY: 0.74 * radius, ringCoverage: 1)

    /// A white disc in a red ring with two dark "0"-like glyphs, the left one broken across the middle by a gap of
    /// `gap` pixels (0: whole) into two pieces above each other.
    static func drawSign(_ planes: YUVPlanes, gap: Double) {
        SyntheticSign.paint(planes, colour: SyntheticSign.white) { x, y in
            hypot(x - center, y - center) <= radius
        }
        SyntheticSign.paint(planes, colour: SyntheticSign.red) { x, y in
            let distance = hypot(x - center, y - center)
            return distance >= 0.74 * radius && distance <= radius
        }
        // Two "0"-like outlines with 4 px strokes (real strokes are narrower than the cropper's paper window).
        func outline(_ dx: Double, _ dy: Double, left: Double) -> Bool {
            let outer = dx > left && dx < left + 11 && abs(dy) < 13
            let inner = dx > left + 4 && dx < left + 7 && abs(dy) < 9
            return outer && !inner
        }
        SyntheticSign.paint(planes, colour: (30, 128, 128)) { x, y in
            let dx = x - center
            let dy = y - center
            return (outline(dx, dy, left: -14) && abs(dy) >= gap / 2) || outline(dx, dy, left: 3)
        }
    }

    /// `body` on a fresh 200 × 200 grey I420 picture, where ``candidate`` fits.
    static func onGreyPicture<Result>(_ body: (YUVPlanes) -> Result) -> Result {
        OwnedYUVImage(layout: .i420, width: 200, height: 200, fill: SyntheticSign.grey).withPlanes(body)
    }

    /// A plain disc of `colour` where the sign is, ring and all.
    static func paintPlainDisc(_ planes: YUVPlanes, colour: (y: UInt8, u: UInt8, v: UInt8)) {
        SyntheticSign.paint(planes, colour: colour) { x, y in hypot(x - center, y - center) <= radius }
    }

    static func prepare(gap: Double, variant: DiscVariant) -> CropOutcome {
        var cropper = DigitCropper()
        return onGreyPicture { planes in
            drawSign(planes, gap: gap)
            return cropper.prepare(planes: planes, candidate: candidate, variant: variant)
        }
    }

    @Test(arguments: DiscVariant.tried)
    func everyVariantCutsOutTwoWholeGlyphs(variant: DiscVariant) {
        let outcome = Self.prepare(gap: 0, variant: variant)
        guard case .digits(let layout) = outcome else {
            Issue.record("\(variant): \(outcome)")
            return
        }
        #expect(layout.glyphCount == 2 && layout.estimatedDigitCount == 2, "\(variant): \(layout)")
    }

    @Test func aGlyphBrokenAcrossTheMiddleIsMarksForTheStandardCropAndOneGlyphWhenJoined() {
        #expect(Self.prepare(gap: 4, variant: .standard) == .rejected(.extraMarks))
        var joined = DiscVariant.standard
        joined.joinsStackedPieces = true
        let outcome = Self.prepare(gap: 4, variant: joined)
        guard case .digits(let layout) = outcome else {
            Issue.record("joined: \(outcome)")
            return
        }
        #expect(layout.glyphCount == 2, "\(layout)")
    }

    /// A cropper after `prepare` ran on the unbroken sign of ``drawSign(_:gap:)``, and what `prepare` returned.
    static func cropperOnTheSign(
        _ prepare: (inout DigitCropper, YUVPlanes, RingCandidate) -> Bool
    ) -> (cropper: DigitCropper, prepared: Bool) {
        var cropper = DigitCropper()
        let prepared = onGreyPicture { planes in
            drawSign(planes, gap: 0)
            return prepare(&cropper, planes, candidate)
        }
        return (cropper, prepared)
    }

    @Test func theClassifierPictureIsStretchedWithTheRingAndOutsideWhite() {
        let (cropper, prepared) = Self.cropperOnTheSign { $0.prepareClassifierImage(planes: $1, candidate: $2) }
        #expect(prepared)
        let side = DigitCropper.canvasSize
        let picture = cropper.classifierImage
        // Corners (outside the disc) are white; the middle of the right glyph is black; paper beside it is white.
        #expect(picture[0] == 255 && picture[side * side - 1] == 255)
        let glyphX = Int((4.5 / (0.74 * Self.radius * DigitCropper.standardInnerRadiusShare) + 1) / 2 * Double(side))
        #expect(picture[side / 2 * side + glyphX] <= 10, "\(picture[side / 2 * side + glyphX])")
        let paperY = side / 2 + Int(Double(side) * 0.38)
        #expect(picture[paperY * side + side / 2] >= 245, "\(picture[paperY * side + side / 2])")
    }

    /// The weight-limit rule's measure (``RecogniserAgreement/showsAnotherLegend(classifier:legendHeightShare:)``).
    @Test func theLegendsHeightIsMeasuredAsAShareOfTheDisc() throws {
        let (cropper, cutOut) = Self.cropperOnTheSign { cropper, planes, candidate in
            if case .digits = cropper.prepare(planes: planes, candidate: candidate, variant: .standard) { return true }
            return false
        }
        #expect(cutOut)
        // The glyphs stand 26 px tall; the canvas spans 1.03 of the 29.6 px inner radius on each side of the centre.
        let expected = 26 / (2 * DigitCropper.standardInnerRadiusShare * 0.74 * Self.radius)
        let share = try #require(cropper.lastLegendHeightShare)
        #expect(abs(share - expected) <= 1.5 / Double(DigitCropper.canvasSize), "\(share) vs \(expected)")
    }

    @Test func aDiscAsRedAsItsRingIsRejectedAsMostlyRedNotAsLowContrast() {
        var cropper = DigitCropper()
        let outcome = Self.onGreyPicture { planes in
            Self.paintPlainDisc(planes, colour: SyntheticSign.red)
            return cropper.prepare(planes: planes, candidate: Self.candidate, variant: .standard)
        }
        #expect(outcome == .rejected(.mostlyRed))
        #expect(cropper.lastLegendHeightShare == nil)
    }
}
