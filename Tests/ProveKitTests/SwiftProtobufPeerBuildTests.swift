import Foundation
import ProofSupport
import Testing
@testable import ProveKit

/// The SwiftProtobuf peer's builds and protoc-gen-swift runs, with a stand-in swift driver and
/// plugin (shell scripts): a swift-protobuf that cannot be fetched, does not compile or whose
/// plugin crashes makes the peer unavailable with the first line that says why; our own code not
/// compiling, or the plugin failing, is a failure; a build returns the product in the bin path.
@Suite struct SwiftProtobufPeerBuildTests {
    /// A Wireproof-like root holding a stand-in `swift` that runs `script` (a sh body; "$@" the
    /// driver's arguments, $ROOT the root, each call's arguments appended to $ROOT/calls).
    private func peer(_ name: String, _ script: String) throws -> SwiftProtobufPeer {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("peer-\(getpid())-\(name)").path
        try? FileManager.default.removeItem(atPath: root)
        try FileManager.default.createDirectory(atPath: root + "/bin", withIntermediateDirectories: true)
        let driver = "#!/bin/sh\nROOT='\(root)'\necho \"$*\" >> \"$ROOT/calls\"\n\(script)\n"
        try executable(driver, at: root + "/swift")
        let peer = SwiftProtobufPeer(root: root, configuration: "debug", swift: root + "/swift")
        // Every caller of build runs inside `locked`, which makes the log folder.
        try FileManager.default.createDirectory(atPath: peer.logs, withIntermediateDirectories: true)
        return peer
    }

    /// Writes an executable script from a child shell: were it written here, a child another test
    /// spawns meanwhile could inherit the open file and its exec fail with ETXTBSY.
    private func executable(_ text: String, at path: String) throws {
        let written = try ChildProcess.run("/bin/sh", ["-c", "cat > \"$0\" && chmod 755 \"$0\"", path], input: Array(text.utf8))
        #expect(written.status == 0)
    }

    private func failure(_ body: () throws -> Void) -> String? {
        do { try body(); return nil } catch { return "\(error)" }
    }

    private func calls(_ peer: SwiftProtobufPeer) throws -> [String] {
        try String(contentsOfFile: peer.root + "/calls", encoding: .utf8).split(separator: "\n").map(String.init)
    }

    @Test func aSwiftProtobufThatCannotBeFetchedMakesThePeerUnavailableWithTheFirstErrorLine() throws {
        let fetching = try peer("resolve", #"[ "$1" = package ] && { echo "Fetching"; echo "error: no route to github.com"; echo "last"; exit 1; }; exit 0"#)
        #expect(failure { _ = try fetching.build("P") }
                == "unavailable: swift package resolve cannot fetch swift-protobuf 1.38.1 (error: no route to github.com)")
        #expect(try calls(fetching) == ["package --package-path \(fetching.package) resolve"])
        let silent = try peer("resolve-last", #"[ "$1" = package ] && { echo "first"; echo "last words"; exit 1; }; exit 0"#)
        #expect(failure { _ = try silent.build("P") } == "unavailable: swift package resolve cannot fetch swift-protobuf 1.38.1 (last words)")
        let mute = try peer("resolve-mute", #"[ "$1" = package ] && exit 1; exit 0"#)
        #expect(failure { _ = try mute.build("P") } == "unavailable: swift package resolve cannot fetch swift-protobuf 1.38.1 (no output)")
    }

    @Test func swiftProtobufNotCompilingIsUnavailableAndOurCodeNotCompilingIsAFailure() throws {
        let theirs = try peer("theirs", #"[ "$1" = build ] && { echo "x/checkouts/swift-protobuf/A.swift:1:1: error: bad"; exit 1; }; exit 0"#)
        #expect(failure { _ = try theirs.build("P") }
                == "unavailable: SwiftProtobuf 1.38.1 does not build with this toolchain (log: \(theirs.logs)/peer-P.log)")
        let ours = try peer("ours", #"[ "$1" = build ] && { echo "Generated/A.swift:1:1: error: bad"; exit 1; }; exit 0"#)
        #expect(failure { _ = try ours.build("P") } == "P does not build (log: \(ours.logs)/peer-P.log)")
        #expect(try String(contentsOfFile: ours.logs + "/peer-P.log", encoding: .utf8) == "Generated/A.swift:1:1: error: bad\n")
    }

    @Test func aBuildReturnsTheProductInTheLastLineOfTheBinPath() throws {
        let built = try peer("built", #"case "$*" in *--show-bin-path*) echo "warning: noise"; echo "$ROOT/bin";; esac; exit 0"#)
        #expect(try built.build("P", configuration: "release", extra: ["--scratch-path", "/s"]) == built.root + "/bin/P")
        let package = built.package
        #expect(try calls(built) == [
            "package --package-path \(package) resolve",
            "build --package-path \(package) -c release --product P --scratch-path /s",
            "build --package-path \(package) -c release --scratch-path /s --show-bin-path",
        ])
        let lost = try peer("no-bin", "exit 0")
        #expect(failure { _ = try lost.build("P") } == "swift build --show-bin-path failed (log: \(lost.logs)/peer-bin-path.log)")
        #expect(try calls(lost)[1] == "build --package-path \(lost.package) -c debug --product P")
    }

    /// A peer whose protoc-gen-swift is `plugin` (a sh body), and a one-message schema.
    private func pluginPeer(_ name: String, _ plugin: String) throws -> (SwiftProtobufPeer, schema: String) {
        let peer = try peer(name, #"case "$*" in *--show-bin-path*) echo "$ROOT/bin";; esac; exit 0"#)
        try executable("#!/bin/sh\n\(plugin)\n", at: peer.root + "/bin/protoc-gen-swift")
        try Data("syntax = \"proto3\";\nmessage A { int32 x = 1; }\n".utf8).write(to: URL(fileURLWithPath: peer.root + "/a.proto"))
        return (peer, peer.root)
    }

    @Test func aCrashingPluginMakesThePeerUnavailableNamingTheRuntimeFailure() throws {
        let (crashing, schema) = try pluginPeer("crash", "cat > /dev/null; echo 'Fatal error: Swift runtime failure: Index out of range in protoc-gen-swift' >&2; kill -SEGV $$")
        #expect(failure { try crashing.runProtocGenSwift(into: crashing.logs + "/staging", ["-I", schema, "a.proto"]) }
                == "unavailable: protoc-gen-swift 1.38.1 crashed on this schema (Swift runtime failure: Index out of range in protoc-gen-swift; "
                + "log: Peers/SwiftProtobuf/.build/peer-protoc.log)")
        let (killed, other) = try pluginPeer("killed", "cat > /dev/null; kill -SEGV $$")
        #expect(failure { try killed.runProtocGenSwift(into: killed.logs + "/staging", ["-I", other, "a.proto"]) }
                == "unavailable: protoc-gen-swift 1.38.1 crashed on this schema (Plugin killed by signal 11; log: Peers/SwiftProtobuf/.build/peer-protoc.log)")
    }

    @Test func aFailingPluginIsAFailureNamingTheLastArgumentAndASilentOneEmptiesStaging() throws {
        let (failing, schema) = try pluginPeer("fail", "cat > /dev/null; exit 1")
        #expect(failure { try failing.runProtocGenSwift(into: failing.logs + "/staging", ["-I", schema, "a.proto"]) }
                == "protoc-gen-swift failed on: a.proto")
        let (quiet, other) = try pluginPeer("quiet", "cat > /dev/null; exit 0")
        let staging = quiet.logs + "/staging"
        try FileManager.default.createDirectory(atPath: staging, withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: staging + "/old.swift", contents: Data())
        try quiet.runProtocGenSwift(into: staging, ["-I", other, "a.proto"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: staging).isEmpty)
        #expect(FileManager.default.fileExists(atPath: quiet.logs + "/peer-protoc.log"))
    }

