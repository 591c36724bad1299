// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "Errand",
    platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10)],
    products: [
        .library(name: "Errand", targets: ["Errand"])
    ],
    targets: [
        .target(name: "Errand"),
        .testTarget(
            name: "ErrandTests",
            dependencies: ["Errand"],
            resources: [.copy("Fixtures")]
        ),
        .executableTarget(name: "Example", dependencies: ["Errand"], path: "Example"),
    ],
    swiftLanguageModes: [.v6]
)
