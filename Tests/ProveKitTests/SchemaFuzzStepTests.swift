import Foundation
import Testing
@testable import ProveKit
import TestSupport


/// Step 5 of `wireproof prove --fuzz-seconds`: the fuzz package it writes and how it judges a run.
@Suite struct SchemaFuzzStepTests {
    /// A folder shaped like prove's scratch package: schema.pb and the schema's three targets.
    private func fakeScratch(_ name: String, swiftProtobuf: Bool = false) throws -> String {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(getpid())").path
        try? FileManager.default.removeItem(atPath: scratch)
        for target in FuzzPackage.schemaTargets {
            try FileManager.default.createDirectory(atPath: "\(scratch)/Sources/\(target)", withIntermediateDirectories: true)
            try Data("// \(target)\n".utf8).write(to: URL(fileURLWithPath: "\(scratch)/Sources/\(target)/\(target).swift"))
        }
        if swiftProtobuf {
            let peer = "\(scratch)/Sources/\(SwiftProtobufPeerStep.target)"
            try FileManager.default.createDirectory(atPath: peer, withIntermediateDirectories: true)
            try Data("// codec\n".utf8).write(to: URL(fileURLWithPath: peer + "/SwiftProtobufCodec.swift"))
        }
        try Data([0x0a, 0x00]).write(to: URL(fileURLWithPath: scratch + "/schema.pb"))
        return scratch
    }

    private func step(_ scratch: String, seconds: Int = 5, device: String? = nil,
                      swiftProtobuf: SwiftProtobufPeerStep.State = .off("test")) -> SchemaFuzzStep {
        SchemaFuzzStep(root: repositoryRoot, scratch: scratch, seconds: seconds, device: device, swiftProtobuf: swiftProtobuf)
    }

    @Test func theManifestDeclaresSwiftProtobufOnlyForFourParties() {
        let three = FuzzPackage.manifest(root: repositoryRoot, withSwiftProtobuf: false)
        let four = FuzzPackage.manifest(root: repositoryRoot, withSwiftProtobuf: true)
        #expect(three.urlDependencies.isEmpty)
        #expect(four.urlDependencies.map(\.exactVersion) == ["1.38.1"])
        #expect(three.targets.filter(\.isExecutable).map(\.name) == ["differential", "device"])
        let differential = { (m: ScratchManifest) in m.targets.first { $0.name == "differential" }!.dependencies }
        #expect(differential(three) == [.target("FuzzKit"), .target("GoogleParser")])
        #expect(differential(four) == [.target("FuzzKit"), .target("GoogleParser"), .target(FuzzPackage.swiftProtobufTarget)])
        #expect(four.targets.contains { $0.name == FuzzPackage.swiftProtobufTarget && $0.dependencies == [.product("SwiftProtobuf", package: "swift-protobuf")] })
        #expect(three.targets.first { $0.name == "GoogleParser" }?.linkedLibraries == ["protobuf", "stdc++"])
        #expect(three.targets.first { $0.name == "CLibcrypto" }?.linkedLibraries == ["crypto"])
        #expect(three.cxx17)
        // The schema's facades carry the device's limits when prove ran with the device party.
        #expect(three.targets.first { $0.name == Prover.facadeTarget }?.dependencies.contains(.product("NanopbDeviceLimits", package: "wireproof")) == true)
    }

    @Test func thePackageSwapsTheBundledCatalogForTheSchemas() throws {
        let scratch = try fakeScratch("fuzz-package")
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let package = try step(scratch).package()
        #expect(try package.write() == package.sources().count + 1, "every source and the manifest")
        let sources = try FuzzPackage.files(under: package.directory + "/Sources")
        let targets = Set(sources.keys.compactMap { $0.split(separator: "/").first.map(String.init) })
        #expect(targets == Set(["CLibcrypto", "FuzzKit", "GoogleParser", "device", "differential"] + FuzzPackage.schemaTargets))
        for (path, data) in sources where path.hasSuffix(".swift") {
            #expect(!String(decoding: data, as: UTF8.self).contains("import BundledProtoCatalog"), "\(path)")
        }
        #expect(String(decoding: sources["FuzzKit/FuzzHarness.swift"] ?? Data(), as: UTF8.self).contains("import ProvedSchemaCatalog"))
        #expect(String(decoding: sources["differential/SwiftProtobufParty.swift"]!, as: UTF8.self).contains("PeerCodec? = nil"))
        #expect(FileManager.default.fileExists(atPath: package.directory + "/Package.swift"))
        // Unchanged inputs: nothing is rewritten, so SwiftPM rebuilds nothing.
        #expect(try package.write() == 0)
        try FileManager.default.removeItem(atPath: package.directory + "/Package.swift")
        #expect(try package.write() == 1, "the manifest alone")
    }

