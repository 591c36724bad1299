import Dispatch
import Foundation

/// When `execute` validates and decodes a response on the global concurrent queue instead of
/// where the dispatcher delivered it.
///
/// `URLSession` delivers every response of a session on one serial delegate queue. Decoded
/// there, a session decodes one body at a time however many requests are in flight and however
/// many cores are idle, and the next response waits behind the decode. So a large body that a
/// dispatcher delivered on a thread of its own is decoded on the global concurrent queue, and
/// the delivering queue goes straight back to its transfers.
///
/// Two kinds of answer stay where they are:
/// - Small bodies. Below ``threshold`` the hop to another thread costs more than it frees:
///   decoding a record of a few hundred bytes takes about as long as the hop itself.
/// - Answers given while `dispatch` is still running (an in-memory stub, a cache hit). The
///   caller's thread is waiting for them anyway, nothing serial is held up, and a caller on
///   such a dispatcher with no callback queue keeps getting its answer before `execute` returns.
///
/// Raw `Data` and ``EmptyResponse`` read nothing, so they never hop.
///
/// The threshold sits between the two: hopping a small record costs throughput and CPU time,
/// while a body of tens of kilobytes takes many times a hop to decode, and one of 16 KiB
/// several times. The measurements that placed it are in `Benchmarks/README.md`, "Why some
/// code is shaped as it is".
enum ConcurrentDecoding {
    /// The body size, in bytes, from which a late answer is decoded on the concurrent queue.
    static let threshold = 16 * 1024

    /// The queue that decodes; the global one, so decoding shares the process's worker threads.
    static let queue = DispatchQueue.global()

    /// Whether `response`, answering `call`, is decoded into `type` on ``queue``.
    static func hops(_ type: Any.Type, body: Int, call: ExecutionCall) -> Bool {
        body >= threshold && type != Data.self && type != EmptyResponse.self && call.isAnsweredLater
    }
}
