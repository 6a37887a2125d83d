import Foundation
import Testing
@testable import MutationKit

@Suite struct MutationReportFileTests {

    func verdict(_ layer: Layer, _ line: Int, _ outcome: Outcome) -> Verdict {
        let mutant = Mutant(layer: layer, path: "\(layer.name).swift", line: line, original: "a\(line)\n", mutated: "b\(line)\n", rule: "r")
        return Verdict(mutant: mutant, outcome: outcome, detail: "", seconds: 1)
    }

    @Test func reportJSONCarriesEachLayersCountsScoreAndEverySurvivorsDiff() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("report-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let runtime = Layer.all[0], generator = Layer.all[2]
        let verdicts = [verdict(runtime, 1, .killed), verdict(runtime, 2, .timeout), verdict(runtime, 3, .survived),
                        verdict(runtime, 4, .noCompile), verdict(generator, 1, .equivalent)]
        let written = MutationReport.write(verdicts, seed: 7, sample: 5, seconds: 61, folder: folder)
        let file = try JSONDecoder().decode(MutationReportFile.self, from: Data(contentsOf: URL(fileURLWithPath: folder + "/report.json")))
        #expect(file.seed == 7 && file.sample == 5 && file.seconds == 61)
        #expect(file.layers[runtime.name]?.outcomes == ["killed": 1, "timeout": 1, "survived": 1, "no-compile": 1, "equivalent": 0, "not judged": 0])
        let score = try #require(file.total.score)
        #expect(abs(score - 200.0 / 3) < 1e-9 && written.score == file.total.score)
        #expect(file.layers[generator.name]?.score == nil)
        #expect(file.survivors.map(\.id) == [verdicts[2].mutant.ident] && file.survivors.first?.diff == verdicts[2].mutant.diff)
    }
}
