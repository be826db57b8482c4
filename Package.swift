// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "ScanReader",
    products: [
        .library(name: "ScanReader", targets: ["ScanReader"]),
        .executable(name: "scanreader", targets: ["ScanReaderCLI"]),
        .executable(name: "scanreader-bench", targets: ["ScanReaderBench"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        // C libraries, found through pkg-config.
        .systemLibrary(
            name: "CJPEG", pkgConfig: "libjpeg",
            providers: [.apt(["libjpeg-dev"]), .brew(["jpeg-turbo"])]),
        .systemLibrary(
            name: "CPNG", pkgConfig: "libpng",
            providers: [.apt(["libpng-dev"]), .brew(["libpng"])]),
        // The door to the codec libraries: setjmp-guarded shims that return a status and a message.
        .target(name: "CImageCodecs", dependencies: ["CJPEG", "CPNG"]),
        // The 8-bit gray raster every stage shares.
        .target(name: "ImagingCore"),
        // Bytes or a path -> an upright gray image. The only Swift module that sees C.
        .target(name: "ImageCodecs", dependencies: ["CImageCodecs", "ImagingCore"]),
        .target(name: "DocumentImaging", dependencies: ["ImagingCore"]),
        // The CNN's matrix products: AVX-512 / AVX2 / portable, chosen at run time.
        .target(name: "CDigitKernels"),
        .target(name: "DigitClassifier", dependencies: ["CDigitKernels"]),
        .target(
            name: "ScanReader",
            dependencies: ["ImageCodecs", "ImagingCore", "DocumentImaging", "DigitClassifier"]),
        .executableTarget(
            name: "ScanReaderCLI",
            dependencies: [
                "ScanReader",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),
        .executableTarget(
            name: "ScanReaderBench", dependencies: ["ScanReader"],
            path: "Benchmarks/ScanReaderBench"),
        .target(name: "CTestSupport", path: "Tests/CTestSupport"),
        .testTarget(name: "ImagingCoreTests", dependencies: ["ImagingCore"]),
        .testTarget(name: "DocumentImagingTests", dependencies: ["DocumentImaging"]),
        // End-to-end: runs the built `scanreader` on SampleImages (depends on the CLI so
        // that `swift test` builds it first).
        .testTarget(name: "ScanReaderCLITests", dependencies: ["ScanReaderCLI", "ScanReader"],
                    exclude: ["Golden"]),
        .testTarget(
            name: "DigitClassifierTests", dependencies: ["DigitClassifier"],
            resources: [.copy("Fixtures")]),
        .testTarget(
            name: "ImageCodecsTests", dependencies: ["ImageCodecs", "CTestSupport"],
            resources: [.copy("Fixtures")]),
    ]
)
