// The SwiftProtobuf peer package (Peers/SwiftProtobuf): its paths, the one-at-a-time lock, and
// `swift build` of its products. What it builds lives in SwiftProtobufPeer+Programs.swift (the
// programs of make conformance, make bench, make migration-sample) and
// SwiftProtobufPeer+ProveTarget.swift (prove's and the fuzz package's target); protoc-gen-swift runs in
// SwiftProtobufPeer+Generation.swift. SwiftProtobuf itself is compiled once per checkout: the peer's
// manifest never changes, and generated files are replaced only when their content changes.

import Foundation
import ProcessSupport
#if canImport(Glibc)
import Glibc
#endif

/// Why the peer stopped: `unavailable` when it cannot take part on this machine (swift-protobuf
/// cannot be resolved or built, protoc-gen-swift crashes on the schema), `failed` for anything else
/// (a generation failure is a real failure).
enum SwiftProtobufPeerError: Error, CustomStringConvertible {
    case unavailable(String)
    case failed(String)

    var description: String {
        switch self {
        case .unavailable(let why): return "unavailable: \(why)"
        case .failed(let why): return why
        }
    }
}

/// Builds and fills the peer package under `root`. Progress goes to `say` (stderr, prefixed
/// "swiftprotobuf-peer: "); build and protoc logs to `.build/peer-*.log` of the package. Every
/// public operation holds the package's lock (`.build/peer.lock`) for its whole run, so a prove run
/// and `make conformance` never generate into or build the same package at once.
struct SwiftProtobufPeer {
    /// The Wireproof tree.
    let root: String
    /// `debug` or `release`: the configuration of protoc-gen-swift and the conformance host (the
    /// bench's programs are always release).
    let configuration: String
    /// The swift driver (`SWIFT` of the scripts), run through /usr/bin/env.
    let swift: String
    /// protoc-gen-swift as this package already built it (`SWIFTPROTOBUF_PEER_PLUGIN`): set by a
    /// caller that runs many proofs (check-foreign builds it once for all of them); nil builds it
    /// before each generation.
    var builtPlugin: String?

    var package: String { root + "/Peers/SwiftProtobuf" }
    var generated: String { package + "/Generated" }
    var logs: String { package + "/.build" }

    init(root: String, configuration: String = "debug", swift: String = "swift", builtPlugin: String? = nil) {
        self.root = root
        self.configuration = configuration
        self.swift = swift
        self.builtPlugin = builtPlugin
    }

    /// The environment variable naming an already built protoc-gen-swift of this package.
    static let builtPluginVariable = "SWIFTPROTOBUF_PEER_PLUGIN"

    /// The peer as the scripts' environment describes it: SWIFT, SWIFTPROTOBUF_PEER_CONFIG,
    /// SWIFTPROTOBUF_PEER_PLUGIN.
    static func fromEnvironment(root: String) -> SwiftProtobufPeer {
        let environment = ProcessInfo.processInfo.environment
        return SwiftProtobufPeer(root: root, configuration: environment["SWIFTPROTOBUF_PEER_CONFIG"] ?? "debug",
                                 swift: environment["SWIFT"] ?? "swift", builtPlugin: environment[builtPluginVariable])
    }

    /// Builds protoc-gen-swift (holding the lock) and returns its path, for callers that hand it to
    /// many proofs through `builtPluginVariable`.
    func buildPlugin() throws -> String {
        try locked { try build("protoc-gen-swift") }
    }

    func say(_ text: String) { FileHandle.standardError.write(Data("swiftprotobuf-peer: \(text)\n".utf8)) }

