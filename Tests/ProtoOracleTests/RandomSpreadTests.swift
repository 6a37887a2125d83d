// `--random N` spreads its messages over files and message types, so a small N still reaches
// every file of a large schema (it used to fill the first files' types first).

import OracleCheck
import ProtoSchema
import Testing

@Suite struct RandomSpreadTests {
    @Test("random messages visit every file before any file gets a second message")
    func roundRobinOverFiles() throws {
        let schemas = try InlineSchema.compile([
            "a.proto": "syntax = \"proto3\"; package a; message A1 {} message A2 {} message A3 {}",
            "b.proto": "syntax = \"proto3\"; package b; message B1 {}",
            "c.proto": "syntax = \"proto3\"; package c; message C1 {} message C2 {}",
        ])
        let order = OracleCheck.spreadOverFiles(schemas.messages.filter { !$0.isMapEntry })
        #expect(order.count == 6)
        #expect(Set(order) == Set(["a.A1", "a.A2", "a.A3", "b.B1", "c.C1", "c.C2"]))
        let firstFiles = order.prefix(3).map { $0.prefix(1) }
        #expect(Set(firstFiles) == Set(["a", "b", "c"]), "\(order)")
        #expect(order.prefix(5).filter { $0.hasPrefix("a.") }.count == 2, "\(order)")
    }
}
