// Decoding hostile bytes fails with a typed error naming nanopb's reason and an offset; encoding an
// incomplete proto2 message fails the same way; paths that cannot throw report and degrade.

import Testing
import TestSupport
@_spi(NanopbFacade) import NanopbRuntime
import BundledProto

@Suite struct WireErrorTests {
    @Test func truncatedInputThrowsWithNanopbsReasonAndOffset() {
        expectBalancedAllocations {
            // Codec.mime_type (field 2) claims 5 bytes, 2 follow.
            #expect(throws: NanopbError.decodeFailed(reason: .endOfStream, offset: 2)) {
                try Rtm_Codec(serializedBytes: [0x12, 0x05, 0x61, 0x62])
            }
        }
    }

    @Test func invalidWireTypeThrowsATypedError() {
        expectBalancedAllocations {
            do throws(NanopbError) {
                // Field 1 with wire type 7: nanopb checks the known field's expected wire type first.
                _ = try Rtm_Codec(serializedBytes: [0x0F])
                Issue.record("decoding must fail")
            } catch {
                guard case .decodeFailed(let reason, let offset) = error else { Issue.record("\(error)"); return }
                #expect(reason == .wrongWireType)
                #expect(offset == 1)
            }
        }
    }

    @Test func overlongVarintThrows() {
        expectBalancedAllocations {
            let bytes: [UInt8] = [0x18] + Array(repeating: 0xFF, count: 11)
            #expect(throws: NanopbError.self) { try Rtm_Codec(serializedBytes: bytes) }
        }
    }

    @Test func randomBytesNeverCrashTheDecoder() {
        expectBalancedAllocations {
            var state: UInt64 = 0x9E37_79B9_7F4A_7C15
            for _ in 0..<2000 {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                let count = Int(state >> 58)
                let bytes = (0..<count).map { i in UInt8(truncatingIfNeeded: (state >> (i % 56)) ^ UInt64(i) &* 31) }
                if let packet = try? Rtm_DataPacket(serializedBytes: bytes) { _ = try? packet.serializedBytes() }
            }
        }
    }

    @Test func missingRequiredFieldFailsDecodeAndEncode() {
        expectBalancedAllocations {
            #expect(throws: NanopbError.decodeFailed(reason: .missingRequiredField, offset: 0)) {
                try Rtm_LegacyJoinResponse(serializedBytes: [])
            }
            #expect(throws: NanopbError.encodeFailed(reason: .missingRequiredField)) {
                try Rtm_LegacyJoinResponse().serializedBytes()
            }
        }
    }

    @Test func aSetterThatCannotStoreItsValueReportsAndLeavesTheFieldUnchanged() {
        expectBalancedAllocations {
            let incomplete = Rtm_LegacyDisplay.with { $0.width = 1 }  // `height` is required
            let (request, reports) = capturingReports {
                Rtm_LegacyJoinRequest.with {
                    $0.display = .with { $0.width = 9; $0.height = 9 }
                    $0.display = incomplete
                }
            }
            #expect(request.display.width == 9, "the failed setter keeps the previous value")
            #expect(reports.count == 1 && reports[0].contains("missing required field"))
        }
    }

    @Test func aCopyThatCannotBeMadeReportsAndYieldsAnEmptyValue() {
        expectBalancedAllocations {
            let incomplete = Rtm_LegacyDisplay.with { $0.width = 1 }
            let shared = incomplete
            let (copy, reports) = capturingReports { shared.modifying { $0.name = "x" } }
            #expect(copy.name == "x" && !copy.hasWidth)
            #expect(reports.count == 1 && reports[0].contains("copy of Rtm_LegacyDisplay"))
            #expect(incomplete.width == 1)
        }
    }

    @Test func decodedMessagesCompareByCanonicalBytes() throws {
        try expectBalancedAllocations { () throws in
            let a = try Rtm_Codec(serializedBytes: [0x08, 0x01, 0x18, 0x05])
            let b = Rtm_Codec.with { $0.clockRate = 5; $0.codec = .opus }
            #expect(a == b)
            #expect(Set([a, b]).count == 1)
        }
    }
}

@Suite struct NestingLimitTests {
    /// Topic.children (field 2) nested `levels` deep: each level is tag, length, child.
    static func nestedTopics(_ levels: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        for _ in 0..<levels {
            var length: [UInt8] = []
            var n = bytes.count
            repeat { length.append(UInt8(n & 0x7F) | (n >= 0x80 ? 0x80 : 0)); n >>= 7 } while n > 0
            bytes = [0x12] + length + bytes
        }
        return bytes
    }

    @Test func deeplyNestedHostileInputIsRejectedBeforeItExhaustsTheStack() {
        let hostile = Self.nestedTopics(100_000)
        #expect(throws: NanopbError.self) { try Rtm_Topic(serializedBytes: hostile) }
        do {
            _ = try Rtm_Topic(serializedBytes: hostile)
        } catch {
            guard case .decodeFailed(let reason, _) = error else { Issue.record("\(error)"); return }
            #expect(reason == .nestingTooDeep(limit: 100))
        }
    }

    @Test func nestingUpToTheLimitDecodes() throws {
        try expectBalancedAllocations { () throws in
            var topic = try Rtm_Topic(serializedBytes: Self.nestedTopics(100))
            var depth = 0
            while let child = topic.children.first { topic = child; depth += 1 }
            #expect(depth == 100)
            #expect(throws: NanopbError.self) { try Rtm_Topic(serializedBytes: Self.nestedTopics(102)) }
        }
    }
}
