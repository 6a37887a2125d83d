// What `runtime-exerciser check` runs: the shipped layer (nanopb, NanopbRuntime, the facades) on every
// exemplar of the catalog, on truncated and seeded-mutated exemplars, on the fuzz regressions, on the
// hostile inputs of docs/sanitizers.md, and through builders, `modifying`, `owned()` and views -- in one thread
// and without swift-testing, so valgrind can host it (`make valgrind`). Each exercise checks its
// outcome (typed errors, stable round trips) and counts failures; the caller checks the allocation
// balance between two passes.

import BundledProto
import BundledProtoCatalog
import CNanopb
import FacadeProof
import NanopbRuntime

/// Failures found so far, with one line each.
struct Findings {
    private(set) var lines: [String] = []
    mutating func fail(_ line: String) { lines.append(line) }
}

/// A small deterministic generator (xorshift64*), so every run mutates the same bytes.
struct SeededBytes {
    var state: UInt64
    mutating func next() -> UInt64 {
        state ^= state >> 12; state ^= state << 25; state ^= state >> 27
        return state &* 2_685_821_657_736_338_717
    }
}

/// One pass over every exercise. `corpus` holds the fuzz regressions (name, bytes).
func exerciseOnce(corpus: [(String, [UInt8])], findings: inout Findings) {
    exemplars(&findings)
    regressions(corpus, &findings)
    hostileInputs(&findings)
    ownership(&findings)
    getters(&findings)
}

/// Every exemplar built through the facades, decoded and re-encoded twice (stable round trip), then
/// every prefix and eight seeded mutations of it decoded: a message or a typed error, nothing else.
func exemplars(_ findings: inout Findings) {
    var random = SeededBytes(state: 0x9E37_79B9_7F4A_7C15)
    for exemplar in facadeCatalog.exemplars {
        guard let type = facadeCatalog.messageType(named: exemplar.messageType) else {
            findings.fail("\(exemplar.name): no message type \(exemplar.messageType)"); continue
        }
        do {
            let built = try exemplar.build()
            let once = try type.decodeReencode(built)
            let twice = try type.decodeReencode(once)
            if once != twice { findings.fail("\(exemplar.name): round trip not stable") }
            for length in 0..<min(built.count, 64) { decodeAnything(type, Array(built[..<length]), exemplar.name, &findings) }
            for _ in 0..<8 where !built.isEmpty {
                var mutated = built
                let index = Int(random.next() % UInt64(mutated.count))
                mutated[index] ^= UInt8(truncatingIfNeeded: random.next() | 1)
                decodeAnything(type, mutated, exemplar.name, &findings)
            }
        } catch {
            findings.fail("\(exemplar.name): \(error)")
        }
    }
}

/// Decodes `bytes` as `type`: either it decodes (and then re-encodes stably) or it throws a
/// `NanopbError.decodeFailed` with an offset inside the input. Anything else is a finding.
func decodeAnything(_ type: FacadeMessageType, _ bytes: [UInt8], _ name: String, _ findings: inout Findings) {
    do {
        let once = try type.decodeReencode(bytes)
        if (try? type.decodeReencode(once)) != once { findings.fail("\(name) as \(type.fullName): unstable round trip") }
    } catch let error as NanopbError {
        switch error {
        case .decodeFailed(_, let offset) where (0...bytes.count).contains(offset): break
        case .encodeFailed(.missingRequiredField): break  // decoded, but a proto2 required field is absent
        default: findings.fail("\(name) as \(type.fullName): \(error)")
        }
    } catch {
        findings.fail("\(name) as \(type.fullName): untyped error \(error)")
    }
}

/// Each fuzz regression decoded as every message type of the catalog.
func regressions(_ corpus: [(String, [UInt8])], _ findings: inout Findings) {
    for (name, bytes) in corpus {
        for type in facadeCatalog.messageTypes { decodeAnything(type, bytes, name, &findings) }
    }
}

/// The hostile inputs: ~1 MiB of empty repeated submessages and empty map entries (under an
/// explicit 256 KiB budget: valgrind's realloc copies every time, and the standard budget's path is
/// the same code), and 100,000 levels of nesting.
func hostileInputs(_ findings: inout Findings) {
    let budget = 256 << 10
    let options = NanopbDecodeOptions(allocationBudget: .bytes(budget))
    var tracks: [UInt8] = []
    for _ in 0..<524_288 { tracks += [0x32, 0x00] }
    expectFailure("rtm.Participant, 524,288 empty tracks", .budgetExceeded(budget: budget), &findings) { () throws(NanopbError) in
        _ = try Rtm_Participant(serializedBytes: tracks, options: options)
    }
    var entries: [UInt8] = []
    for _ in 0..<262_144 { entries += [0x1A, 0x02, 0x12, 0x00] }
    expectFailure("rtm.StatsSnapshot, 262,144 empty map entries", .budgetExceeded(budget: budget), &findings) { () throws(NanopbError) in
        _ = try Rtm_StatsSnapshot(serializedBytes: entries, options: options)
    }
    expectFailure("rtm.Topic nested 100,000 deep", .nestingTooDeep(limit: 100), &findings) { () throws(NanopbError) in
        _ = try Rtm_Topic(serializedBytes: nestedTopics(100_000))
    }
}

