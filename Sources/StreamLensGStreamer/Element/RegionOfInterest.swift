internal import CGStreamer
internal import CGStreamerShim
import StreamLensCore

/// A ``Detection`` carried on a buffer as a standard `GstVideoRegionOfInterestMeta`, so that any GStreamer element
/// or application can read it (and StreamLens elements can read those of other elements).
///
/// Layout: `roi_type` is the class name (`person`, `speed_limit`…), `x`/`y`/`w`/`h` the box in frame pixels, and
/// a parameter structure named ``parametersName`` holds `confidence` (double), `label_id` (int, the backend's class
/// id or -1), `x_min`/`y_min`/`x_max`/`y_max` (doubles, the box in fractions of the frame), `track_id` (int, when
/// tracked), `source` (string, the stage that found it) and `text` (string, e.g. the speed read on a sign). Speed
/// limits also carry `value` (int) and `unit` (string). A tracked region also has a structure ``objectIDName`` with
/// its track id as `id`. Both follow DL Streamer's layout (its `detection` and `object_id` structures), so its
/// elements and applications read StreamLens's boxes and tracks. Regions written by other
/// elements need none of these: a missing confidence reads as 1, a missing source as the element-neutral
/// ``unnamedSource``.
public struct RegionOfInterest: Sendable, Equatable {
    /// Name of the parameter structure StreamLens writes and reads (the name DL Streamer uses for detections).
    public static let parametersName = "detection"
    /// Name of the structure holding a tracked region's id (DL Streamer's, as `gvatrack` writes it).
    public static let objectIDName = "object_id"
    /// Source of regions that do not name one.
    public static let unnamedSource = "roi"

    /// The stage (or element) that produced the region.
    public var source: String
    public var detection: Detection

    public init(source: String, detection: Detection) {
        self.source = source
        self.detection = detection
    }
}

extension BufferHandle {
    /// Calls `body` for every region-of-interest meta on the buffer, in the order they were added.
    public func forEachRegionOfInterest(_ body: (RegionOfInterest) -> Void) {
        var state: gpointer?
        let api = gst_video_region_of_interest_meta_api_get_type()
        while let meta = gst_buffer_iterate_meta_filtered(buffer, &state, api) {
            let region = UnsafeMutableRawPointer(meta).assumingMemoryBound(to: GstVideoRegionOfInterestMeta.self)
            body(Self.read(region))
        }
    }

    /// The regions of interest on the buffer.
    public var regionsOfInterest: [RegionOfInterest] {
        var regions: [RegionOfInterest] = []
        forEachRegionOfInterest { regions.append($0) }
        return regions
    }

    /// Attaches each detection as a region-of-interest meta, its box clipped to a `width` × `height` frame (a box
    /// entirely outside is skipped). Ids continue after the regions already on the buffer, so every region of a
    /// buffer has its own id (`gst_buffer_get_video_region_of_interest_meta_id`). `extraFields` go into every
    /// region's parameter structure. The buffer must be writable.
    public func addRegionsOfInterest(
        _ detections: Detections, frameWidth width: Int, frameHeight height: Int, extraFields: [StructureField] = []
    ) {
        guard !detections.isEmpty else { return }
        var nextID = 0
        forEachRegionOfInterest { _ in nextID += 1 }
        for detection in detections.items {
            let box = detection.box
            guard box.x.isFinite, box.y.isFinite, box.maxX.isFinite, box.maxY.isFinite else { continue }
            let x0 = max(0, min(width, Int(box.x.rounded())))
            let y0 = max(0, min(height, Int(box.y.rounded())))
            let x1 = max(0, min(width, Int(box.maxX.rounded())))
            let y1 = max(0, min(height, Int(box.maxY.rounded())))
            guard x1 > x0, y1 > y0,
                let meta = gst_buffer_add_video_region_of_interest_meta(
                    buffer, detection.className, guint(x0), guint(y0), guint(x1 - x0), guint(y1 - y0))
            else { continue }
            meta.pointee.id = gint(nextID)
            nextID += 1
            // The meta takes the structures.
            let bounds = [
                StructureField("x_min", .double(Double(x0) / Double(width))),
                StructureField("y_min", .double(Double(y0) / Double(height))),
                StructureField("x_max", .double(Double(x1) / Double(width))),
                StructureField("y_max", .double(Double(y1) / Double(height))),
            ]
            gst_video_region_of_interest_meta_add_param(
                meta,
                (Self.parameters(of: detection, source: detections.source) + bounds + extraFields)
                    .makeStructure(named: RegionOfInterest.parametersName))
            if let trackID = detection.trackID {
                gst_video_region_of_interest_meta_add_param(
                    meta, [StructureField("id", .int(trackID))].makeStructure(named: RegionOfInterest.objectIDName))
            }
        }
    }

    static func parameters(of detection: Detection, source: String) -> [StructureField] {
        var fields = [
            StructureField("confidence", .double(detection.confidence)),
            StructureField("label_id", .int(detection.classID)),
            StructureField("source", .string(source)),
        ]
        if let trackID = detection.trackID { fields.append(StructureField("track_id", .int(trackID))) }
        if let text = detection.text { fields.append(StructureField("text", .string(text))) }
        return fields
    }

    private static func read(_ meta: UnsafeMutablePointer<GstVideoRegionOfInterestMeta>) -> RegionOfInterest {
        let className = g_quark_to_string(meta.pointee.roi_type).map { String(cString: $0) } ?? ""
        let box = BoundingBox(
            x: Double(meta.pointee.x), y: Double(meta.pointee.y), width: Double(meta.pointee.w), height: Double(meta.pointee.h))
        var detection = Detection(box: box, className: className, confidence: 1)
        var source = RegionOfInterest.unnamedSource
        if let parameters = gst_video_region_of_interest_meta_get_param(meta, RegionOfInterest.parametersName) {
            let fields = StructureReader(structure: parameters)
            detection.confidence = fields.double("confidence") ?? 1
            detection.classID = fields.int("label_id") ?? -1
            detection.trackID = fields.int("track_id")
            detection.text = fields.string("text") ?? fields.int("value").map(String.init)
            source = fields.string("source") ?? source
        }
        return RegionOfInterest(source: source, detection: detection)
    }
}
