import Foundation
import OracleCheck
import ProofSupport
import ProtoOracle
import ProveKit
import Testing
import TestSupport

/// The oracle-check against a protoc that is wrong in one way at a time (a wrapper around the real
/// one): each disagreement is reported for every case it touches, with the reason, both byte
/// strings and both texts, and `wireproof oracle-check` exits 1; with the real protoc it exits 0.
@Suite(.serialized) struct DisagreeingProtocTests {
    /// A protoc wrapper: `--encode` and `--decode` runs are changed as `mode` says; everything
    /// else (compiling the descriptor set) goes to the real protoc. Each run appends its kind
    /// (encode, decode, other) as a line to the file at the returned path + ".runs".
    static func fakeProtoc(_ mode: String, in dir: URL) throws -> String {
        let path = dir.appendingPathComponent("protoc-\(mode)").path
        let script = """
            #!/bin/bash
            mode=\(mode)
            kind=other
            for a in "$@"; do case "$a" in --encode=*) kind=encode ;; --decode=*) kind=decode ;; esac; done
            echo "$kind" >> "$0.runs"
            case "$mode/$kind" in
              encode-fails/encode) echo "planted: no encoding" >&2; exit 1 ;;
              encode-extra/encode) /usr/bin/protoc "$@" || exit; printf '\\x08\\x01' ;;
              decode-fails/decode) echo "planted: no decoding" >&2; exit 1 ;;
              decode-garbage/decode) cat >/dev/null; echo '}}} not text format' ;;
              decode-drops/decode) /usr/bin/protoc "$@" | head -n -1 ;;
              decode-drops-one-field/decode) /usr/bin/protoc "$@" | sed -E '0,/^(  )?[a-z_0-9]+: /{//d}' ;;
              batch-drops-one-field/decode) /usr/bin/protoc "$@" | sed -E '0,/^  [a-z_0-9]+: /{//d}' ;;
              *) exec /usr/bin/protoc "$@" ;;
            esac
            """
        // Written here, then copied into place by `cp`: a child that another test forks while this
        // process holds the file open for writing would keep it open and make it unexecutable
        // ("text file busy"); the copy's write descriptor lives only in the `cp` process.
        try script.write(toFile: path + ".txt", atomically: true, encoding: .utf8)
        // ChildProcess, not Foundation's Process, which leaks under LeakSanitizer (ProcessSupport).
        let copy = try ChildProcess.run("/bin/cp", [path + ".txt", path])
        try #require(copy.status == 0, "\(copy.stderrText)")
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path)
        return path
    }

    static func run(_ mode: String?, concurrency: Int? = nil) async throws -> OracleCheckReport {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("wireproof-fakeprotoc-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        var configuration = OracleCheckConfiguration(protoDirectory: Fixtures.wireDirectory, randomCount: 6, seed: 4)
        configuration.protocPath = try mode.map { try fakeProtoc($0, in: dir) }
        if let concurrency { configuration.concurrency = concurrency }
        return try await OracleCheck.run(configuration)
    }

    /// The configuration is public and a width below one means one protoc at a time, never none:
    /// every case is still checked (here each against a protoc that refuses to encode).
    @Test func aConcurrencyBelowOneStillChecksEveryCase() async throws {
        for concurrency in [0, -3] {
            let total = try await Self.run("encode-fails", concurrency: concurrency).total
            #expect(total.disagreed > 0 && total.disagreed == total.exemplars + total.random && total.agreed == 0, "concurrency \(concurrency)")
        }
    }

    @Test(arguments: [
        ("encode-fails", "protoc --encode rejected the oracle's text: planted: no encoding"),
        ("encode-extra", "encodings differ"),
        ("decode-fails", "protoc --decode rejected the oracle's bytes: planted: no decoding"),
        ("decode-garbage", "protoc --decode text does not parse"),
    ])
    func everyCaseDisagreesWithAProtocThatIsWrongThatWay(_ mode: String, _ problem: String) async throws {
        let report = try await Self.run(mode)
        let total = report.total
        #expect(total.agreed == 0 && total.disagreed == total.exemplars + total.random && total.disagreed > 0, "\(report.table)")
        #expect(report.failures.count == total.disagreed)
        for failure in report.failures {
            #expect(failure.problem.hasPrefix(problem), "\(failure.problem)")
            #expect(failure.description.hasPrefix("DISAGREE \(failure.caseName) (\(failure.messageName))"))
            #expect(failure.description.contains("  oracle bytes: \(failure.oracleBytes.map { String(format: "%02x", $0) }.joined())"))
            #expect(failure.description.contains("  protoc bytes: \(failure.protocBytes.map { String(format: "%02x", $0) }.joined())"))
            #expect(failure.description.contains("  oracle text:\n") && failure.description.contains("  protoc --decode text:\n"))
        }
        // Random cases name the seed that replays them.
        #expect(report.failures.filter { $0.caseName.hasPrefix("random#") }.allSatisfy { $0.seed == 4 && $0.description.contains(" seed 4:") })
        if mode == "encode-extra" {
            #expect(report.failures.allSatisfy { $0.protocBytes == $0.oracleBytes + [0x08, 0x01] })
        }
    }

    @Test func progressCountsEveryCaseOnceUpToTheTotal() async throws {
        let seen = ProgressLog()
        let report = try await OracleCheck.run(OracleCheckConfiguration(protoDirectory: Fixtures.wireDirectory, randomCount: 5, seed: 4)) {
            seen.append($0, $1)
        }
        let total = report.total.exemplars + report.total.random
        #expect(seen.items.map(\.0) == Array(1...total), "\(seen.items)")
        #expect(seen.items.allSatisfy { $0.1 == total })
    }

    @Test func aProtocThatDropsALineOfItsDecodingIsCaughtOnNonEmptyMessages() async throws {
        let report = try await Self.run("decode-drops")
        let total = report.total
        #expect(total.disagreed > 0 && total.agreed > 0, "\(report.table)")
        for failure in report.failures {
            #expect(failure.problem.hasPrefix("protoc --decode text reads back to a different message")
                        || failure.problem.hasPrefix("protoc --decode text does not parse"), "\(failure.problem)")
            #expect(!failure.oracleBytes.isEmpty, "an empty message has no line to drop")
        }
    }

    /// protoc drops the first scalar line of what it prints, alone or of a batch's first item
    /// holding one: the batch confirms its other items, and each case whose line went is checked
    /// alone and reported (a batch never confirms an item protoc read back differently).
    @Test func aProtocThatDropsOneFieldOfABatchIsCaughtForTheCasesItTouches() async throws {
        let report = try await Self.run("decode-drops-one-field")
        let total = report.total
        #expect(total.disagreed > 0 && total.agreed > total.disagreed, "\(report.table)")
        for failure in report.failures {
            #expect(failure.problem.hasPrefix("protoc --decode text reads back to a different message"), "\(failure.problem)")
        }
    }

    /// Cases of one message type share a protoc run each way: the runs are the descriptor set's
    /// compilation and two per message type (each type here has fewer than a batch's 64 cases, and
    /// a type's single case is checked alone, in two runs as well).
    @Test func casesOfOneTypeShareTheirProtocRuns() async throws {
        let folder = try TemporaryFolder("fakeprotoc-count")
        let dir = URL(fileURLWithPath: folder.path)
        var configuration = OracleCheckConfiguration(protoDirectory: Fixtures.wireDirectory, randomCount: 40, seed: 4)
        configuration.protocPath = try Self.fakeProtoc("agree", in: dir)
        let report = try await OracleCheck.run(configuration)
        let total = report.total
        #expect(total.disagreed == 0 && total.agreed == total.exemplars + total.random, "\(report.table)")
        let runs = try String(contentsOfFile: configuration.protocPath! + ".runs", encoding: .utf8).split(separator: "\n")
        let encodes = runs.filter { $0 == "encode" }.count
        #expect(runs.filter { $0 == "other" }.count == 1)
        #expect(encodes == runs.filter { $0 == "decode" }.count)
        let compiled = try await OracleCheck.compile(OracleCheckConfiguration(protoDirectory: Fixtures.wireDirectory), scratch: dir)
        let types = compiled.schemas.messages.filter { !$0.isMapEntry && compiled.files.contains($0.file) }.count
        #expect(encodes == types, "\(encodes) encode runs for \(types) message types and \(total.agreed) cases")
        #expect(types * 2 < total.agreed)
    }

    @Test func theCommandExitsOneOnADisagreementZeroOnAgreementTwoOnUsage() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("wireproof-fakeprotoc-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let fake = try Self.fakeProtoc("encode-extra", in: dir)
        let wire = Fixtures.wireDirectory
        #expect(await WireproofCommand.main(["oracle-check", "--proto-dir", wire, "--protoc", fake, "--jobs", "2"]) == 1)
        #expect(await WireproofCommand.main(["oracle-check", "--proto-dir", wire, "--random", "3", "--seed", "2"]) == 0)
        for arguments in [[], ["--help"], ["prove", "--help"], ["oracle-check", "--help"], ["catalog", "--help"]] {
            #expect(await WireproofCommand.main(arguments) == 0, "\(arguments) prints help")
        }
        for arguments in [["check"], ["prove"], ["prove", "--proto-dir", "p", "--mutants", "-1"], ["oracle-check", "--proto-dir"], ["oracle-check", "--seed", "x"], ["oracle-check", "--random", "-1"],
                          ["oracle-check", "--jobs", "many"], ["oracle-check", "--bogus", "1"],
                          ["oracle-check", "--proto-dir", dir.appendingPathComponent("absent").path]] {
            #expect(await WireproofCommand.main(arguments) == 2, "\(arguments)")
        }
    }
}

/// (done, total) pairs as the check reports them, from any task.
final class ProgressLog: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [(Int, Int)] = []
    func append(_ done: Int, _ total: Int) { lock.lock(); stored.append((done, total)); lock.unlock() }
    var items: [(Int, Int)] { lock.lock(); defer { lock.unlock() }; return stored }
}
