import ErrandTestSupport
import Foundation
import Testing

/// The compiler probe finds the package's modules from the test binary on every platform's
/// layout, so the compile checks run on macOS as they do on Linux.
@Suite struct CompilerProbeLookupTests {
    @Test func onLinuxTheModulesAreBesideTheTestExecutable() {
        // Given the path Linux's `swift test` runs: the `.xctest` file itself
        let paths = [
            "/p/.build/x86_64-unknown-linux-gnu/debug/ErrandPackageTests.xctest", "--testing-library",
        ]

        // When the folders to search are derived
        let folders = CompilerProbe.modulesFolders(forTestBinaries: paths).map(\.path)

        // Then the first is the build folder's Modules
        #expect(folders.first == "/p/.build/x86_64-unknown-linux-gnu/debug/Modules")
    }

    @Test func onMacOSTheRunnerIsPassedOverForTheBundle() {
        // Given macOS's layout: a runner from the toolchain, and the bundle it loads, whose binary
        // sits three folders inside it
        let paths = [
            "/Applications/Xcode.app/Contents/Developer/usr/bin/xctest",
            "/p/.build/arm64-apple-macosx/debug/ErrandPackageTests.xctest",
            "/p/.build/arm64-apple-macosx/debug/ErrandPackageTests.xctest/Contents/MacOS/ErrandPackageTests",
        ]

        // When the folders to search are derived
        let folders = CompilerProbe.modulesFolders(forTestBinaries: paths).map(\.path)

        // Then the bundle's build folder comes first, once, and the runner's folder only last
        #expect(
            folders == [
                "/p/.build/arm64-apple-macosx/debug/Modules",
                "/Applications/Xcode.app/Contents/Developer/usr/bin/Modules",
            ])
    }

    @Test func aFolderNamedLikeABundleIsNotMistakenForOne() {
        // Given paths that only contain `.xctest` inside a name
        let paths = ["/p/my.xctestdata/run", "/p/a.xctests/b"]

        // When the folders to search are derived
        let folders = CompilerProbe.modulesFolders(forTestBinaries: paths).map(\.path)

        // Then only the last resort, beside the first path, is searched
        #expect(folders == ["/p/my.xctestdata/Modules"])
    }

    @Test func aMissingProbeSaysWhy() {
        // Given a module that the build never makes
        let reason = CompilerProbe.unavailability(of: ["NoSuchModule"])

        // Then the reason names what is missing, for the skip or failure to show
        if CompilerProbe.compiler == nil {
            #expect(reason == "swiftc is not on PATH")
        } else if CompilerProbe.modules == nil {
            #expect(
                reason?.hasPrefix("no Modules folder of the built package was found (looked in /") == true)
        } else {
            #expect(reason?.hasSuffix(" holds no NoSuchModule module") == true)
        }
    }
}
