// Which mutants regenerate the bundled output before the build: every file of a layer marked so,
// and in the proof layer only the catalog emitter, whose output nothing reads until it is generated.

import Testing
@testable import MutationKit

@Suite struct LayerRegenerationTests {
    static func layer(_ name: String) throws -> Layer { try #require(Layer.all.first { $0.name == name }) }

    @Test func everyGeneratorAndScriptMutantRegenerates() throws {
        #expect(try Self.layer("generator").regenerates("Sources/Tools/ProtoGenKit/Naming.swift"))
        #expect(try Self.layer("scripts").regenerates("scripts/proto-options.py"))
    }

    @Test func inTheProofLayerOnlyTheCatalogEmitterRegenerates() throws {
        let proof = try Self.layer("proof")
        #expect(proof.regenerates("Sources/Proof/CatalogGenerator/CatalogEmitter.swift"))
        #expect(!proof.regenerates("Sources/Proof/FacadeProof/DifferentialCheck.swift"))
        #expect(!proof.regenerates("Sources/Proof/CatalogGenerator/Nested/Deeper.swift"), "a * does not cross a /")
    }

    @Test func aLayerWithoutRegenerationNeverRegenerates() throws {
        #expect(try !Self.layer("runtime").regenerates("Sources/Shipped/NanopbRuntime/NanopbBox.swift"))
    }
}
