// wirebench: the transport's measurements, driven by scripts (never by tests; docs/transport.md).
//
//   wirebench udp-burst individual|batched [BURSTS] [SIZE] [BYTES]   (scripts/udp-batch-bench.sh)
//   wirebench load PKI_DIR [CONNECTIONS]                               (scripts/load-test.sh)
//   wirebench run                                                      (make bench; BenchReport)
//   wirebench report lines|sizes|peer-sizes|codec|ratios|summary ...  (the reporter `run` uses, by hand)
import BenchReport
import CommandLineSupport
import Foundation
import Glibc

let arguments = Array(CommandLine.arguments.dropFirst())
do {
    switch arguments.first {
    case "udp-burst" where arguments.count >= 2 && ["individual", "batched"].contains(arguments[1]):
        let number = { (i: Int, fallback: Int) in arguments.count > i ? Int(arguments[i]) ?? fallback : fallback }
        exit(try UDPBurst.run(batched: arguments[1] == "batched", bursts: number(2, 1000), size: number(3, 100), bytes: number(4, 200)))
    case "run":
        exit(await CommandExit.run(RunCommand.self, Array(arguments.dropFirst())))
    case "report":
        exit(await CommandExit.run(ReportCommand.self, Array(arguments.dropFirst())))
    case "load" where arguments.count >= 2:
        exit(try Load.run(pki: arguments[1], count: arguments.count > 2 ? Int(arguments[2]) ?? 1000 : 1000))
    default:
        FileHandle.standardError.write(Data("usage: wirebench udp-burst individual|batched [BURSTS] [SIZE] [BYTES] | wirebench load PKI_DIR [CONNECTIONS] | wirebench run | wirebench report --help\n".utf8))
        exit(2)
    }
} catch {
    FileHandle.standardError.write(Data("wirebench: \(error)\n".utf8))
    exit(1)
}
