// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "Errand",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11)],
    products: [
        .library(name: "Errand", targets: ["Errand"]),
        .library(name: "ErrandReplay", targets: ["ErrandReplay"]),
        .library(name: "ErrandDI", targets: ["ErrandDI"]),
    ],
    targets: [
        .target(name: "Errand"),
        .target(name: "ErrandReplay", dependencies: ["Errand"]),
        .target(name: "ErrandDI"),
        .testTarget(
            name: "ErrandTests",
            dependencies: ["Errand"],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "ErrandReplayTests",
            dependencies: ["Errand", "ErrandReplay"],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(name: "ErrandDITests", dependencies: ["ErrandDI"]),
        .testTarget(name: "ErrandReadmeTests", dependencies: ["Errand", "ErrandReplay"]),
        .executableTarget(name: "Example", dependencies: ["Errand"], path: "Example"),
        .executableTarget(
            name: "ErrandBenchmarks", dependencies: ["Errand", "ErrandDI", "ErrandReplay"],
            path: "Benchmarks"),
    ],
    swiftLanguageModes: [.v6]
)
