import Testing
import ProcessSupport
@testable import MutationKit

@Suite struct SamplingTests {

    func mutants(_ layer: Layer, _ count: Int) -> [Mutant] {
        (0..<count).map { Mutant(layer: layer, path: "\(layer.name).swift", line: $0 + 1, original: "x\($0)\n", mutated: "y\($0)\n", rule: "r") }
    }

    @Test func aSampleIsTheSameForTheSameSeedAndMovesWithTheSeed() {
        let byLayer = [mutants(Layer.all[0], 20), mutants(Layer.all[1], 20)]
        let once = Sampling.pick(byLayer, count: 10, seed: 1).map(\.ident)
        #expect(once == Sampling.pick(byLayer, count: 10, seed: 1).map(\.ident))
        #expect(once != Sampling.pick(byLayer, count: 10, seed: 2).map(\.ident))
    }

    @Test func picksGoRoundRobinOverTheLayersInTheirOrderUntilOneRunsOut() {
        let byLayer = [mutants(Layer.all[0], 1), mutants(Layer.all[1], 3), mutants(Layer.all[2], 3)]
        #expect(Sampling.pick(byLayer, count: 6, seed: 1).map(\.layer.name) == ["runtime", "c-config", "generator", "c-config", "generator", "c-config"])
    }

    @Test func theOrderWithinALayerIsTheHashOfSeedPathAndTextNotTheLineNumber() {
        let layer = Layer.all[0]
        let moved = mutants(layer, 8).map { Mutant(layer: layer, path: $0.path, line: $0.line + 100, original: $0.original, mutated: $0.mutated, rule: "r") }
        #expect(Sampling.pick([mutants(layer, 8)], count: 8, seed: 3).map(\.original) == Sampling.pick([moved], count: 8, seed: 3).map(\.original))
        let first = mutants(layer, 8).min { SHA1.hex("3\0\($0.path)\0\($0.original)\0\($0.mutated)") < SHA1.hex("3\0\($1.path)\0\($1.original)\0\($1.mutated)") }
        #expect(Sampling.pick([mutants(layer, 8)], count: 1, seed: 3).first?.original == first?.original)
    }

    @Test func anIdIsPathLineAndTheTextsHashAndItsKeyDropsTheLine() {
        let m = Mutant(layer: Layer.all[0], path: "a/b.swift", line: 7, original: "x\n", mutated: "y\n", rule: "r")
        #expect(m.ident == "a/b.swift:7:" + SHA1.hex("x\n\0y\n").prefix(10))
        #expect(m.key == "a/b.swift:" + SHA1.hex("x\n\0y\n").prefix(10))
        #expect(MutationRun.parseEquivalent("# c\n\(m.ident) the reason\n") == [m.key: "the reason"])
    }

    /// A hand-edited equivalent.txt line whose id is not `path:line:hash` is kept as written (it
    /// then matches no mutant, which EquivalentListTests reports as stale), never a crash.
    @Test func anIdThatIsNotPathLineHashIsItsOwnKey() {
        #expect(Mutant.key(of: "a/b.swift:deadbeef") == "a/b.swift:deadbeef")
        #expect(MutationRun.parseEquivalent("typo the reason\n") == ["typo": "the reason"])
    }
}
