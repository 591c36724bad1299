import Foundation

extension InMemoryDispatcher {
    /// A canned answer: a response with status, headers and body, or a failure.
    public struct Response: Sendable {
        enum Outcome: Sendable {
            case response(status: Int, headers: HTTPHeaders, body: Data)
            case failure(NetworkError.Code, message: String)
        }

        let outcome: Outcome
        /// A delay before this response is delivered, waited on the dispatcher's clock.
        public var delay: Duration?

        /// A response with the given status, headers and body.
        public static func status(_ statusCode: Int, headers: HTTPHeaders = [:], body: Data = Data())
            -> Response
        {
            Response(outcome: .response(status: statusCode, headers: headers, body: body))
        }

        /// A JSON response encoded from `value`.
        ///
        /// - Parameters:
        ///   - value: The value to encode.
        ///   - status: The status code; 200 by default.
        ///   - headers: More header fields; `Content-Type: application/json` is set for you.
        ///   - encoder: The encoder to use.
        public static func json<Value: Encodable>(
            _ value: Value, status: Int = 200, headers: HTTPHeaders = [:],
            encoder: JSONEncoder = JSONEncoder()
        ) -> Response {
            do {
                return data(
                    try encoder.encode(value), status: status, contentType: "application/json",
                    headers: headers)
            } catch {
                return failure(
                    .invalidRequest, message: "The stubbed JSON value could not be encoded: \(error)")
            }
        }

        /// A JSON response read from a file, such as a test fixture.
        ///
        /// - Throws: The file system's error when the file cannot be read.
        public static func jsonFile(_ url: URL, status: Int = 200, headers: HTTPHeaders = [:]) throws
            -> Response
        {
            data(try Data(contentsOf: url), status: status, contentType: "application/json", headers: headers)
        }

        /// A response with a body of raw bytes.
        public static func data(
            _ body: Data, status: Int = 200, contentType: String = "application/octet-stream",
            headers: HTTPHeaders = [:]
        ) -> Response {
            var headers = headers
            if !headers.contains("Content-Type") { headers.add("Content-Type", contentType) }
            return Response(outcome: .response(status: status, headers: headers, body: body))
        }

        /// A response with a UTF-8 text body.
        public static func text(
            _ text: String, status: Int = 200, contentType: String = "text/plain; charset=utf-8",
            headers: HTTPHeaders = [:]
        ) -> Response {
            data(Data(text.utf8), status: status, contentType: contentType, headers: headers)
        }

        /// A failure with any code, such as `.timedOut` or `.transport`, instead of a response.
        public static func failure(_ code: NetworkError.Code, message: String? = nil) -> Response {
            Response(outcome: .failure(code, message: message ?? "Stubbed \(code.rawValue) failure."))
        }

        /// This response, delivered after `delay` on the dispatcher's clock.
        public func delayed(by delay: Duration) -> Response {
            var copy = self
            copy.delay = delay
            return copy
        }

        /// Delivers the response, or the failure, for `request`, after its download event when
        /// the request reports progress.
        ///
        /// The response's `url` is the request's URL when its path is absolute, and `nil` for a
        /// relative path (there is no server to resolve it against; parsing one per request
        /// would cost more than the rest of the dispatch).
        func deliver(
            for request: RequestData, onSuccess: @Sendable (NetworkResponse) -> Void,
            onError: @Sendable (NetworkError) -> Void
        ) {
            switch outcome {
            case .response(let status, let headers, let body):
                let url =
                    RequestData.hasScheme(request.path) ? try? request.resolvedURL(relativeTo: nil) : nil
                request.progress?.reportDownload(body.count, of: body.count)
                onSuccess(
                    NetworkResponse(
                        statusCode: status, headers: headers, body: body, url: url, request: request))
            case .failure(let code, let message):
                onError(NetworkError(code: code, message: message, request: request))
            }
        }
    }
}
