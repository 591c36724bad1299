import ErrandSync
import Testing

@Suite struct LockedTests {
    final class Tracked: Sendable {}

    @Test func theValueIsReleasedWithTheLastCopy() {
        // Given a value held by a lock and one copy of it
        weak var watched: Tracked?
        do {
            let object = Tracked()
            watched = object
            let locked = Locked(object)
            let copy = locked
            // When both go away
            #expect(copy.withLock { $0 } === object)
        }
        // Then the value is released once, not leaked
        #expect(watched == nil)
    }

    @Test func copiesShareTheValue() async {
        // Given a counter and a copy of it used from many tasks at once
        let counter = Locked(0)
        let copy = counter
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<200 {
                group.addTask { (index.isMultiple(of: 2) ? counter : copy).withLock { $0 += 1 } }
            }
        }
        // Then every increment landed on the one value
        #expect(counter.withLock { $0 } == 200)
    }
}
