// The input of the rename list: nanopb's pristine runtime (.deps/nanopb, from `make setup`)
// compiled with the project's option macros (taken from wireproof_pb_config.h, the one source of
// truth) and, so the list stays complete if someone enables them later, once more with each
// optional feature that adds functions; every global symbol the objects define, by `nm`.

import Foundation

/// The files of a Wireproof tree the rename list is made from and written to.
public struct NanopbRuntimeSymbols: Sendable {
    /// nanopb's unpacked source (`pb.h`, `pb_*.c`), untouched by the project's patches' renames.
    public let nanopbSource: String
    /// The project's nanopb configuration (`wireproof_pb_config.h`): its `#define PB_…` lines.
    public let configHeader: String
    /// The committed rename header this list is checked against or written to.
    public let renameHeader: String
    /// The C compiler: a name on PATH or a path (`CC`, default `cc`).
    public let compiler: String

    /// The inputs of the tree at `root`.
    public init(root: String, compiler: String) {
        nanopbSource = root + "/.deps/nanopb"
        configHeader = root + "/Sources/Shipped/CNanopb/include/wireproof_pb_config.h"
        renameHeader = root + "/Sources/Shipped/CNanopb/include/wireproof_pb_rename.h"
        self.compiler = compiler
    }

    /// The builds compiled: the project's options alone, then with each optional feature that adds
    /// functions to the runtime.
    static let variants: [[String]] = [[], ["-DPB_VALIDATE_UTF8=1"], ["-DPB_CONVERT_DOUBLE_FLOAT=1"]]
    /// nanopb's translation units.
    static let units = ["pb_common", "pb_decode", "pb_encode"]

    /// Compiles every unit in every variant (in a temporary folder, removed afterwards) and returns
    /// the list of what the objects define. `say` gets one progress line.
    public func collect(say: (String) -> Void) throws(ProtocolCheckError) -> NanopbRenameList {
        let fm = FileManager.default
        guard fm.fileExists(atPath: nanopbSource + "/pb_decode.c") else {
            throw .missing(path: nanopbSource, remedy: "run 'make setup' first")
        }
        let config = try Self.read(configHeader)
        let macros = NanopbRenameList.optionMacros(inConfig: config)
        guard !macros.isEmpty else { throw .noOptionMacros(config: configHeader) }
        guard let version = NanopbRenameList.version(pbHeader: try Self.read(nanopbSource + "/pb.h")) else {
            throw .noVersion(header: nanopbSource + "/pb.h")
        }
        let scratch = fm.temporaryDirectory.appendingPathComponent("nanopb-symbols-\(getpid())-\(UUID().uuidString)").path
        defer { try? fm.removeItem(atPath: scratch) }
        let options = scratch + "/options.h"
        do {
            try fm.createDirectory(atPath: scratch, withIntermediateDirectories: true)
            try Data((macros.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: options))
        } catch {
            throw .io(path: scratch, reason: "cannot write the option macros: \(error.localizedDescription)")
        }
        let cc = try CheckTool.locate(compiler)
        say("nanopb-symbols: compiling \(version)'s runtime in \(Self.variants.count) variants with \(macros.count) option macros")
        var objects: [String] = []
        for (index, extra) in Self.variants.enumerated() {
            for unit in Self.units {
                let object = "\(scratch)/\(unit).\(index).o"
                _ = try CheckTool.output(cc, ["-std=c11", "-c", "-w", "-include", options] + extra
                                         + ["-I\(nanopbSource)", "\(nanopbSource)/\(unit).c", "-o", object])
                objects.append(object)
            }
        }
        let listing = try CheckTool.output(try CheckTool.locate("nm"), ["-g", "--defined-only"] + objects)
        return try NanopbRenameList(symbols: NanopbRenameList.definedSymbols(nmOutput: listing), version: version)
    }

    static func read(_ path: String) throws(ProtocolCheckError) -> String {
        guard let data = FileManager.default.contents(atPath: path) else { throw .missing(path: path, remedy: "run 'make setup' first") }
        return String(decoding: data, as: UTF8.self)
    }
}
