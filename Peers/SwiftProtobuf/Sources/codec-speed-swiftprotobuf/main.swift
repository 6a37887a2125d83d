// SwiftProtobuf's row of make bench's speed table (its ratio step): decodes and encodes
// one encoded rtm.DataPacket through protoc-gen-swift's code of the bundled schema, as
// Benchmarks/CodecBench does through the facades and Benchmarks/CodecC through plain nanopb C:
//   decode = Rtm_DataPacket(serializedBytes:) from a [UInt8];  encode = serializedBytes() as [UInt8].
//
//   codec-speed-swiftprotobuf FILE ITERATIONS    FILE: CodecBench dump's chat.bin or metrics.bin
//
// valgrind --tool=callgrind counts the inclusive instructions of loopDecode and loopEncode. Stops
// unless the bytes decode and re-encode byte for byte.

import BundledProtoSwift
import Foundation
import SwiftProtobuf

// Each operation is @inline(never) and returns something derived from its result, so the optimizer
// can neither drop nor hoist it; the loops are @_optimize(none) so their names survive for callgrind,
// and count with `while` over Int (inlined even unoptimised; `for _ in 0..<n` would run the
// unspecialised Range iterator inside the counted loop, as in Benchmarks/CodecBench).

@inline(never) func decodeOnce(_ bytes: [UInt8]) -> Int {
    (try? Rtm_DataPacket(serializedBytes: bytes)) == nil ? 0 : 1
}

@inline(never) func encodeOnce(_ packet: Rtm_DataPacket) -> Int {
    ((try? packet.serializedBytes()) as [UInt8]?)?.count ?? -1
}

@_optimize(none) @inline(never)
func loopDecode(_ bytes: [UInt8], _ n: Int) -> Int {
    var sum = 0
    var i = 0
    while i < n { sum &+= decodeOnce(bytes); i &+= 1 }
    return sum
}

@_optimize(none) @inline(never)
func loopEncode(_ packet: Rtm_DataPacket, _ n: Int) -> Int {
    var sum = 0
    var i = 0
    while i < n { sum &+= encodeOnce(packet); i &+= 1 }
    return sum
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("codec-speed-swiftprotobuf: \(message)\n".utf8))
    exit(1)
}

let arguments = CommandLine.arguments
guard arguments.count == 3, let n = Int(arguments[2]), n > 0,
      let data = FileManager.default.contents(atPath: arguments[1]) else {
    fail("usage: codec-speed-swiftprotobuf FILE ITERATIONS")
}
let bytes = [UInt8](data)
// The message encode works from, and the round-trip check (also the warm-up).
let packet: Rtm_DataPacket
do { packet = try Rtm_DataPacket(serializedBytes: bytes) } catch { fail("\(arguments[1]) does not decode: \(error)") }
guard let again: [UInt8] = try? packet.serializedBytes(), again == bytes else {
    fail("\(arguments[1]) does not re-encode byte for byte")
}
let sum = loopDecode(bytes, n) + loopEncode(packet, n)
print("codec-speed-swiftprotobuf \(arguments[1]): \(bytes.count) bytes, iterations \(n) checksum \(sum)")
