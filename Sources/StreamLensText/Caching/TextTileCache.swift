import Synchronization

/// Keeps rendered text (labels, badges) so each distinct one is rendered once, not once per frame.
///
/// The cache is least-recently-used with a fixed capacity. It stores whatever `makeTile` turns a rendered
/// ``ARGBBitmap`` into (the compositing module stores ready-to-blend YUV tiles), so conversion also happens once.
/// Keys are generic: ``TextTileKey`` (text + style) for plain labels, or a caller's own key, e.g. class, confidence
/// and track id, so a hit needs no string to be built. A lookup that hits allocates nothing.
///
/// ## Thread Safety
/// A mutex guards the entries; rendering happens outside it. Safe from any thread; two threads missing the same
/// key at once may both render it (the later result wins), which is harmless.
public final class TextTileCache<Key: Hashable & Sendable, Tile: Sendable>: Sendable {
    /// Most entries kept.
    public let capacity: Int
    public let renderer: TextRenderer
    private let makeTile: @Sendable (ARGBBitmap) -> Tile
    private let state: Mutex<State>

    private struct Entry {
        /// Nil remembers a failed render, so a bad label is not retried on every frame.
        var tile: Tile?
        var lastUse: UInt64
    }

    private struct State {
        var entries: [Key: Entry] = [:]
        var clock: UInt64 = 0
        var statistics = TextTileCacheStatistics()
    }

    /// - Parameters:
    ///   - capacity: entries kept before the least recently used one is dropped.
    ///   - makeTile: converts a freshly rendered bitmap into the stored form; called once per rendered entry.
    public init(
        capacity: Int = 256, renderer: TextRenderer = TextRenderer(), makeTile: @escaping @Sendable (ARGBBitmap) -> Tile
    ) {
        precondition(capacity > 0, "cache capacity must be positive")
        self.capacity = capacity
        self.renderer = renderer
        self.makeTile = makeTile
        var initial = State()
        initial.entries.reserveCapacity(capacity)
        state = Mutex(initial)
    }

    /// The tile for `key`, rendering it with `render` on a miss; nil when rendering failed (see ``lastError``).
    public func tile(
        for key: Key, render: (TextRenderer) throws(TextRenderingError) -> ARGBBitmap
    ) -> Tile? {
        // Outer optional: found or not; inner: the tile, or nil for a remembered failure.
        let cached: Tile?? = state.withLock { state in
            state.clock &+= 1
            guard let index = state.entries.index(forKey: key) else { return .none }
            state.entries.values[index].lastUse = state.clock
            state.statistics.hits += 1
            return .some(state.entries.values[index].tile)
        }
        if let cached { return cached }
        var tile: Tile?
        var failure: TextRenderingError?
        do {
            tile = makeTile(try render(renderer))
        } catch {
            failure = error
        }
        state.withLock { state in
            if state.entries[key] == nil && state.entries.count >= capacity, let oldest = state.entries.min(by: { $0.value.lastUse < $1.value.lastUse }) {
                state.entries.removeValue(forKey: oldest.key)
                state.statistics.evictions += 1
            }
            state.entries[key] = Entry(tile: tile, lastUse: state.clock)
            state.statistics.renders += 1
            if let failure {
                state.statistics.failures += 1
                state.statistics.lastError = failure
            }
        }
        return tile
    }

    /// Counters since creation.
    public var statistics: TextTileCacheStatistics { state.withLock { $0.statistics } }
    /// Entries held now.
    public var count: Int { state.withLock { $0.entries.count } }
    /// The most recent rendering failure, if any.
    public var lastError: TextRenderingError? { statistics.lastError }

    /// True when `key` is cached (a lookup that does not count as a use).
    public func contains(_ key: Key) -> Bool { state.withLock { $0.entries[key] != nil } }
}

extension TextTileCache where Key == TextTileKey {
    /// The tile of `text` in `style`, rendered on first use.
    public func tile(text: String, style: TextStyle) -> Tile? {
        tile(for: TextTileKey(text: text, style: style)) { renderer throws(TextRenderingError) in
            try renderer.renderTile(text: text, style: style)
        }
    }
}

/// Counters of a ``TextTileCache``.
public struct TextTileCacheStatistics: Sendable, Equatable {
    public var hits = 0
    /// Renders done (misses), including failed ones.
    public var renders = 0
    public var evictions = 0
    public var failures = 0
    public var lastError: TextRenderingError?
}
