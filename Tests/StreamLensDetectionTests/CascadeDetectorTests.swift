import Foundation
import StreamLensCore
import Testing

@testable import StreamLensDetection

@Suite("Cascade detectors from opencv-data")
struct CascadeDetectorTests {
    @Test("Short names resolve to opencv-data files with class names", arguments: [
        ("fullbody", "haarcascade_fullbody.xml", "person"),
        ("upperbody", "haarcascade_upperbody.xml", "upper_body"),
        ("frontalface", "haarcascade_frontalface_default.xml", "face"),
        ("", "haarcascade_frontalface_default.xml", "face"),
        ("licence_plate", "haarcascade_russian_plate_number.xml", "licence_plate"),
    ])
    func catalog(name: String, file: String, className: String) throws {
        let entry = try CascadeCatalog().resolve(name)
        #expect(entry.path == "/usr/share/opencv4/haarcascades/" + file)
        #expect(entry.className == className)
        // Each loads into OpenCV.
        _ = try CascadeDetector(cascade: name)
    }

    @Test("A cascade given by path takes its class name from the file name")
    func cascadeByPath() throws {
        let detector = try CascadeDetector(cascade: "/usr/share/opencv4/haarcascades/haarcascade_eye.xml")
        #expect(detector.className == "eye")
        #expect(detector.backendName == "cascade:/usr/share/opencv4/haarcascades/haarcascade_eye.xml")
    }

    @Test("Unknown names and broken files are one clear error each")
    func errors() throws {
        #expect(throws: DetectionError.unknownCascade(name: "cats", searched: "/usr/share/opencv4/haarcascades")) {
            _ = try CascadeDetector(cascade: "cats")
        }
        #expect(throws: DetectionError.fileNotFound(path: "/nowhere/cascade.xml", role: "cascade file")) {
            _ = try CascadeDetector(cascade: "/nowhere/cascade.xml")
        }
        let directory = try TestEnvironment.temporaryDirectory("cascade")
        let broken = directory.appendingPathComponent("broken.xml").path
        try Data("<opencv_storage></opencv_storage>".utf8).write(to: URL(fileURLWithPath: broken))
        let error = #expect(throws: DetectionError.self) { _ = try CascadeDetector(cascade: broken) }
        #expect(error?.description == "cascade file '\(broken)' is not a valid OpenCV cascade XML (Input file is invalid): "
            + "check that the file is valid for this backend")
    }

    @Test("Full-body cascade finds the walking people of vtest.avi")
    func fullBodyOnVTest() throws {
        let video = try VTestClip.shared.get()
        let detector = try CascadeDetector(cascade: "fullbody")
        var perFrame: [[Detection]] = []
        for index in 0..<video.frameCount {
            perFrame.append(try video.withFrame(index) { try detector.detect($0) })
        }
        let framesWithPeople = perFrame.filter { !$0.isEmpty }.count
        print("fullbody: people found in \(framesWithPeople) of \(video.frameCount) frames")
        let score = VTestClip.score({ perFrame[$0].map(\.box) }, label: "fullbody")
        #expect(framesWithPeople >= 60)
        #expect(Double(score.found) / Double(score.annotated) >= 0.5)
        #expect(score.falsePositives <= 4)
        #expect(perFrame.joined().allSatisfy { $0.className == "person" && $0.confidence > 0.5 && $0.confidence < 1 })
    }

    @Test("Face cascade finds no faces in vtest.avi (they are a few pixels, seen from above)")
    func noFacesOnVTest() throws {
        let video = try VTestClip.shared.get()
        let detector = try CascadeDetector(cascade: "frontalface")
        var faces = 0
        for index in stride(from: 0, to: video.frameCount, by: 5) {
            faces += try video.withFrame(index) { try detector.detect($0) }.count
        }
        #expect(faces == 0)
    }
}
