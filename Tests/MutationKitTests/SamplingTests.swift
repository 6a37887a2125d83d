import Testing
@testable import MutationKit

@Suite struct SamplingTests {
    @Test func sha1MatchesTheStandardsTestVectors() {
        #expect(SHA1.hex("abc") == "a9993e364706816aba3e25717850c26c9cd0d89d")
        #expect(SHA1.hex("") == "da39a3ee5e6b4b0d3255bfef95601890afd80709")
        #expect(SHA1.hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq") == "84983e441c3bd26ebaae4aa1f95129e5e54670f1")
        #expect(SHA1.hex(String(repeating: "a", count: 1000)) == "291e9a6c66994949b57ba5e650361e98fc36b1ba")
    }

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
}
