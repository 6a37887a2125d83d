import Testing
@testable import ProveKit

/// How `wireproof check-foreign` judges and reports each prove: a prove that did not pass is named
/// with its exit status and log, a passing one must have compiled its schema once; the linked
/// program's last lines are shown; the closing line names the further steps only on a whole check.
@Suite struct ForeignCheckOutcomeTests {
    private let once = "-I. --descriptor_set_out=/s/schema.pb a.proto\n--descriptor_set_in=/s/schema.pb --encode=A\n"

    @Test func aPassingProveMustHaveCompiledItsSchemaOnce() {
        #expect(ForeignCheck.runFailures("nanopb-alltypes", status: 0, protocCalls: once, protocLog: "p", log: "l").isEmpty)
        #expect(ForeignCheck.runFailures("nanopb-alltypes", status: 0, protocCalls: once + once, protocLog: "r/x.protoc", log: "l")
                == ["nanopb-alltypes: protoc compiled the schema 2 times, not once (calls: r/x.protoc)"])
        #expect(ForeignCheck.runFailures("onnx", status: 0, protocCalls: "", protocLog: "p", log: "l")
                == ["onnx: protoc compiled the schema 0 times, not once (calls: p)"])
    }

    @Test func aProveThatDidNotPassIsNamedWithItsExitStatusAndLogOnly() {
        #expect(ForeignCheck.runFailures("onnx", status: 1, protocCalls: once, protocLog: "p", log: "r/onnx.log")
                == ["onnx: wireproof prove exited 1 (log: r/onnx.log)"])
        #expect(ForeignCheck.runFailures("onnx", status: 2, protocCalls: "", protocLog: "p", log: "r/onnx.log")
                == ["onnx: wireproof prove exited 2 (log: r/onnx.log)"])
    }

    @Test func theLinkedProgramsLastFourLinesAreShown() {
        #expect(ForeignCheck.linkedTail("").isEmpty)
        #expect(ForeignCheck.linkedTail("one\n") == ["one"])
        #expect(ForeignCheck.linkedTail("a\nb") == ["a", "b"])
        #expect(ForeignCheck.linkedTail("a\nb\nc\nd\ne\n") == ["b", "c", "d", "e"])
    }

    @Test func theOkLineNamesTheFurtherStepsOnlyOnAWholeCheck() {
        #expect(ForeignCheck.okLine(runs: 2, schemas: 1, whole: false) == "check-foreign: ok (2 proofs of 1 schemas passed)")
        #expect(ForeignCheck.okLine(runs: 25, schemas: 21, whole: true)
                == "check-foreign: ok (25 proofs of 21 schemas passed; test_messages_proto2 and an option that cannot be honoured refused; "
                + "the device crash in nanopb fixed_count found; two schemas linked into one program)")
    }
}
