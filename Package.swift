// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "Errand",
    // The floor that `Synchronization` (`Atomic`) sets on each platform; scripts/check-platforms
    // checks it against the imports.
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "Errand", targets: ["Errand"]),
        // Auth, retry, interceptors, logging, cache, queue, metrics and coalescing: dispatchers
        // that wrap a dispatcher.
        .library(name: "ErrandPolicies", targets: ["ErrandPolicies"]),
        .library(name: "ErrandReplay", targets: ["ErrandReplay"]),
        .library(name: "ErrandDI", targets: ["ErrandDI"]),
        .library(name: "ErrandState", targets: ["ErrandState"]),
        // `swift run errand-verify <cassette> --base-url <url>`: a cassette checked against a live server.
        .executable(name: "errand-verify", targets: ["errand-verify"]),
    ],
    targets: [
        // The one lock wrapper every module uses; internal to the package, not a product.
        .target(name: "ErrandSync"),
        .target(name: "Errand", dependencies: ["ErrandSync"]),
        // Files only their owner can read, written atomically (tokens, cache entries, cassettes);
        // internal to the package, not a product.
        .target(name: "ErrandFiles", dependencies: ["Errand"]),
        .target(name: "ErrandPolicies", dependencies: ["Errand", "ErrandFiles", "ErrandSync"]),
        .target(name: "ErrandReplay", dependencies: ["Errand", "ErrandFiles", "ErrandSync"]),
        .target(name: "ErrandDI", dependencies: ["ErrandSync"]),
        .target(name: "ErrandState", dependencies: ["Errand", "ErrandPolicies", "ErrandSync"]),
        // Helpers shared by the test targets (clocks, callback probes, the live servers); not a product.
        .target(
            name: "ErrandTestSupport", dependencies: ["Errand", "ErrandSync"],
            path: "Tests/ErrandTestSupport"),
        .testTarget(
            name: "ErrandTests",
            dependencies: ["Errand", "ErrandFiles", "ErrandPolicies", "ErrandSync", "ErrandTestSupport"],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "ErrandReplayTests",
            dependencies: ["Errand", "ErrandPolicies", "ErrandReplay", "ErrandSync", "ErrandTestSupport"],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "ErrandDITests", dependencies: ["ErrandDI", "ErrandSync", "ErrandTestSupport"]),
        .testTarget(
            name: "ErrandStateTests",
            dependencies: [
                "ErrandState", "Errand", "ErrandPolicies", "ErrandDI", "ErrandSync", "ErrandTestSupport",
            ]),
        .testTarget(
            name: "ErrandReadmeTests",
            dependencies: ["Errand", "ErrandPolicies", "ErrandReplay", "ErrandTestSupport"]),
        // Random policy chains under random faults and cancels, checked against the chain's rules.
        .testTarget(
            name: "ErrandChaosTests",
            dependencies: ["Errand", "ErrandPolicies", "ErrandReplay", "ErrandSync", "ErrandTestSupport"]),
        // Random interleavings of users signing in and out across the policies and view models.
        .testTarget(
            name: "ErrandSessionTests",
            dependencies: ["Errand", "ErrandPolicies", "ErrandState", "ErrandSync", "ErrandTestSupport"]),
        // The example catalog app (`swift run Example`), and its tests, which run it as a process.
        .executableTarget(
            name: "Example",
            dependencies: [
                "Errand", "ErrandPolicies", "ErrandReplay", "ErrandDI", "ErrandState", "ErrandSync",
            ],
            path: "Example", exclude: ["Recordings", "Server"]),
        .testTarget(name: "ExampleTests", dependencies: ["ErrandReplay"]),
        // Writes cassettes, token files and cache entries until killed; the crash-safety tests run it.
        .executableTarget(
            name: "ErrandCrashWriter", dependencies: ["Errand", "ErrandPolicies", "ErrandReplay"],
            path: "Tests/CrashWriter"),
        .executableTarget(
            name: "ErrandBenchmarks",
            dependencies: ["Errand", "ErrandPolicies", "ErrandDI", "ErrandReplay", "ErrandSync"],
            path: "Benchmarks", exclude: ["README.md"]),
        .executableTarget(
            name: "errand-verify", dependencies: ["Errand", "ErrandReplay"], path: "Tools/errand-verify"),
    ],
    swiftLanguageModes: [.v6]
)

// libFuzzer targets (Fuzz/): only when ERRAND_FUZZ=1, as scripts/fuzz builds them with
// -sanitize=fuzzer (which supplies `main`); the normal build never sees them.
if Context.environment["ERRAND_FUZZ"] == "1" {
    package.targets.append(
        .executableTarget(
            name: "ErrandFuzz", dependencies: ["Errand", "ErrandPolicies", "ErrandReplay"], path: "Fuzz",
            exclude: ["Corpus", "Dictionaries"]))
}
