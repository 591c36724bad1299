/// Explains a request that no stub matched: the request, and the nearest stubs with what differs.
enum UnmatchedReport {
    static func error(
        for request: RequestData, target: StubTarget, stubs: [StubEntry]
    ) -> NetworkError {
        var lines = ["No stub matches \(request) (the dispatcher has \(stubs.count) stubs)."]
        let ranked = stubs.reversed()
            .map { entry in (stub: entry.stub, difference: difference(entry, request, target)) }
            .sorted { $0.difference.distance < $1.difference.distance }
            .prefix(3)
        if !ranked.isEmpty {
            lines.append("Nearest stubs:")
            for entry in ranked {
                lines.append("  \(entry.stub) — \(entry.difference.reason)")
            }
        }
        lines.append(
            "Add one with dispatcher.stub(.\(request.method.rawValue.lowercased()), \"\(target.path)\", response: …)."
        )
        return NetworkError(code: .unmatchedRequest, message: lines.joined(separator: "\n"), request: request)
    }

    /// How far a stub is from the request, and a sentence that says where they differ.
    private static func difference(
        _ entry: StubEntry, _ request: RequestData, _ target: StubTarget
    ) -> (distance: Int, reason: String) {
        let stub = entry.stub
        guard let stubTarget = entry.target else {
            return (Int.max, "its path cannot be read as a URL path, so it matches nothing")
        }
        var reasons: [String] = []
        var distance = 0
        if stub.method != request.method {
            reasons.append("method is \(stub.method), not \(request.method)")
            distance += 2
        }
        let samePath =
            stubTarget.segments.count == target.segments.count
            && zip(stubTarget.segments, target.segments).allSatisfy { $0 == "*" || $0 == $1 }
        if !samePath {
            let differing =
                zip(stubTarget.segments, target.segments).filter { $0 != "*" && $0 != $1 }.count
                + abs(stubTarget.segments.count - target.segments.count)
            reasons.append("path is \(stubTarget.path), not \(target.path)")
            distance += 3 * differing
        }
        let missing = stubTarget.query.filter { !target.query.contains($0) }
        if !missing.isEmpty {
            let items = missing.map { "\($0.name)=\($0.value ?? "")" }.joined(separator: ", ")
            reasons.append("query needs \(items)")
            distance += missing.count
        }
        if reasons.isEmpty, stub.matcher != nil {
            reasons.append("method and path match, but its matcher rejected the request")
            distance += 1
        }
        return (distance, reasons.joined(separator: "; "))
    }
}
