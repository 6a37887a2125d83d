// libFuzzer target `differential`: the facade, the oracle, Google's C++ parser (libprotobuf's
// DynamicMessage of the same descriptor set) and SwiftProtobuf (protoc-gen-swift's code for the
// schema, `swiftProtobufParty` in SwiftProtobufParty.swift) judge the same bytes. Acceptance and
// meaning must agree except where a row of docs/deviations.md says otherwise, checked by predicate
// (FacadeProof's DifferentialCheck; for SwiftProtobuf, PeerProof.judgeMutant as `wireproof prove`
// judges it); the decode properties hold as in the `decode` target.

import FacadeProof
import FuzzKit
import GoogleParser

/// Google's parser over the harness's descriptor set, built once.
nonisolated(unsafe) let googleParser: OpaquePointer = {
    var error = [CChar](repeating: 0, count: 256)
    let bytes = FuzzHarness.shared.descriptorSet
    guard let parser = wpg_parser_create(bytes, bytes.count, &error, error.count) else {
        fatalError("differential: Google's parser cannot load the descriptor set: \(String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))")
    }
    return parser
}()

func googleJudge(_ messageType: String, _ bytes: [UInt8]) -> GoogleVerdict? {
    var out: UnsafeMutablePointer<UInt8>?
    var outSize = 0
    var initialized: CInt = 0
    let result = wpg_parse(googleParser, messageType, bytes, bytes.count, &out, &outSize, &initialized)
    guard result >= 0 else { return nil }
    defer { wpg_free(out) }
    let reencoded = out.map { Array(UnsafeBufferPointer(start: $0, count: outSize)) } ?? []
    return GoogleVerdict(accepted: result == 1, reencoded: reencoded, initialized: initialized != 0)
}

@_cdecl("LLVMFuzzerTestOneInput")
public func differentialOneInput(_ data: UnsafeRawPointer, _ size: Int) -> CInt {
    FuzzHarness.shared.checkDecodeAndDifferential(data, size, target: "differential", google: googleJudge, peer: swiftProtobufParty)
    return 0
}
