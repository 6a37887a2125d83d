// What protogen prints for each way it refuses, word for word: the one line (or block) a user sees
// after "protogen: ".

import ProtoSchema
import Testing
@testable import ProtoGenKit

@Suite struct GeneratorErrorWordingTests {
    @Test func everyRefusalReadsAsItIsDocumented() {
        let cases: [(GeneratorError, String)] = [
            (.usage("--c-out is required"), "--c-out is required"),
            (.schema(.duplicateName("p.M")), "cannot load descriptor set: duplicate declaration of p.M"),
            (.unsupported(file: "a.proto", element: "p.M.g", reason: "no groups"), "a.proto: p.M.g: no groups"),
            (.nameCollision(name: "P_M", first: "p.M", second: "p_M"), "p.M and p_M both map to the Swift name P_M; rename one of them"),
            (.io(path: "/x", reason: "cannot write"), "/x: cannot write"),
            (.invariant(file: "a.pb.swift", declaration: "extension M", reason: "writes storage"),
             "generated a.pb.swift: extension M: writes storage (generator bug)"),
            (.optionsRefused(["a.proto: M.x: max_size", "b.proto: N: long_names"]),
             "nanopb options the facades cannot honour:\n  a.proto: M.x: max_size\n  b.proto: N: long_names"),
            (.tool(what: "protoc", status: 1, output: "  bad.proto:1: error\n\n"), "protoc failed (exit 1):\nbad.proto:1: error"),
            (.tool(what: "protoc", status: 2, output: ""), "protoc failed (exit 2)"),
        ]
        for (error, text) in cases { #expect("\(error)" == text) }
    }
}
