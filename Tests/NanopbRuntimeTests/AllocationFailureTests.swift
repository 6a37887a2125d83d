// Out of memory at each allocation in turn (the counted hooks' failure injection): decoding throws
// `.outOfMemory` with an offset inside the input, a setter leaves its field as it was and reports
// why, a builder getter's copy reports and comes back empty; nothing traps and no block is left.
// The first allocation of each case is the message's own struct, which is fatal by design
// (NanopbBox), so every case lets that one through.

import BundledProto
import NanopbRuntime
import TestSupport
import Testing

@Suite(.serialized) struct AllocationFailureTests {
    static func codec() -> Rtm_Codec {
        Rtm_Codec.with {
            $0.codec = .opus; $0.mimeType = "audio/opus"; $0.clockRate = 48_000; $0.channels = 2; $0.fmtp = "minptime=10"
            $0.payloadTypes = [111, 112, 113]
            $0.feedback = [.with { $0.kind = "nack"; $0.parameter = "pli" }, .with { $0.kind = "ccm"; $0.parameter = "fir" }]
        }
    }

    /// Runs `attempt(allowed)` for allowed = first, first + 1, ... (with the first `allowed`
    /// allocations granted and the rest refused; `attempt` returns whether any was refused) until a
    /// run is refused nothing, and checks that each run released every block it made. Returns how
    /// many runs were refused something and whether one ran to completion.
    static func atEachAllocation(from first: Int, _ attempt: (_ allowed: Int) throws -> Bool) rethrows -> (refusals: Int, completed: Bool) {
        var refusals = 0
        for allowed in first...(first + 200) {
            let before = liveNanopbAllocations()
            let refused = try attempt(allowed)
            #expect(liveNanopbAllocations() == before, "allowed \(allowed): blocks left behind")
            if !refused { return (refusals, true) }
            refusals += 1
        }
        return (refusals, false)
    }

    @Test func decodingOutOfMemoryThrowsOutOfMemoryAtEveryAllocationAndLeaksNothing() throws {
        let bytes = try Self.codec().serializedBytes()
        _ = try Rtm_Codec(serializedBytes: bytes)  // first use: the type's shared empty value
        let (refusals, decoded) = try Self.atEachAllocation(from: 1) { (allowed: Int) throws -> Bool in
            let (result, refused) = withAllocationsRefused(after: allowed) { Result { try Rtm_Codec(serializedBytes: bytes) } }
            switch result {
            case let .success(message):
                #expect(!refused, "allowed \(allowed): a refused allocation went unnoticed")
                #expect(try message.serializedBytes() == bytes)
            case let .failure(error):
                #expect(refused, "allowed \(allowed): \(error)")
                guard case let NanopbError.decodeFailed(reason, offset) = error else {
                    Issue.record("allowed \(allowed): \(error) is not a decode failure"); return refused
                }
                #expect(reason == .outOfMemory && offset > 0 && offset <= bytes.count, "allowed \(allowed): \(error)")
            }
            return refused
        }
        #expect(decoded && refusals >= 10, "\(refusals) allocations refused before the decode succeeded")
    }

