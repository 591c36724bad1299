import Foundation

/// The fuzz target this process runs, from `ERRAND_FUZZ_TARGET` (see `scripts/fuzz`).
let selectedTarget: FuzzTarget? = ProcessInfo.processInfo.environment["ERRAND_FUZZ_TARGET"].flatMap(
    FuzzTarget.init(rawValue:))

/// The code paths that read untrusted bytes, one fuzz target each.
enum FuzzTarget: String, CaseIterable {
    case har
    case url
    case multipart
    case redaction
    case cache
    case logLines = "log-lines"

    /// Feeds `input` to the target's code path; any crash is a finding.
    func run(_ input: FuzzInput) {
        switch self {
        case .har: HARFuzz.run(input)
        case .url: URLFuzz.run(input)
        case .multipart: MultipartFuzz.run(input)
        case .redaction: RedactionFuzz.run(input)
        case .cache: CacheHeadersFuzz.run(input)
        case .logLines: LogLinesFuzz.run(input)
        }
    }
}

/// libFuzzer's entry point: one input, run through the selected target.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard let target = selectedTarget else {
        let names = FuzzTarget.allCases.map(\.rawValue).joined(separator: ", ")
        FileHandle.standardError.write(Data("set ERRAND_FUZZ_TARGET to one of: \(names)\n".utf8))
        exit(2)
    }
    target.run(FuzzInput(Data(UnsafeBufferPointer(start: data, count: size))))
    return 0
}
