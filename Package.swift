// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "Errand",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11)],
    products: [
        .library(name: "Errand", targets: ["Errand"]),
        .library(name: "ErrandReplay", targets: ["ErrandReplay"]),
    ],
    targets: [
        .target(name: "Errand"),
        .target(name: "ErrandReplay", dependencies: ["Errand"]),
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
        .testTarget(name: "ErrandReadmeTests", dependencies: ["Errand", "ErrandReplay"]),
        .executableTarget(name: "Example", dependencies: ["Errand"], path: "Example"),
    ],
    swiftLanguageModes: [.v6]
)
