#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A value behind a lock: the one lock wrapper of every Errand module, with `Mutex`'s `withLock`
/// shape.
///
/// A `pthread_mutex_t` and the value share one allocation: every request makes a few of these,
/// and an `NSLock` costs two more allocations each. Not `Synchronization.Mutex`, because the
/// thread sanitizer on Linux does not see `Mutex` as synchronisation and reports races inside
/// every `withLock`; it does see `pthread_mutex_lock`.
///
/// Copies share the value and the lock, as a class would. `@unchecked Sendable`: every access to
/// the value goes through `withLock`, which holds the mutex.
///
/// The type is public and its members are not, so that other modules can use none of it. Swift
/// 6.3 does not inline `@inlinable` members of a `package` type into another module: every
/// request would call the generic `withLock` and `init` and look up their types at run time.
public struct Locked<Value>: @unchecked Sendable {
    @usableFromInline let storage: Storage

    /// Creates the wrapper around `value`.
    @inlinable
    package init(_ value: Value) {
        storage = Storage.make(value)
    }

    /// Runs `body` with exclusive access to the value.
    @inlinable
    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        try storage.withUnsafeMutablePointers { value, mutex in
            pthread_mutex_lock(mutex)
            defer { pthread_mutex_unlock(mutex) }
            return try body(&value.pointee)
        }
    }

    /// The value as the buffer's header and the mutex as its one element, at a stable address.
    @usableFromInline
    final class Storage: ManagedBuffer<Value, pthread_mutex_t> {
        /// A buffer holding `value` with an initialised mutex.
        @inlinable
        static func make(_ value: Value) -> Storage {
            let buffer = Storage.create(minimumCapacity: 1) { _ in value }
            // `create` on a subclass makes an instance of that subclass.
            let storage = unsafeDowncast(buffer, to: Storage.self)
            storage.withUnsafeMutablePointerToElements { mutex in
                mutex.initialize(to: pthread_mutex_t())
                _ = pthread_mutex_init(mutex, nil)
            }
            return storage
        }

        // The header (the value) is a stored property and goes by itself; the element does not.
        deinit {
            withUnsafeMutablePointerToElements { mutex in
                _ = pthread_mutex_destroy(mutex)
                mutex.deinitialize(count: 1)
            }
        }
    }
}