func expectFailure(_ name: String, _ reason: NanopbError.Reason, _ findings: inout Findings, _ body: () throws(NanopbError) -> Void) {
    do {
        try body()
        findings.fail("\(name): decoded")
    } catch {
        guard case .decodeFailed(let actual, _) = error, actual == reason else {
            findings.fail("\(name): \(error), expected \(reason)"); return
        }
    }
}

/// Topic.children (field 2) nested `levels` deep, built back to front in linear time.
func nestedTopics(_ levels: Int) -> [UInt8] {
    func varintSize(_ n: Int) -> Int { n < 0x80 ? 1 : 1 + varintSize(n >> 7) }
    var sizes = [0]  // sizes[k]: bytes of the innermost k levels
    for _ in 0..<levels { sizes.append(1 + varintSize(sizes.last!) + sizes.last!) }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(sizes[levels])
    for k in stride(from: levels, to: 0, by: -1) {
        bytes.append(0x12)
        var n = sizes[k - 1]
        repeat { bytes.append(UInt8(n & 0x7F) | (n >= 0x80 ? 0x80 : 0)); n >>= 7 } while n > 0
    }
    return bytes
}

/// Builders, in-place and copying `modifying`, views, `owned()`, oneof switches and builder getters.
func ownership(_ findings: inout Findings) {
    let layers = Rtm_SimulcastCodec.with {
        $0.codec = .with { $0.mimeType = "video/VP9"; $0.clockRate = 90_000 }
        $0.layers = (0..<4).map { i in .with { $0.rid = "r\(i)"; $0.width = UInt32(160 << i) } }
    }
    let view = layers.layers[2]
    let detached = view.owned()
    let widened = view.modifying { $0.width = 4096 }
    let inPlace = (consume detached).modifying { $0.rid = "changed" }
    if layers.layers[2].width != 640 || widened.width != 4096 || inPlace.rid != "changed" || inPlace.width != 640 {
        findings.fail("ownership: views, owned() or modifying changed the wrong storage")
    }
    let packet = Rtm_DataPacket.with {
        $0.chat = .with { $0.text = "first" }
        let kept = $0.chat
        $0.chat = .with { $0.text = "second" }  // frees the struct a view would point into
        $0.sequence = kept.text == "first" ? 1 : 0
    }
    let switched = packet.modifying { $0.value = .chat(.with { $0.text = "third" }) }
    if packet.sequence != 1 || packet.chat.text != "second" || switched.chat.text != "third" {
        findings.fail("ownership: builder getters or oneof switching")
    }
}

/// Every getter kind on decoded messages (the round trips above only encode and decode, through
/// nanopb): scalars, enums, strings, bytes, their repeated forms, maps, submessages and oneofs --
/// so valgrind watches the runtime's own reads of field memory too.
func getters(_ findings: inout Findings) {
    let stats = Rtm_RtpStreamStats.with {
        $0.ssrc = 7; $0.mimeType = "video/VP9"; $0.durationS = 2.5; $0.jitterMs = -3; $0.bytesTotal = .min
        $0.keyframePending = true; $0.lastRtcp = [9, 8, 7]; $0.nackedSequenceNumbers = [1, .max]
        $0.frameIntervalsMs = [16.5]; $0.layerActive = [true, false]
    }
    let join = Rtm_Join.with {
        $0.token = "t"; $0.client = .with { $0.capabilities = ["x", ""] }
        $0.preferredCodecs = [.vp9, Rtm_MediaCodec(rawValue: 99)]; $0.sessionTickets = [[], [1, 2]]
    }
    let snapshot = Rtm_StatsSnapshot.with {
        $0.streamsBySsrc = [1: .with { $0.packets = 3 }]; $0.rtcpByArrivalMs = [-1: [1, 2]]
        $0.layerByRidIndex = [0: .low]; $0.notesByTimeUs = [5: "n"]; $0.qualityByPeer = ["a": .excellent]
    }
    do {
        let s = try Rtm_RtpStreamStats(serializedBytes: stats.serializedBytes())
        let j = try Rtm_Join(serializedBytes: join.serializedBytes())
        let m = try Rtm_StatsSnapshot(serializedBytes: snapshot.serializedBytes())
        let p = try Rtm_DataPacket(serializedBytes: Rtm_DataPacket.with { $0.padding = [1, 2, 3]; $0.chat = .with { $0.text = "c" } }.serializedBytes())
        let same = s.ssrc == 7 && s.mimeType == "video/VP9" && s.durationS == 2.5 && s.jitterMs == -3
            && s.bytesTotal == .min && s.keyframePending && s.lastRtcp == [9, 8, 7]
            && s.nackedSequenceNumbers == [1, .max] && s.frameIntervalsMs == [16.5] && s.layerActive == [true, false]
            && j.token == "t" && j.client.capabilities == ["x", ""] && j.preferredCodecs == join.preferredCodecs
            && j.sessionTickets == [[], [1, 2]]
            && m.streamsBySsrc[1]?.packets == 3 && m.rtcpByArrivalMs == [-1: [1, 2]] && m.layerByRidIndex == [0: .low]
            && m.notesByTimeUs == [5: "n"] && m.qualityByPeer == ["a": .excellent]
            && p.padding == [1, 2, 3] && p.chat.text == "c" && "\(p)".hasPrefix("Rtm_DataPacket(")
        if !same { findings.fail("getters: a decoded value differs from the one built") }
    } catch {
        findings.fail("getters: \(error)")
    }
}
