// Builds Google's conformance_test_runner from Debian's protobuf 3.21.12 source (.deps/protobuf,
// unpacked by `make setup`), linked against the system libprotobuf (libprotobuf-dev, same version),
// by the generated Makefile (RunnerMakefile) run with `make -j JOBS`; incremental.

import Foundation
import ProcessSupport

/// One build of the runner under `settings`. Prerequisites are checked first, each failure naming
/// the command that provides what is missing.
struct RunnerBuild {
    let settings: RunnerSettings
    /// Prints a progress line ("conformance: ..." in the command).
    let say: (String) -> Void

    /// Makes `settings.runner` up to date and returns its path. With `force`, gen/, obj/ and the
    /// runner are removed first, so everything is compiled again.
    func run(force: Bool) throws(ConformanceError) -> String {
        let protoc = try prerequisites()
        try RunnerMakefile.write(RunnerMakefile.text(settings, protoc: protoc), into: settings.output)
        if force {
            for name in ["obj", "gen", "conformance_test_runner"] { try? FileManager.default.removeItem(atPath: "\(settings.output)/\(name)") }
        }
        let make = try tool("make", provider: "install Debian package 'make'")
        // `make -q` runs nothing: status 0 when the target is up to date.
        if let query = try? ChildProcess.run(make, ["-C", settings.output, "-q", "conformance_test_runner"]), query.status == 0 {
            say("runner up to date: \(settings.runner)")
            return settings.runner
        }
        say("building the runner with \(settings.compiler), \(settings.jobs) jobs, from \(settings.source)")
        let start = Date()
        let status: Int32
        do {
            status = try ChildProcess.runShowingOutput(make, ["-C", settings.output, "--no-print-directory", "-j\(settings.jobs)", "conformance_test_runner"])
        } catch {
            throw ConformanceError("cannot run make: \(error)")
        }
        guard status == 0 else { throw ConformanceError("the runner does not build (make exited \(status) in \(settings.output))") }
        say("built \(settings.runner) in \(Int(Date().timeIntervalSince(start))) s")
        return settings.runner
    }

    /// Checks what the build needs; returns protoc's path.
    private func prerequisites() throws(ConformanceError) -> String {
        let files = FileManager.default
        guard files.fileExists(atPath: settings.source + "/conformance/conformance_test_runner.cc") else {
            throw ConformanceError("no protobuf source in \(settings.source); run: make setup")
        }
        let protoc = try tool("protoc", provider: "run: make setup")
        guard files.fileExists(atPath: "/usr/include/google/protobuf/message.h") else {
            throw ConformanceError("libprotobuf headers missing (/usr/include/google/protobuf); run: make setup")
        }
        // The generated code must match the library it links against, and the suite must match both.
        let printed: ChildProcess.Result
        do { printed = try ChildProcess.run(protoc, ["--version"]) } catch { throw ConformanceError("cannot run protoc: \(error)") }
        let configure = (try? String(contentsOfFile: settings.source + "/configure.ac", encoding: .utf8)) ?? ""
        let protocVersion = Self.protocVersion(String(decoding: printed.stdout, as: UTF8.self))
        let sourceVersion = Self.sourceVersion(configureAC: configure)
        guard let protocVersion, protocVersion == sourceVersion else {
            throw ConformanceError("protoc is \(protocVersion ?? "of no known version") but the source in \(settings.source) is \(sourceVersion ?? "of no known version")")
        }
        return protoc
    }

    private func tool(_ name: String, provider: String) throws(ConformanceError) -> String {
        guard let path = ChildProcess.executableOnPath(name) else { throw ConformanceError("\(name) not found on PATH; \(provider)") }
        return path
    }

    /// The version `protoc --version` prints ("libprotoc 3.21.12" gives "3.21.12"); nil for other text.
    static func protocVersion(_ printed: String) -> String? {
        let words = printed.split(whereSeparator: \.isWhitespace)
        guard words.count == 2, words[0] == "libprotoc" else { return nil }
        return String(words[1])
    }

    /// The version a protobuf source tree declares in configure.ac's
    /// `AC_INIT([Protocol Buffers],[3.21.12],...)`; nil when no such line is there.
    static func sourceVersion(configureAC: String) -> String? {
        let prefix = "AC_INIT([Protocol Buffers],["
        for line in configureAC.split(separator: "\n") where line.hasPrefix(prefix) {
            let version = line.dropFirst(prefix.count).prefix { $0.isNumber || $0 == "." }
            if !version.isEmpty && line.dropFirst(prefix.count + version.count).hasPrefix("]") { return String(version) }
        }
        return nil
    }
}
