// `.` and `..` path segments, resolved as RFC 3986 §5.2.4 says.
//
// FoundationNetworking's curl resolves them before sending (`/a/../b` goes out as `/b`), and so
// do browsers. Resolving them here too keeps the URL a request reports, the path an in-memory
// stub matches and the URL a recording keeps the same as what the server receives.
extension WireURL {
    /// Whether `path` has a `.` or `..` segment; a byte scan, since this runs for every request.
    static func hasDotSegment(_ path: some StringProtocol) -> Bool {
        var length = 0
        var dots = 0
        for byte in path.utf8 {
            if byte == UInt8(ascii: "/") {
                if length > 0, length == dots, dots <= 2 { return true }
                length = 0
                dots = 0
            } else {
                length += 1
                if byte == UInt8(ascii: ".") { dots += 1 }
            }
        }
        return length > 0 && length == dots && dots <= 2
    }

    /// `path` (which starts with `/`) with its `.` and `..` segments resolved; `..` never climbs above the root.
    static func removingDotSegments(_ path: String) -> String {
        guard hasDotSegment(path) else { return path }
        let segments = path.split(separator: "/", omittingEmptySubsequences: false)
        var kept: [Substring] = []
        kept.reserveCapacity(segments.count)
        for (index, segment) in segments.enumerated() {
            let isLast = index == segments.count - 1
            switch segment {
            case ".":
                if isLast { kept.append("") }
            case "..":
                if kept.count > 1 { kept.removeLast() }
                if isLast { kept.append("") }
            default:
                kept.append(segment)
            }
        }
        return kept.joined(separator: "/")
    }
}
