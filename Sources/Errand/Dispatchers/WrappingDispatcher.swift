/// A dispatcher that sends through another one: every policy of this module, and a dispatcher
/// of your own that wraps another.
///
/// Conforming lets the policies outside it see the chain beneath it. A cache, a coalescer, a
/// retry or a queue outside the auth policy must know which session the auth policy will sign
/// a request in, so that a request made for one user is never answered with another's data.
/// A wrapping dispatcher of your own that does not conform hides what is beneath it: the
/// policies outside it then treat the requests as the credentials they can see describe them.
public protocol WrappingDispatcher: NetworkDispatcher {
    /// The dispatcher this one sends through.
    var base: any NetworkDispatcher { get }
}

extension NetworkDispatcher {
    /// Dispatches `request` and hands its outcome to `observe` just before the caller's callback,
    /// on the same thread: the shape of a policy that watches requests go by (metrics, a flight
    /// recorder, a queue's slot) without changing them.
    ///
    /// - Parameters:
    ///   - request: The request, sent as it is.
    ///   - onSuccess: The caller's success callback, called after `observe`.
    ///   - onError: The caller's failure callback, called after `observe`.
    ///   - observe: Sees the response or the failure first.
    /// - Returns: What cancels the request.
    package func dispatch(
        request: RequestData,
        onSuccess: @escaping @Sendable (NetworkResponse) -> Void,
        onError: @escaping @Sendable (NetworkError) -> Void,
        observing observe: @escaping @Sendable (Result<NetworkResponse, NetworkError>) -> Void
    ) -> any Cancellable {
        dispatch(
            request: request,
            onSuccess: { response in
                observe(.success(response))
                onSuccess(response)
            },
            onError: { error in
                observe(.failure(error))
                onError(error)
            })
    }
}
