// libFuzzer target `decode`: the first input byte picks a message type of the bundled schema, the
// rest is decoded by its facade; a rejection must be a typed error with an offset inside the input,
// an acceptance must re-encode stably to bytes the oracle accepts (FacadeProof's
// DecodeMutationCheck: the guarantees of docs/DESIGN.md). ASan reports any bad access or leak.

import FacadeProof
import FuzzKit

@_cdecl("LLVMFuzzerTestOneInput")
public func decodeOneInput(_ data: UnsafeRawPointer, _ size: Int) -> CInt {
    let harness = FuzzHarness.shared
    guard let (index, bytes) = harness.frame(data, size) else { return 0 }
    var accepted = 0, rejected = 0
    if let failure = DecodeMutationCheck.check(bytes, harness.catalog.messageTypes[index], schema: harness.messageSchemas[index],
                                               schemas: harness.schemas, accepted: &accepted, rejected: &rejected) {
        brokenProperty("decode", failure)
    }
    return 0
}
