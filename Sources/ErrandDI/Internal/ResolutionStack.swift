#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Android)
    import Android
#endif

/// The bindings whose factories are running on the current thread, outermost first.
///
/// Factories are synchronous, so one resolution, with everything it resolves in turn, runs on one
/// thread from start to end. The stack of that thread is therefore exactly the resolution path:
/// a binding that is asked for while it is already on the stack is a cycle, and a binding that
/// was finished and popped (the shared leaf of a diamond) is not. Because the stack belongs to the
/// thread rather than to a resolver value, it also sees nested resolves that do not go through
/// the resolver, such as an `@Inject` inside an object a factory creates.
///
/// The stack object is reached through a POSIX thread-specific key and only its own thread
/// changes it, so it needs no lock and is not `Sendable`. The one outside reader is the
/// `WaitGraph`, which reads the frames of a thread while that thread is about to wait for a
/// creation gate (and so leaves its frames alone), under the graph's lock.
final class ResolutionStack {
    /// The bindings being created, outermost first.
    ///
    /// Only the owning thread ever touches the stack, so the dynamic exclusivity check that Swift
    /// would otherwise make on each access is switched off.
    @exclusivity(unchecked)
    private(set) var frames: [BindingInfo] = []

    /// Creates an empty stack with room for a typical depth.
    private init() {
        frames.reserveCapacity(16)
    }

    /// The stack of the calling thread, created on first use.
    static var current: ResolutionStack {
        let key = resolutionStackKey
        if let pointer = pthread_getspecific(key) {
            return Unmanaged<ResolutionStack>.fromOpaque(pointer).takeUnretainedValue()
        }
        let stack = ResolutionStack()
        pthread_setspecific(key, Unmanaged.passRetained(stack).toOpaque())
        return stack
    }

    /// Returns whether `binding` is being created on this thread.
    ///
    /// - Parameter binding: A binding about to be created.
    /// - Returns: `true` when creating it now would be a cycle.
    func contains(_ binding: BindingInfo) -> Bool {
        frames.contains { $0 === binding }
    }

    /// The path from the first occurrence of `binding` to the top, closed with `binding` again.
    ///
    /// - Parameter binding: A binding that is on the stack.
    /// - Returns: For example `[A, B, C, A]`.
    func cycle(closingAt binding: BindingInfo) -> [BindingInfo] {
        guard let start = frames.firstIndex(where: { $0 === binding }) else {
            return [binding]
        }
        return Array(frames[start...]) + [binding]
    }

    /// Marks `binding` as being created.
    ///
    /// - Parameter binding: The binding whose factory is about to run.
    func push(_ binding: BindingInfo) {
        frames.append(binding)
    }

    /// Marks the innermost binding as finished.
    func pop() {
        frames.removeLast()
    }
}

/// The thread-specific key under which each thread keeps its `ResolutionStack`.
///
/// Created once, lazily and atomically, like every global constant.
private let resolutionStackKey: pthread_key_t = {
    var key = pthread_key_t()
    pthread_key_create(&key, releaseResolutionStack)
    return key
}()

#if canImport(Darwin)
    /// Releases a thread's stack when the thread exits.
    ///
    /// - Parameter pointer: The retained stack stored under `resolutionStackKey`.
    private func releaseResolutionStack(_ pointer: UnsafeMutableRawPointer) {
        Unmanaged<ResolutionStack>.fromOpaque(pointer).release()
    }
#else
    /// Releases a thread's stack when the thread exits.
    ///
    /// - Parameter pointer: The retained stack stored under `resolutionStackKey`.
    private func releaseResolutionStack(_ pointer: UnsafeMutableRawPointer?) {
        if let pointer {
            Unmanaged<ResolutionStack>.fromOpaque(pointer).release()
        }
    }
#endif
