#if canImport(Glibc)
    import ErrandSync
    import Foundation
    import Glibc

    /// A loopback HTTP listener that records the request line of every connection and answers
    /// 200 "ok": proof of what reached a server, and what did not.
    final class CountingListener: Sendable {
        let port: UInt16
        private let descriptor: Int32
        private let lines = Locked<[String]>([])

        struct Failure: Error {}

        init() throws {
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            self.descriptor = descriptor
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) }
            }
            var size = length
            let named = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &size) }
            }
            guard descriptor >= 0, bound == 0, named == 0, listen(descriptor, 16) == 0 else {
                throw Failure()
            }
            port = UInt16(bigEndian: address.sin_port)
            let lines = lines
            Thread.detachNewThread {
                while true {
                    let connection = accept(descriptor, nil, nil)
                    guard connection >= 0 else {
                        // Closed here, not in stop(), so the number is not reused while this loop may still accept on it.
                        close(descriptor)
                        return
                    }
                    var head = [UInt8]()
                    var buffer = [UInt8](repeating: 0, count: 4096)
                    while !head.ends(with: Array("\r\n\r\n".utf8)) {
                        let count = read(connection, &buffer, buffer.count)
                        guard count > 0 else { break }
                        head += buffer[0..<count]
                    }
                    let line = String(decoding: head, as: UTF8.self).components(separatedBy: "\r\n")[0]
                    lines.withLock { $0.append(line) }
                    let answer = Array(
                        "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok".utf8)
                    _ = write(connection, answer, answer.count)
                    close(connection)
                }
            }
        }

        /// The request lines received so far.
        var requestLines: [String] { lines.withLock { $0 } }

        /// Stops accepting.
        func stop() {
            shutdown(descriptor, Int32(SHUT_RDWR))
        }
    }

    extension Array where Element == UInt8 {
        fileprivate func ends(with suffix: [UInt8]) -> Bool {
            count >= suffix.count && Array(self[(count - suffix.count)...]) == suffix
        }
    }
#endif
