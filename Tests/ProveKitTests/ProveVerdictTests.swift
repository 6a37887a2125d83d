import DeviceProof
import FacadeProof
import Foundation
import Testing
@testable import ProveKit

/// `wireproof prove`'s last word: a schema is proved only when every party that ran agreed (the
/// oracle with protoc, the facades with the oracle, the peer, the fuzz step, the device party),
/// and the verdict line carries the counts it was judged on.
@Suite struct ProveVerdictTests {
    /// A runner report of one file: 10 exemplars, 7 passed, 2 explained, 1 excluded; 30 mutants
    /// accepted, 90 rejected, `mutantsFailed` failed.
    private func report(failures: [String] = [], mutantsFailed: Int = 0, peer: String? = nil) throws -> SchemaProofReport {
        let row = #"{"file":"a.proto","messages":2,"exemplars":10,"passed":7,"failed":0,"explained":2,"excluded":1,"#
            + #""mutantsAccepted":30,"mutantsRejected":90,"mutantsFailed":\#(mutantsFailed)}"#
        let failureList = "[" + failures.map { "\"\($0)\"" }.joined(separator: ",") + "]"
        let peerJSON = peer.map { #","peer":\#($0)"# } ?? ""
        let json = #"{"rows":[\#(row)],"deviations":[],"failures":\#(failureList),"missing":[]\#(peerJSON)}"#
        return try JSONDecoder().decode(SchemaProofReport.self, from: Data(json.utf8))
    }

    private let facadesPart = "facades 7 of 10 exemplars passed (2 explained by known differences, 1 excluded); 120 mutants"
    private let emptyDevice = "device 0 accepted / 0 refused by option / 0 truncated of 0 exemplars, limits 0/0 at accepted, 0/0 past refused (0 failed)"

    @Test func everyPartyAgreeingIsProvedWithTheCountsInTheLine() throws {
        let verdict = Prover.verdict(oracleAgreed: 40, oracleDisagreed: 0, proof: try report(), fuzz: nil, fuzzFailed: false, device: nil)
        #expect(verdict.proved)
        #expect(verdict.lines == ["prove: PROVED: oracle 40 agreed / 0 disagreed; \(facadesPart) (0 failed)"])
    }

    @Test func theFuzzOutcomeAndTheDeviceVerdictAreAppended() throws {
        let verdict = Prover.verdict(oracleAgreed: 40, oracleDisagreed: 0, proof: try report(), fuzz: "passed", fuzzFailed: false,
                                     device: DeviceProofReport())
        #expect(verdict.proved)
        #expect(verdict.lines == ["prove: PROVED: oracle 40 agreed / 0 disagreed; \(facadesPart) (0 failed); fuzz passed; \(emptyDevice)"])
    }

    @Test func oneOracleDisagreementFailsTheProof() throws {
        let verdict = Prover.verdict(oracleAgreed: 39, oracleDisagreed: 1, proof: try report(), fuzz: nil, fuzzFailed: false, device: nil)
        #expect(!verdict.proved)
        #expect(verdict.lines == ["prove: FAILED: oracle 39 agreed / 1 disagreed; \(facadesPart) (0 failed)"])
    }

    @Test func aFailureInTheRunnersReportFailsTheProof() throws {
        let verdict = Prover.verdict(oracleAgreed: 40, oracleDisagreed: 0, proof: try report(failures: ["a.proto: M exemplar 1"], mutantsFailed: 3),
                                     fuzz: nil, fuzzFailed: false, device: nil)
        #expect(!verdict.proved)
        #expect(verdict.lines == ["prove: FAILED: oracle 40 agreed / 0 disagreed; \(facadesPart) (3 failed)"])
    }

    @Test func aFailedFuzzStepFailsTheProofAndSaysItsExitStatus() throws {
        let verdict = Prover.verdict(oracleAgreed: 40, oracleDisagreed: 0, proof: try report(), fuzz: Prover.fuzzOutcome(1), fuzzFailed: true,
                                     device: nil)
        #expect(!verdict.proved)
        #expect(verdict.lines == ["prove: FAILED: oracle 40 agreed / 0 disagreed; \(facadesPart) (0 failed); fuzz failed (exit 1)"])
        #expect(Prover.fuzzOutcome(0) == "passed")
        #expect(Prover.fuzzOutcome(2) == "failed (exit 2)")
    }

    @Test func theOracleStepReportsItsProgressFiveTimesAndAtTheEnd() {
        #expect((1...519).compactMap { Prover.oracleProgressLine(done: $0, of: 519) }
                == ["prove: oracle 103/519", "prove: oracle 206/519", "prove: oracle 309/519", "prove: oracle 412/519",
                    "prove: oracle 515/519", "prove: oracle 519/519"])
        #expect((1...3).compactMap { Prover.oracleProgressLine(done: $0, of: 3) } == ["prove: oracle 1/3", "prove: oracle 2/3", "prove: oracle 3/3"])
    }

    @Test func theFuzzStepSaysItFuzzesTheDeviceBuildOnlyWhenTheDevicePartyRan() {
        #expect(Prover.fuzzStepLine(seconds: 30, againstDevice: false) == "prove [5/5] libFuzzer on the schema's decoders for 30 s")
        #expect(Prover.fuzzStepLine(seconds: 5, againstDevice: true)
                == "prove [5/5] libFuzzer on the schema's decoders for 5 s, then against the device build for as long")
    }

    @Test func aDeviceFailureFailsTheProof() throws {
        var device = DeviceProofReport()
        device.failures = ["FAIL device: M crashed"]
        let verdict = Prover.verdict(oracleAgreed: 40, oracleDisagreed: 0, proof: try report(), fuzz: nil, fuzzFailed: false, device: device)
        #expect(!verdict.proved)
        #expect(verdict.lines == ["prove: FAILED: oracle 40 agreed / 0 disagreed; \(facadesPart) (0 failed); \(emptyDevice.replacingOccurrences(of: "(0 failed)", with: "(1 failed)"))"])
    }

    @Test func thePeersLineComesFirstAndItsFailuresFailTheProof() throws {
        func peer(failures: String) -> String {
            #"{"peer":"SwiftProtobuf 1.38.1","rows":[{"file":"a.proto","exemplarsSame":8,"exemplarsExplained":2,"mutantsSame":100,"#
                + #""mutantsExplained":20,"failed":\#(failures == "[]" ? 0 : 1)}],"explainedBy":{},"failures":\#(failures)}"#
        }
        let agreeing = Prover.verdict(oracleAgreed: 40, oracleDisagreed: 0, proof: try report(peer: peer(failures: "[]")),
                                      fuzz: nil, fuzzFailed: false, device: nil)
        #expect(agreeing.proved)
        #expect(agreeing.lines == [
            "prove: SwiftProtobuf 1.38.1: exemplars 8 same as the facades, 2 explained; mutants 100 same, 20 explained; 0 failed",
            "prove: PROVED: oracle 40 agreed / 0 disagreed; \(facadesPart) (0 failed)",
        ])
        let differing = Prover.verdict(oracleAgreed: 40, oracleDisagreed: 0, proof: try report(peer: peer(failures: #"["a.proto: M differs"]"#)),
                                       fuzz: nil, fuzzFailed: false, device: nil)
        #expect(!differing.proved)
        #expect(differing.lines.first == "prove: SwiftProtobuf 1.38.1: exemplars 8 same as the facades, 2 explained; mutants 100 same, 20 explained; 1 failed")
    }
}
