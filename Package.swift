// swift-tools-version:6.0
// StreamLens: a video-analytics pipeline for Swift on Linux, driven by GStreamer.
//
// Layers, bottom first: a module imports only modules of lower layers (scripts/check-tree.py reads this list and
// checks every import; docs/design.md draws it):
//   1. StreamLensCore, StreamLensOptions, StreamLensTelemetry
//   2. StreamLensGStreamer, StreamLensText, StreamLensDetection, StreamLensSigns
//   3. StreamLensStats, StreamLensCompositing, StreamLensBatch
//   4. StreamLensFramePath
//   5. StreamLens, StreamLensGstPlugin
//   6. streamlens, streamlens-reference, streamlens-diagnostics, StreamLensTestMedia
// 1: pure Swift — frames, pool, stage protocols, detections and time (imports no C); the option schema; GPS
// telemetry (GoPro GPMF, GPX, NMEA, CSV), the per-frame track, speeding and map exports. 2: one Swift
// module per C library — StreamLensGStreamer is the only one importing GStreamer's C API
// (pipelines, appsink/appsrc, frames and buffers, the element SDK's GValue/GstStructure/buffer wrappers),
// StreamLensText wraps Pango/Cairo, detection and signs each wrap their OpenCV bridge (signs also Tesseract). 3: pure
// Swift domain modules — run statistics and reports; blending, annotators and overlays in native YUV; the batch
// catalog and its queries (the sign map uses the telemetry's geodesy and GeoJSON). 4: the frame path
// from appsink through the pool, analysis lanes, sync hold and compositing to appsrc; the analysis lanes the elements
// share; the overlay clip decoder. 5: the pipeline runner, and the stages as GStreamer elements (libgststreamlens.so).
// 6: the command-line tool and tools; the media the tests and the diagnostics share. Below layer 1 sit the C targets:
// system libraries, the GStreamer shim, the OpenCV bridges (COpenCVDetection, COpenCVSigns, on COpenCVCommon), the
// plugin's GObject shell.

import PackageDescription

