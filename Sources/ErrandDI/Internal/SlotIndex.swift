/// An immutable hash table from binding keys to slots, built once per container.
///
/// A container's registrations never change after it is built, so the table is filled once and
/// then only read, by any number of threads, without a lock. It hashes the two integers of a key
/// with one multiplication (Fibonacci hashing) instead of `Hasher`, and probes linearly in a table
/// at most half full: a lookup is a few instructions and one or two comparisons.
struct SlotIndex: Sendable {
    /// A key and its slot, held without reference counting: copying an entry out of the table
    /// costs no retain, and ``slots`` keeps every slot alive as long as the index.
    struct Entry: Sendable {
        /// The binding's key.
        let key: BindingKey
        /// The binding's slot.
        let slot: Unmanaged<Slot>
        /// The slot's singleton cell, if it has one: read first, without touching the slot.
        let singleton: Unmanaged<SingletonCell>?
    }

    /// The table; `nil` marks an empty bucket. Its count is a power of two.
    private let buckets: [Entry?]

    /// Every slot of the table, retained for the unmanaged references of its entries.
    private let slots: [Slot]

    /// How far to shift a 64-bit hash to get a bucket index.
    private let shift: UInt64

    /// Builds the table.
    ///
    /// - Parameter slots: The slots by key.
    init(_ slots: [BindingKey: Slot]) {
        var bits: UInt64 = 3
        while (1 << bits) < slots.count * 2 {
            bits += 1
        }
        let count = 1 << Int(bits)
        var buckets = [Entry?](repeating: nil, count: count)
        for (key, slot) in slots {
            var index = SlotIndex.bucket(of: key, shift: 64 - bits)
            while buckets[index] != nil {
                index = (index + 1) & (count - 1)
            }
            buckets[index] = Entry(
                key: key, slot: Unmanaged.passUnretained(slot),
                singleton: slot.singleton.map { Unmanaged.passUnretained($0) })
        }
        self.buckets = buckets
        self.slots = Array(slots.values)
        self.shift = 64 - bits
    }

    /// The slot of `key`, if any.
    ///
    /// - Parameter key: A binding key.
    /// - Returns: The slot, or `nil`.
    subscript(key: BindingKey) -> Slot? {
        entry(for: key)?.slot.takeUnretainedValue()
    }

    /// The entry of `key`, if any.
    ///
    /// - Parameter key: A binding key.
    /// - Returns: The entry, valid while the index lives.
    @inline(__always)
    func entry(for key: BindingKey) -> Entry? {
        let mask = buckets.count - 1
        var index = SlotIndex.bucket(of: key, shift: shift)
        while let entry = buckets[index] {
            if entry.key == key {
                return entry
            }
            index = (index + 1) & mask
        }
        return nil
    }

    /// The bucket where the search for `key` starts.
    ///
    /// - Parameters:
    ///   - key: A binding key.
    ///   - shift: 64 minus the number of index bits.
    /// - Returns: An index into `buckets`.
    @inline(__always)
    private static func bucket(of key: BindingKey, shift: UInt64) -> Int {
        let golden: UInt64 = 0x9E37_79B9_7F4A_7C15
        let type = UInt64(UInt(bitPattern: key.type))
        let mixed = (type ^ (UInt64(bitPattern: Int64(key.nameID)) &* golden)) &* golden
        return Int(truncatingIfNeeded: mixed >> shift)
    }
}