    @Test func aPluginBuiltBeforeRunsWithoutTheDriverBeingCalledAgain() throws {
        let (ready, schema) = try pluginPeer("prebuilt", "cat > /dev/null; exit 0")
        var prebuilt = ready
        prebuilt.builtPlugin = ready.root + "/bin/protoc-gen-swift"
        try prebuilt.runProtocGenSwift(into: ready.logs + "/staging", ["-I", schema, "a.proto"])
        #expect(!FileManager.default.fileExists(atPath: ready.root + "/calls"))
        var absent = ready
        absent.builtPlugin = ready.root + "/bin/no-such-plugin"
        #expect(failure { try absent.runProtocGenSwift(into: ready.logs + "/staging", ["-I", schema, "a.proto"]) }
                == "protoc-gen-swift failed on: a.proto")
        try ready.runProtocGenSwift(into: ready.logs + "/staging", ["-I", schema, "a.proto"])
        #expect(try calls(ready).count == 3)
    }

    @Test func theLockPutsAPlaceholderInEveryEmptyTargetAndLeavesCodeAlone() throws {
        let locking = try peer("lock", "exit 0")
        let kept = locking.generated + "/BundledProto/Kept.swift"
        try FileManager.default.createDirectory(atPath: locking.generated + "/BundledProto", withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: kept, contents: Data("code".utf8))
        #expect(try locking.locked { 7 } == 7)
        for file in ["ConformanceMessages/Placeholder.swift", "SizePacket/main.swift", "MigrationSample/main.swift"] {
            #expect(FileManager.default.fileExists(atPath: locking.generated + "/" + file), "\(file)")
        }
        #expect(!FileManager.default.fileExists(atPath: locking.generated + "/BundledProto/Placeholder.swift"))
        #expect(FileManager.default.contents(atPath: kept) == Data("code".utf8))
        #expect(FileManager.default.fileExists(atPath: locking.logs + "/peer.lock"))
    }

    @Test func aFacadeSourceEntersThePeerWithItsBundledProtoImportSwapped() throws {
        let copying = try peer("swap", "exit 0")
        let source = copying.root + "/main.swift"
        try Data("import Foundation\nimport BundledProto\nimport BundledProtoC\nprint(1)\n".utf8).write(to: URL(fileURLWithPath: source))
        try copying.copySwappingImport(source, into: copying.root + "/staged")
        #expect(try String(contentsOfFile: copying.root + "/staged/main.swift", encoding: .utf8)
                == "import Foundation\nimport BundledProtoSwift\nimport BundledProtoC\nprint(1)\n")
        try Data("import Foundation\n".utf8).write(to: URL(fileURLWithPath: source))
        #expect(failure { try copying.copySwappingImport(source, into: copying.root + "/staged") }
                == "main.swift no longer has the line 'import BundledProto'")
    }
}