let package = Package(
    name: "StreamLens",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "StreamLens", targets: ["StreamLens"]),
        .executable(name: "streamlens", targets: ["streamlens"]),
        // The GStreamer plugin: `GST_PLUGIN_PATH=$(swift build --show-bin-path) gst-inspect-1.0 streamlens`.
        .library(name: "gststreamlens", type: .dynamic, targets: ["StreamLensGstPlugin"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift", from: "0.2.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/swhitty/FlyingFox", from: "0.27.1"),
        // The batch catalog: SQLite built in (sqlite-nio carries its own SQLite), PostgreSQL for many machines.
        .package(url: "https://github.com/vapor/sqlite-nio", from: "1.13.2"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-crypto", from: "4.5.2"),
    ],
    targets: [
        // MARK: C layer
        .systemLibrary(
            name: "CGStreamer",
            pkgConfig: "gstreamer-1.0 gstreamer-app-1.0 gstreamer-video-1.0 gstreamer-pbutils-1.0",
            providers: [.apt(["libgstreamer1.0-dev", "libgstreamer-plugins-base1.0-dev"])]
        ),
        .target(name: "CGStreamerShim", dependencies: ["CGStreamer"]),
        // The loader's list of loaded objects (dl_iterate_phdr), which Swift's Glibc module leaves out (StartupPages).
        .target(name: "CLoadedCode"),
        .systemLibrary(
            name: "CTesseract",
            pkgConfig: "tesseract",
            providers: [.apt(["libtesseract-dev"])]
        ),
        .systemLibrary(
            name: "CPangoCairo",
            pkgConfig: "pangocairo",
            providers: [.apt(["libpango1.0-dev", "libcairo2-dev"])]
        ),
        // What both OpenCV bridges share: their status codes and the C++ translation of exceptions into them.
        .target(
            name: "COpenCVCommon",
            cxxSettings: [.unsafeFlags(["-I/usr/include/opencv4"])],
            linkerSettings: [.linkedLibrary("opencv_core")]
        ),
        .target(
            name: "COpenCVDetection",
            dependencies: ["COpenCVCommon"],
            cxxSettings: [
                .unsafeFlags(["-I/usr/include/opencv4"]),
                // The bridge's own pixel loops (the HOG window scorer) optimised in debug builds too: the tests run
                // them over whole clips, and at -O0 they take several times as long.
                .unsafeFlags(["-O2"], .when(configuration: .debug)),
            ],
            linkerSettings: [
                .linkedLibrary("opencv_core"), .linkedLibrary("opencv_imgproc"),
                .linkedLibrary("opencv_dnn"), .linkedLibrary("opencv_objdetect"),
            ]
        ),
        .target(
            name: "COpenCVSigns",
            dependencies: ["COpenCVCommon"],
            cxxSettings: [
                .unsafeFlags(["-I/usr/include/opencv4"]),
                // The disc template matcher's own product optimised in debug builds too, as in COpenCVDetection.
                .unsafeFlags(["-O2"], .when(configuration: .debug)),
            ],
            linkerSettings: [
                .linkedLibrary("opencv_core"), .linkedLibrary("opencv_imgproc"),
                .linkedLibrary("opencv_dnn"),
            ]
        ),

        // MARK: Swift modules
        .target(name: "StreamLensCore"),
        // Every option, declared once: the CLI, the pipeline file, the element properties and the reference page.
        .target(name: "StreamLensOptions"),
        // The one module that imports GStreamer's C API.
        .target(name: "StreamLensGStreamer", dependencies: ["StreamLensCore", "CGStreamer", "CGStreamerShim"]),
        // Decoded frames from appsink through analysis and compositing to appsrc; the overlay clip decoder.
        .target(
            name: "StreamLensFramePath",
            dependencies: ["StreamLensCore", "StreamLensGStreamer", "StreamLensCompositing"]
        ),
        .target(
            name: "StreamLensStats",
            dependencies: [
                "StreamLensCore", "StreamLensTelemetry", .product(name: "Histogram", package: "hdrhistogram-swift"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "FlyingFox", package: "FlyingFox"),
            ],
        ),
        .target(name: "StreamLensText", dependencies: ["StreamLensCore", "CPangoCairo"]),
        .target(name: "StreamLensCompositing", dependencies: ["StreamLensCore", "StreamLensText"]),
        .target(name: "StreamLensDetection", dependencies: ["StreamLensCore", "COpenCVDetection"]),
        .target(name: "StreamLensSigns", dependencies: ["StreamLensCore", "StreamLensTelemetry", "CTesseract", "COpenCVSigns"]),
        // GPS telemetry: GoPro GPMF from MP4/MOV, GPX, NMEA, CSV; the per-frame track; speeding; GeoJSON and GPX.
        .target(name: "StreamLensTelemetry"),
        .target(
            name: "StreamLens",
            dependencies: [
                "StreamLensCore", "StreamLensGStreamer", "StreamLensFramePath", "StreamLensStats", "StreamLensCompositing",
                "StreamLensDetection", "StreamLensSigns", "StreamLensText", "StreamLensOptions", "Yams", "CLoadedCode",
                "StreamLensTelemetry",
            ]
        ),
        // Many recordings: input discovery, the resumable catalog (SQLite / PostgreSQL), workers, batch summary.
        .target(
            name: "StreamLensBatch",
            dependencies: [
                "StreamLensTelemetry",
                .product(name: "SQLiteNIO", package: "sqlite-nio"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        .executableTarget(
            name: "streamlens",
            dependencies: [
                "StreamLens", "StreamLensStats", "StreamLensCompositing", "StreamLensDetection", "StreamLensBatch",
                "StreamLensOptions", "StreamLensCore",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            exclude: ["Generated/executed-functions.order"],
            // Release builds (`--static-swift-stdlib`, as scripts/demo.sh builds) link with the toolchain's lld: its
            // 127 000 relative relocations packed (glibc 2.36's DT_RELR) instead of 3 MB of entries the loader reads
            // at start, and none of the 40 000 Swift symbols exported (the static runtime asks for
            // `-export-dynamic`; nothing loads symbols from this executable). −7 MiB peak RSS
            // (docs/figures/performance.md). The functions a run executes laid out together, in the order
            // scripts/generate/make-function-order.sh recorded in Generated/ (lld skips its '#' header lines): the kernel maps
            // code 64 KiB around each page executed, and scattered they kept 12 MiB of code resident, together 6. A
            // function missing from the list lands where it would without it.
            linkerSettings: [
                .unsafeFlags(
                    ["-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs", "-Xlinker", "--no-export-dynamic",
                     "-Xlinker", "--symbol-ordering-file=\(Context.packageDirectory)/Sources/streamlens/Generated/executed-functions.order",
                     "-Xlinker", "--no-warn-symbol-ordering"],
                    .when(platforms: [.linux], configuration: .release))
            ]
        ),

        // MARK: GStreamer plugin (libgststreamlens.so)
        // GObject boilerplate in C (types, pad templates, property specs, the descriptor); element logic in Swift.
        .target(name: "CStreamLensGstPlugin", dependencies: ["CGStreamer"]),
        .target(
            name: "StreamLensGstPlugin",
            dependencies: [
                "CStreamLensGstPlugin", "StreamLensCore", "StreamLensGStreamer", "StreamLensFramePath", "StreamLensStats",
                "StreamLensCompositing", "StreamLensText", "StreamLensDetection", "StreamLensSigns", "StreamLensOptions",
                "StreamLensTelemetry",
            ]
        ),

        // MARK: Benchmarks (run by hand in release mode; figures go to docs/figures/performance.md)
        .executableTarget(
            name: "CompositingBenchmark",
            dependencies: ["StreamLensCompositing", "StreamLensText", "StreamLensCore"],
            path: "Benchmarks/CompositingBenchmark"
        ),

        // MARK: Tools
        // Writes docs/reference/options.md from the option schema (scripts/generate/generate-reference.sh).
        .executableTarget(name: "streamlens-reference", dependencies: ["StreamLensOptions"], path: "Tools/streamlens-reference"),
        // Fetched media, decoded clips and the sign sets on disk, for the tests and the diagnostics.
        .target(name: "StreamLensTestMedia", dependencies: ["StreamLensCore"], path: "Tools/StreamLensTestMedia"),
        // The sign reader's and the detector's diagnostics: what each stage saw on a set of clips.
        .executableTarget(
            name: "streamlens-diagnostics",
            dependencies: ["StreamLensCore", "StreamLensSigns", "StreamLensDetection", "StreamLensTestMedia"],
            path: "Tools/streamlens-diagnostics"
        ),

        // MARK: Tests
        .testTarget(name: "StreamLensCoreTests", dependencies: ["StreamLensCore"]),
        .testTarget(name: "StreamLensOptionsTests", dependencies: ["StreamLensOptions"]),
        .testTarget(
            name: "StreamLensGStreamerTests",
            dependencies: ["StreamLensGStreamer", "StreamLensFramePath", "StreamLensCore"]
        ),
        .testTarget(
            name: "StreamLensStatsTests",
            dependencies: ["StreamLensStats", "StreamLensCore", "StreamLensTelemetry", "StreamLensTestMedia"]
        ),
        .testTarget(
            name: "StreamLensCompositingTests",
            dependencies: [
                "StreamLensCompositing", "StreamLensText", "StreamLensCore", "StreamLensGStreamer", "StreamLensFramePath",
            ]
        ),
        .testTarget(
            name: "StreamLensDetectionTests", dependencies: ["StreamLensDetection", "StreamLensCore", "StreamLensTestMedia"]
        ),
        .testTarget(name: "StreamLensSignsTests", dependencies: ["StreamLensSigns", "StreamLensCore", "StreamLensTestMedia"]),
        // Parsers on real GoPro payloads (Tests/Fixtures/gpmf) and real NMEA/GPX logs; timeline, speeding, exports.
        .testTarget(name: "StreamLensTelemetryTests", dependencies: ["StreamLensTelemetry"]),
        .testTarget(
            name: "StreamLensTests",
            dependencies: [
                "StreamLens", "StreamLensCore", "StreamLensGStreamer", "StreamLensFramePath", "StreamLensOptions",
                "StreamLensTelemetry", "StreamLensTestMedia",
            ]
        ),
        // Black-box: runs the built `streamlens batch/status/events` on real clips, SQLite files and a real PostgreSQL.
        .testTarget(
            name: "StreamLensBatchTests",
            dependencies: ["StreamLensBatch", "StreamLensCore", "StreamLensDetection", "StreamLensTestMedia"]
        ),
        // Black-box: runs the built libgststreamlens.so through gst-launch-1.0, gst-inspect-1.0 and Python (gi).
        .testTarget(
            name: "StreamLensGstPluginTests",
            dependencies: [
                "StreamLensCore", "StreamLensStats", "StreamLensCompositing", "StreamLensText", "StreamLensOptions",
                "StreamLensDetection", "StreamLensTestMedia",
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
