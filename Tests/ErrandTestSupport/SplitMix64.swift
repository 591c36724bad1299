/// A small deterministic random number generator (SplitMix64), so that a chaos scenario is
/// rebuilt exactly from its seed on every platform and toolchain, and a generated test input too.
package struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    /// Creates a generator that starts from `seed`.
    package init(seed: UInt64) {
        state = seed
    }

    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }

    /// The seed of scenario `index` of the run seeded with `runSeed`.
    package static func scenarioSeed(run runSeed: UInt64, index: Int) -> UInt64 {
        var generator = SplitMix64(seed: runSeed ^ (UInt64(index) &* 0xD1B5_4A32_D192_ED03))
        return generator.next()
    }

    /// `true` with probability `percent` in 100.
    package mutating func chance(_ percent: Int) -> Bool {
        Int.random(in: 0..<100, using: &self) < percent
    }

    /// One of `choices`, each with its weight.
    package mutating func weighted<Value>(_ choices: [(Int, Value)]) -> Value {
        let total = choices.reduce(0) { $0 + $1.0 }
        var roll = Int.random(in: 0..<total, using: &self)
        for (weight, value) in choices {
            if roll < weight { return value }
            roll -= weight
        }
        return choices[choices.count - 1].1
    }
}
