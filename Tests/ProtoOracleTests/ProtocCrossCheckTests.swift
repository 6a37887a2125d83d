import Foundation
import OracleCheck
import ProtoOracle
import Testing
import TestSupport

/// The oracle against protoc (Google's C++ implementation), through the one shared
/// implementation in `OracleCheck`: for every exemplar and for seeded random messages, the
/// oracle's bytes equal `protoc --encode` of the oracle's text, and `protoc --decode` of the
/// oracle's bytes reads back to an equal message. Exemplars with NaN payloads are excluded (text
/// cannot carry them) and counted as such.
@Suite struct ProtocCrossCheckTests {
    /// The fixed seed of the random messages; a failure prints it with the case name.
    static let seed: UInt64 = 20_240_601

    func check(_ label: String, _ configuration: OracleCheckConfiguration) async throws -> OracleCheckReport {
        let report = try await OracleCheck.run(configuration)
        let total = report.total
        print("oracle-vs-protoc [\(label)]: \(total.exemplars) exemplars + \(total.random) random (seed \(report.seed)): "
              + "\(total.agreed) agreed, \(total.disagreed) disagreed, \(total.excluded) excluded, "
              + String(format: "%.1f s", report.seconds))
        for failure in report.failures.prefix(10) { print(failure) }
        #expect(report.failures.isEmpty, "\(report.failures.count) disagreements in \(label); see the output above")
        return report
    }

    @Test func bundledSchemaAgreesWithProtoc() async throws {
        #expect(FileManager.default.fileExists(atPath: BundledSchema.protoDirectory + "/rtm"), "Protos/rtm is missing")
        var configuration = OracleCheckConfiguration(protoDirectory: BundledSchema.protoDirectory, randomCount: 1_000, seed: Self.seed)
        configuration.concurrency = 3
        let report = try await check("Protos", configuration)
        #expect(report.total.random == 1_000)
        #expect(report.total.exemplars > 100)
    }

    @Test func foreignFixtureSchemaAgreesWithProtoc() async throws {
        var configuration = OracleCheckConfiguration(protoDirectory: Fixtures.foreignDirectory, randomCount: 400, seed: Self.seed)
        configuration.concurrency = 3
        let report = try await check("Fixtures/foreign", configuration)
        #expect(report.total.random == 400)
        #expect(report.total.exemplars > 50)
    }

    @Test func wellKnownTypesAgreeWithProtoc() async throws {
        // descriptor.proto and friends: a large proto2 + proto3 schema nobody here wrote.
        var configuration = OracleCheckConfiguration(
            protoDirectory: Fixtures.wellKnownDirectory, protoFiles: Fixtures.wellKnownFiles, randomCount: 300, seed: Self.seed)
        configuration.concurrency = 3
        configuration.includePaths = []
        let report = try await check("google/protobuf", configuration)
        #expect(report.total.random == 300)
    }
}
