// The whole proof (`wireproof prove`'s SchemaProof and its runner) on catalogs that are wrong the
// ways a real one goes wrong: facades that lose a byte, a stale catalog (a type the schema no longer
// declares, an exemplar the oracle does not know, exemplars never generated). Each must fail the
// proof, be named with the check and the offset, and be counted in its file's row.

import BundledProtoCatalog
@testable import FacadeProof
import Foundation
import NanopbRuntime
import OracleCheck
import ProtoOracle
import ProtoSchema
import Testing
import TestSupport

@Suite struct ProofFailureTests {
    /// Hex the way a reader checks it by eye: two lower-case digits per byte, spaces between.
    static func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined(separator: " ") }
    /// Failure reports show at most 96 bytes, and then how long the input was.
    static func preview(_ bytes: [UInt8]) -> String {
        bytes.count > 96 ? "\(hex(Array(bytes.prefix(96)))) … (\(bytes.count) bytes)" : hex(bytes)
    }

    /// The bundled catalog with every facade's decode-then-re-encode dropping its last byte.
    static let lossy = FacadeCatalog(
        messageTypes: facadeCatalog.messageTypes.map { real in
            FacadeMessageType(real.fullName) { Array(try real.decodeReencode($0).dropLast()) }
        },
        exemplars: facadeCatalog.exemplars, exclusions: facadeCatalog.exclusions, protoDirectoryHint: nil)

    /// The proof of the lossy catalog and of the real one (each run once: a run takes seconds).
    static let lossyReport = Task { SchemaProof.run(catalog: lossy, schemas: try await BundledSchema.loaded().schemas, configuration: .init(mutantsPerType: 2)) }
    static let realReport = Task { SchemaProof.run(catalog: facadeCatalog, schemas: try await BundledSchema.loaded().schemas, configuration: .init(mutantsPerType: 0)) }

    @Test func facadesThatLoseTheirLastByteFailEveryNonEmptyExemplarNamingTheOffset() async throws {
        let loaded = try await BundledSchema.loaded()
        let report = try await Self.lossyReport.value
        #expect(!report.passed)
        var failedPerFile: [String: Int] = [:]
        var checked = (short: 0, long: 0)
        for exemplar in facadeCatalog.exemplars {
            let bytes = try exemplar.build()
            guard !bytes.isEmpty else { continue }  // an empty encoding has no last byte to lose
            failedPerFile[loaded.schemas.message(exemplar.messageType)?.file ?? "?", default: 0] += 1
            let prefix = "\(exemplar.messageType) exemplar \(exemplar.name): (b) stable round trip failed at byte \(bytes.count - 1): "
            let line = prefix + "facade: \(Self.preview(bytes)) re-encoded: \(Self.preview(Array(bytes.dropLast())))"
            #expect(report.failures.contains(line), "\(line)")
            if bytes.count <= 96 { checked.short += 1 } else { checked.long += 1 }
        }
        #expect(checked.short > 0 && checked.long > 0, "exemplars of both lengths: \(checked)")
        for row in report.rows {
            #expect(row.failed == failedPerFile[row.file, default: 0], "\(row.file)")
            #expect(row.passed + row.failed == row.exemplars, "\(row.file)")
        }
        #expect(report.total.failed == failedPerFile.values.reduce(0, +))
        #expect(report.total.exemplars == facadeCatalog.exemplars.count)
        // A failed exemplar is never counted as explained, however far from canonical its bytes are.
        #expect(report.total.explained == 0 && report.rows.allSatisfy { $0.explained == 0 })
        #expect(try await Self.realReport.value.total.explained > 0, "the same exemplars, passing, include explained ones")
        // The seeded decode mutation sees it too: a lossy re-encoding is not stable.
        #expect(report.total.mutantsFailed > 0)
        #expect(report.failures.contains { $0.contains("[stable-reencode]") })
    }

    @Test func facadesThatRejectTheirOwnEncodingFailCheckBAndProgressCountsEveryStep() async throws {
        let loaded = try await BundledSchema.loaded()
        let refusing = FacadeCatalog(
            messageTypes: facadeCatalog.messageTypes.map { real in
                FacadeMessageType(real.fullName) { _ in throw NanopbError.decodeFailed(reason: .other("planted"), offset: 0) }
            },
            exemplars: facadeCatalog.exemplars, exclusions: facadeCatalog.exclusions, protoDirectoryHint: nil)
        var steps: [String: [Int]] = [:], totals: [String: Set<Int>] = [:]
        let report = SchemaProof.run(catalog: refusing, schemas: loaded.schemas, configuration: .init(mutantsPerType: 1)) { step, done, total in
            steps[step, default: []].append(done); totals[step, default: []].insert(total)
        }
        #expect(report.total.failed == facadeCatalog.exemplars.count)
        let exemplar = try #require(facadeCatalog.exemplars.first)
        #expect(report.failures.contains("\(exemplar.messageType) exemplar \(exemplar.name): (b) stable round trip failed: "
                                         + "the facade rejects its own encoding: decode failed at byte 0: planted"), "\(report.failures.prefix(2))")
        // Progress: each exemplar once, in order, then each mutation seed once, in order.
        let seeds = facadeCatalog.exemplars.filter { !$0.name.contains("#") && !$0.name.contains("!") }.count
        #expect(steps["exemplars"] == Array(1...facadeCatalog.exemplars.count) && totals["exemplars"] == [facadeCatalog.exemplars.count])
        #expect(steps["mutation"] == Array(1...seeds) && totals["mutation"] == [seeds])
    }

    @Test func theRunnerPrintsTwentyFailuresAndCountsTheRest() async throws {
        let report = try await Self.lossyReport.value
        let lines = ProofRunnerCommand.summary(of: report)
        let shown = lines.filter { $0.hasPrefix("FAIL ") }
        #expect(report.failures.count > 20)
        #expect(shown == report.failures.prefix(20).map { "FAIL \($0)" })
        #expect(lines.last == "... and \(report.failures.count - 20) more failures")
        #expect(lines.first == report.table)
        // At the cap exactly, nothing is left out and nothing says so.
        let all = ProofRunnerCommand.summary(of: report, shown: report.failures.count)
        #expect(all.filter { $0.hasPrefix("FAIL ") }.count == report.failures.count)
        #expect(!all.contains { $0.hasPrefix("... and") })
        #expect(ProofRunnerCommand.summary(of: report, shown: report.failures.count - 1).last == "... and 1 more failures")

        let passing = try await Self.realReport.value
        // "explained": passed, but not byte-identical to the canonical encoding (a known
        // difference accounts for it), counted here from the oracle's own exemplars.
        var differing = 0
        for exemplar in facadeCatalog.exemplars {
            let canonical = try await BundledSchema.exemplar(named: exemplar.name).message.serializedBytes()
            if try exemplar.build() != canonical { differing += 1 }
        }
        #expect(passing.total.explained == differing && differing > 0, "\(passing.total.explained) vs \(differing)")
        let clean = ProofRunnerCommand.summary(of: passing)
        #expect(!clean.contains { $0.hasPrefix("FAIL ") || $0.hasPrefix("...") || $0.hasPrefix("missing:") })
        // Every deviation row the schema is exposed to is listed with its element count.
        for deviation in passing.deviations where deviation.elements > 0 {
            #expect(clean.contains { $0.hasPrefix("  #\(deviation.row) ") && $0.contains(": \(deviation.elements)") })
        }
    }

    @Test func theTableFitsTheLongestFileNameAndRightAlignsEveryCount() {
        let long = String(repeating: "deep/", count: 9) + "x.proto"  // 52 characters, past the 36 minimum
        var row = SchemaProofReport.Row(file: long)
        row.messages = 3; row.exemplars = 12_345; row.passed = 7
        let table = SchemaProofReport(rows: [row, SchemaProofReport.Row(file: "a.proto")], deviations: [], failures: [], missing: []).table
        let lines = table.split(separator: "\n").map(String.init)
        #expect(lines.count == 4)  // header, two files, total
        #expect(Set(lines.map(\.count)).count == 1, "every line as wide as the others:\n\(table)")
        #expect(lines[1].dropFirst(long.count + 2).hasPrefix("         3     12345         7"), "\(lines[1])")
        #expect(lines[0].hasPrefix("file" + String(repeating: " ", count: long.count - 2) + "  messages"), "\(lines[0])")
        #expect(lines[3].hasPrefix("total"))
    }

    @Test func theSeededMutationMakesEveryKindOfEditItDocuments() {
        // Over many draws from one seed: a single bit flipped, a byte overwritten (more than one bit
        // changed), a truncation, an insertion, a deletion, and growth by a repeated slice.
        let original = (0..<32).map { UInt8($0 * 7 & 0xFF) }
        var random = SplitMix64(seed: 11)
        var kinds: Set<String> = []
        for _ in 0..<3_000 {
            let out = DecodeMutationCheck.mutate(original, &random)
            if out.count == original.count {
                let changed = zip(out, original).filter { $0 != $1 }
                if changed.count == 1 { kinds.insert((changed[0].0 ^ changed[0].1).nonzeroBitCount == 1 ? "bit" : "byte") }
            } else if out.count < original.count {
                // A deletion removes at most 8 bytes; a prefix more than 8 shorter is a truncation.
                kinds.insert(original.starts(with: out) && original.count - out.count > 8 ? "truncate" : "delete")
            } else {
                kinds.insert(out.count - original.count <= 16 ? "insert-or-append" : "grow")
            }
            #expect(out.count <= 2 * original.count + 16)
        }
        #expect(kinds.isSuperset(of: ["bit", "byte", "truncate", "delete", "insert-or-append", "grow"]), "\(kinds)")
    }

    @Test func aDuplicatedSliceCanLandAfterTheLastByte() {
        // The slice copy inserts anywhere from before the first byte to after the last. Only an
        // insertion at the very end turns distinct bytes into `original + original[p..<e]` with e
        // short of the end (a slice copied in place just after itself always ends at the end).
        let original = (0..<32).map { UInt8($0 * 7 & 0xFF) }
        var random = SplitMix64(seed: 12)
        var appendedSlices = 0
        for _ in 0..<3_000 {
            let out = DecodeMutationCheck.mutate(original, &random)
            guard out.count >= original.count + 2, out.starts(with: original) else { continue }
            let tail = Array(out[original.count...])
            guard let start = original.firstIndex(of: tail[0]), start + tail.count < original.count else { continue }
            if Array(original[start..<start + tail.count]) == tail { appendedSlices += 1 }
        }
        #expect(appendedSlices > 0, "no slice was ever copied after the last byte")
    }

    @Test func aStaleCatalogIsReportedByNameAndFailsTheProof() async throws {
        let loaded = try await BundledSchema.loaded()
        let codec = try #require(facadeCatalog.exemplars.first { $0.messageType == "rtm.Codec" })
        let dropped = facadeCatalog.exemplars.filter { $0.messageType == "rtm.Cursor" }
        #expect(!dropped.isEmpty)
        let kept = facadeCatalog.exemplars.filter { $0.messageType != "rtm.Cursor" }
        let stale = FacadeCatalog(
            messageTypes: facadeCatalog.messageTypes + [FacadeMessageType("zz.Gone") { $0 }],  // still sorted
            exemplars: kept + [FacadeExemplar("rtm.Codec!renamed", "rtm.Codec", build: codec.build)],
            exclusions: facadeCatalog.exclusions, protoDirectoryHint: nil)
        let report = SchemaProof.run(catalog: stale, schemas: loaded.schemas, configuration: .init(mutantsPerType: 0))
        #expect(!report.passed)
        #expect(report.failures.contains("zz.Gone: in the catalog but not in the schema (stale catalog: regenerate)"))
        #expect(report.failures.contains("rtm.Codec exemplar rtm.Codec!renamed: unknown to the oracle (stale catalog: regenerate)"))
        #expect(report.failures.count == 2, "\(report.failures)")
        #expect(report.missing == dropped.map(\.name).sorted())
        #expect(report.total.passed == kept.count)
        #expect(report.total.failed == 1)
        let missingLines = ProofRunnerCommand.summary(of: report).filter { $0.hasPrefix("missing: ") }
        #expect(missingLines.count == min(20, dropped.count))

        // An exclusion of one exemplar (`type#variant`) counts in its type's file.
        let oneVariant = FacadeCatalog(
            messageTypes: facadeCatalog.messageTypes, exemplars: facadeCatalog.exemplars,
            exclusions: facadeCatalog.exclusions + [FacadeExemplarExclusion(name: "rtm.Cursor#planted=variant", reason: "test")],
            protoDirectoryHint: nil)
        let counted = SchemaProof.run(catalog: oneVariant, schemas: loaded.schemas, configuration: .init(mutantsPerType: 0))
        let cursorRow = try #require(loaded.schemas.message("rtm.Cursor")?.file)
        let baseline = try await Self.realReport.value
        #expect(counted.rows.first { $0.file == cursorRow }?.excluded == (baseline.rows.first { $0.file == cursorRow }?.excluded ?? 0) + 1)
        #expect(!counted.rows.contains { $0.file == "?" }, "no row for an unknown file")
        // Excluding the dropped type by name accounts for its exemplars: nothing is missing.
        let excluded = FacadeCatalog(
            messageTypes: facadeCatalog.messageTypes, exemplars: kept,
            exclusions: facadeCatalog.exclusions + [FacadeExemplarExclusion(name: "rtm.Cursor", reason: "test")], protoDirectoryHint: nil)
        let accounted = SchemaProof.run(catalog: excluded, schemas: loaded.schemas, configuration: .init(mutantsPerType: 0))
        #expect(accounted.passed, "\(accounted.failures.prefix(3)) \(accounted.missing.prefix(3))")
        let cursorFile = try #require(loaded.schemas.message("rtm.Cursor")?.file)
        let before = try await Self.realReport.value
        let excludedBefore = before.rows.first { $0.file == cursorFile }?.excluded ?? 0
        #expect(accounted.rows.first { $0.file == cursorFile }?.excluded == excludedBefore + 1)
    }

    @Test func theRunnerExitsTwoOnUsageErrorsOneOnAFailedProofAndZeroWhenProved() async throws {
        for arguments in [[], ["--mutants"], ["--mutants", "-1"], ["--mutants", "x"], ["--seed", "-3"], ["--bogus", "1"],
                          ["--descriptor-set", "/nonexistent/schema.pb"]] {
            #expect(ProofRunnerCommand.main(catalog: facadeCatalog, arguments: arguments) == 2, "\(arguments)")
        }
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("wireproof-runner-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let compiled = try await OracleCheck.compile(OracleCheckConfiguration(protoDirectory: BundledSchema.protoDirectory), scratch: scratch)
        let json = scratch.appendingPathComponent("summary.json").path
        let proved = ProofRunnerCommand.main(catalog: facadeCatalog, arguments: ["--descriptor-set", compiled.descriptorSetPath,
                                                                                  "--mutants", "3", "--seed", "9", "--json", json])
        #expect(proved == 0)
        let summary = try JSONDecoder().decode(SchemaProofReport.self, from: Data(contentsOf: URL(fileURLWithPath: json)))
        #expect(summary.passed && summary.total.exemplars == facadeCatalog.exemplars.count)
        let seeds = facadeCatalog.exemplars.filter { !$0.name.contains("#") && !$0.name.contains("!") }.count
        #expect(summary.total.mutantsAccepted + summary.total.mutantsRejected + summary.total.mutantsFailed == 3 * seeds)
        #expect(ProofRunnerCommand.main(catalog: Self.lossy, arguments: ["--descriptor-set", compiled.descriptorSetPath, "--mutants", "0"]) == 1)
        #expect(ProofRunnerCommand.main(catalog: facadeCatalog, arguments: ["--descriptor-set", compiled.descriptorSetPath, "--mutants", "0",
                                                                            "--json", "/nonexistent/dir/summary.json"]) == 2)
    }
}
