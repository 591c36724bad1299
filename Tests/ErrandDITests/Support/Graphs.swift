import ErrandDI

// Small types for graph-shaped tests: cycles, diamonds, missing bindings.

final class NodeA: Sendable {
    let next: NodeB
    init(next: NodeB) { self.next = next }
}

final class NodeB: Sendable {
    let next: NodeC
    init(next: NodeC) { self.next = next }
}

final class NodeC: Sendable {
    let next: NodeA
    init(next: NodeA) { self.next = next }
}

/// The top of a diamond: Top → Left → Bottom and Top → Right → Bottom.
final class Top: Sendable {
    let left: Left
    let right: Right
    init(left: Left, right: Right) {
        self.left = left
        self.right = right
    }
}

final class Left: Sendable {
    let bottom: Bottom
    init(bottom: Bottom) { self.bottom = bottom }
}

final class Right: Sendable {
    let bottom: Bottom
    init(bottom: Bottom) { self.bottom = bottom }
}

final class Bottom: Sendable {}

/// Two services that need each other, one of them through `Lazy` or `Provider`.
final class Chicken: Sendable {
    let egg: Lazy<Egg>
    init(egg: Lazy<Egg>) { self.egg = egg }
}

final class Egg: Sendable {
    let chicken: Chicken
    init(chicken: Chicken) { self.chicken = chicken }
}

final class Hen: Sendable {
    let eggs: Provider<Nest>
    init(eggs: Provider<Nest>) { self.eggs = eggs }
}

final class Nest: Sendable {
    let hen: Hen
    init(hen: Hen) { self.hen = hen }
}

/// The error a factory of the tests throws.
struct DiskFull: Error, CustomStringConvertible {
    var description: String { "the disk is full" }
}
