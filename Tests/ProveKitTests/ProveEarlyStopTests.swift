import Foundation
import Testing
@testable import ProveKit

/// `wireproof prove` stops with exit 2 when protoc rejects the schema or generation refuses it,
/// before anything is built, and its --json summary says why, keys sorted and pretty-printed.
@Suite struct ProveEarlyStopTests {
    private func prove(_ name: String, schema: String) async throws -> (status: Int32, summary: [String: Any], text: String) {
        let (status, summary, text, _, _) = try await proveCollecting(name, schema: schema)
        return (status, summary, text)
    }

    /// The run with its standard output and standard error lines collected, and the folders.
    private func proveCollecting(_ name: String, schema: String) async throws
        -> (status: Int32, summary: [String: Any], text: String, out: [String], err: [String]) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("prove-stop-\(getpid())-\(name)").path
        try? FileManager.default.removeItem(atPath: folder)
        try FileManager.default.createDirectory(atPath: folder + "/schema", withIntermediateDirectories: true)
        try Data(schema.utf8).write(to: URL(fileURLWithPath: folder + "/schema/a.proto"))
        let options = ProveCommand.Options(protoDirectory: folder + "/schema", device: false, swiftProtobufPeer: false,
                                           scratch: folder + "/scratch", json: folder + "/summary.json")
        var prover = try Prover(options: options)
        let out = CollectedLines(), err = CollectedLines()
        prover.printOut = out.append
        prover.printError = err.append
        let status = try await prover.run()
        let data = try Data(contentsOf: URL(fileURLWithPath: folder + "/summary.json"))
        try? FileManager.default.removeItem(atPath: folder)
        return (status, try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any]), String(decoding: data, as: UTF8.self),
                out.lines, err.lines)
    }

    private func folder(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("prove-stop-\(getpid())-\(name)").path
    }

    /// The timing line every run ends with, on standard error.
    private func isDoneLine(_ line: String?) -> Bool {
        line?.range(of: #"^prove: done in [0-9]+\.[0-9] s$"#, options: .regularExpression) != nil
    }

    @Test func aStopAtTheOracleSaysTheSchemaTheStepAndWhyOnStandardErrorOnly() async throws {
        let (_, _, _, out, err) = try await proveCollecting("syntax-lines", schema: "syntax = \"proto3\";\nmessage A { int32 x = ; }\n")
        let folder = self.folder("syntax-lines")
        #expect(out.isEmpty)
        #expect(err.count == 4, "\(err)")
        #expect(err.first == "prove: \(folder)/schema (scratch package \(folder)/scratch)")
        #expect(err.dropFirst().first == "prove [1/4] oracle vs protoc")
        #expect(err.dropFirst(2).first?.hasPrefix("prove: oracle vs protoc: ") == true)
        #expect(isDoneLine(err.last), "\(err)")
    }

    @Test func aStopAtGenerationPrintsTheOracleTableThenSaysWhyAfterTheStepLine() async throws {
        let group = "syntax = \"proto2\";\nmessage A { optional group G = 1 { optional int32 x = 2; } }\n"
        let (_, summary, _, out, err) = try await proveCollecting("group-lines", schema: group)
        let agreed = try #require((summary["oracle"] as? [String: Int])?["agreed"])
        #expect(out.count == 1, "the table only: no disagreement to list")
        #expect(out.first?.contains("total") == true)
        let progress = err.filter { $0.hasPrefix("prove: oracle ") }
        #expect(!progress.isEmpty && progress.count <= 6, "about five progress lines: \(progress)")
        #expect(progress.contains("prove: oracle \(agreed)/\(agreed)"), "\(progress)")
        let steps = err.filter { $0.hasPrefix("prove [") }
        #expect(steps == ["prove [1/4] oracle vs protoc", "prove [2/4] generate nanopb C, facades and the catalog"])
        #expect(err.dropLast().last?.hasPrefix("prove: generation refused the schema: ") == true, "\(err)")
        #expect(isDoneLine(err.last), "\(err)")
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
