// The names nested types take inside their namespace enum (`Outer.Inner` -> `Outer.Inner`): the
// flat-name rule applied to the last component, so a nested type named like a Swift type the
// facades spell unqualified is disambiguated as a message or as an enum, never left to shadow it.

import Testing
@testable import ProtoGenKit

@Suite struct NamespaceMemberNameTests {
    @Test func aNestedTypeNamedLikeASwiftTypeTakesMessageOrEnumByWhatItIs() throws {
        let plan = try FacadePlan(schema: compileSchema(["n.proto": """
            syntax = "proto3"; package n;
            message Outer {
              message String { uint32 a = 1; }
              enum Bool { BOOL_A = 0; }
              message Inner { uint32 b = 1; }
              enum Mode { MODE_A = 0; }
              String s = 1; Bool b = 2; Inner i = 3; Mode m = 4;
            }
            """]), selection: .all)
        #expect(plan.namespaceMemberName("n.Outer.String") == "StringMessage")
        #expect(plan.namespaceMemberName("n.Outer.Bool") == "BoolEnum")
        #expect(plan.namespaceMemberName("n.Outer.Inner") == "Inner")
        #expect(plan.namespaceMemberName("n.Outer.Mode") == "Mode")
    }

    @Test func aFieldlessMessageIsANamespaceOnlyWhenANestedTypeItHoldsIsGenerated() throws {
        let schema = try compileSchema(["n.proto": """
            syntax = "proto3"; package n;
            message Holder { message Inner { int32 v = 1; } }
            """])
        #expect(try FacadePlan(schema: schema, selection: .all).namespaces == ["n.Holder"])
        // Pruned to the holder alone, its nested message is not generated: the holder stays a message.
        let pruned = try FacadePlan(schema: schema, selection: .spelled(["N_Holder"]))
        #expect(pruned.namespaces.isEmpty)
    }
}
