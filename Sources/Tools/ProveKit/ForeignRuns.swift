// Which proofs `wireproof check-foreign` runs, in which order and with which flags: every corpus
// schema, our naming torture schema and our option schemas; two nanopb tests again with
// --honour-options (rows `<name>+honour`); --no-device where nanopb 0.4.7 itself crashes.

import Foundation

/// One `wireproof prove` of the check.
struct ForeignRun: Equatable {
    /// The row's name: the folder's name, with "+honour" when options are honoured.
    let name: String
    /// The schema folder (absolute).
    let directory: String
    let honourOptions: Bool
    /// The device party is left out (`--no-device`).
    let noDevice: Bool

    /// `wireproof prove`'s arguments for this run, results written beside `results`.
    func proveArguments(scratch: String, mutants: Int, json: String) -> [String] {
        ["prove", "--proto-dir", directory, "--scratch", scratch, "--mutants", "\(mutants)"]
            + (honourOptions ? ["--honour-options"] : []) + (noDevice ? ["--no-device"] : []) + ["--json", json]
    }
}

/// Why the selection asked for cannot be made.
struct ForeignSelectionError: Error, CustomStringConvertible {
    let description: String
}

enum ForeignRuns {
    /// Our own schemas proved next to the corpus, relative to the Wireproof tree.
    static let ownSchemas = ["Tests/Schemas/naming", "Tests/Schemas/options-wildcards",
                             "Tests/Schemas/options-repeated", "Tests/Schemas/options-newer-nanopb"]
    /// nanopb 0.4.7 crashes decoding these schemas' own exemplars (a FT_POINTER fixed_count array
    /// with fewer elements): their facade proof runs without the device party; a later step pins the crash.
    static let deviceCrashes: Set<String> = ["nanopb-fixed_count", "nanopb-namingstyle"]
    /// Corpus folders proved a second time with --honour-options (their int_size, anonymous_oneof
    /// and FT_IGNORE options applied).
    static let honoured = ["nanopb-intsizes", "nanopb-anonymous_oneof"]

    /// The schemas to prove: `corpus` then our own, or only those whose folder name is in `only`
    /// (in the order of the whole list). Throws naming every name that matches no schema.
    static func schemas(corpus: [String], root: String, only: [String]) throws(ForeignSelectionError) -> [String] {
        let all = corpus + ownSchemas.map { root + "/" + $0 }
        guard !only.isEmpty else { return all }
        let names = Set(all.map(lastComponent))
        let unknown = only.filter { !names.contains($0) }
        guard unknown.isEmpty else {
            throw ForeignSelectionError(description: "no schema named \(unknown.joined(separator: ", ")); the names are "
                                        + all.map(lastComponent).joined(separator: ", "))
        }
        return all.filter { only.contains(lastComponent($0)) }
    }

    /// The runs over `schemas`, those that import descriptor.proto first (see `importsDescriptor`),
    /// each group in the given order; the two +honour rows join a whole check (`selected` false).
    static func runs(schemas: [String], corpusFolder: String, selected: Bool) -> [ForeignRun] {
        var runs = schemas.map { ForeignRun(name: lastComponent($0), directory: $0, honourOptions: false,
                                            noDevice: deviceCrashes.contains(lastComponent($0))) }
        if !selected {
            runs += honoured.map { ForeignRun(name: $0 + "+honour", directory: corpusFolder + "/" + $0, honourOptions: true,
                                              noDevice: deviceCrashes.contains($0)) }
        }
        let first = runs.map { importsDescriptor($0.directory) }
        return zip(runs, first).filter { $0.1 }.map(\.0) + zip(runs, first).filter { !$0.1 }.map(\.0)
    }

    /// A schema that imports descriptor.proto (directly or through nanopb.proto) or holds a file of
    /// that name. Such schemas prove first, together: the SwiftProtobuf peer's code for
    /// descriptor.proto then compiles once for all of them instead of again after every schema
    /// without it (the scratch package keeps only the current schema's code).
    static func importsDescriptor(_ directory: String) -> Bool {
        let pattern = try! Regex(#"import +(public +)?["'](google/protobuf/descriptor|nanopb)\.proto["']"#)
        let files = FileManager.default.enumerator(atPath: directory)?.compactMap { $0 as? String } ?? []
        for file in files {
            if lastComponent(file) == "descriptor.proto" { return true }
            guard file.hasSuffix(".proto"), let text = try? String(contentsOfFile: directory + "/" + file, encoding: .utf8) else { continue }
            if text.contains(pattern) { return true }
        }
        return false
    }

    static func lastComponent(_ path: String) -> String { (path as NSString).lastPathComponent }
}
