/// libFuzzer's driver: parses the command line and runs the fuzzing loop on `callback`.
@_silgen_name("LLVMFuzzerRunDriver")
private func runFuzzerDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>, Int) -> CInt
) -> CInt

/// The program's entry point. SwiftPM links a debug executable with `main` aliased to
/// `<module>_main` (so tests can link it), which hides libFuzzer's own `main`; this hands the
/// command line to libFuzzer's driver instead.
@_cdecl("ErrandFuzz_main")
public func errandFuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    var count = argc
    var arguments: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = argv
    return runFuzzerDriver(&count, &arguments) { data, size in fuzz(data, size) }
}
