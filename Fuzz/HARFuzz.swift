import ErrandReplay
import Foundation

/// The HAR reader: any bytes either read as a cassette or fail with a `HARError`; a cassette
/// that was read writes back out and reads again.
enum HARFuzz {
    static func run(_ input: FuzzInput) {
        guard let har = try? HAR(data: input.data) else { return }
        guard let written = try? har.encoded(redaction: .none) else { return }
        if (try? HAR(data: written)) == nil {
            FileHandle.standardError.write(
                Data("a cassette that was read did not read again once written\n".utf8))
            abort()
        }
    }
}
