// CodecBench: encode and decode time of the generated facades (nanopb underneath) against the
// oracle (ProtoOracle's DynamicMessage) for typical Rtm_DataPacket values, measured side by side
// in one process. Built in a scratch package and run by `make bench` (`wirebench run`); not part
// of the package build, and no test runs it.
//
//   CodecBench time DESCRIPTOR_SET [ROUNDS] [BATCH_MS]
//       Wall time. Each operation runs in batches of a fixed number of iterations (calibrated to
//       about BATCH_MS); every round runs one batch of each of the four operations of a packet, in
//       an order that rotates from round to round, so load on the shared machine hits all four
//       alike. Prints per-operation medians (and quartiles) of ns/op and the median of the
//       per-round ratios oracle/facade.
//   CodecBench count DESCRIPTOR_SET PACKET ITERATIONS
//       For `valgrind --tool=callgrind`: runs each operation on PACKET (chat or user) ITERATIONS
//       times inside its own `loop*` function, whose inclusive instruction count `make bench` reads
//       with callgrind_annotate.
//   CodecBench dump DESCRIPTOR_SET DIRECTORY
//       Writes each packet's bytes to DIRECTORY/NAME.bin (chat, user, metrics) for the plain C and
//       libprotobuf programs of `make bench`'s ratio step.
//
// Before measuring, both modes check that the oracle re-encodes the facade's bytes byte for byte.

import BundledProto
import ProtoOracle
import ProtoSchema
#if canImport(Glibc)
import Glibc
#endif

// MARK: - The packets

/// Deterministic filler bytes (no randomness: every run measures the same input).
func filler(_ count: Int, seed: Int) -> [UInt8] {
    (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ seed) }
}

/// A chat message as a room's data channel carries it: ids, a timestamp, a sentence or three of
/// text and a mention. About 330 bytes encoded.
func chatPacket() -> Rtm_DataPacket {
    Rtm_DataPacket.with {
        $0.kind = .reliable
        $0.senderIdentity = "participant-4f1c2a7e"
        $0.destinationIdentities = ["alice@example.org", "bob@example.org"]
        $0.sequence = 48_213
        $0.value = .chat(.with {
            $0.id = "msg_01HZX4Q7M2R8KQ3V"
            $0.sentAt = .with { $0.seconds = 1_718_000_000; $0.nanos = 123_456_000 }
            $0.text = "Quick update before the standup: the new simulcast layers are live in staging, "
                + "the bandwidth estimator change is behind a flag, and I still need a review on the "
                + "reconnect fix. @alice could you take a look at it this afternoon? Thanks!"
            $0.mentions = ["alice@example.org"]
        })
    }
}

/// An application payload on the lossy channel: 256 opaque bytes with a topic and an id. About
/// 300 bytes encoded.
func userPacket() -> Rtm_DataPacket {
    Rtm_DataPacket.with {
        $0.kind = .lossy
        $0.senderIdentity = "participant-4f1c2a7e"
        $0.sequence = 902_117
        $0.value = .user(.with {
            $0.payload = filler(256, seed: 11)
            $0.topic = "sensors/imu"
            $0.id = "pl-000123"
        })
    }
}

/// A metrics batch as a client uploads it every few seconds: 16 labelled series of 96 samples
/// each. About 22 KB encoded: the large message of the nanopb C and libprotobuf comparison
/// (`make bench`'s ratio step).
func metricsPacket() -> Rtm_DataPacket {
    Rtm_DataPacket.with {
        $0.kind = .reliable
        $0.senderIdentity = "participant-4f1c2a7e"
        $0.sequence = 48_214
        $0.value = .metrics(.with {
            $0.timestampMs = 1_718_000_000_000
            $0.labels = (0..<16).map { "webrtc.outbound_rtp.metric_\($0)" }
            $0.series = (0..<16).map { s in
                Rtm_MetricsBatch_TimeSeries.with {
                    $0.labelIndex = UInt32(s)
                    $0.participantIndex = UInt32(s % 4 + 1)
                    $0.samples = (0..<96).map { i in
                        Rtm_MetricsBatch_TimeSeries_Sample.with {
                            $0.timestampMs = 1_718_000_000_000 + Int64(i * 250)
                            $0.value = Float(s * 96 + i) * 0.75 + 1
                        }
                    }
                }
            }
        })
    }
}

// MARK: - The four operations
// Each is @inline(never) and returns something derived from its result, so the optimizer can
// neither drop nor hoist it; the loops are @_optimize(none) for the same reason and so that their
// names survive for callgrind. They count with `while` over Int, whose operators are inlined even
// unoptimised: `for _ in 0..<n` there runs the unspecialised Range iterator, ~1,500 instructions per
// iteration (~2,800 in the encode loop) that plain C's loop does not pay and callgrind counted.

