// The libprotobuf programs of `make bench`'s ratios: Benchmarks/CodecCpp/codec_cpp.cc over
// `protoc --cpp_out` of Protos/rtm, built with g++ -O2 twice: against the full libprotobuf, and
// against libprotobuf-lite from a copy of the protos (and of google/protobuf/timestamp.proto) that
// says `option optimize_for = LITE_RUNTIME`. Kept under BENCH_TMP/cpp while their stamp (a hash
// of the program and the protos) holds.

import Foundation
import ProcessSupport

struct LibprotobufPrograms {
    /// The folder the programs, their generated C++ and the stamp live in.
    let folder: String
    /// The schema's .proto files, relative to Protos/ (e.g. "rtm/data.proto"), in byte order.
    let protos: [String]
    static let program = "Benchmarks/CodecCpp/codec_cpp.cc"
    static let timestamp = "google/protobuf/timestamp.proto"
    static let liteOption = "option optimize_for = LITE_RUNTIME;"

    var full: String { folder + "/CodecCppFull" }
    var lite: String { folder + "/CodecCppLite" }

    /// `text` (a .proto file) with the lite option on its own line before its first `package`
    /// line; nil when it has none (the option must come after `syntax`, which precedes `package`).
    static func liteCopy(of text: String) -> String? {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let index = lines.firstIndex(where: { $0.hasPrefix("package ") }) else { return nil }
        lines.insert(liteOption, at: index)
        return lines.joined(separator: "\n")
    }

    /// `protoc --cpp_out` of the protos for the full program (run in Protos/).
    var fullProtocCommand: [String] {
        ["protoc", "-I.", "-I/usr/include", "--cpp_out=\(folder)/full"] + protos
    }

    /// `protoc --cpp_out` of the lite copies (run in the lite copy's folder, timestamp.proto included).
    var liteProtocCommand: [String] {
        ["protoc", "-I.", "--cpp_out=\(folder)/lite"] + protos + [Self.timestamp]
    }

    /// g++ of the full program: every generated .pb.cc, -lprotobuf.
    var fullCompileCommand: [String] {
        ["g++", "-std=c++17", "-O2", "-I\(folder)/full", "-o", full, Self.program]
            + protos.map { "\(folder)/full/\(Self.generatedSource($0))" } + ["-lprotobuf", "-lpthread"]
    }

    /// g++ of the lite program: the lite copies' .pb.cc and timestamp's, -lprotobuf-lite only.
    var liteCompileCommand: [String] {
        ["g++", "-std=c++17", "-O2", "-I\(folder)/lite", "-o", lite, Self.program]
            + (protos + [Self.timestamp]).map { "\(folder)/lite/\(Self.generatedSource($0))" } + ["-lprotobuf-lite", "-lpthread"]
    }

    /// protoc's C++ source for `proto`: "rtm/data.proto" -> "rtm/data.pb.cc".
    static func generatedSource(_ proto: String) -> String {
        (proto.hasSuffix(".proto") ? String(proto.dropLast(".proto".count)) : proto) + ".pb.cc"
    }

    /// Whether `lddOutput` shows the full libprotobuf (lite means no reflection: it must not).
    static func linksFullLibrary(lddOutput: String) -> Bool { lddOutput.contains("libprotobuf.so") }

    /// The hash of the program and the protos the current build was made from.
    func stamp() throws -> String {
        var bytes = try ChildProcess.readFile(Self.program)
        for proto in protos { bytes += try ChildProcess.readFile("Protos/" + proto) }
        let digest = BenchShell.digest(bytes)
        return String(digest.prefix(12))
    }

    /// Builds both programs unless the stamp in `folder` matches; `clock` says when it builds.
    func build(clock: ProgressClock) throws {
        let current = try stamp()
        if ((try? BenchShell.read(folder + "/stamp")) ?? "").trimmingCharacters(in: .whitespacesAndNewlines) == current { return }
        clock.say("building the libprotobuf programs (protoc --cpp_out, g++ -O2; full and lite)")
        let manager = FileManager.default
        try? manager.removeItem(atPath: folder)
        let liteProtos = folder + "/lite/protos"
        for sub in ["full", "lite/protos/rtm", "lite/protos/google/protobuf"] {
            try manager.createDirectory(atPath: folder + "/" + sub, withIntermediateDirectories: true)
        }
        let log = folder + "/build.log"
        try BenchShell.run(["/usr/bin/env", "-C", "Protos"] + fullProtocCommand, log: log, failure: "protoc --cpp_out of Protos/ failed")
        let sources = protos.map { ("Protos/" + $0, $0) } + [("/usr/include/" + Self.timestamp, Self.timestamp)]
        for (source, relative) in sources {
            guard let copy = Self.liteCopy(of: try BenchShell.read(source)) else {
                throw BenchRunError.stepFailed(what: "could not make a lite copy of \(source): it has no package line", logTail: "")
            }
            try BenchShell.write(copy, to: liteProtos + "/" + relative)
        }
        try BenchShell.run(["/usr/bin/env", "-C", liteProtos] + liteProtocCommand, log: log, failure: "protoc --cpp_out of the lite copy failed")
        try BenchShell.run(fullCompileCommand, log: log, failure: "g++ of CodecCppFull failed", tailLines: 40)
        try BenchShell.run(liteCompileCommand, log: log, failure: "g++ of CodecCppLite failed", tailLines: 40)
        if Self.linksFullLibrary(lddOutput: try BenchShell.output(["ldd", lite], log: log, failure: "ldd \(lite) failed")) {
            throw BenchRunError.stepFailed(what: "CodecCppLite links the full libprotobuf", logTail: "")
        }
        try BenchShell.write(current + "\n", to: folder + "/stamp")
    }
}