    @Test func aSetterOutOfMemoryLeavesItsFieldAsItWasReportsAndLeaksNothing() throws {
        let nack = Rtm_Codec_RtcpFeedback.with { $0.kind = "nack" }
        let again = nack  // a second reference: storing it copies instead of adopting the tree
        let old = Rtm_Codec_RtcpFeedback.with { $0.kind = "old" }
        _ = Rtm_Codec.with { $0.feedback = [again] }
        let (refusals, built) = try Self.atEachAllocation(from: 0) { (allowed: Int) throws -> Bool in
                var refused = false
                let (message, lines) = capturingReports {
                    Rtm_Codec.with { builder in
                        builder.mimeType = "audio/old"; builder.fmtp = "old"; builder.payloadTypes = [1]
                        builder.feedback = [old]; builder.clockRate = 8_000; builder.codec = .opus
                        refused = withAllocationsRefused(after: allowed) {
                            builder.mimeType = "video/vp8"; builder.fmtp = "x"; builder.payloadTypes = [96, 97]
                            builder.feedback = [again, again]; builder.clockRate = 90_000; builder.codec = .red
                        }.refused
                    }
                }
                // Each field holds its new value or, if its setter ran out of memory, its old one.
                #expect(["video/vp8", "audio/old"].contains(message.mimeType) && ["x", "old"].contains(message.fmtp), "allowed \(allowed)")
                #expect([[96, 97], [1]].contains(message.payloadTypes), "allowed \(allowed)")
                #expect(message.feedback == [again, again] || message.feedback == [old], "allowed \(allowed)")
                // Scalars reuse their slot: they never allocate once set.
                #expect(message.clockRate == 90_000 && message.codec == .red)
                #expect(try Rtm_Codec(serializedBytes: try message.serializedBytes()) == message, "still a valid message")
                if refused {
                    #expect(lines.contains { $0.contains("failed") && ($0.contains("out of memory") || $0.contains("realloc failed")) },
                            "allowed \(allowed): a refused allocation must be reported: \(lines)")
                } else {
                    #expect(lines.isEmpty, "\(lines)")
                    #expect(message.mimeType == "video/vp8" && message.payloadTypes == [96, 97] && message.feedback == [again, again])
                    #expect(message.fmtp == "x")
                }
                return refused
        }
        #expect(built && refusals >= 5, "\(refusals) allocations refused before the setters succeeded")
    }

    @Test func repeatedBytesAndEnumSettersOutOfMemoryKeepTheOldArrays() throws {
        let (refusals, built) = Self.atEachAllocation(from: 0) { allowed in
                var refused = false
                let (message, lines) = capturingReports {
                    Rtm_Join.with { builder in
                        builder.sessionTickets = [[9]]; builder.preferredCodecs = [.opus]; builder.token = "old"
                        refused = withAllocationsRefused(after: allowed) {
                            builder.sessionTickets = [[1, 2], [3], []]; builder.preferredCodecs = [.red, .opus]; builder.token = "new"
                        }.refused
                    }
                }
                #expect(message.sessionTickets == [[1, 2], [3], []] || message.sessionTickets == [[9]], "allowed \(allowed)")
                #expect(message.preferredCodecs == [.red, .opus] || message.preferredCodecs == [.opus], "allowed \(allowed)")
                #expect(["new", "old"].contains(message.token), "allowed \(allowed)")
                if refused {
                    #expect(!lines.isEmpty, "allowed \(allowed): a refused allocation must be reported")
                } else {
                    #expect(message.sessionTickets == [[1, 2], [3], []] && message.preferredCodecs == [.red, .opus] && message.token == "new")
                }
                return refused
        }
        #expect(built && refusals >= 4, "\(refusals) allocations refused before the setters succeeded")
    }

    @Test func aRepeatedStringSetterOutOfMemoryKeepsTheOldArray() throws {
        let (refusals, built) = Self.atEachAllocation(from: 0) { allowed in
                var refused = false
                let (message, lines) = capturingReports {
                    Rtm_ChatMessage.with { builder in
                        builder.mentions = ["old"]
                        refused = withAllocationsRefused(after: allowed) { builder.mentions = ["ann", "bo", ""] }.refused
                    }
                }
                #expect(message.mentions == ["ann", "bo", ""] || message.mentions == ["old"], "allowed \(allowed): \(message.mentions)")
                if refused {
                    #expect(message.mentions == ["old"], "allowed \(allowed): a refused copy must leave the old array")
                    #expect(!lines.isEmpty, "allowed \(allowed): a refused allocation must be reported")
                } else {
                    #expect(message.mentions == ["ann", "bo", ""] && lines.isEmpty, "\(lines)")
                }
                return refused
        }
        #expect(built && refusals >= 4, "\(refusals) allocations refused before the setter succeeded")
    }

    @Test func aBuilderGetterOutOfMemoryReportsAndReturnsAnEmptyCopy() throws {
        let before = liveNanopbAllocations()
        do {
            var copies: [Rtm_Codec_RtcpFeedback] = []
            var lines: [String] = []
            _ = Rtm_Codec.with { builder in
                builder.feedback = [.with { $0.kind = "nack"; $0.parameter = "pli" }]
                // The getter deep-copies the element; its struct comes first, then the copy's strings.
                (copies, lines) = capturingReports { withAllocationsRefused(after: 1) { builder.feedback }.result }
            }
            #expect(copies.count == 1 && copies.first?.kind == "", "\(copies)")
            #expect(lines.contains { $0.contains("copy of Rtm_Codec_RtcpFeedback failed") }, "\(lines)")
        }
        #expect(liveNanopbAllocations() == before)
    }
}

@_spi(NanopbFacade) import NanopbRuntime

extension AllocationFailureTests {
    @Test func aCopyThatRunsOutOfMemoryIsEmptyOneofCaseIncluded() throws {
        let packet = Rtm_DataPacket.with {
            $0.senderIdentity = "alice"
            $0.value = .chat(.with { $0.id = "m1"; $0.text = "hello"; $0.mentions = ["bob", "carol"] })
        }
        // First use of each type's shared empty value (never freed) happens here, not in the loop.
        _ = NanopbField.copy(packet._pointer) == packet && Rtm_DataPacket().value == nil
        let (refusals, copied) = Self.atEachAllocation(from: 1) { allowed in
            let ((copy, refused), lines) = capturingReports { withAllocationsRefused(after: allowed) { NanopbField.copy(packet._pointer) } }
            if refused {
                #expect(copy == Rtm_DataPacket() && copy.value == nil, "allowed \(allowed): a failed copy is empty: \(copy)")
                #expect(!lines.isEmpty)
            } else {
                #expect(copy == packet && lines.isEmpty)
            }
            return refused
        }
        #expect(copied && refusals >= 3)
    }
}