@inline(never) func facadeEncode(_ packet: Rtm_DataPacket) -> Int {
    (try? packet.serializedBytes())?.count ?? -1
}

@inline(never) func oracleEncode(_ message: DynamicMessage) -> Int {
    message.serializedBytes().count
}

@inline(never) func facadeDecode(_ bytes: [UInt8]) -> Int {
    (try? Rtm_DataPacket(serializedBytes: bytes)) == nil ? 0 : 1
}

@inline(never) func oracleDecode(_ bytes: [UInt8], _ schema: MessageSchema, _ schemas: SchemaSet) -> Int {
    (try? DynamicMessage(serializedBytes: bytes, schema: schema, in: schemas)) == nil ? 0 : 1
}

@_optimize(none) @inline(never)
func loopFacadeEncode(_ packet: Rtm_DataPacket, _ n: Int) -> Int {
    var sum = 0
    var i = 0
    while i < n { sum &+= facadeEncode(packet); i &+= 1 }
    return sum
}

@_optimize(none) @inline(never)
func loopOracleEncode(_ message: DynamicMessage, _ n: Int) -> Int {
    var sum = 0
    var i = 0
    while i < n { sum &+= oracleEncode(message); i &+= 1 }
    return sum
}

@_optimize(none) @inline(never)
func loopFacadeDecode(_ bytes: [UInt8], _ n: Int) -> Int {
    var sum = 0
    var i = 0
    while i < n { sum &+= facadeDecode(bytes); i &+= 1 }
    return sum
}

@_optimize(none) @inline(never)
func loopOracleDecode(_ bytes: [UInt8], _ schema: MessageSchema, _ schemas: SchemaSet, _ n: Int) -> Int {
    var sum = 0
    var i = 0
    while i < n { sum &+= oracleDecode(bytes, schema, schemas); i &+= 1 }
    return sum
}

// MARK: - Setup

func fail(_ message: String) -> Never {
    print("CodecBench: \(message)")
    exit(2)
}

/// One packet in both representations, checked to encode identically.
struct Case {
    let name: String
    let facade: Rtm_DataPacket
    let bytes: [UInt8]
    let oracle: DynamicMessage

    init(_ name: String, _ facade: Rtm_DataPacket, schema: MessageSchema, schemas: SchemaSet) {
        self.name = name
        self.facade = facade
        guard let bytes = try? facade.serializedBytes() else { fail("\(name): the facade cannot encode") }
        self.bytes = bytes
        guard let oracle = try? DynamicMessage(serializedBytes: bytes, schema: schema, in: schemas) else {
            fail("\(name): the oracle cannot decode the facade's bytes")
        }
        self.oracle = oracle
        guard oracle.serializedBytes() == bytes else {
            fail("\(name): the oracle re-encodes the facade's \(bytes.count) bytes differently")
        }
    }
}

let arguments = CommandLine.arguments
guard arguments.count >= 3, ["time", "count", "dump"].contains(arguments[1]) else {
    fail("usage: CodecBench time DESCRIPTOR_SET [ROUNDS] [BATCH_MS] | count DESCRIPTOR_SET PACKET ITERATIONS"
        + " | dump DESCRIPTOR_SET DIRECTORY")
}
let schemas: SchemaSet
do { schemas = try SchemaSet(contentsOf: arguments[2]) } catch { fail("cannot load \(arguments[2]): \(error)") }
guard let packetSchema = schemas.message("rtm.DataPacket") else { fail("rtm.DataPacket not in \(arguments[2])") }
let cases = [
    Case("chat", chatPacket(), schema: packetSchema, schemas: schemas),
    Case("user", userPacket(), schema: packetSchema, schemas: schemas),
    Case("metrics", metricsPacket(), schema: packetSchema, schemas: schemas),
]
for c in cases { print("packet \(c.name): \(c.bytes.count) bytes, facade and oracle encodings identical") }

// MARK: - Dump mode (the same bytes for the C and C++ programs of `make bench`'s ratio step)

if arguments[1] == "dump" {
    guard arguments.count == 4 else { fail("dump needs a DIRECTORY") }
    for c in cases {
        let path = "\(arguments[3])/\(c.name).bin"
        guard let file = fopen(path, "wb") else { fail("cannot write \(path)") }
        let written = c.bytes.withUnsafeBufferPointer { fwrite($0.baseAddress, 1, $0.count, file) }
        fclose(file)
        guard written == c.bytes.count else { fail("short write to \(path)") }
    }
    exit(0)
}

