import BundledProtoCatalog
import FacadeProof
import Foundation
import NanopbRuntime
import ProtoOracle
import Testing
import TestSupport

/// Every input in Corpus/regressions (each once broke a property, or is one of the parser differences of docs/fuzzing.md
/// differences) replayed through the fuzz targets' properties: the decode properties
/// (DecodeMutationCheck) and the facade-versus-oracle differential with the rows of
/// docs/deviations.md as predicates (DifferentialCheck). Google's parser judges the same files in
/// `make fuzz-smoke`, which runs the `differential` binary over the folder. An input's first byte
/// picks the message type (modulo the catalog's count), as in the fuzz targets.
@Suite struct FuzzRegressionTests {
    static let folder = URL(fileURLWithPath: repositoryRoot + "/Corpus/regressions")
    static let files: [String] = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
        .filter { !$0.hasPrefix(".") && $0 != "README.md" }.sorted()

    static func input(_ name: String) throws -> (type: FacadeMessageType, bytes: [UInt8]) {
        let data = try #require(FileManager.default.contents(atPath: folder.appendingPathComponent(name).path))
        let framed = [UInt8](data)
        let selector = try #require(framed.first, "\(name) is empty: a regression input needs its type byte")
        return (facadeCatalog.messageTypes[Int(selector) % facadeCatalog.messageTypes.count], Array(framed.dropFirst()))
    }

    @Test func theRegressionCorpusHoldsTheInputsOfIssue8() {
        #expect(Self.files.filter { $0.hasPrefix("parser-difference-") }.count == 7, "Corpus/regressions: \(Self.files)")
    }

    @Test(arguments: files)
    func aRegressionInputKeepsEveryPropertyOfTheFuzzTargets(_ name: String) async throws {
        let loaded = try await BundledSchema.loaded()
        let (type, bytes) = try Self.input(name)
        let schema = try #require(loaded.schemas.message(type.fullName))
        var accepted = 0, rejected = 0
        let decode = DecodeMutationCheck.check(bytes, type, schema: schema, schemas: loaded.schemas, accepted: &accepted, rejected: &rejected)
        #expect(decode == nil, "\(name): \(decode ?? "")")
        let differential = DifferentialCheck.check(bytes, type, schema: schema, schemas: loaded.schemas)
        #expect(differential == nil, "\(name): \(differential ?? "")")
        #expect(accepted + rejected == 1)
    }

    /// The differential can fail: a facade whose re-encoding loses its last byte, one that rejects
    /// every input, and a Google stand-in that rejects what the oracle accepts are each caught,
    /// and named by the property they break.
    @Test func aBrokenJudgeIsCaughtByTheDifferential() async throws {
        let loaded = try await BundledSchema.loaded()
        let exemplar = try #require(facadeCatalog.exemplars.first { $0.messageType == "rtm.Codec" && !$0.name.contains("#") && !$0.name.contains("!") })
        let real = try #require(facadeCatalog.messageType(named: "rtm.Codec"))
        let schema = try #require(loaded.schemas.message("rtm.Codec"))
        let bytes = try exemplar.build()
        #expect(DifferentialCheck.check(bytes, real, schema: schema, schemas: loaded.schemas) == nil)

        let truncating = FacadeMessageType(real.fullName) { Array(try real.decodeReencode($0).dropLast()) }
        let meaning = DifferentialCheck.check(bytes, truncating, schema: schema, schemas: loaded.schemas)
        #expect(meaning?.hasPrefix("[facade-oracle-") == true, "\(meaning ?? "nil")")

        let refusing = FacadeMessageType(real.fullName) { _ in throw NanopbError.decodeFailed(reason: .other("planted"), offset: 0) }
        let acceptance = DifferentialCheck.check(bytes, refusing, schema: schema, schemas: loaded.schemas)
        #expect(acceptance?.hasPrefix("[facade-oracle-acceptance]") == true, "\(acceptance ?? "nil")")

        let strictGoogle: GoogleJudge = { _, _ in GoogleVerdict(accepted: false, reencoded: [], initialized: false) }
        let google = DifferentialCheck.check(bytes, real, schema: schema, schemas: loaded.schemas, google: strictGoogle)
        #expect(google?.hasPrefix("[oracle-google-acceptance]") == true, "\(google ?? "nil")")
    }
}