    @Test func turningSwiftProtobufOffRemovesItsTarget() throws {
        let scratch = try fakeScratch("fuzz-package-peer", swiftProtobuf: true)
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        try step(scratch, swiftProtobuf: .on).package().write()
        let on = try FuzzPackage.files(under: scratch + "/fuzz/Sources")
        #expect(on["\(FuzzPackage.swiftProtobufTarget)/SwiftProtobufCodec.swift"] != nil)
        #expect(!String(decoding: on["differential/SwiftProtobufParty.swift"]!, as: UTF8.self).contains("PeerCodec? = nil"))
        try step(scratch).package().write()
        #expect(!FileManager.default.fileExists(atPath: "\(scratch)/fuzz/Sources/\(FuzzPackage.swiftProtobufTarget)"))
    }

    @Test func setupProblemsAreRefusedBeforeAnyBuild() throws {
        let scratch = try fakeScratch("fuzz-refused")
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        #expect(throws: ProveError.self) { try step(scratch, seconds: 0).package() }
        #expect(throws: ProveError.self) { try step(scratch, swiftProtobuf: .on).package() }
        #expect(throws: ProveError.self) { try step(scratch, device: scratch + "/nowhere").package() }
        try FileManager.default.removeItem(atPath: "\(scratch)/Sources/\(Prover.catalogTarget)")
        let error = try #require(throws: ProveError.self) { try step(scratch).package() }
        #expect(error.description.contains(Prover.catalogTarget))
        #expect(!FileManager.default.fileExists(atPath: scratch + "/fuzz"))
    }

    @Test func theDeviceTargetRunsOnlyWithTheDeviceParty() {
        #expect(step("/s").targets == ["differential"])
        #expect(step("/s", device: "/s/device").targets == ["differential", "device"])
        #expect(step("/s", swiftProtobuf: .on).partiesLine.contains("four parties"))
        #expect(step("/s", swiftProtobuf: .off("why")).partiesLine
            == "fuzz-schema: differential: three parties, without SwiftProtobuf (prove's SwiftProtobuf peer is off: why)")
    }

    @Test func aRunIsBrokenWhenTheTargetFailsOrLeavesAReproducer() {
        let log = "#1024\tpulse\n#2048\tDONE cov: 10\nstat::number_of_executed_units: 2048\nstat::average_exec_per_sec: 400\n"
        let clean = FuzzVerdict(target: "differential", status: 0, crashes: [], log: log, logPath: "/l")
        #expect(!clean.broken)
        #expect(clean.lines == ["#2048\tDONE cov: 10", "stat::number_of_executed_units: 2048", "stat::average_exec_per_sec: 400",
                                "fuzz-schema: differential: no property broke"])
        let crashed = FuzzVerdict(target: "device", status: 1, crashes: [], log: "Fatal error: broken property: x\n==1== ERROR: libFuzzer: deadly signal\n", logPath: "/l")
        #expect(crashed.broken)
        #expect(crashed.lines == ["fuzz-schema: device: a property broke (log: /l):", "Fatal error: broken property: x"])
        #expect(FuzzVerdict(target: "device", status: 0, crashes: ["/c/crash-1"], log: "", logPath: "/l").broken)
    }

    @Test func aWorkFolderLosesTheLastRunsSeedsAndReproducersAndKeepsItsCorpus() throws {
        let fm = FileManager.default
        let base = fm.temporaryDirectory.appendingPathComponent("fuzz-work-\(getpid())").path
        try? fm.removeItem(atPath: base)
        defer { try? fm.removeItem(atPath: base) }
        // A first run: nothing there yet, not even the folder.
        let fresh = base + "/fresh"
        try SchemaFuzzStep.prepareWorkFolder(fresh)
        #expect(try fm.contentsOfDirectory(atPath: fresh).sorted() == ["corpus", "crashes"])
        #expect(try fm.contentsOfDirectory(atPath: fresh + "/corpus").isEmpty && fm.contentsOfDirectory(atPath: fresh + "/crashes").isEmpty)
        // A rerun: seeds and reproducers of the run before, and the corpus it grew.
        let again = base + "/again"
        for (sub, file) in [("seeds", "s1"), ("crashes", "crash-1"), ("corpus", "c1")] {
            try fm.createDirectory(atPath: "\(again)/\(sub)", withIntermediateDirectories: true)
            try Data([1]).write(to: URL(fileURLWithPath: "\(again)/\(sub)/\(file)"))
        }
        try SchemaFuzzStep.prepareWorkFolder(again)
        #expect(try fm.contentsOfDirectory(atPath: again).sorted() == ["corpus", "crashes"])
        #expect(try fm.contentsOfDirectory(atPath: again + "/corpus") == ["c1"])
        #expect(try fm.contentsOfDirectory(atPath: again + "/crashes").isEmpty)
    }
}
