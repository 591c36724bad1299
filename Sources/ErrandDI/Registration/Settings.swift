extension DI {
    /// The key of a typed setting: its value type and the value used when nobody set it.
    ///
    /// Declare a key type, then a property on ``Settings`` that reads and writes it; the property
    /// becomes available as `di.timeout` in `DI.configure` and as `r.timeout` in factories:
    ///
    /// ```swift
    /// private enum TimeoutKey: DI.SettingKey {
    ///     static let defaultValue: Double = 30
    /// }
    /// extension DI.Settings {
    ///     var timeout: Double {
    ///         get { self[TimeoutKey.self] }
    ///         set { self[TimeoutKey.self] = newValue }
    ///     }
    /// }
    /// ```
    public protocol SettingKey {
        /// The type of the setting's value.
        associatedtype Value: Sendable

        /// The value a container reports when nobody set one.
        static var defaultValue: Value { get }
    }

    /// Typed settings of a container, such as ``baseURL``.
    ///
    /// Settings are written in `DI.configure` (`di.baseURL = "…"`) and read by factories
    /// (`r.baseURL`). A child container starts with its parent's settings; an override container
    /// starts with the settings of the container it overrides.
    public struct Settings: Sendable {
        /// Values that were set, by the identity of their key type.
        private var values: [ObjectIdentifier: any Sendable] = [:]

        /// Creates settings in which every key has its default value.
        public init() {}

        /// Reads or writes the setting of `key`.
        ///
        /// - Parameter key: The key type of the setting.
        /// - Returns: The value that was set, or the key's default value.
        public subscript<Key: SettingKey>(key: Key.Type) -> Key.Value {
            get {
                if let value = values[ObjectIdentifier(key)] as? Key.Value {
                    return value
                }
                return Key.defaultValue
            }
            set {
                values[ObjectIdentifier(key)] = newValue
            }
        }

        /// The base URL of the app's API, as text; empty until configured.
        ///
        /// Factories turn it into a `URL` where they build their networking pieces.
        public var baseURL: String {
            get { self[BaseURLKey.self] }
            set { self[BaseURLKey.self] = newValue }
        }
    }
}

/// The key of ``DI/Settings/baseURL``.
enum BaseURLKey: DI.SettingKey {
    /// No base URL until the app sets one.
    static let defaultValue = ""
}
