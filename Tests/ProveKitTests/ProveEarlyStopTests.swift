import Foundation
import Testing
@testable import ProveKit

/// `wireproof prove` stops with exit 2 when protoc rejects the schema or generation refuses it,
/// before anything is built, and its --json summary says why, keys sorted and pretty-printed.
@Suite struct ProveEarlyStopTests {
    private func prove(_ name: String, schema: String) async throws -> (status: Int32, summary: [String: Any], text: String) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("prove-stop-\(getpid())-\(name)").path
        try? FileManager.default.removeItem(atPath: folder)
        try FileManager.default.createDirectory(atPath: folder + "/schema", withIntermediateDirectories: true)
        try Data(schema.utf8).write(to: URL(fileURLWithPath: folder + "/schema/a.proto"))
        let options = ProveCommand.Options(protoDirectory: folder + "/schema", device: false, swiftProtobufPeer: false,
                                           scratch: folder + "/scratch", json: folder + "/summary.json")
        let status = try await Prover(options: options).run()
        let data = try Data(contentsOf: URL(fileURLWithPath: folder + "/summary.json"))
        try? FileManager.default.removeItem(atPath: folder)
        return (status, try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any]), String(decoding: data, as: UTF8.self))
    }

    @Test func aSchemaProtocRejectsStopsAtTheOracleWithExitTwo() async throws {
        let (status, summary, text) = try await prove("syntax", schema: "syntax = \"proto3\";\nmessage A { int32 x = ; }\n")
        #expect(status == 2)
        #expect(summary["passed"] as? Bool == false)
        #expect((summary["error"] as? String)?.hasPrefix("oracle vs protoc: ") == true)
        #expect((summary["protoDirectory"] as? String)?.hasSuffix("-syntax/schema") == true)
        #expect(summary["proof"] == nil)
        // Pretty-printed with sorted keys: error, oracle, passed, protoDirectory, seconds.
        let keys = ["\"error\"", "\"oracle\"", "\"passed\"", "\"protoDirectory\"", "\"seconds\""].map { text.range(of: $0)?.lowerBound }
        #expect(keys.allSatisfy { $0 != nil })
        #expect(keys.compactMap { $0 } == keys.compactMap { $0 }.sorted())
        #expect(text.contains("\n  \"passed\" : false"))
    }

    @Test func aSchemaGenerationRefusesStopsAfterTheOracleWithExitTwo() async throws {
        let group = "syntax = \"proto2\";\nmessage A { optional group G = 1 { optional int32 x = 2; } }\n"
        let (status, summary, _) = try await prove("group", schema: group)
        #expect(status == 2)
        #expect(summary["passed"] as? Bool == false)
        let error = try #require(summary["error"] as? String)
        #expect(error.hasPrefix("generation refused the schema: "), "\(error)")
        #expect(error.lowercased().contains("group"))
        let oracle = try #require(summary["oracle"] as? [String: Int])
        #expect(oracle["disagreed"] == 0 && (oracle["agreed"] ?? 0) > 0)
        #expect((summary["seconds"] as? [String: Double])?["oracle"] != nil)
        #expect((summary["seconds"] as? [String: Double])?["generate"] == nil)
    }
}
