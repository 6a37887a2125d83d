// Every field kind survives build -> encode -> decode, and reads back through the facade.

import Testing
import TestSupport
import NanopbRuntime
import BundledProto

/// Encodes, decodes, and checks the decoded value re-encodes to the same bytes.
func roundTrip<S>(_ message: NanopbMsg<S>) throws -> NanopbMsg<S> {
    let bytes = try message.serializedBytes()
    let decoded = try NanopbMsg<S>(serializedBytes: bytes)
    #expect(try decoded.serializedBytes() == bytes)
    #expect(decoded == message)
    return decoded
}

@Suite struct FieldKindRoundTripTests {
    @Test func singularAndRepeatedScalarsOfEveryTypeRoundTrip() throws {
        try expectBalancedAllocations { () throws in
            let stats = Rtm_RtpStreamStats.with {
                $0.ssrc = 0xDEAD_BEEF
                $0.mimeType = "video/VP9 ✓"
                $0.durationS = 12.5
                $0.lossFraction = 0.25
                $0.jitterMs = -1
                $0.bytesTotal = .min
                $0.packets = .max
                $0.headerBytes = .max
                $0.rttDeltaUs = .min
                $0.clockDriftNs = .min
                $0.lastSenderReportNtp = .max
                $0.audioLevelCdbov = -127
                $0.captureOffsetNs = -5
                $0.keyframePending = true
                $0.lastRtcp = [0, 1, 255]
                $0.nackedSequenceNumbers = [1, 2, .max]
                $0.lossBurstLengths = [-1, 0, 1]
                $0.frameIntervalsMs = [16.5, -0.25]
                $0.keyframeNtpTimes = [1, .max]
                $0.layerActive = [true, false, true]
                $0.levelSamplesCdbov = [.min, .max]
                $0.pliTimesMs = [.max, -1]
                $0.retransmissions = .with { $0.ssrc = 7 }
                $0.layer = .high
                $0.mos = 4.25
                $0.lastKeyframeHash = []
            }
            let back = try roundTrip(stats)
            #expect(back.ssrc == 0xDEAD_BEEF)
            #expect(back.mimeType == "video/VP9 ✓")
            #expect(back.durationS == 12.5)
            #expect(back.lossFraction == 0.25)
            #expect(back.jitterMs == -1)
            #expect(back.bytesTotal == .min)
            #expect(back.packets == .max)
            #expect(back.headerBytes == .max)
            #expect(back.rttDeltaUs == .min)
            #expect(back.clockDriftNs == .min)
            #expect(back.lastSenderReportNtp == .max)
            #expect(back.audioLevelCdbov == -127)
            #expect(back.captureOffsetNs == -5)
            #expect(back.keyframePending)
            #expect(back.lastRtcp == [0, 1, 255])
            #expect(back.nackedSequenceNumbers == [1, 2, .max])
            #expect(back.lossBurstLengths == [-1, 0, 1])
            #expect(back.frameIntervalsMs == [16.5, -0.25])
            #expect(back.keyframeNtpTimes == [1, .max])
            #expect(back.layerActive == [true, false, true])
            #expect(back.levelSamplesCdbov == [.min, .max])
            #expect(back.pliTimesMs == [.max, -1])
            #expect(back.hasRetransmissions && back.retransmissions.ssrc == 7)
            #expect(back.hasLayer && back.layer == .high)
            #expect(back.hasMos && back.mos == 4.25)
            // Explicit presence: an empty optional bytes field is still present.
            #expect(back.hasLastKeyframeHash && back.lastKeyframeHash == [])
        }
    }

    @Test func implicitPresenceDefaultsAreNotEncoded() throws {
        try expectBalancedAllocations { () throws in
            let packet = Rtm_DataPacket.with {
                $0.kind = .reliable
                $0.senderIdentity = ""
                $0.sequence = 0
                $0.padding = []
            }
            #expect(try packet.serializedBytes() == [])
            // Setting a value and then the default clears the field again.
            let cleared = packet.modifying { $0.sequence = 9; $0.sequence = 0 }
            #expect(try cleared.serializedBytes() == [])
        }
    }

    @Test func stringsBytesAndRepeatedEnumsRoundTrip() throws {
        try expectBalancedAllocations { () throws in
            let join = Rtm_Join.with {
                $0.token = "tök\u{1F600}"
                $0.client = .with { $0.capabilities = ["a", "", "c"] }
                $0.adaptiveStream = false
                $0.preferredCodecs = [.vp9, .opus, Rtm_MediaCodec(rawValue: 99)]
                $0.sessionTickets = [[], [1, 2, 3], [0xFF]]
                $0.kind = Rtm_Participant_Kind(rawValue: 0)
            }
            let back = try roundTrip(join)
            #expect(back.token == "tök\u{1F600}")
            #expect(back.client.capabilities == ["a", "", "c"])
            #expect(back.hasAdaptiveStream && back.adaptiveStream == false)
            #expect(back.preferredCodecs == [.vp9, .opus, Rtm_MediaCodec(rawValue: 99)])
            #expect(back.sessionTickets == [[], [1, 2, 3], [0xFF]])
            #expect(back.hasKind)
        }
    }

