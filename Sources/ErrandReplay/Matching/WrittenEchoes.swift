import Errand
import Foundation

/// What a cassette's writer does to a request beyond redaction by name, done again for
/// matching: the secrets redaction replaced, where the same request quotes them elsewhere.
///
/// A form field named with a JSON text that holds the token of the `Authorization` header, or a
/// body that repeats a secret form field, is written with that echo hidden too (see
/// ``HARSecretScan``). A request compared with such a recording must have the same echo hidden,
/// or it never matches its own recording; and a recording made elsewhere (a browser export,
/// which holds the echo in clear) is prepared the same way, so both sides read alike.
///
/// Each text is hidden exactly as the writer hides it: the same spellings, the same rule for
/// short values, the placeholder in the spelling it replaces. Only the request's own secrets
/// are looked for, so a request is prepared the same way whatever was matched before it; the URL
/// is left as it is, since recordings are indexed by it before any is prepared.
enum WrittenEchoes {
    /// `request` with every echo of `secrets` hidden in its header values, its form fields and
    /// its body, as the cassette writer writes them.
    ///
    /// - Parameters:
    ///   - secrets: The values redaction replaced in this request.
    ///   - request: The redacted request.
    ///   - placeholder: The text that stands for a secret.
    /// - Returns: The request as it would be written, or `request` itself when nothing echoes.
    static func hiding(_ secrets: Set<String>, in request: HAR.Request, placeholder: String) -> HAR.Request {
        let secrets = secrets.filter { !placeholder.contains($0) }
        guard !secrets.isEmpty else { return request }
        func hidden(_ text: String) -> String {
            let quoted = [UInt8(ascii: "\"")] + HARSecretScan.escaped(text) + [UInt8(ascii: "\"")]
            let outcome = HARSecretScan.clean(Data(quoted), secrets: secrets, placeholder: placeholder)
            guard outcome.replaced > 0,
                let cleaned = try? JSONDecoder().decode(String.self, from: outcome.data)
            else { return text }
            return cleaned
        }
        var result = request
        for index in result.headers.indices {
            result.headers[index].value = hidden(result.headers[index].value)
        }
        if var postData = result.postData {
            let mimeType = postData.mimeType.isEmpty ? result.contentType ?? "" : postData.mimeType
            if let body = postData.body {
                // A body the writer would write as base64 cannot show an echo in clear.
                let written = HARBodyText.encode(body, mimeType: mimeType)
                if written.encoding == nil {
                    postData.body = HARBodyText.bytes(
                        ofUnencodedText: hidden(written.text), mimeType: mimeType)
                }
            }
            postData.params = postData.params.map { param in
                var param = param
                param.name = hidden(param.name)
                param.value = param.value.map(hidden)
                return param
            }
            result.postData = postData
        }
        return result
    }
}
