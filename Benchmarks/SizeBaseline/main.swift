// Size probe (`make bench`): the same trivial work as SizePacket (read an argument, lay out a
// few bytes, read them back, print three numbers, report an error) without any protobuf code. The
// size difference to SizePacket is what the shipped layer adds.
enum ProbeError: Error { case empty }

func roundTrip(_ bytes: [UInt8]) throws(ProbeError) -> String {
    guard bytes.count > 2 else { throw .empty }
    return String(decoding: bytes.dropFirst(2), as: UTF8.self)
}

let arguments = CommandLine.arguments
let text = arguments.count > 1 ? arguments[1] : "see you at the standup"
let bytes: [UInt8] = [0x20, UInt8(truncatingIfNeeded: arguments.count)] + Array(text.utf8)
do {
    let back = try roundTrip(bytes)
    print(bytes.count, arguments.count, back.count)
} catch {
    print("error: \(error)")
}
