// The fuzz package of `wireproof prove --fuzz-seconds N` (step 5, SchemaFuzzStep): Wireproof's fuzz
// targets (Fuzz/Sources) with the bundled catalog module swapped for the proved schema's, the
// schema's generated targets copied beside them, declared by ScratchManifest. It lives in
// SCRATCH/fuzz, inside prove's scratch package.

import Foundation

/// Writes and describes the fuzz package over a proved schema.
///
/// Ownership: SCRATCH/fuzz/Sources and SCRATCH/fuzz/Package.swift belong to this type; every run
/// makes them match the inputs, writing only files whose bytes change (so a rerun on the same
/// schema rebuilds nothing) and removing files no input holds.
struct FuzzPackage {
    /// prove's scratch package (schema.pb and the three generated targets).
    let scratch: String
    /// The Wireproof tree whose Fuzz/Sources are copied.
    let root: String
    /// prove's SwiftProtobuf peer folder (SwiftProtobufCodec.swift and protoc-gen-swift's code) when
    /// SwiftProtobuf is the differential's fourth party; nil for three parties.
    let swiftProtobuf: String?

    /// The schema's targets in prove's scratch package, copied under the same names.
    static let schemaTargets = [Prover.cTarget, Prover.facadeTarget, Prover.catalogTarget]
    /// The target Fuzz/Sources/differential imports for SwiftProtobuf.
    static let swiftProtobufTarget = "SwiftProtobufSchema"
    /// Fuzz/Sources folders of the bundled schema only, never copied: targets whose tables are the
    /// bundled schema's, and the bundled schema's protoc-gen-swift code (git-ignored, present once
    /// `make fuzz-build` ran; the proved schema's comes from prove's peer folder instead).
    static let bundledOnlyTargets: Set<String> = ["decode", "structure", "decode_c", swiftProtobufTarget]
    /// The module the fuzz targets import for the bundled schema's catalog, and its replacement.
    static let bundledCatalogImport = "import BundledProtoCatalog", schemaCatalogImport = "import \(Prover.catalogTarget)"

    var directory: String { scratch + "/fuzz" }

    /// The package's manifest. Invariant: `differential` and `device` are its executables; the
    /// SwiftProtobuf target and swift-protobuf are declared exactly when `withSwiftProtobuf`.
    static func manifest(root: String, withSwiftProtobuf: Bool) -> ScratchManifest {
        var manifest = ScratchManifest(
            packageName: "ProvedSchemaFuzz", writtenBy: "`wireproof prove --fuzz-seconds`",
            purpose: ["Wireproof's fuzz targets (Fuzz/) over the schema of the enclosing prove scratch package."],
            wireproofRoot: root)
        func wireproof(_ product: String) -> ScratchManifest.Dependency { .product(product, package: "wireproof") }
        manifest.targets = [
            .init(Prover.cTarget, dependencies: [wireproof("CNanopb")]),
            .init(Prover.facadeTarget, dependencies: [.target(Prover.cTarget), wireproof("NanopbRuntime"), wireproof("NanopbDeviceLimits")]),
            .init(Prover.catalogTarget, dependencies: [.target(Prover.facadeTarget), wireproof("FacadeProof")]),
            .init("CLibcrypto", linkedLibraries: ["crypto"]),
            .init("FuzzKit", dependencies: [.target(Prover.catalogTarget), .target("CLibcrypto"), wireproof("FacadeProof"),
                                            wireproof("ProtoOracle"), wireproof("ProtoSchema"), wireproof("NanopbRuntime")]),
            .init("GoogleParser", linkedLibraries: ["protobuf", "stdc++"]),
            .init("differential", executable: true, dependencies: [.target("FuzzKit"), .target("GoogleParser")]),
            .init("device", executable: true, dependencies: [.target("FuzzKit"), wireproof("DeviceProof")]),
        ]
        SwiftProtobufPeerStep.addPeer(withSwiftProtobuf ? .on : .off("three parties"), to: &manifest,
                                      runners: ["differential"], target: swiftProtobufTarget)
        manifest.cxx17 = true
        return manifest
    }

