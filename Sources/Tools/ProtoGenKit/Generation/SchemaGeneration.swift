// Generation as one library call: a .proto tree → protoc once → one plan → nanopb's inputs →
// nanopb's C (laid out as a SwiftPM C target) → the facades. `protogen generate` and `make proto`
// run it; the proof's tools call it in process (and add the catalog from the same plan).
//
// The only child processes are protoc and nanopb's own Python code (generator and option
// loader). Nothing is written unless every step before it succeeded; output is deterministic.

import Foundation
import NanopbDeviceLayout
import ProtoSchema

/// What one generation run is asked to do. Paths are absolute or relative to the current folder.
public struct GenerationRequest: Sendable {
    /// The schema root: every `.proto` below it, named relative to it.
    public var protoDirectory: String
    /// Further import roots (`/usr/include`, Google's well-known types, is always searched).
    public var protoPaths: [String] = []
    /// The C target folder, owned by generation (see `CTargetWriter`).
    public var cOut: String
    /// The C module name (default: the last component of `cOut`).
    public var cModule: String?
    /// The facade folder; nil generates the C target only.
    public var swiftOut: String?
    /// Source folders whose spelled types (and what they need) get facades; empty: every type.
    public var pruneSources: [String] = []
    /// A nanopb options file for every file (default: the single `*.options` at the schema root).
    public var optionsFile: String?
    /// Honour the options the facades can match and refuse the others (default: skip them all).
    public var honourOptions = false
    /// The facades carry the limits the schema's options give the device's nanopb build, and a
    /// check naming every field of a message that build would refuse (`NanopbDeviceLimited`).
    public var limitsFromOptions = false
    /// Files outside the schema root come from these modules.
    public var external: ExternalModules?
    /// A descriptor set already compiled from this tree (`--include_imports`): protoc is not run.
    public var descriptorSet: String?
    /// Also keep the descriptor set there.
    public var descriptorOut: String?
    /// Also write the plan (JSON) there.
    public var planOut: String?
    /// With `limitsFromOptions`, also keep nanopb's build of the schema under its own options
    /// there (scripts/device-build.py's output: `layout.json`, and the device's C under `gen/`
    /// when the schema sets any option). The folder is replaced; `DeviceBuild.compile` builds the
    /// device party's driver from it, so the limits and the device see the same option sources.
    public var deviceBuildOut: String?

    public init(protoDirectory: String, cOut: String) {
        self.protoDirectory = protoDirectory
        self.cOut = cOut
    }

    var module: String { cModule ?? URL(fileURLWithPath: cOut).lastPathComponent }
}

/// What a run produced: the plan's inputs and schema (for a catalog from the same plan) and
/// the lines to report.
public struct GenerationResult: Sendable {
    public let schema: SchemaSet
    public let inputs: PlanInputs
    /// The descriptor set's bytes (protoc's output, unchanged).
    public let descriptorSet: [UInt8]
    /// The files whose C the target holds, dependency first.
    public let cFiles: [String]
    /// Skipped and honoured options, skipped extensions, files written: one line each.
    public let report: [String]
    /// nanopb's layout of the schema under its own options, when the limits were asked for
    /// (`limitsFromOptions`) and the schema sets any nanopb option; else nil.
    public let deviceLayout: DeviceLayout?
}

