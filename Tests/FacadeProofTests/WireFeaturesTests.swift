import FacadeProof
import Foundation
import OracleCheck
@testable import ProtoOracle
import ProtoSchema
import Testing
import TestSupport

/// The wire scanner the differential checks explain disagreements with: each deviation row's
/// predicate on inputs that have the construct and on its nearest neighbour that does not, and a
/// full, flag-free walk of every well-formed encoding the oracle writes.
@Suite struct WireFeaturesTests {
    /// A proto2 schema with one field of every shape a predicate looks at, and a proto3 one with an
    /// open enum.
    static let schemas: SchemaSet = {
        do {
            return try InlineSchema.compile([
                "wf/probe.proto": """
                syntax = "proto2";
                package wf;
                enum Closed { ONE = 1; TWO = 2; }
                enum Signed { NEG = -1; ZERO = 0; }
                message Inner { optional int32 a = 1; optional Inner deeper = 2; }
                message Probe {
                  optional string text = 1;
                  optional bytes blob = 2;
                  optional uint32 u32 = 3;
                  optional sint32 s32 = 4;
                  optional bool flag = 5;
                  optional int32 i32 = 6;
                  optional uint64 u64 = 7;
                  optional Closed closed = 8;
                  optional Signed signed = 9;
                  optional fixed32 f32 = 10;
                  optional fixed64 f64 = 11;
                  optional Inner inner = 12;
                  repeated Inner inners = 13;
                  oneof choice { Inner first = 14; Inner second = 15; int32 plain = 16; }
                  repeated uint32 packed_u32 = 17 [packed = true];
                  repeated fixed32 packed_f32 = 18 [packed = true];
                  repeated fixed64 packed_f64 = 19 [packed = true];
                  optional group Grp = 20 { optional int32 g = 21; }
                }
                """,
                "wf/open.proto": """
                syntax = "proto3";
                package wf3;
                enum Open { ZERO = 0; ONE = 1; }
                message Holder { Open open = 1; repeated string texts = 2; }
                """,
            ])
        } catch {
            fatalError("the inline test schema does not compile: \(error)")
        }
    }()

    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let message: String
        let hex: String
        let features: String
        var depthLimit = 200
        var testDescription: String { name }
    }

    /// `features` is WireFeatures.description: the flags that are set, then the depth.
    static let cases: [Case] = [
        Case(name: "empty input", message: "wf.Probe", hex: "", features: "depth 0"),
        // Row 14 and truncation: fixed-width values that end exactly at the end of the input.
        Case(name: "fixed32 ending the input", message: "wf.Probe", hex: "55 01 00 00 00", features: "depth 0"),
        Case(name: "fixed64 ending the input", message: "wf.Probe", hex: "59 01 00 00 00 00 00 00 00", features: "depth 0"),
        Case(name: "fixed32 one byte short", message: "wf.Probe", hex: "55 01 00 00", features: "truncated, depth 0"),
        Case(name: "fixed64 one byte short", message: "wf.Probe", hex: "59 01 00 00 00 00 00 00", features: "truncated, depth 0"),
        Case(name: "varint cut off", message: "wf.Probe", hex: "18 80", features: "truncated, depth 0"),
        Case(name: "tag cut off", message: "wf.Probe", hex: "80", features: "truncated, depth 0"),
        Case(name: "wire type 6", message: "wf.Probe", hex: "0e", features: "truncated, depth 0"),
        Case(name: "end-group tag at the top level", message: "wf.Probe", hex: "0c", features: "truncated, depth 0"),
        Case(name: "length past the end", message: "wf.Probe", hex: "0a 03 61 62", features: "truncated, depth 0"),
        Case(name: "length exactly to the end", message: "wf.Probe", hex: "0a 02 61 62", features: "depth 0"),
        // Row 8: NUL in a string, not in bytes.
        Case(name: "NUL in a string", message: "wf.Probe", hex: "0a 02 61 00", features: "nulInString, depth 0"),
        Case(name: "NUL in bytes", message: "wf.Probe", hex: "12 02 61 00", features: "depth 0"),
        Case(name: "NUL in an open message's repeated string", message: "wf3.Holder", hex: "12 01 00", features: "nulInString, depth 0"),
        // Rows 7, 13, 18: 32-bit unsigned fields holding more than 32 bits.
        Case(name: "uint32 at 2^32 - 1", message: "wf.Probe", hex: "18 ff ff ff ff 0f", features: "depth 0"),
        Case(name: "uint32 at 2^32", message: "wf.Probe", hex: "18 80 80 80 80 10", features: "narrowVarintOverflow, depth 0"),
        Case(name: "sint32 at 2^32", message: "wf.Probe", hex: "20 80 80 80 80 10", features: "narrowVarintOverflow, depth 0"),
        Case(name: "bool at 2^32", message: "wf.Probe", hex: "28 80 80 80 80 10", features: "narrowVarintOverflow, depth 0"),
        Case(name: "int32 at 2^32 (sign-extended, not narrowed)", message: "wf.Probe", hex: "30 80 80 80 80 10", features: "depth 0"),
        Case(name: "uint64 at 2^32", message: "wf.Probe", hex: "38 80 80 80 80 10", features: "depth 0"),
        Case(name: "packed uint32 element at 2^32", message: "wf.Probe", hex: "8a 01 06 01 80 80 80 80 10", features: "narrowVarintOverflow, depth 0"),
        Case(name: "packed uint32 elements that fit", message: "wf.Probe", hex: "8a 01 02 01 7f", features: "depth 0"),
        // Row 17: ten-byte varints, with and without bits above 64.
        Case(name: "uint64 max in ten bytes", message: "wf.Probe", hex: "38 ff ff ff ff ff ff ff ff ff 01", features: "depth 0"),
        Case(name: "ten-byte varint with bits above 64", message: "wf.Probe", hex: "38 ff ff ff ff ff ff ff ff ff 7f", features: "overwideVarint, depth 0"),
        Case(name: "eleven-byte varint", message: "wf.Probe", hex: "38 ff ff ff ff ff ff ff ff ff ff 01", features: "truncated, depth 0"),
        // Row 12: closed enums; the value is compared as protobuf's int32 view of the varint.
        Case(name: "declared closed-enum value", message: "wf.Probe", hex: "40 02", features: "depth 0"),
        Case(name: "undeclared closed-enum value", message: "wf.Probe", hex: "40 03", features: "unknownClosedEnumValue, depth 0"),
        Case(name: "closed-enum value 2^32 + 1 (reads as ONE, overflows 32 bits)", message: "wf.Probe", hex: "40 81 80 80 80 10",
             features: "narrowVarintOverflow, depth 0"),
        Case(name: "closed enum with a negative value, at -1", message: "wf.Probe", hex: "48 ff ff ff ff ff ff ff ff ff 01", features: "depth 0"),
        Case(name: "undeclared open-enum value", message: "wf3.Holder", hex: "08 07", features: "depth 0"),
        // Row 14: wire types a field's type cannot have.
        Case(name: "uint32 as fixed32", message: "wf.Probe", hex: "1d 00 00 00 00", features: "wrongWireType, depth 0"),
        Case(name: "string as varint", message: "wf.Probe", hex: "08 01", features: "wrongWireType, depth 0"),
        Case(name: "fixed64 as varint", message: "wf.Probe", hex: "58 01", features: "wrongWireType, depth 0"),
        Case(name: "singular uint32 as length-delimited", message: "wf.Probe", hex: "1a 01 01", features: "wrongWireType, depth 0"),
        Case(name: "group as length-delimited", message: "wf.Probe", hex: "a2 01 00", features: "wrongWireType, depth 0"),
        Case(name: "message as start-group", message: "wf.Probe", hex: "63 64", features: "wrongWireType, depth 1"),
        Case(name: "packed fixed32, whole elements", message: "wf.Probe", hex: "92 01 04 01 00 00 00", features: "depth 0"),
        Case(name: "packed fixed32, a partial element", message: "wf.Probe", hex: "92 01 03 01 00 00", features: "truncated, depth 0"),
        Case(name: "packed fixed64, whole elements", message: "wf.Probe", hex: "9a 01 08 01 00 00 00 00 00 00 00", features: "depth 0"),
        Case(name: "packed fixed64, a partial element", message: "wf.Probe", hex: "9a 01 07 01 00 00 00 00 00 00", features: "truncated, depth 0"),
        // Row 16: length prefixes of six bytes or more.
        Case(name: "five-byte length", message: "wf.Probe", hex: "0a 82 80 80 80 00 61 62", features: "depth 0"),
        Case(name: "six-byte length", message: "wf.Probe", hex: "0a 82 80 80 80 80 00 61 62", features: "overlongLength, depth 0"),
        Case(name: "six-byte length in an unknown field", message: "wf.Probe", hex: "f2 01 81 80 80 80 80 00 61", features: "overlongLength, depth 0"),
        Case(name: "six-byte length in an unknown group", message: "wf.Probe", hex: "f3 01 0a 80 80 80 80 80 00 f4 01", features: "overlongLength, depth 1"),
        // Fixed-width values inside an unknown group are skipped whole: their bytes spell its end tag.
        Case(name: "a fixed32 in an unknown group", message: "wf.Probe", hex: "f3 01 0d f4 01 00 00 f4 01", features: "depth 1"),
        Case(name: "a fixed64 in an unknown group", message: "wf.Probe", hex: "f3 01 09 f4 01 00 00 00 00 00 00 f4 01", features: "depth 1"),
        // Rows 3/4: a singular message occurring twice; repeated messages may.
        Case(name: "singular message once", message: "wf.Probe", hex: "62 02 08 01", features: "depth 1"),
        Case(name: "singular message twice", message: "wf.Probe", hex: "62 00 62 00", features: "duplicateSingularMessage, depth 1"),
        Case(name: "repeated message twice", message: "wf.Probe", hex: "6a 00 6a 00", features: "depth 1"),
        Case(name: "two message members of one oneof", message: "wf.Probe", hex: "72 00 7a 00", features: "duplicateSingularMessage, depth 1"),
        Case(name: "a scalar then a message member of one oneof", message: "wf.Probe", hex: "80 01 01 72 00", features: "depth 1"),
        Case(name: "the same singular message in two nested messages", message: "wf.Probe", hex: "62 02 12 00 6a 02 12 00",
             features: "depth 2"),
        Case(name: "a group twice", message: "wf.Probe", hex: "a3 01 a4 01 a3 01 a4 01", features: "duplicateSingularMessage, depth 1"),
        // Depth: known messages and groups, unknown groups, and the limit.
        Case(name: "three levels of messages", message: "wf.Probe", hex: "62 06 12 04 12 02 08 01", features: "depth 3"),
        Case(name: "a group with a field", message: "wf.Probe", hex: "a3 01 a8 01 05 a4 01", features: "depth 1"),
        Case(name: "a group without its end", message: "wf.Probe", hex: "a3 01 a8 01 05", features: "truncated, depth 1"),
        Case(name: "a group closed by another number", message: "wf.Probe", hex: "a3 01 ac 01", features: "truncated, depth 1"),
        Case(name: "an unknown group with every wire type", message: "wf.Probe",
             hex: "f3 01 08 01 11 00 00 00 00 00 00 00 00 1a 01 61 23 24 2d 00 00 00 00 f4 01", features: "depth 2"),
        Case(name: "an unknown group closed by another number", message: "wf.Probe", hex: "f3 01 fc 01", features: "truncated, depth 1"),
        Case(name: "an unknown group without its end", message: "wf.Probe", hex: "f3 01 08 01", features: "truncated, depth 1"),
        Case(name: "an unknown group with wire type 7 inside", message: "wf.Probe", hex: "f3 01 0f f4 01", features: "truncated, depth 1"),
        Case(name: "an unknown group's fixed64 cut off", message: "wf.Probe", hex: "f3 01 09 00 00", features: "truncated, depth 1"),
        Case(name: "an unknown group's fixed32 cut off", message: "wf.Probe", hex: "f3 01 0d 00 00", features: "truncated, depth 1"),
        Case(name: "an unknown group's length past the end", message: "wf.Probe", hex: "f3 01 0a 05 00", features: "truncated, depth 1"),
        // A tag of more than five bytes stops the walk, even where the bytes after its fifth would read as a field.
        Case(name: "an unknown group's tag longer than five bytes", message: "wf.Probe", hex: "f3 01 88 80 80 80 80 30 01",
             features: "truncated, depth 1"),
        Case(name: "a level at a limit of one", message: "wf.Probe", hex: "62 00", features: "depth 1", depthLimit: 1),
        Case(name: "two levels past a limit of one", message: "wf.Probe", hex: "62 02 12 00", features: "truncated, depth 2", depthLimit: 1),
        Case(name: "three levels at a limit of three", message: "wf.Probe", hex: "62 04 12 02 12 00", features: "depth 3", depthLimit: 3),
        Case(name: "three levels past a limit of two", message: "wf.Probe", hex: "62 04 12 02 12 00", features: "truncated, depth 3",
             depthLimit: 2),
        Case(name: "an unknown group at a limit of one", message: "wf.Probe", hex: "f3 01 f4 01", features: "depth 1", depthLimit: 1),
        Case(name: "unknown groups past a limit of one", message: "wf.Probe", hex: "f3 01 f3 01 f4 01 f4 01", features: "truncated, depth 2",
             depthLimit: 1),
    ]

    @Test(arguments: cases)
    func eachPredicateIsSetByItsConstructAndNotByItsNeighbour(_ c: Case) throws {
        let schema = try #require(Self.schemas.message(c.message))
        let bytes = c.hex.split(separator: " ").map { UInt8($0, radix: 16)! }
        let features = WireFeatures.scan(bytes, schema: schema, in: Self.schemas, depthLimit: c.depthLimit)
        #expect(features.description == c.features, "\(c.hex)")
    }

    /// Everything the oracle writes for random valid messages is walked to its end without a
    /// deviation flag, at the depth the message nests. (Random open-enum values may be negative, so
    /// `narrowVarintOverflow` is not checked here; strings may hold NUL.)
    @Test(arguments: ["foreign", "bundled"])
    func theOraclesEncodingsOfRandomMessagesScanCleanlyToTheirDepth(_ which: String) async throws {
        let schemas: SchemaSet
        if which == "foreign" {
            let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("wireproof-wf-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: scratch) }
            let foreign = repositoryRoot + "/Tests/ProtoOracleTests/Fixtures/foreign"
            schemas = try await OracleCheck.compile(OracleCheckConfiguration(protoDirectory: foreign), scratch: scratch).schemas
        } else {
            schemas = try await BundledSchema.schemas()
        }
        var random = RandomMessages(schemas: schemas, seed: 77)
        random.allowNaNPayloads = true
        var deepest = 0
        for index in 0..<1_500 {
            let next = random.next()
            let message = try #require(next)
            let bytes = message.serializedBytes()
            let f = WireFeatures.scan(bytes, schema: message.schema, in: schemas)
            let flagged = f.truncated || f.wrongWireType || f.overlongLength || f.overwideVarint
                || f.duplicateSingularMessage || f.unknownClosedEnumValue
            #expect(!flagged && f.maxDepth == message.nestingDepth,
                    "message \(index) \(message.fullName): \(f) (nests \(message.nestingDepth))")
            deepest = max(deepest, f.maxDepth)
        }
        #expect(deepest >= 2, "random messages of the \(which) schema should nest")
    }
}
