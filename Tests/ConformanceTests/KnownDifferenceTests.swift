// The places where the facades' bytes deliberately differ from the oracle's canonical encoding,
// each pinned (the bytes differ, the message does not), the coverage of the generated exemplars,
// and the facade bug the exemplars found (-0.0 dropped by builders).

import BundledProto
import BundledProtoCatalog
import FacadeProof
import ProtoOracle
import ProtoSchema
import Testing
import TestSupport

@Suite("Exemplar conformance: coverage and known differences")
struct KnownDifferenceTests {
    /// Every oracle exemplar is generated or excluded with a reason; prints the counts; every
    /// known-difference rule is exercised by at least one exemplar (no stale rules).
    @Test("every oracle exemplar is generated, and every known difference is exercised")
    func coverageAndCounts() async throws {
        let loaded = try await BundledSchema.loaded()
        let generated = Set(catalogExemplars.map(\.name))
        let excluded = Dictionary(facadeCatalog.exclusions.map { ($0.name, $0.reason) }, uniquingKeysWith: { a, _ in a })
        for name in loaded.exemplars.keys.sorted() where !generated.contains(name) {
            let message = String(name.prefix { $0 != "#" && $0 != "!" })
            #expect(excluded[name] != nil || excluded[message] != nil, "oracle exemplar \(name) is neither generated nor excluded; run make proto")
        }
        for name in generated { #expect(loaded.exemplars[name] != nil, "generated exemplar \(name) is unknown to the oracle; run make proto") }

        var identical = 0
        var perRule: [KnownDifference: Int] = [:]
        for entry in catalogExemplars {
            guard let exemplar = loaded.exemplars[entry.name] else { continue }
            if try entry.build() == exemplar.message.serializedBytes() {
                identical += 1
            } else {
                for rule in KnownDifference.affecting(exemplar.message) { perRule[rule, default: 0] += 1 }
            }
        }
        var lines = ["exemplar conformance: \(catalogExemplars.count) exemplars checked, \(identical) byte-identical to the canonical oracle encoding, \(facadeCatalog.exclusions.count) excluded"]
        for rule in KnownDifference.all {
            lines.append("  \(rule.id): \(perRule[rule, default: 0]) exemplars (identical under the nanopb profile) — \(rule.reason)")
            #expect(perRule[rule, default: 0] > 0, "known difference \(rule.id) is exercised by no exemplar: remove it or add a schema field that shows it")
        }
        for exclusion in facadeCatalog.exclusions { lines.append("  excluded \(exclusion.name): \(exclusion.reason)") }
        print(lines.joined(separator: "\n"))
    }

    /// `KnownDifference.packsEveryRepeatedNumber`, on one field by hand: proto2's unpacked
    /// `rtm.LegacyJoinRequest.sample_rates` is written packed by nanopb.
    @Test("nanopb writes a proto2 unpacked repeated field packed; both forms decode to one message")
    func unpackedFieldIsWrittenPacked() async throws {
        let loaded = try await BundledSchema.loaded()
        let facade = try Rtm_LegacyJoinRequest.with {
            $0.token = "t"
            $0.protocolVersion = 1
            $0.sampleRates = [13, 14]
        }.serializedBytes()
        #expect(facade == [0x0a, 0x01, 0x74, 0x10, 0x01, 0x6a, 0x02, 0x0d, 0x0e])  // 13: tag 0x6a, packed

        var message = try #require(DynamicMessage("rtm.LegacyJoinRequest", in: loaded.schemas))
        message["token"] = .text("t")
        message["protocol_version"] = .uint32(1)
        message.setRepeated(number: 13, [.uint32(13), .uint32(14)])
        let canonical = message.serializedBytes()
        #expect(canonical == [0x0a, 0x01, 0x74, 0x10, 0x01, 0x68, 0x0d, 0x68, 0x0e])  // 13: tag 0x68 per element
        #expect(message.serializedBytes(options: .nanopb) == facade)

        let schema = message.schema
        #expect(try DynamicMessage(serializedBytes: facade, schema: schema, in: loaded.schemas) == message)
        #expect(try DynamicMessage(serializedBytes: canonical, schema: schema, in: loaded.schemas) == message)
        // nanopb reads the unpacked form too, and writes it back packed.
        #expect(try Rtm_LegacyJoinRequest(serializedBytes: canonical).serializedBytes() == facade)
    }

    /// The same, for every exemplar the packing rule covers: the facade's bytes differ from the
    /// canonical ones, the oracle reads both as the exemplar, and the facade reads the canonical
    /// (unpacked) bytes and writes its own again.
    @Test("for every exemplar with an unpacked repeated number, the packed bytes mean the same message")
    func packingDifferenceIsOnlyInTheBytes() async throws {
        let loaded = try await BundledSchema.loaded()
        var covered = 0
        for entry in catalogExemplars {
            guard let exemplar = loaded.exemplars[entry.name],
                  KnownDifference.affecting(exemplar.message).contains(.packsEveryRepeatedNumber) else { continue }
            covered += 1
            let facade = try entry.build()
            let canonical = exemplar.message.serializedBytes()
            let schema = exemplar.message.schema
            #expect(facade != canonical, "\(entry.name): expected the packing difference")
            #expect(try DynamicMessage(serializedBytes: facade, schema: schema, in: loaded.schemas) == exemplar.message, "\(entry.name)")
            #expect(try DynamicMessage(serializedBytes: canonical, schema: schema, in: loaded.schemas) == exemplar.message, "\(entry.name)")
            #expect(try #require(facadeCatalog.messageType(named: entry.messageType)).decodeReencode(canonical) == facade, "\(entry.name): facade does not read the unpacked form back")
        }
        #expect(covered > 0)
    }

    /// Regression: builders dropped -0.0 in proto3 implicit-presence float and double fields
    /// (`-0.0 == 0`), which the exemplars' `!negativeZero` variants found. The protobuf spec
    /// writes -0.0 (only +0.0 is the default), as the oracle, protoc and SwiftProtobuf do.
    @Test("-0.0 in a proto3 implicit float or double is written; +0.0 is not")
    func negativeZeroIsWritten() async throws {
        let loaded = try await BundledSchema.loaded()
        let float = try Rtm_Cursor.with { $0.x = -0.0 }.serializedBytes()
        #expect(float == [0x0d, 0x00, 0x00, 0x00, 0x80])
        #expect(try Rtm_Cursor.with { $0.x = 0 }.serializedBytes() == [])
        let double = try Rtm_Histogram.with { $0.lowerBound = -0.0 }.serializedBytes()
        #expect(double == [0x09, 0, 0, 0, 0, 0, 0, 0, 0x80])
        #expect(try Rtm_Histogram.with { $0.lowerBound = 0 }.serializedBytes() == [])
        // Setting +0.0 after -0.0 clears the field again.
        #expect(try Rtm_Cursor.with { $0.x = -0.0; $0.x = 0 }.serializedBytes() == [])

        var cursor = try #require(DynamicMessage("rtm.Cursor", in: loaded.schemas))
        cursor["x"] = .float(-0.0)
        #expect(cursor.serializedBytes() == float)
        var histogram = try #require(DynamicMessage("rtm.Histogram", in: loaded.schemas))
        histogram["lower_bound"] = .double(-0.0)
        #expect(histogram.serializedBytes() == double)
        #expect(try Rtm_Cursor(serializedBytes: float).x.sign == .minus)
    }
}