    /// Runs `body` with the package's generated folders in place and its lock held.
    ///
    /// Every target folder must exist and hold a source before SwiftPM first loads the manifest: a
    /// target that was empty then stays out of SwiftPM's cached build plan, and the first build after
    /// its code arrives fails with "no such module" (seen on every fresh clone). The placeholder goes
    /// away when generated code replaces it.
    func locked<T>(_ body: () throws -> T) throws -> T {
        let files = FileManager.default
        try files.createDirectory(atPath: logs, withIntermediateDirectories: true)
        for (target, placeholder) in [("ConformanceMessages", "Placeholder.swift"), ("BundledProto", "Placeholder.swift"),
                                      ("SizePacket", "main.swift"), ("MigrationSample", "main.swift")] {
            let folder = "\(generated)/\(target)"
            try files.createDirectory(atPath: folder, withIntermediateDirectories: true)
            if try !files.contentsOfDirectory(atPath: folder).contains(where: { $0.hasSuffix(".swift") }) {
                try Data("// Placeholder until `wireproof swiftprotobuf-peer` writes this target's code.\n".utf8)
                    .write(to: URL(fileURLWithPath: "\(folder)/\(placeholder)"))
            }
        }
        let descriptor = open(logs + "/peer.lock", O_CREAT | O_WRONLY | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw SwiftProtobufPeerError.failed("cannot open \(logs)/peer.lock: \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }  // closing releases the lock
        while flock(descriptor, LOCK_EX) != 0 {
            guard errno == EINTR else { throw SwiftProtobufPeerError.failed("cannot lock \(logs)/peer.lock: \(String(cString: strerror(errno)))") }
        }
        return try body()
    }

    /// Runs the swift driver with `arguments`; its output goes to `log`.
    private func runSwift(_ arguments: [String], log: String) throws -> Int32 {
        let result = try ChildProcess.run("/usr/bin/env", [swift] + arguments)
        try Data(result.stdout + result.stderr).write(to: URL(fileURLWithPath: log))
        return result.status
    }

    /// Builds `product` in `configuration` with `extra` swift-build arguments (a scratch path, release
    /// flags); returns the executable's path. Unavailable when swift-protobuf cannot be resolved or
    /// does not compile; failed when our own code does not. Call it inside `locked`, which makes the
    /// folders (the build log's among them) that it writes into.
    func build(_ product: String, configuration: String? = nil, extra: [String] = []) throws -> String {
        let configuration = configuration ?? self.configuration
        let resolveLog = logs + "/peer-resolve.log"
        if try runSwift(["package", "--package-path", package, "resolve"], log: resolveLog) != 0 {
            let lines = ((try? ChildProcess.readText(resolveLog)) ?? "").split(separator: "\n")
            let why = lines.first { $0.lowercased().contains("error") } ?? lines.last ?? "no output"
            throw SwiftProtobufPeerError.unavailable("swift package resolve cannot fetch swift-protobuf 1.38.1 (\(why))")
        }
        let log = "\(logs)/peer-\(product).log"
        let common = ["build", "--package-path", package, "-c", configuration]
        if try runSwift(common + ["--product", product] + extra, log: log) != 0 {
            let lines = ((try? ChildProcess.readText(log)) ?? "").split(separator: "\n")
            let errors = lines.filter { $0.contains("error:") }
            for line in (errors.isEmpty ? lines.suffix(20) : errors.prefix(20)) { FileHandle.standardError.write(Data("\(line)\n".utf8)) }
            if errors.contains(where: { $0.contains("checkouts/swift-protobuf") }) {
                throw SwiftProtobufPeerError.unavailable("SwiftProtobuf 1.38.1 does not build with this toolchain (log: \(log))")
            }
            throw SwiftProtobufPeerError.failed("\(product) does not build (log: \(log))")
        }
        let binLog = logs + "/peer-bin-path.log"
        let result = try ChildProcess.run("/usr/bin/env", [swift] + common + extra + ["--show-bin-path"])
        try Data(result.stdout + result.stderr).write(to: URL(fileURLWithPath: binLog))
        let binPath = String(decoding: result.stdout, as: UTF8.self).split(separator: "\n").last.map(String.init) ?? ""
        guard result.status == 0, !binPath.isEmpty else { throw SwiftProtobufPeerError.failed("swift build --show-bin-path failed (log: \(binLog))") }
        return "\(binPath)/\(product)"
    }
}
