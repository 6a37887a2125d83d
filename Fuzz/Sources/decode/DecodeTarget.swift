// libFuzzer target `decode`: the first input byte picks a message type of the bundled schema, the
// rest is decoded by its facade; a rejection must be a typed error with an offset inside the input,
// an acceptance must re-encode stably to bytes the oracle accepts (FacadeProof's
// DecodeMutationCheck: the guarantees of docs/DESIGN.md). ASan reports any bad access or leak.

import FacadeProof
import Foundation
import FuzzKit

/// Benchmark mode (`wireproof fuzz rate`, WIREPROOF_FUZZ_FACADE_ONLY=1): only the facade's own work
/// (decode, re-encode, decode again, compare), the same work the plain-C `decode_c` target does.
let facadeOnly = environmentValue("WIREPROOF_FUZZ_FACADE_ONLY") == "1"

@_cdecl("LLVMFuzzerTestOneInput")
public func decodeOneInput(_ data: UnsafeRawPointer, _ size: Int) -> CInt {
    let harness = FuzzHarness.shared
    guard let (index, bytes) = harness.frame(data, size) else { return 0 }
    if facadeOnly {
        let type = harness.catalog.messageTypes[index]
        guard let first = try? type.decodeReencode(bytes) else { return 0 }
        if (try? type.decodeReencode(first)) != first { brokenProperty("decode", "[stable-reencode] \(type.fullName)") }
        return 0
    }
    var accepted = 0, rejected = 0
    if let failure = DecodeMutationCheck.check(bytes, harness.catalog.messageTypes[index], schema: harness.messageSchemas[index],
                                               schemas: harness.schemas, accepted: &accepted, rejected: &rejected) {
        brokenProperty("decode", failure)
    }
    return 0
}
