// `make check-protocol`'s work: regenerate a schema's C target, facades and catalog into
// .scratch/check-protocol exactly as `make proto` would (one in-process call of SchemaGeneration,
// plus the catalog from the same plan), compare every generated folder with the committed one, list
// generated files git does not track (a clean checkout would not have them), and check the nanopb
// rename list. The comparison is against the working tree, which in CI is the committed state.

import Foundation
import ProofSupport
import ProtoGenKit

/// What is regenerated and compared: `make proto`'s knobs (PROTO_DIR, C_OUT, C_MODULE, SWIFT_OUT,
/// CATALOG_OUT, PRUNE, NANOPB_OPTIONS, LIMITS_FROM_OPTIONS). Relative paths are relative to the
/// Wireproof root.
public struct ProtocolCheckSettings: Equatable, Sendable {
    public var protoDirectory = BundledSchemaLayout.protoDirectory
    public var cOut = BundledSchemaLayout.cOut
    /// The C module (default: the last component of `cOut`).
    public var cModule: String?
    public var swiftOut = BundledSchemaLayout.facadeFolder
    /// The catalog folder: nil takes the default rule (`catalog`), empty compares no catalog.
    public var catalogOut: String?
    /// The C target alone: no facades, no catalog.
    public var cOnly = false
    public var pruneSources: [String] = []
    public var optionsFile: String?
    public var limitsFromOptions = false

    public init() {}

    /// The catalog folder compared, or nil for none: never with `cOnly`; else the one given
    /// (empty: none); else the bundled catalog for the bundled schema, unpruned, in its own target.
    var catalog: String? {
        if cOnly { return nil }
        if let catalogOut { return catalogOut.isEmpty ? nil : catalogOut }
        return BundledSchemaLayout.defaultCatalog(protoDirectory: protoDirectory, swiftOut: swiftOut, cOnly: cOnly, pruneSources: pruneSources)
    }

    /// The committed folders compared, each with the name of its fresh copy in the scratch folder.
    var folders: [(committed: String, fresh: String)] {
        var folders = [(cOut, Self.lastComponent(cOut))]
        if !cOnly { folders.append((swiftOut, Self.lastComponent(swiftOut))) }
        if let catalog { folders.append((catalog, "catalog-" + Self.lastComponent(catalog))) }
        return folders
    }

    static func lastComponent(_ path: String) -> String { URL(fileURLWithPath: path).lastPathComponent }
}

/// What a check found. It passed when every list is empty.
public struct ProtocolCheckOutcome: Equatable, Sendable {
    /// Files on which a committed folder and its regeneration disagree, folder by folder.
    public var differences: [GeneratedFileDifference] = []
    /// Generated files in the working tree that git does not track, relative to the root.
    public var untracked: [String] = []
    /// How the rename header differs from the list nanopb's runtime gives (NanopbRenameList).
    public var renameDifferences: [String] = []

    public var passed: Bool { differences.isEmpty && untracked.isEmpty && renameDifferences.isEmpty }
}

public struct ProtocolCheck {
    /// The Wireproof tree: relative settings are resolved against it, the scratch folder is in it.
    let root: String
    let settings: ProtocolCheckSettings
    /// The C compiler the rename list is collected with.
    let compiler: String
    /// Progress lines.
    let say: (String) -> Void

    /// The fresh output's folder; emptied at the start of every run and left for inspection.
    let scratch: String

    init(root: String, settings: ProtocolCheckSettings, compiler: String, scratch: String? = nil, say: @escaping (String) -> Void) {
        self.root = root
        self.settings = settings
        self.compiler = compiler
        self.scratch = scratch ?? root + "/.scratch/check-protocol"
        self.say = say
    }

    func resolved(_ path: String) -> String { path.hasPrefix("/") ? path : root + "/" + path }

    /// Regenerates, compares, lists untracked generated files and checks the rename list.
    func run() throws(ProtocolCheckError) -> ProtocolCheckOutcome {
        let fm = FileManager.default
        do {
            try? fm.removeItem(atPath: scratch)
            try fm.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        } catch { throw .io(path: scratch, reason: "cannot create: \(error.localizedDescription)") }
        say("check-protocol: generating \(settings.protoDirectory) into \(RootPath.shown(scratch, under: root))")
        try generate()
        var outcome = ProtocolCheckOutcome()
        for folder in settings.folders {
            say("check-protocol: comparing \(folder.committed)")
            outcome.differences += GeneratedTreeComparison.compare(committed: resolved(folder.committed),
                                                                   fresh: scratch + "/" + folder.fresh, name: folder.committed)
        }
        outcome.untracked = try Self.untrackedFiles(under: settings.folders.map { resolved($0.committed) }, root: root)
        say("check-protocol: checking the nanopb rename list")
        outcome.renameDifferences = try NanopbSymbolsCommand.check(NanopbRuntimeSymbols(root: root, compiler: compiler), say: say)
        return outcome
    }

    /// The generation request `make proto` would make, with the output in the scratch folder.
    var request: GenerationRequest {
        let folders = settings.folders
        var request = GenerationRequest(protoDirectory: resolved(settings.protoDirectory), cOut: scratch + "/" + folders[0].fresh)
        request.cModule = settings.cModule ?? ProtocolCheckSettings.lastComponent(settings.cOut)
        request.swiftOut = settings.cOnly ? nil : scratch + "/" + folders[1].fresh
        request.pruneSources = settings.pruneSources.map(resolved)
        request.optionsFile = settings.optionsFile.map(resolved)
        request.limitsFromOptions = settings.limitsFromOptions
        return request
    }

    private func generate() throws(ProtocolCheckError) {
        do {
            let tools = try GenerationTools.inTree(root)
            let report: [String]
            if let catalog = settings.folders.last, settings.catalog != nil {
                report = try GenerateWithCatalogCommand.generate(request, catalogOut: scratch + "/" + catalog.fresh,
                                                                 protoDirectoryHint: settings.protoDirectory, tools: tools).report
            } else {
                report = try SchemaGeneration.run(request, tools: tools).report
            }
            for line in report { say(line) }
        } catch { throw .generation("\(error)") }
    }

    /// Files under `folders` (absolute) that git does not track, relative to `root` (ignored ones
    /// left out); folders outside the root are not asked about, and nothing is listed when the
    /// root is not in a git work tree.
    static func untrackedFiles(under folders: [String], root: String) throws(ProtocolCheckError) -> [String] {
        let inside = folders.filter { $0.hasPrefix(root + "/") }
        let git = try CheckTool.locate("git")
        guard !inside.isEmpty, (try? CheckTool.output(git, ["rev-parse", "--is-inside-work-tree"], in: root)) != nil else { return [] }
        let listing = try CheckTool.output(git, ["ls-files", "--others", "--exclude-standard", "--"] + inside, in: root)
        return listing.split(separator: "\n").map(String.init)
    }
}
