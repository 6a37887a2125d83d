// The allocation budget (patches/nanopb/0200-allocation-budget.patch and 0210, NanopbDecodeOptions):
// hostile inputs -- 64 KiB of empty repeated submessages that nanopb alone turns into about
// 4.6 MiB (1 MiB into +73 MiB: scripts/peak-memory.sh) -- fail with a typed error naming the
// budget and the offset of the refused allocation;
// legitimate messages decode; explicit budgets are honoured to the byte; nothing leaks either way.
// Peak memory is measured by scripts/peak-memory.sh, not here (tests never assert resources).

import Testing
import CNanopb
@_spi(NanopbFacade) import NanopbRuntime
import BundledProto
import BundledProtoC
import TestSupport

/// `count` copies of `element` back to back: a repeated field sent element by element.
func repeated(_ element: [UInt8], count: Int) -> [UInt8] {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(element.count * count)
    for _ in 0..<count { bytes += element }
    return bytes
}

/// rtm.Participant with `count` empty `tracks` (field 6: key 0x32, length 0): 2 bytes each.
func participantWithEmptyTracks(_ count: Int) -> [UInt8] { repeated([0x32, 0x00], count: count) }

/// rtm.StatsSnapshot with `count` entries of `streams_by_ssrc` (field 3), each an entry whose value
/// is an empty RtpStreamStats (`1a 02 12 00`): 4 bytes each.
func statsWithEmptyMapEntries(_ count: Int) -> [UInt8] { repeated([0x1A, 0x02, 0x12, 0x00], count: count) }

/// rtm.DataPacket whose `value` oneof switches `count` times between an empty `user` (field 5) and
/// an empty `chat` (field 6): 2 bytes per switch, the last one `chat` when `count` is even.
func dataPacketSwitchingOneof(_ count: Int) -> [UInt8] {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(2 * count)
    for i in 0..<count { bytes += [i % 2 == 0 ? 0x2A : 0x32, 0x00] }
    return bytes
}

@Suite struct AllocationBudgetTests {
    static func standardBudget(_ input: Int) -> Int { 6 * input + (1 << 20) }