public enum SchemaGeneration {
    /// Runs the whole generation; throws before writing anything if protoc, the options, the plan
    /// or nanopb refuse the schema.
    public static func run(_ request: GenerationRequest, tools: GenerationTools) throws(GeneratorError) -> GenerationResult {
        let fm = FileManager.default
        let protoDirectory = absolute(request.protoDirectory)
        var isFolder: ObjCBool = false
        guard fm.fileExists(atPath: protoDirectory, isDirectory: &isFolder), isFolder.boolValue else {
            throw .io(path: protoDirectory, reason: "schema folder does not exist")
        }
        let module = request.module
        guard module.range(of: "^[A-Za-z_][A-Za-z0-9_]*$", options: .regularExpression) != nil else {
            throw .usage("C module name '\(module)' is not an identifier")
        }
        let scratch = try ScratchFolder()
        defer { scratch.remove() }
        let protoPaths = request.protoPaths.map(absolute)

        // 1. protoc, once: the whole schema with its imports.
        let protos = protoFiles(under: protoDirectory)
        guard !protos.isEmpty else { throw .io(path: protoDirectory, reason: "no .proto files") }
        let setPath: String
        if let given = request.descriptorSet {
            setPath = absolute(given)
        } else {
            setPath = scratch.path + "/schema.pb"
            let includes = ["-I" + protoDirectory] + protoPaths.map { "-I" + $0 } + ["-I/usr/include", "-I" + tools.nanopb + "/generator/proto"]
            _ = try tools.run(tools.protoc, includes + ["--include_imports", "--descriptor_set_out=" + setPath] + protos,
                              in: protoDirectory, what: "protoc on \(protoDirectory)")
        }
        guard let setData = fm.contents(atPath: setPath) else { throw .io(path: setPath, reason: "cannot read the descriptor set") }
        let setBytes = [UInt8](setData)
        let schema: SchemaSet
        do { schema = try SchemaSet(descriptorSet: setBytes) } catch { throw .schema(error) }

        // 2. The schema's own nanopb options, read by nanopb's parser.
        let optionArguments = try optionSources(optionsFile: request.optionsFile.map(absolute), protoDirectory: protoDirectory,
                                                protoPaths: protoPaths)
        let settings = try nanopbOptions(descriptorSet: setPath, protoDirectory: protoDirectory, optionArguments: optionArguments, tools: tools)

        // 3. One plan.
        let selection: TypeSelection = request.pruneSources.isEmpty
            ? .all : .spelled(try SourceScanner.identifiers(in: request.pruneSources.map(absolute)))
        let inputs = PlanInputs(roots: protos, selection: selection, nanopbOptions: settings,
                                optionsMode: request.honourOptions ? .honour : .skip, external: request.external)
        let plan = try FacadePlan(schema: schema, inputs: inputs)
        var lines = planReport(plan)

        // 4. nanopb's C for the files the plan names, every field FT_POINTER unless honoured.
        let generated = try nanopbC(plan: plan, setBytes: setBytes, scratch: scratch, tools: tools,
                                    forbidden: [scratch.path, protoDirectory] + protoPaths)
        var deviceLayout: DeviceLayout?
        let buildsDevice = request.limitsFromOptions && request.swiftOut != nil
        if buildsDevice {
            try scratch.makeFolder("device")
            deviceLayout = try deviceLayoutOf(setPath: setPath, protoDirectory: protoDirectory, optionArguments: optionArguments,
                                              into: scratch.path + "/device", tools: tools)
            if deviceLayout == nil { lines.append("protogen: --limits-from-options: the schema sets no nanopb option; the facades carry no limits") }
        }
        let facades: [GeneratedFile]? = try request.swiftOut.map { _ throws(GeneratorError) in
            try ProtoGen.facades(schema: schema, cModule: module, inputs: inputs, deviceLayout: deviceLayout)
        }

        // 5. Write: the C target, the facades, the optional descriptor set and plan.
        let cOut = absolute(request.cOut)
        try CTargetWriter(module: module, generated: generated).write(to: cOut)
        lines.append("proto: C target \(module) in \(display(cOut)) (\(plan.cFiles.count) files: \(plan.cFiles.joined(separator: " ")))")
        if let swiftOut = request.swiftOut, let facades {
            lines += try OutputFolder(path: absolute(swiftOut)).replaceGenerated(with: facades)
            lines.append("proto: facades in \(display(absolute(swiftOut)))")
        }
        if let out = request.descriptorOut { try write(setData, to: absolute(out)) }
        if let out = request.planOut { try write(Data(ProtoGen.planJSON(plan).utf8), to: absolute(out)) }
        if let out = request.deviceBuildOut, buildsDevice {
            try replace(absolute(out), with: scratch.path + "/device")
        }
        return GenerationResult(schema: schema, inputs: inputs, descriptorSet: setBytes, cFiles: plan.cFiles, report: lines,
                                deviceLayout: deviceLayout)
    }

