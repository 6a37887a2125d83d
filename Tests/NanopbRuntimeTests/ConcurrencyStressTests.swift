import Testing
import BundledProto
import NanopbRuntime

/// Exercises the claim that messages are safe to share across threads without locks because no
/// published storage is ever written (docs/shipped-layer.md, "Concurrency semantics"). The
/// assertions check values; the real verdict comes from ThreadSanitizer, which CI runs on this
/// suite with `halt_on_error=1` (`make tsan`). Every loop is bounded.
@Suite struct ConcurrencyStressTests {
    static let tasks = 8
    static let rounds = 200

    static func topicTree(depth: Int, fanOut: Int, name: String) -> Rtm_Topic {
        Rtm_Topic.with {
            $0.name = name
            if depth > 0 {
                $0.children = (0..<fanOut).map { topicTree(depth: depth - 1, fanOut: fanOut, name: "\(name)/\($0)") }
            }
        }
    }

    static let packet = Rtm_DataPacket.with {
        $0.senderIdentity = "alice"
        $0.destinationIdentities = ["bob", "carol"]
        $0.sequence = 41
        $0.value = .topicTree(topicTree(depth: 3, fanOut: 3, name: "root"))
    }

    @Test func sharedMessageIsReadConcurrentlyThroughViews() async throws {
        let shared = Self.packet
        let expected = try shared.serializedBytes()
        let results = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<Self.tasks {
                group.addTask {
                    for _ in 0..<Self.rounds {
                        let grandchild = shared.topicTree.children[2].children[1]
                        guard grandchild.name == "root/2/1", grandchild.children.count == 3,
                              (try? shared.serializedBytes()) == expected, shared == Self.packet
                        else { return false }
                    }
                    return true
                }
            }
            return await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(results == Array(repeating: true, count: Self.tasks))
    }

    @Test func concurrentModifyingOfCopiesNeverWritesTheSharedStorage() async throws {
        let shared = Self.packet
        let sums = await withTaskGroup(of: UInt64.self) { group in
            for task in 0..<Self.tasks {
                group.addTask {
                    var sum: UInt64 = 0
                    for round in 0..<Self.rounds {
                        // `shared` is referenced by every task: each modifying must copy.
                        let copy = shared
                        let derived = copy.modifying { $0.sequence = UInt32(task * Self.rounds + round) }
                        sum += UInt64(derived.sequence)
                    }
                    return sum
                }
            }
            return await group.reduce(into: UInt64(0)) { $0 += $1 }
        }
        let n = UInt64(Self.tasks * Self.rounds)
        #expect(sums == n * (n - 1) / 2)
        #expect(shared.sequence == 41)
        #expect(shared == Self.packet)
    }

    @Test func viewsOutliveTheirParentOnOtherThreads() async {
        let names = await withTaskGroup(of: String.self) { group in
            for task in 0..<Self.tasks {
                // The parent is built and dropped here; only the view crosses into the task.
                let view = Self.topicTree(depth: 2, fanOut: 2, name: "t\(task)").children[1].children[0]
                group.addTask {
                    var last = ""
                    for _ in 0..<Self.rounds { last = view.name + "|" + view.owned().name }
                    return last
                }
            }
            return await group.reduce(into: Set<String>()) { $0.insert($1) }
        }
        #expect(names == Set((0..<Self.tasks).map { "t\($0)/1/0|t\($0)/1/0" }))
    }

    @Test func oneofChurnOnPrivateBuildersWhileSharedReadsContinue() async throws {
        let shared = Self.packet
        let ok = await withTaskGroup(of: Bool.self) { group in
            for task in 0..<Self.tasks {
                group.addTask {
                    for round in 0..<Self.rounds {
                        let built = Rtm_DataPacket.with {
                            $0.value = .debugText("t\(task)r\(round)")
                            $0.value = .chat(.with { $0.text = "x"; $0.mentions = ["a", "b"] })
                            $0.value = .opaque([1, 2, 3])
                            $0.value = .topicTree(shared.topicTree.children[0])  // copies out of a shared view
                        }
                        guard built.topicTree.name == "root/0", shared.topicTree.children.count == 3 else { return false }
                    }
                    return true
                }
            }
            return await group.reduce(true) { $0 && $1 }
        }
        #expect(ok)
    }
}
