// libFuzzer target `structure`: a custom mutator that decodes the input with the oracle, edits the
// message (ProtoOracle's StructureMutator: add, remove, change, copy or clone a field at any
// depth) and re-encodes it, falling back to libFuzzer's byte mutations for a quarter of the calls
// and for inputs the oracle rejects. Every input goes through the decode properties and the
// facade-versus-oracle differential (Google's parser is the `differential` target's job).

import FacadeProof
import FuzzKit
import ProtoOracle

@_silgen_name("LLVMFuzzerMutate")
func libFuzzerMutate(_ data: UnsafeMutablePointer<UInt8>, _ size: Int, _ maxSize: Int) -> Int

let mutator = StructureMutator(schemas: FuzzHarness.shared.schemas)

/// The oracle's reading of an input's message bytes, with its catalog index; nil when rejected.
func decoded(_ data: UnsafeMutablePointer<UInt8>, _ size: Int) -> (selector: UInt8, message: DynamicMessage)? {
    let harness = FuzzHarness.shared
    guard size > 0 else { return nil }
    let index = harness.typeIndex(selector: data[0])
    let bytes = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    guard let message = try? DynamicMessage(serializedBytes: bytes, schema: harness.messageSchemas[index], in: harness.schemas) else { return nil }
    return (data[0], message)
}

/// Writes selector + encoding into `out` when it fits; the new size, or nil.
func store(_ selector: UInt8, _ message: DynamicMessage, _ out: UnsafeMutablePointer<UInt8>, _ maxSize: Int) -> Int? {
    let bytes = [selector] + message.serializedBytes()
    guard bytes.count <= maxSize else { return nil }
    // SAFETY: libFuzzer's buffer `out` holds `maxSize` bytes and bytes.count <= maxSize.
    bytes.withUnsafeBufferPointer { out.update(from: $0.baseAddress!, count: bytes.count) }
    return bytes.count
}

@_cdecl("LLVMFuzzerCustomMutator")
public func structureMutate(_ data: UnsafeMutablePointer<UInt8>, _ size: Int, _ maxSize: Int, _ seed: CUnsignedInt) -> Int {
    var random = SplitMix64(seed: UInt64(seed))
    guard !random.chance(1, in: 4), let (selector, original) = decoded(data, size) else {
        return libFuzzerMutate(data, size, maxSize)
    }
    var message = original
    mutator.mutate(&message, &random)
    return store(selector, message, data, maxSize) ?? libFuzzerMutate(data, size, maxSize)
}

@_cdecl("LLVMFuzzerCustomCrossOver")
public func structureCrossOver(_ data1: UnsafeMutablePointer<UInt8>, _ size1: Int, _ data2: UnsafeMutablePointer<UInt8>, _ size2: Int,
                               _ out: UnsafeMutablePointer<UInt8>, _ maxOutSize: Int, _ seed: CUnsignedInt) -> Int {
    var random = SplitMix64(seed: UInt64(seed))
    if let (selector, first) = decoded(data1, size1), let (_, second) = decoded(data2, size2), first.fullName == second.fullName,
       let size = store(selector, mutator.crossOver(first, second, &random), out, maxOutSize) {
        return size
    }
    // Different types or undecodable: concatenate (protobuf's merge) the second's message bytes
    // onto the first input, as far as they fit.
    let total = min(maxOutSize, size1 + max(0, size2 - 1))
    let head = min(size1, total)
    // SAFETY: `out` holds maxOutSize >= total bytes; head <= size1 and total - head <= size2 - 1
    // bytes are read from data1 and data2 + 1, within their sizes.
    out.update(from: data1, count: head)
    if total > head { (out + head).update(from: data2 + 1, count: total - head) }
    return total
}

@_cdecl("LLVMFuzzerTestOneInput")
public func structureOneInput(_ data: UnsafeRawPointer, _ size: Int) -> CInt {
    FuzzHarness.shared.checkDecodeAndDifferential(data, size, target: "structure")
    return 0
}
