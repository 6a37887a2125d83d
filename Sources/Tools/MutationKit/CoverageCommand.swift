// `wiremutate coverage`: the mutants of the sampled layers that sit on lines no test executed,
// from the lcov trace `make coverage` writes.

import ArgumentParser
import Foundation

struct CoverageCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "coverage",
        abstract: "Count each layer's mutants on lines the test suite never executed (from an lcov trace).",
        discussion: "`make coverage` builds the suites with coverage, runs them and calls this. A mutant on an "
            + "unexecuted line survives whatever the tests assert; scripts and C have no line data here.")

    @Argument(help: "The lcov trace (llvm-cov export -format=lcov of the test binary).") var lcov: String
    @Option(name: .customLong("layer"), help: "Only this layer (repeatable); without it, the sampled layers.")
    var layers: [String] = []
    @Option(help: "List this many files with the most such mutants.") var files = 25

    func run() throws {
        let root = try MutateCommand.root()
        guard let text = try? String(contentsOfFile: lcov, encoding: .utf8) else {
            throw ValidationError("cannot read the lcov trace \(lcov)")
        }
        let unknown = Set(layers).subtracting(Layer.all.map(\.name))
        guard unknown.isEmpty else { throw ValidationError("unknown layer(s) \(unknown.sorted().joined(separator: ", "))") }
        let chosen = layers.isEmpty ? Layer.all.filter(\.sampled) : Layer.all.filter { layers.contains($0.name) }
        var source = MutantSource(root: root)
        var mutants: [Mutant] = []
        for layer in chosen { mutants += try source.mutants(of: layer) }
        let coverage = LineCoverage(lcov: text, root: root)
        guard !coverage.counts.isEmpty else { throw ValidationError("\(lcov) holds no line counts (SF:/DA: records)") }
        print(CoverageGaps(mutants: mutants, coverage: coverage).text(fileLimit: files), terminator: "")
    }
}