    /// The file that replaces Fuzz/Sources/differential/SwiftProtobufParty.swift when SwiftProtobuf
    /// takes no part: the differential then runs three parties.
    static let withoutSwiftProtobufParty = """
        // Written by `wireproof prove --fuzz-seconds`: prove's SwiftProtobuf peer is off for this schema.
        import FacadeProof
        let swiftProtobufParty: PeerCodec? = nil

        """

    /// Every file of the package's Sources, by path relative to Sources, with its bytes.
    func sources() throws -> [String: Data] {
        var files: [String: Data] = [:]
        for (relative, data) in try Self.files(under: root + "/Fuzz/Sources") {
            guard let top = relative.split(separator: "/").first, !Self.bundledOnlyTargets.contains(String(top)) else { continue }
            files[relative] = data
        }
        for target in Self.schemaTargets {
            for (relative, data) in try Self.files(under: "\(scratch)/Sources/\(target)") { files["\(target)/\(relative)"] = data }
        }
        for (relative, data) in files where relative.hasSuffix(".swift") {
            let text = String(decoding: data, as: UTF8.self)
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            guard lines.contains(where: { $0 == Self.bundledCatalogImport }) else { continue }
            files[relative] = Data(lines.map { $0 == Self.bundledCatalogImport ? Self.schemaCatalogImport : String($0) }
                .joined(separator: "\n").utf8)
        }
        if let swiftProtobuf {
            for (relative, data) in try Self.files(under: swiftProtobuf) { files["\(Self.swiftProtobufTarget)/\(relative)"] = data }
        } else {
            files["differential/SwiftProtobufParty.swift"] = Data(Self.withoutSwiftProtobufParty.utf8)
        }
        return files
    }

    /// Makes DIR/fuzz hold `sources()` and the manifest; returns how many files it wrote.
    @discardableResult
    func write() throws -> Int {
        let fm = FileManager.default
        let folder = directory + "/Sources"
        let wanted = try sources()
        var written = 0
        for (relative, data) in wanted where fm.contents(atPath: "\(folder)/\(relative)") != data {
            let path = "\(folder)/\(relative)"
            try fm.createDirectory(atPath: URL(fileURLWithPath: path).deletingLastPathComponent().path, withIntermediateDirectories: true)
            try data.write(to: URL(fileURLWithPath: path))
            written += 1
        }
        for relative in try Self.files(under: folder).keys where wanted[relative] == nil {
            try fm.removeItem(atPath: "\(folder)/\(relative)")
        }
        // Folders left empty (a target dropped, such as the SwiftProtobuf one) would be targets to SwiftPM.
        for entry in try fm.contentsOfDirectory(atPath: folder) where !wanted.keys.contains(where: { $0.hasPrefix(entry + "/") }) {
            try fm.removeItem(atPath: "\(folder)/\(entry)")
        }
        if try Self.manifest(root: root, withSwiftProtobuf: swiftProtobuf != nil).write(into: directory) { written += 1 }
        return written
    }

    /// The regular files below `folder` (none when it does not exist), by path relative to it.
    /// Bounded by the tree: the enumerator visits each entry once and follows no symbolic link.
    static func files(under folder: String) throws -> [String: Data] {
        let fm = FileManager.default
        guard let enumerator = fm.enumerator(atPath: folder) else { return [:] }
        var files: [String: Data] = [:]
        for case let relative as String in enumerator {
            let path = "\(folder)/\(relative)"
            guard (try fm.attributesOfItem(atPath: path)[.type] as? FileAttributeType) == .typeRegular else { continue }
            guard let data = fm.contents(atPath: path) else { throw ProveError(description: "cannot read \(path)") }
            files[relative] = data
        }
        return files
    }
}
