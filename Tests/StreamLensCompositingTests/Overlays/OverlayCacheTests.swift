import Testing
@testable import StreamLensCompositing

@Suite struct OverlayCacheTests {
    func ready(_ lookup: OverlayCache.Lookup) -> (any OverlayClipSource)? {
        if case .ready(let clip) = lookup { return clip }
        return nil
    }

    @Test func leastRecentlyUsedClipIsEvictedAndBytesAreReported() throws {
        let loader = TestClipLoader(frameCount: 2)
        let cache = OverlayCache(loader: loader, capacity: 2, loadsInBackground: false)
        let a = OverlayClipRequest(path: "a.webm", width: 8, height: 8)
        let b = OverlayClipRequest(path: "b.webm", width: 16, height: 16)
        let c = OverlayClipRequest(path: "c.webm", width: 8, height: 4)
        _ = cache.lookUp(a)
        _ = cache.lookUp(b)
        _ = cache.lookUp(a)  // b is now the least recently used
        _ = cache.lookUp(c)
        let report = cache.report
        #expect(report.hotClips == 2 && report.evictions == 1 && report.loads == 3)
        #expect(report.hotRequests == [a, c])
        // Two frames each: 8×8 → 2 × (64 × 2 + 8 spans × 16 B + 3 × 16 chroma + 4 spans × 16 B) …
        let expected = try #require(ready(cache.lookUp(a))).byteCount + #require(ready(cache.lookUp(c))).byteCount
        #expect(report.bytes == expected)
        #expect(expected > 2 * 2 * (64 + 32))
        _ = cache.lookUp(b)  // reloads b, evicting the now least recently used
        #expect(loader.loaded == [a, b, c, b])
    }

    @Test func capacityIsConfigurable() {
        let cache = OverlayCache(loader: TestClipLoader(), capacity: 5, loadsInBackground: false)
        for index in 0..<8 { _ = cache.lookUp(OverlayClipRequest(path: "clip\(index).webm")) }
        #expect(cache.report.hotClips == 5)
        #expect(cache.report.evictions == 3)
    }

    @Test func failuresAreRememberedNotRetried() {
        let loader = TestClipLoader()
        let cache = OverlayCache(loader: loader, capacity: 2, loadsInBackground: false)
        let missing = OverlayClipRequest(path: "missing.webm")
        for _ in 0..<3 {
            guard case .failed(let error) = cache.lookUp(missing) else {
                Issue.record("expected a failure")
                return
            }
            #expect(error == .fileNotFound(path: "missing.webm"))
        }
        #expect(loader.loaded.count == 1)
        #expect(cache.report.failures == 1)
        #expect(throws: OverlayError.fileNotFound(path: "missing.webm")) { try cache.load(missing) }
    }

    @Test func backgroundLoadsNeverBlockALookUp() {
        let cache = OverlayCache(loader: TestClipLoader(), capacity: 2)
        let request = OverlayClipRequest(path: "logo.webm", width: 32, height: nil)
        guard case .loading = cache.lookUp(request) else {
            Issue.record("first look-up must start a load and return at once")
            return
        }
        cache.waitUntilIdle()
        let clip = ready(cache.lookUp(request))
        #expect(clip?.width == 32 && clip?.height == 32)
        #expect(cache.report.loads == 1)
    }
}
