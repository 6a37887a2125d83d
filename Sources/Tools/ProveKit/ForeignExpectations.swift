// What `wireproof check-foreign` expects of the proofs that must not pass: two refusals at generation
// time (exit status 2) and one crash of nanopb 0.4.7 that the device party must find (exit status 1).
// Each check reads the prove's exit status and output; it passes only when the output names exactly
// what was refused or what crashed, so a refusal for another reason is a failure.

import Foundation

/// One expected outcome of `wireproof prove` that is not "proved".
struct ForeignExpectation: Sendable {
    /// The name of the log under results/ (without .log).
    let logName: String
    /// `wireproof prove`'s arguments for the schema folder given (the caller adds `--scratch`).
    let arguments: @Sendable (_ protoDirectory: String) -> [String]
    /// The exit status the prove must end with.
    let status: Int32
    /// Whether `output` names what is expected.
    let namesIt: @Sendable (_ output: String) -> Bool
    /// The lines shown under the "as expected" line.
    let shown: @Sendable (_ output: String) -> [String]
    /// Printed when the check passes.
    let passed: String
    /// The failure, before "; got exit N (log: …)".
    let expected: String

    /// nil when `status` and `output` are what this expectation asks for, else the failure.
    func failure(status actual: Int32, output: String, log: String) -> String? {
        actual == status && namesIt(output) ? nil : "\(expected); got exit \(actual) (log: \(log))"
    }

    /// Google's test_messages_proto2.proto holds proto2 groups: refused, naming the file and the group field.
    static let proto2Groups = ForeignExpectation(
        logName: "test_messages_proto2",
        arguments: { ["prove", "--proto-dir", $0, "--mutants", "0"] },
        status: 2,
        namesIt: { output in
            output.contains("test_messages_proto2.proto") && output.contains(try! Regex(#"TestAllTypesProto2\.data\b"#))
                && output.lowercased().contains("group")
        },
        shown: { lines($0).filter { $0.lowercased().contains("group") }.prefix(3).map { $0 } },
        passed: "check-foreign: test_messages_proto2 refused as expected:",
        expected: "test_messages_proto2: expected a refusal (exit 2) naming the file and the group field 'data'")

    /// nanopb's fixed_count test with --honour-options: refused, naming file, field and the option.
    static let optionNotHonoured = ForeignExpectation(
        logName: "fixed_count+honour",
        arguments: { ["prove", "--proto-dir", $0, "--mutants", "0", "--honour-options"] },
        status: 2,
        namesIt: { output in
            lines(output).contains { $0.contains(try! Regex(#"fixed_count\.proto: Message1\.data: fixed_count = true .*not supported"#)) }
        },
        shown: { lines($0).filter { $0.contains("fixed_count = true") }.prefix(1).map { String($0.prefix(150)) } },
        passed: "check-foreign: nanopb-fixed_count with --honour-options refused as expected:",
        expected: "nanopb-fixed_count --honour-options: expected a refusal (exit 2) naming fixed_count.proto, Message1.data and the option fixed_count")

    /// nanopb 0.4.7 reads past a FT_POINTER fixed_count array holding fewer elements: the device
    /// party must find that crash on nanopb's fixed_count test and name it.
    static let deviceCrash = ForeignExpectation(
        logName: "fixed_count+device",
        arguments: { ["prove", "--proto-dir", $0, "--mutants", "0"] },
        status: 1,
        namesIt: { output in
            let crash = try! Regex(#"^FAIL device: Message4\.strings fixed_count \(max_count = 4\): past \(3 elements\): the device build crashed"#)
            return lines(output).contains { $0.contains(crash) }
        },
        shown: { output in
            lines(output).filter { $0.hasPrefix("FAIL device: ") && $0.contains("crashed") }.prefix(2).map { String($0.prefix(150)) }
        },
        passed: "check-foreign: nanopb-fixed_count with the device party: nanopb 0.4.7's crash found as expected:",
        expected: "nanopb-fixed_count with the device party: expected exit 1 naming the device crash on Message4.strings")

    /// The non-empty lines of `output` (every expectation looks for text, never for a blank line).
    static func lines(_ output: String) -> [String] { output.split(separator: "\n").map(String.init) }
}