// MARK: - Callgrind mode

if arguments[1] == "count" {
    guard arguments.count == 5, let c = cases.first(where: { $0.name == arguments[3] }),
          let n = Int(arguments[4]), n > 0 else { fail("count needs PACKET (chat|user|metrics) and ITERATIONS") }
    // Warm-up outside the measured loops: first-use costs (metadata, lazy statics) are not
    // per-operation costs.
    var sum = facadeEncode(c.facade) &+ oracleEncode(c.oracle)
    sum &+= facadeDecode(c.bytes) &+ oracleDecode(c.bytes, packetSchema, schemas)
    sum &+= loopFacadeEncode(c.facade, n) &+ loopOracleEncode(c.oracle, n)
    sum &+= loopFacadeDecode(c.bytes, n) &+ loopOracleDecode(c.bytes, packetSchema, schemas, n)
    print("packet \(c.name) iterations \(n) checksum \(sum)")
    exit(0)
}

// MARK: - Wall-time mode

func nowNanoseconds() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
}

/// Runs `batch` with `n` iterations and returns the elapsed nanoseconds.
func timed(_ n: Int, _ batch: (Int) -> Int, _ sum: inout Int) -> UInt64 {
    let start = nowNanoseconds()
    sum &+= batch(n)
    return nowNanoseconds() - start
}

func percentile(_ values: [Double], _ p: Double) -> Double {
    let sorted = values.sorted()
    let position = p * Double(sorted.count - 1)
    let low = Int(position.rounded(.down)), high = Int(position.rounded(.up))
    return sorted[low] + (sorted[high] - sorted[low]) * (position - Double(low))
}

func fixed(_ value: Double, _ digits: Int) -> String {
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    let rounded = (value * scale).rounded() / scale
    var text = "\(rounded)"
    if digits == 0, text.hasSuffix(".0") { text.removeLast(2) }
    return text
}

let rounds = arguments.count > 3 ? Int(arguments[3]) ?? 41 : 41
let batchMs = arguments.count > 4 ? Double(arguments[4]) ?? 4 : 4
print("rounds \(rounds), batches of about \(fixed(batchMs, 1)) ms, operation order rotated per round")
var checksum = 0
for c in cases {
    let ops: [(name: String, run: (Int) -> Int)] = [
        ("facade_encode", { loopFacadeEncode(c.facade, $0) }),
        ("oracle_encode", { loopOracleEncode(c.oracle, $0) }),
        ("facade_decode", { loopFacadeDecode(c.bytes, $0) }),
        ("oracle_decode", { loopOracleDecode(c.bytes, packetSchema, schemas, $0) }),
    ]
    // Calibrate: double the iteration count until one batch takes batchMs.
    var iterations: [Int] = []
    for op in ops {
        var n = 1
        while Double(timed(n, op.run, &checksum)) < batchMs * 1_000_000 && n < 1 << 24 { n *= 2 }
        iterations.append(n)
    }
    var perOp = Array(repeating: [Double](), count: ops.count)
    var encodeRatios: [Double] = [], decodeRatios: [Double] = []
    for round in 0..<rounds {
        var sample = Array(repeating: 0.0, count: ops.count)
        for k in 0..<ops.count {
            let i = (k + round) % ops.count
            sample[i] = Double(timed(iterations[i], ops[i].run, &checksum)) / Double(iterations[i])
        }
        for i in 0..<ops.count { perOp[i].append(sample[i]) }
        encodeRatios.append(sample[1] / sample[0])
        decodeRatios.append(sample[3] / sample[2])
    }
    for (i, op) in ops.enumerated() {
        let q = perOp[i]
        print("RESULT \(c.name) \(op.name) "
            + "median_ns \(fixed(percentile(q, 0.5), 1)) p25_ns \(fixed(percentile(q, 0.25), 1)) "
            + "p75_ns \(fixed(percentile(q, 0.75), 1)) iterations_per_batch \(iterations[i])")
    }
    print("RESULT \(c.name) ratio_encode median \(fixed(percentile(encodeRatios, 0.5), 2)) "
        + "p25 \(fixed(percentile(encodeRatios, 0.25), 2)) p75 \(fixed(percentile(encodeRatios, 0.75), 2))")
    print("RESULT \(c.name) ratio_decode median \(fixed(percentile(decodeRatios, 0.5), 2)) "
        + "p25 \(fixed(percentile(decodeRatios, 0.25), 2)) p75 \(fixed(percentile(decodeRatios, 0.75), 2))")
}
print("checksum \(checksum)")
