// runtime-exerciser: the shipped layer under a host valgrind can run (one thread, no swift-testing).
//
//   runtime-exerciser check [--corpus DIR]   every exercise (Exercises.swift) twice; exit 1 on any
//                                            finding or if the second pass changed the number of
//                                            live nanopb/runtime heap blocks (a leak)
//   runtime-exerciser peak participant|stats COUNT [unlimited]
//                                            decode one hostile input and print the peak resident
//                                            memory it added (scripts/peak-memory.sh)

#if canImport(Glibc)
import Glibc
#endif
import BundledProto
import BundledProtoCatalog
import CNanopb
import NanopbRuntime

func readCorpus(_ directory: String) -> [(String, [UInt8])] {
    guard let dir = opendir(directory) else { return [] }
    defer { closedir(dir) }
    var names: [String] = []
    while let entry = readdir(dir) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        if !name.hasPrefix(".") { names.append(name) }
    }
    return names.sorted().compactMap { name in
        guard let file = fopen(directory + "/" + name, "rb") else { return nil }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = fread(&chunk, 1, chunk.count, file)
            if count <= 0 { break }
            bytes += chunk[..<count]
        }
        return (name, bytes)
    }
}

func maxResidentKiB() -> Int {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return usage.ru_maxrss
}

func check(_ arguments: ArraySlice<String>) -> Int32 {
    var corpus: [(String, [UInt8])] = []
    if let flag = arguments.firstIndex(of: "--corpus"), flag + 1 < arguments.endIndex {
        corpus = readCorpus(arguments[flag + 1])
    }
    var findings = Findings()
    exerciseOnce(corpus: corpus, findings: &findings)  // first pass: one-time allocations (empty values)
    let baseline = wp_pb_live_allocations_on_this_thread()
    exerciseOnce(corpus: corpus, findings: &findings)
    let after = wp_pb_live_allocations_on_this_thread()
    if after != baseline { findings.fail("live heap blocks \(baseline) before the second pass, \(after) after it") }
    for line in findings.lines { print("runtime-exerciser: FAIL \(line)") }
    print("runtime-exerciser: \(findings.lines.isEmpty ? "ok" : "\(findings.lines.count) failures"): " +
          "\(facadeCatalog.exemplars.count) exemplars, \(corpus.count) regressions, hostile inputs, ownership; " +
          "live blocks \(baseline) -> \(after)")
    return findings.lines.isEmpty ? 0 : 1
}

func peak(_ arguments: ArraySlice<String>) -> Int32 {
    let args = Array(arguments)
    guard args.count >= 2, let count = Int(args[1]) else {
        print("usage: runtime-exerciser peak participant|stats COUNT [unlimited]"); return 2
    }
    let options = NanopbDecodeOptions(allocationBudget: args.count > 2 && args[2] == "unlimited" ? .unlimited : .standard)
    var input: [UInt8] = []
    switch args[0] {
    case "participant": for _ in 0..<count { input += [0x32, 0x00] }
    case "stats": for _ in 0..<count { input += [0x1A, 0x02, 0x12, 0x00] }
    default: print("unknown input \(args[0])"); return 2
    }
    let before = maxResidentKiB()
    let outcome: String
    do {
        switch args[0] {
        case "participant": outcome = "decoded \(try Rtm_Participant(serializedBytes: input, options: options).tracks.count) tracks"
        default: outcome = "decoded \(try Rtm_StatsSnapshot(serializedBytes: input, options: options).streamsBySsrc.count) entries"
        }
    } catch {
        outcome = "\(error)"
    }
    print("input_bytes=\(input.count) peak_added_kib=\(maxResidentKiB() - before) outcome=\(outcome)")
    return 0
}

let arguments = CommandLine.arguments.dropFirst()
switch arguments.first {
case "check": exit(check(arguments.dropFirst()))
case "peak": exit(peak(arguments.dropFirst()))
default:
    print("usage: runtime-exerciser check [--corpus DIR] | peak participant|stats COUNT [unlimited]")
    exit(2)
}
