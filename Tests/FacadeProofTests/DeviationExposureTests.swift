import FacadeProof
import OracleCheck
import ProtoSchema
import Testing

/// Which fields and messages each deviation row reaches, on one proto3 and one proto2 file that
/// give every row's predicate both a field it holds for and one it does not.
@Suite struct DeviationExposureTests {
    static let files = [
        "open.proto": """
            syntax = "proto3"; package d;
            enum Color { RED = 0; }
            enum Signed { ZERO = 0; MINUS = -1; }
            message M {
              string s = 1;
              optional int32 o = 2;
              repeated int32 r = 3;
              M child = 4;
              oneof pick { M inner = 5; uint32 u = 6; }
              map<string, int32> table = 7;
              Color color = 8;
              Signed signed = 9;
              bool flag = 10;
            }
            message Empty {}
            """,
        "closed.proto": """
            syntax = "proto2"; package e;
            enum Closed { A = 1; }
            message N { optional string s = 1; repeated sint32 r = 2; optional Closed c = 3; extensions 100 to 200; }
            extend N { optional int32 more = 100; }
            """,
    ]

    @Test func eachRowReachesExactlyTheFieldsItsPredicateHoldsFor() throws {
        let schemas = try InlineSchema.compile(Self.files)
        let rows = DeviationRows.exposure(of: schemas.messages.filter { !$0.isMapEntry }, in: schemas)
        let byRow = Dictionary(uniqueKeysWithValues: rows.map { ($0.row, $0.elements) })
        let implicitScalars = ["d.M.color", "d.M.flag", "d.M.s", "d.M.signed"]
        #expect(byRow[1] == implicitScalars)
        #expect(byRow[2] == implicitScalars)
        #expect(byRow[3] == ["d.M.child"], "a singular submessage outside a oneof")
        #expect(byRow[4] == ["d.M.inner"], "a submessage in a real oneof")
        #expect(byRow[6] == ["e.N.r"], "proto3's repeated numbers are packed already; proto2's are not")
        #expect(byRow[7] == ["d.M.flag", "d.M.u", "e.N.r"])
        #expect(byRow[8] == ["d.M.s", "e.N.s"], "every string")
        #expect(byRow[9] == ["d.M.s"], "proto3 strings only: proto2 strings are not checked for UTF-8 by anyone")
        #expect(byRow[10] == ["d.M.table"] && byRow[11] == ["d.M.table"])
        #expect(byRow[12] == ["e.N.c"], "proto2 enums are closed, proto3 enums open")
        #expect(byRow[13] == ["d.M.color", "e.N.c"], "enums without a negative member")
        #expect(byRow[20] == ["e.N.[e.more]"])
        for row in [5, 14, 15] { #expect(byRow[row] == ["d.M", "e.N"], "row \(row): messages with fields; d.Empty has none") }
    }
}