    /// Runs nanopb's generator on one descriptor set per file with C; returns its output in the
    /// plan's file order.
    private static func nanopbC(plan: FacadePlan, setBytes: [UInt8], scratch: ScratchFolder, tools: GenerationTools,
                                forbidden: [String]) throws(GeneratorError) -> [(file: String, header: String, source: String)] {
        guard !plan.cFiles.isEmpty else { return [] }
        let renames = plan.cRenames.map { rename in
            DescriptorSetWriter.Rename(kind: rename.kind == .field ? .field : rename.kind == .oneof ? .oneof : .type,
                                       scope: rename.scope, protoName: rename.protoName, cName: rename.cName)
        }
        let writer: DescriptorSetWriter
        do { writer = try DescriptorSetWriter(descriptorSet: setBytes, renames: renames) } catch { throw .schema(error) }
        let withC = Set(plan.cClosure)
        var setNames: [String] = []
        try scratch.makeFolder("sets")
        try scratch.makeFolder("gen")
        for (index, file) in plan.cFiles.enumerated() {
            let name = String(format: "sets/%04d.pb", index)
            do { try scratch.write(Data(try writer.set(for: file, withC: withC)), to: name) } catch let error as SchemaError {
                throw .schema(error)
            } catch { throw .io(path: scratch.path + "/" + name, reason: "\(error)") }
            setNames.append(name)
        }
        let options = (["# Written by protogen generate from the generation plan; nanopb reads only this."] + plan.nanopbOptionsFile)
            .joined(separator: "\n") + "\n"
        do { try scratch.write(Data(options.utf8), to: "schema.options") } catch { throw .io(path: scratch.path, reason: "\(error)") }
        _ = try tools.run(tools.python, [tools.nanopb + "/generator/nanopb_generator.py", "-q", "-f", "schema.options", "-D", "gen"] + setNames,
                          in: scratch.path, what: "nanopb's generator")
        var generated: [(file: String, header: String, source: String)] = []
        for file in plan.cFiles {
            let base = scratch.path + "/gen/" + file.dropLast(".proto".count)
            guard let header = FileManager.default.contents(atPath: base + ".pb.h"),
                  let source = FileManager.default.contents(atPath: base + ".pb.c") else {
                throw .io(path: base, reason: "nanopb wrote no .pb.h/.pb.c for \(file)")
            }
            let pair = (file, String(decoding: header, as: UTF8.self), String(decoding: source, as: UTF8.self))
            for text in [pair.1, pair.2] {
                if let leak = (forbidden + ["/tmp/", "/home/", "/usr/include"]).first(where: { text.contains($0) })
                    ?? text.range(of: " at (Mon|Tue|Wed|Thu|Fri|Sat|Sun) ", options: .regularExpression).map({ String(text[$0]) }) {
                    throw .invariant(file: file, declaration: "nanopb output", reason: "holds an absolute path or a timestamp (\(leak))")
                }
            }
            generated.append(pair)
        }
        return generated
    }

    /// nanopb's build of the schema under its own options (the device's C and layout) into the
    /// existing folder `out`; returns the layout, or nil when the schema sets no option.
    static func deviceLayoutOf(setPath: String, protoDirectory: String, optionArguments: [String], into out: String,
                               tools: GenerationTools) throws(GeneratorError) -> DeviceLayout? {
        _ = try tools.run(tools.python, [tools.deviceBuilder, tools.nanopb, setPath, protoDirectory, out] + optionArguments,
                          what: "nanopb's generator with the schema's options (the device's layout)")
        let layout: DeviceLayout
        do { layout = try DeviceLayout(contentsOf: out + "/layout.json") } catch {
            throw .io(path: tools.deviceBuilder, reason: "\(error)")
        }
        return layout.options ? layout : nil
    }

    /// The option loader's arguments naming where the schema's `.options` come from: `optionsFile`
    /// for every file, else the one `.options` file at the top of `protoDirectory`, else each file's
    /// own found beside it or under `protoPaths` (the loader's search).
    static func optionSources(optionsFile: String?, protoDirectory: String, protoPaths: [String]) throws(GeneratorError) -> [String] {
        var arguments: [String] = []
        if let path = optionsFile ?? defaultOptionsFile(in: protoDirectory).map(absolute) {
            guard FileManager.default.fileExists(atPath: path) else { throw .io(path: path, reason: "options file does not exist") }
            arguments += ["--options", path]
        }
        for path in protoPaths { arguments += ["--search", path] }
        return arguments
    }

