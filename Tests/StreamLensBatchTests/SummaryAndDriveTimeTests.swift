import Foundation
import Testing

@testable import StreamLensBatch

/// Small pieces of the batch's outputs: the drive time read from a file name, the summary page's links.
struct SummaryAndDriveTimeTests {
    /// 20240230 rolled over to 1 March; a name with an impossible date carries no time.
    @Test(arguments: [
        ("20240501_093012.mp4", "2024-05-01T09:30:12"),
        ("2024-02-29_23-59-59.mp4", "2024-02-29T23:59:59"),
        ("20240230_093012.avi", nil),
        ("20230229_093012.avi", nil),
        ("20241399_996012.mp4", nil),
    ] as [(String, String?)])
    func driveTimeComesOnlyFromARealDate(name: String, expected: String?) {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd'T'HH:mm:ss"
        #expect(EventQuery.startTime(fromFileName: name).map(formatter.string(from:)) == expected)
    }

    /// `cam#1 50%.report.json` as a bare href is a fragment and an escape: the link did not open.
    @Test func summaryLinksArePercentEncoded() {
        let file = CatalogFile(
            path: "/cards/cam#1 50%.mp4", outputName: "cam#1 50%", size: 1, modified: 0, contentHash: "x", status: .done,
            leaseOwner: nil, leaseExpires: nil, attempts: 1, completions: 1, error: nil, frames: 10, dropped: 0,
            seconds: 1, events: 0, report: nil)
        let summary = BatchSummary(catalog: "sqlite:c", files: [file], finishedThisRun: 1, framesThisRun: 10, wallSeconds: 1)
        #expect(summary.html.contains("href=\"cam%231%2050%25.report.json\""), "\(summary.html)")
    }
}
