import Foundation
import Testing

/// ErrandReplay's state sits behind `Locked` (NSLock), which the thread sanitizer on Linux can
/// check, and never behind `Synchronization.Mutex`, which it cannot see.
@Suite struct ReplayLockTests {
    @Test func noSourceOrTestOfErrandReplayUsesMutex() throws {
        // Given every Swift file of the module and of its tests, this one aside
        let tests = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        let sources = tests.deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources/ErrandReplay")
        var checked = 0
        for folder in [sources, tests] {
            let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)
            while let file = files?.nextObject() as? URL {
                guard file.pathExtension == "swift", file.lastPathComponent != "ReplayLockTests.swift" else {
                    continue
                }
                let text = try String(contentsOf: file, encoding: .utf8)
                checked += 1
                // Then none imports Synchronization or makes a Mutex
                #expect(!text.contains("import Synchronization"), "\(file.lastPathComponent)")
                #expect(!text.contains("Mutex<") && !text.contains("Mutex("), "\(file.lastPathComponent)")
            }
        }
        #expect(checked > 40)
    }
}