    /// The nanopb options the schema's own sources set, as scripts/proto-options.py reports them
    /// (nanopb's parser and inheritance rules), for the descriptor set of the schema under
    /// `protoDirectory` (absolute paths) with `optionArguments` from `optionSources`.
    static func nanopbOptions(descriptorSet setPath: String, protoDirectory: String, optionArguments: [String],
                              tools: GenerationTools) throws(GeneratorError) -> [NanopbOptionSetting] {
        let report = try tools.run(tools.python, [tools.optionLoader, tools.nanopb + "/generator", setPath, protoDirectory] + optionArguments,
                                   what: "reading the schema's nanopb options")
        do { return try JSONDecoder().decode([NanopbOptionSetting].self, from: Data(report)) } catch {
            throw .io(path: tools.optionLoader, reason: "not a nanopb options report: \(error)")
        }
    }

    /// Skipped and honoured options and skipped extensions, as `protogen plan` reports them.
    static func planReport(_ plan: FacadePlan) -> [String] {
        plan.skipped.map { "protogen: nanopb option skipped: \($0.setting.label): \($0.reason)" }
            + plan.skippedExtensions.map { "protogen: extension skipped: \(FacadePlan.extensionLabel($0)): \(FacadePlan.extensionSkipReason)" }
            + plan.honoured.map { "protogen: nanopb option honoured: \($0.label)" }
    }

    /// Every `.proto` below `folder`, relative to it, sorted bytewise.
    static func protoFiles(under folder: String) -> [String] {
        CTargetWriter.regularFiles(under: folder).filter { $0.hasSuffix(".proto") }.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
    }

    /// The single `*.options` file at the top of the schema folder, if there is exactly one.
    static func defaultOptionsFile(in folder: String) -> String? {
        let top = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasSuffix(".options") }
        return top.count == 1 ? folder + "/" + top[0] : nil
    }

    public static func absolute(_ path: String) -> String {
        URL(fileURLWithPath: path, relativeTo: URL(fileURLWithPath: FileManager.default.currentDirectoryPath)).standardizedFileURL.path
    }

    /// `path` relative to the current folder when inside it (for messages only).
    public static func display(_ path: String) -> String {
        let cwd = FileManager.default.currentDirectoryPath + "/"
        return path.hasPrefix(cwd) ? String(path.dropFirst(cwd.count)) : path
    }

    /// Copies the folder `built` to `path`, replacing what was there (copied, not moved: the
    /// temporary folder may be on another file system).
    private static func replace(_ path: String, with built: String) throws(GeneratorError) {
        do {
            if FileManager.default.fileExists(atPath: path) { try FileManager.default.removeItem(atPath: path) }
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: built, toPath: path)
        } catch { throw .io(path: path, reason: "cannot write: \(error)") }
    }

    private static func write(_ data: Data, to path: String) throws(GeneratorError) {
        if FileManager.default.contents(atPath: path) == data { return }
        do {
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try data.write(to: URL(fileURLWithPath: path))
        } catch { throw .io(path: path, reason: "cannot write: \(error)") }
    }
}

/// A private temporary folder, removed by its owner.
struct ScratchFolder {
    let path: String

    init() throws(GeneratorError) {
        var template = Array((NSTemporaryDirectory() + "/protogen.XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else { throw .io(path: NSTemporaryDirectory(), reason: "cannot make a scratch folder") }
        path = String(cString: made)
    }

    func makeFolder(_ name: String) throws(GeneratorError) {
        do { try FileManager.default.createDirectory(atPath: path + "/" + name, withIntermediateDirectories: true) } catch {
            throw .io(path: path + "/" + name, reason: "\(error)")
        }
    }

    func write(_ data: Data, to name: String) throws {
        try data.write(to: URL(fileURLWithPath: path + "/" + name))
    }

    func remove() { try? FileManager.default.removeItem(atPath: path) }
}
