// The baseline of a run times every chosen layer's quick suites in one `swift test`: the filter names
// each suite once, whichever layers name it.

import Testing
@testable import MutationKit

@Suite struct QuickSuitesTests {
    static func layer(_ name: String) throws -> Layer { try #require(Layer.all.first { $0.name == name }) }

    @Test func theBaselineFilterNamesEverySuiteOfTheLayersOnceInByteOrder() throws {
        let runtime = try Self.layer("runtime"), oracle = try Self.layer("oracle"), schema = try Self.layer("schema")
        #expect(runtime.quick == "NanopbRuntimeTests|FacadeEdgeCaseTests|RuntimeLimitTests")
        #expect(oracle.quick == "ProtoOracleTests" && schema.quick == "ProtoSchemaTests|ProtoOracleTests")
        #expect(MutationRun.quickSuites(of: [runtime, oracle, schema, runtime])
                == "FacadeEdgeCaseTests|NanopbRuntimeTests|ProtoOracleTests|ProtoSchemaTests|RuntimeLimitTests")
        #expect(MutationRun.quickSuites(of: [oracle]) == "ProtoOracleTests")
    }
}
