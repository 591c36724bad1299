import Foundation

/// Stops the fuzzer with `message` when a property of the code under test does not hold, so
/// libFuzzer keeps the input like a crash.
func fuzzCheck(_ condition: Bool, _ message: @autoclosure () -> String) {
    guard !condition else { return }
    FileHandle.standardError.write(Data("fuzz check failed: \(message())\n".utf8))
    abort()
}