    @Test func emptyRepeatedSubmessagesStopAtTheStandardBudgetWhereTheRefusedElementStarts() {
        // 64 KiB, past the standard budget (1.375 MiB) well before its end. Larger inputs pin
        // nothing more and cost minutes under the sanitizers, whose realloc always copies.
        let hostile = participantWithEmptyTracks(32_768)
        let budget = Self.standardBudget(hostile.count)
        // Each element grows the tracks array by one struct; the first also pays for a new block.
        // The refused element is the first whose struct would pass the budget; the decoder asks
        // for it right after reading its key, so the offset is that element's length byte.
        let element = MemoryLayout<rtm_TrackInfo>.size
        let refused = (budget - Int(PB_BUDGET_ALLOC_OVERHEAD)) / element
        expectBalancedAllocations {
            #expect(throws: NanopbError.decodeFailed(reason: .budgetExceeded(budget: budget), offset: 2 * refused + 1)) {
                try Rtm_Participant(serializedBytes: hostile)
            }
        }
    }

    @Test func emptyMapEntriesStopAtTheStandardBudget() {
        let hostile = statsWithEmptyMapEntries(16_384)  // 64 KiB: about +4.5 MiB through nanopb alone
        expectBalancedAllocations {
            do throws(NanopbError) {
                _ = try Rtm_StatsSnapshot(serializedBytes: hostile)
                Issue.record("16,384 map entries decoded under the standard budget")
            } catch {
                guard case .decodeFailed(let reason, let offset) = error else { Issue.record("\(error)"); return }
                #expect(reason == .budgetExceeded(budget: Self.standardBudget(hostile.count)))
                #expect(offset > 0 && offset < hostile.count)
            }
        }
    }

    @Test func legitimateMessagesOfEveryFieldKindDecodeUnderTheStandardBudget() throws {
        let participant = Rtm_Participant.with {
            $0.sid = "PA_1"
            $0.identity = "alice"
            $0.tracks = (0..<2_000).map { i in .with { $0.sid = "TR_\(i)"; $0.name = "camera \(i)"; $0.muted = i % 2 == 0 } }
            $0.attributes = Dictionary(uniqueKeysWithValues: (0..<500).map { ("key\($0)", "value \($0)") })
        }
        let bytes = try participant.serializedBytes()
        try expectBalancedAllocations {
            let decoded = try Rtm_Participant(serializedBytes: bytes)
            #expect(decoded.tracks.count == 2_000 && decoded.attributes.count == 500)
        }
    }

    @Test func aOneofSwitchedBackAndForthPaysForOneMemberAtATime() throws {
        // Charged a fresh member per switch and never credited, these switches would pass the
        // standard budget (the premise is checked, so the test cannot pass vacuously).
        let perSwitch = min(MemoryLayout<rtm_UserPayload>.size, MemoryLayout<rtm_ChatMessage>.size) + Int(PB_BUDGET_ALLOC_OVERHEAD)
        let switches = 2 * ((1 << 20) / max(perSwitch - 12, 1) + 5_000)
        let input = dataPacketSwitchingOneof(switches)
        #expect(switches * perSwitch > Self.standardBudget(input.count))
        try expectBalancedAllocations {
            let packet = try Rtm_DataPacket(serializedBytes: input)
            guard case .chat? = packet.value else { Issue.record("the last member was chat, got \(String(describing: packet.value))"); return }
        }
    }

    @Test func aReplacedBytesOrStringMemberIsCreditedItsWholeBlock() throws {
        let overhead = Int(PB_BUDGET_ALLOC_OVERHEAD)
        // bytes "abc" then string "hi": the bytes block (pb_size_t size + 3 bytes) is given back
        // before the string's 3 bytes are charged, so the larger of the two blocks is enough.
        let bytesBlock = MemoryLayout<pb_size_t>.size + 3 + overhead
        let bytesThenString = try Rtm_DataPacket.with { $0.value = .opaque([1, 2, 3]) }.serializedBytes()
            + Rtm_DataPacket.with { $0.value = .debugText("hi") }.serializedBytes()
        // string "hello world" then bytes "ab": the string's 12 bytes are given back first.
        let stringBlock = 12 + overhead
        let stringThenBytes = try Rtm_DataPacket.with { $0.value = .debugText("hello world") }.serializedBytes()
            + Rtm_DataPacket.with { $0.value = .opaque([1, 2]) }.serializedBytes()
        try expectBalancedAllocations {
            let first = try Rtm_DataPacket(serializedBytes: bytesThenString, options: .init(allocationBudget: .bytes(bytesBlock)))
            #expect(first.value == .debugText("hi"))
            let second = try Rtm_DataPacket(serializedBytes: stringThenBytes, options: .init(allocationBudget: .bytes(stringBlock)))
            #expect(second.value == .opaque([1, 2]))
        }
    }

    @Test func anExplicitBudgetIsHonouredToTheByte() throws {
        // mime_type "audio/opus" (11 bytes with its NUL) and clock_rate (a 4-byte uint32): two new
        // blocks of 16 bytes' overhead each, so the decode needs exactly 11 + 4 + 2 x 16 bytes.
        let bytes = try Rtm_Codec.with { $0.mimeType = "audio/opus"; $0.clockRate = 48_000 }.serializedBytes()
        let needed = 11 + 4 + 2 * Int(PB_BUDGET_ALLOC_OVERHEAD)
        try expectBalancedAllocations {
            let decoded = try Rtm_Codec(serializedBytes: bytes, options: .init(allocationBudget: .bytes(needed)))
            #expect(decoded.clockRate == 48_000 && decoded.mimeType == "audio/opus")
            // One byte less: the second allocation (clock_rate, after the string) is refused, at
            // the clock_rate value (its key has been read).
            #expect(throws: NanopbError.decodeFailed(reason: .budgetExceeded(budget: needed - 1), offset: 13)) {
                try Rtm_Codec(serializedBytes: bytes, options: .init(allocationBudget: .bytes(needed - 1)))
            }
        }
    }

    @Test func anUnlimitedBudgetDecodesWhatAFixedOneRefuses() throws {
        let hostile = participantWithEmptyTracks(10_000)
        try expectBalancedAllocations {
            #expect(throws: NanopbError.decodeFailed(reason: .budgetExceeded(budget: 100_000), offset: 2 * ((100_000 - 16) / MemoryLayout<rtm_TrackInfo>.size) + 1)) {
                try Rtm_Participant(serializedBytes: hostile, options: .init(allocationBudget: .bytes(100_000)))
            }
            let decoded = try Rtm_Participant(serializedBytes: hostile, options: .init(allocationBudget: .unlimited))
            #expect(decoded.tracks.count == 10_000)
        }
    }

    @Test func scaledBudgetsSaturateInsteadOfOverflowing() {
        #expect(NanopbDecodeOptions.AllocationBudget.scaled(perInputByte: Int.max, fixed: 1).limit(forInputSize: 2) == Int.max)
        #expect(NanopbDecodeOptions.AllocationBudget.standard.limit(forInputSize: 1000) == 6_000 + (1 << 20))
        #expect(NanopbDecodeOptions.AllocationBudget.unlimited.limit(forInputSize: 1000) == nil)
        #expect(NanopbDecodeOptions.AllocationBudget.bytes(-5).limit(forInputSize: 1000) == 0)
    }

    /// A scaled budget is exactly per-byte times the input plus the fixed part, a negative part
    /// counting as none, so a caller's budget is never widened behind its back.
    @Test func aScaledBudgetAddsNothingBeyondItsTwoParts() {
        #expect(NanopbDecodeOptions.AllocationBudget.scaled(perInputByte: 3, fixed: 0).limit(forInputSize: 10) == 30)
        #expect(NanopbDecodeOptions.AllocationBudget.scaled(perInputByte: 3, fixed: -7).limit(forInputSize: 10) == 30)
        #expect(NanopbDecodeOptions.AllocationBudget.scaled(perInputByte: -2, fixed: 5).limit(forInputSize: 10) == 5)
        #expect(NanopbDecodeOptions.AllocationBudget.scaled(perInputByte: 0, fixed: 0).limit(forInputSize: 10) == 0)
    }
}
