import Dispatch
import Synchronization

/// Decoded overlay clips, least recently used first out, with at most `capacity` clips hot in memory.
///
/// Decoding takes tens to hundreds of milliseconds, far too long for the frame path, so the processing thread
/// only ever asks ``lookUp(_:)``: it returns a hot clip at once, or starts a load on the cache's own loader thread
/// and answers ``Lookup/loading``. ``load(_:)`` loads synchronously for preroll, before the video starts. A failed
/// load is remembered (``Lookup/failed(_:)``) and never retried. Bytes held are tracked for reports.
///
/// A clip evicted while an overlay still draws it stays alive (the overlay holds it) until that overlay ends.
///
/// ## Thread Safety
/// A mutex guards the entries; loads run on one serial background queue. Safe from any thread.
public final class OverlayCache: Sendable {
    /// Most clips kept hot.
    public let capacity: Int
    private let loader: any OverlayClipLoader
    private let loadsInBackground: Bool
    private let queue = DispatchQueue(label: "streamlens.overlay-loader", qos: .utility)
    private let state: Mutex<State>

    public enum Lookup: Sendable {
        case ready(any OverlayClipSource)
        case loading
        case failed(OverlayError)
    }

    private struct Entry {
        var clip: any OverlayClipSource
        var lastUse: UInt64
    }

    private struct State {
        var entries: [OverlayClipRequest: Entry] = [:]
        var pending: Set<OverlayClipRequest> = []
        var failures: [OverlayClipRequest: OverlayError] = [:]
        var clock: UInt64 = 0
        var loads = 0
        var evictions = 0
    }

    /// - Parameters:
    ///   - capacity: clips kept decoded at once (5 by default).
    ///   - loadsInBackground: false loads inside ``lookUp(_:)`` (tests, tools without a frame path).
    public init(loader: any OverlayClipLoader, capacity: Int = 5, loadsInBackground: Bool = true) {
        precondition(capacity > 0, "overlay cache capacity must be positive")
        self.loader = loader
        self.capacity = capacity
        self.loadsInBackground = loadsInBackground
        var initial = State()
        initial.entries.reserveCapacity(capacity + 1)
        state = Mutex(initial)
    }

    /// The clip for `request` if it is hot; otherwise starts loading it (once) and says so. Never blocks on a decode.
    public func lookUp(_ request: OverlayClipRequest) -> Lookup {
        enum Next { case answer(Lookup), startLoad }
        let next: Next = state.withLock { state in
            state.clock &+= 1
            if let index = state.entries.index(forKey: request) {
                state.entries.values[index].lastUse = state.clock
                return .answer(.ready(state.entries.values[index].clip))
            }
            if let failure = state.failures[request] { return .answer(.failed(failure)) }
            if state.pending.contains(request) { return .answer(.loading) }
            state.pending.insert(request)
            return .startLoad
        }
        switch next {
        case .answer(let lookup):
            return lookup
        case .startLoad:
            if loadsInBackground {
                queue.async { self.performLoad(request) }
                return .loading
            }
            performLoad(request)
            return lookUp(request)
        }
    }

    /// Loads `request` now (or returns it if hot): for preroll, before frames flow.
    public func load(_ request: OverlayClipRequest) throws(OverlayError) -> any OverlayClipSource {
        switch lookUpWithoutLoading(request) {
        case .ready(let clip): return clip
        case .failed(let error): throw error
        case .loading: break
        }
        performLoad(request)
        switch lookUpWithoutLoading(request) {
        case .ready(let clip): return clip
        case .failed(let error): throw error
        case .loading: return try loader.loadClip(request)  // evicted at once by a capacity of 1 under load; rare
        }
    }

    /// Waits until every background load started so far has finished.
    public func waitUntilIdle() { queue.sync {} }

    /// Figures for the run report.
    public var report: OverlayCacheReport {
        state.withLock { state in
            OverlayCacheReport(
                hotClips: state.entries.count,
                bytes: state.entries.values.reduce(0) { $0 + $1.clip.byteCount },
                loads: state.loads, evictions: state.evictions, failures: state.failures.count,
                hotRequests: state.entries.keys.sorted { $0.description < $1.description })
        }
    }

    private func lookUpWithoutLoading(_ request: OverlayClipRequest) -> Lookup {
        state.withLock { state in
            if let entry = state.entries[request] { return .ready(entry.clip) }
            if let failure = state.failures[request] { return .failed(failure) }
            return .loading
        }
    }

    private func performLoad(_ request: OverlayClipRequest) {
        let result: Result<any OverlayClipSource, OverlayError>
        do {
            result = .success(try loader.loadClip(request))
        } catch {
            result = .failure(error)
        }
        state.withLock { state in
            state.pending.remove(request)
            state.loads += 1
            switch result {
            case .success(let clip):
                if state.entries[request] == nil && state.entries.count >= capacity,
                    let oldest = state.entries.min(by: { $0.value.lastUse < $1.value.lastUse })
                {
                    state.entries.removeValue(forKey: oldest.key)
                    state.evictions += 1
                }
                state.clock &+= 1
                state.entries[request] = Entry(clip: clip, lastUse: state.clock)
            case .failure(let error):
                state.failures[request] = error
            }
        }
    }
}

/// What the overlay cache holds, for reports.
public struct OverlayCacheReport: Sendable, Equatable {
    public var hotClips: Int
    /// Bytes of decoded frames held by hot clips.
    public var bytes: Int
    public var loads: Int
    public var evictions: Int
    public var failures: Int
    public var hotRequests: [OverlayClipRequest]
}