    @Test func mapsOfEveryKeyTypeAndValueKindRoundTrip() throws {
        try expectBalancedAllocations { () throws in
            let snapshot = Rtm_StatsSnapshot.with {
                $0.takenAt = .with { $0.seconds = 1_700_000_000; $0.nanos = 5 }
                $0.streamsBySsrc = [1: .with { $0.packets = 3 }, 2: Rtm_RtpStreamStats()]
                $0.codecsByPayloadType = [96: .with { $0.mimeType = "video/VP8" }]
                $0.rtcpByArrivalMs = [-1: [1, 2], 5: []]
                $0.layerByRidIndex = [0: .low, 1: Rtm_LayerQuality(rawValue: 42)]
                $0.notesByTimeUs = [.max: "late", 0: ""]
                $0.jitterHistogram = [-3: 0.5, 3: 1.5]
                $0.rttDriftByOffsetNs = [.min: .min]
                $0.lossByNtpTime = [7: 0.125]
                $0.packetsByLevelCdbov = [-1: 10]
                $0.ssrcByCaptureOffsetNs = [-9: 0xFFFF_FFFF]
                $0.bytesByRetransmitted = [true: 2, false: 1]
                $0.qualityByPeer = ["a": .excellent, "b": .lost]
                $0.histograms = ["h": .with { $0.counts = [1, 2] }]
            }
            let back = try roundTrip(snapshot)
            #expect(back.takenAt.seconds == 1_700_000_000 && back.takenAt.nanos == 5)
            #expect(back.streamsBySsrc.count == 2 && back.streamsBySsrc[1]?.packets == 3)
            #expect(back.codecsByPayloadType[96]?.mimeType == "video/VP8")
            #expect(back.rtcpByArrivalMs == [-1: [1, 2], 5: []])
            #expect(back.layerByRidIndex == [0: .low, 1: Rtm_LayerQuality(rawValue: 42)])
            #expect(back.notesByTimeUs == [.max: "late", 0: ""])
            #expect(back.jitterHistogram == [-3: 0.5, 3: 1.5])
            #expect(back.rttDriftByOffsetNs == [.min: .min])
            #expect(back.lossByNtpTime == [7: 0.125])
            #expect(back.packetsByLevelCdbov == [-1: 10])
            #expect(back.ssrcByCaptureOffsetNs == [-9: 0xFFFF_FFFF])
            #expect(back.bytesByRetransmitted == [true: 2, false: 1])
            #expect(back.qualityByPeer == ["a": .excellent, "b": .lost])
            #expect(back.histograms["h"]?.counts == [1, 2])
        }
    }

    @Test func equalMapsBuiltInDifferentOrdersEncodeIdentically() throws {
        try expectBalancedAllocations { () throws in
            let keys = (0..<50).map { "k\($0)" }
            let a = Rtm_Error.with { b in b.details = Dictionary(uniqueKeysWithValues: keys.map { ($0, $0) }) }
            let b = Rtm_Error.with { b in b.details = Dictionary(uniqueKeysWithValues: keys.reversed().map { ($0, $0) }) }
            #expect(try a.serializedBytes() == b.serializedBytes())
            #expect(a == b && a.hashValue == b.hashValue)
        }
    }

    @Test func proto2DefaultsAndPresenceReadBackWhenAbsent() throws {
        try expectBalancedAllocations { () throws in
            let empty = try Rtm_LegacyJoinRequest(serializedBytes: [0x0A, 0x00, 0x10, 0x01])  // token "", version 1
            #expect(empty.hasToken && empty.token == "")
            #expect(!empty.hasClientName && empty.clientName == "room-system")
            #expect(empty.autoSubscribe == true)
            #expect(empty.maxBitrateRatio == 0.75)
            #expect(empty.preferredCodec == .h264)
            #expect(empty.joinDeadlineMs == -1)
            #expect(empty.volumeGainDb == -3.5)
            #expect(empty.capabilityMask == [1, 0, 255])
            #expect(empty.clockOffsetMs == -20)
            #expect(!empty.hasDisplay && empty.display.refreshHz == 60)
            let response = Rtm_LegacyJoinResponse.with { $0.accepted = false }
            #expect(response.negotiatedCodec == .none && !response.hasNegotiatedCodec)
            // Proto2 fields have presence: an explicit default is kept and encoded.
            let explicit = Rtm_LegacyJoinRequest.with {
                $0.token = "t"; $0.protocolVersion = 1; $0.autoSubscribe = true
                $0.features = ["x"]; $0.widths = [640, 1280]; $0.display = .with { $0.width = 1; $0.height = 2 }
            }
            let back = try roundTrip(explicit)
            #expect(back.hasAutoSubscribe && back.features == ["x"] && back.widths == [640, 1280])
            #expect(back.display.width == 1 && back.display.height == 2)
        }
    }

    @Test func clearingAFieldWithPresenceRemovesIt() throws {
        try expectBalancedAllocations { () throws in
            let stats = Rtm_RtpStreamStats.with { $0.mos = 1; $0.retransmissions = .with { $0.ssrc = 1 } }
            let cleared = stats.modifying { $0.clearMos(); $0.clearRetransmissions() }
            #expect(!cleared.hasMos && !cleared.hasRetransmissions)
            #expect(try cleared.serializedBytes() == [])
        }
    }
}
