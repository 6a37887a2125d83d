// Pins the symbol rename of the nanopb runtime: the built CNanopb objects export no pb_* symbol, and
// the renamed entry points the Swift runtime calls exist. Also checks, through the importer, that
// Swift sees the same configuration the C compiler used.
import CNanopb
import Foundation
import OracleCheck
import ProofSupport
import Testing

/// Defined global symbols of every object file SwiftPM built for the CNanopb target.
private struct CNanopbObjects {
    /// Object files found under `<products dir>/CNanopb.build`.
    let files: [URL]
    /// Defined global symbol names across those files.
    let definedGlobals: Set<String>

    /// Locates the build directory from the running test executable rather than a fixed path, so the
    /// test works for any `--scratch-path`, debug or release, and any platform triple.
    static func load() throws -> CNanopbObjects {
        let objectDir = try #require(findCNanopbBuildDirectory(),
                                     "no CNanopb.build directory above \(executablePath())")
        let files = objectFiles(under: objectDir)
        var symbols = Set<String>()
        for file in files {
            symbols.formUnion(try definedGlobalSymbols(of: file))
        }
        return CNanopbObjects(files: files, definedGlobals: symbols)
    }

    private static func executablePath() -> String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? CommandLine.arguments[0]
    }

    /// Walks up from the test executable (…/<triple>/<config>/WireproofPackageTests.xctest) looking for
    /// a sibling `CNanopb.build` (SwiftPM's native layout); failing that, searches a few levels up for
    /// a `CNanopb.build` directory anywhere below (other build systems nest it deeper).
    private static func findCNanopbBuildDirectory() -> URL? {
        let fm = FileManager.default
        let start = URL(fileURLWithPath: executablePath()).deletingLastPathComponent()
        var dir = start
        for _ in 0..<4 {
            let candidate = dir.appendingPathComponent("CNanopb.build")
            if isDirectory(candidate) { return candidate }
            dir = dir.deletingLastPathComponent()
        }
        // Two levels above the executable: the scratch path (<scratch>/<triple>/<config>/exe).
        guard let walker = fm.enumerator(at: start.deletingLastPathComponent().deletingLastPathComponent(),
                                         includingPropertiesForKeys: [.isDirectoryKey]) else { return nil }
        for case let url as URL in walker {
            if url.lastPathComponent == "CNanopb.build", isDirectory(url) { return url }
            if ["index", "checkouts", "repositories", "artifacts"].contains(url.lastPathComponent) {
                walker.skipDescendants()
            }
        }
        return nil
    }

    private static func isDirectory(_ url: URL) -> Bool {
        var isDir: ObjCBool = false
        return FileManager.default.fileExists(atPath: url.path, isDirectory: &isDir) && isDir.boolValue
    }

    private static func objectFiles(under dir: URL) -> [URL] {
        guard let walker = FileManager.default.enumerator(at: dir, includingPropertiesForKeys: nil) else {
            return []
        }
        return walker.compactMap { $0 as? URL }.filter { $0.pathExtension == "o" }
            .sorted { $0.path < $1.path }
    }

    /// `nm -g --defined-only FILE`: lines are `ADDRESS TYPE NAME`.
    private static func definedGlobalSymbols(of file: URL) throws -> [String] {
        let nm = try ChildProcess.run("/usr/bin/nm", ["-g", "--defined-only", file.path])
        #expect(nm.status == 0, "nm failed on \(file.path): \(nm.stderrText)")
        return String(decoding: nm.stdout, as: UTF8.self).split(separator: "\n").compactMap { line in
            let fields = line.split(separator: " ")
            return fields.count == 3 ? String(fields[2]) : nil
        }
    }
}

@Suite("CNanopb symbol rename")
struct SymbolRenameTests {
    @Test("the runtime objects are found, so the symbol checks below can fail")
    func objectsAreFound() throws {
        let objects = try CNanopbObjects.load()
        let names = objects.files.map(\.lastPathComponent)
        for runtime in ["pb_common", "pb_decode", "pb_encode"] {
            #expect(names.contains { $0.hasPrefix(runtime + ".") }, "no object for \(runtime).c in \(names)")
        }
        #expect(!objects.definedGlobals.isEmpty, "the CNanopb objects define no global symbols")
    }

    @Test("no built object exports an unprefixed pb_ symbol")
    func noUnprefixedSymbols() throws {
        let objects = try CNanopbObjects.load()
        try #require(!objects.files.isEmpty, "no CNanopb object files found")
        let leaked = objects.definedGlobals.filter { $0.hasPrefix("pb_") }.sorted()
        #expect(leaked.isEmpty, """
            CNanopb exports unprefixed nanopb symbols \(leaked); \
            run `swift run wireproof nanopb-symbols --write` and rebuild
            """)
    }

    @Test("every exported symbol carries the wp_ prefix, and the renamed API exists")
    func renamedSymbolsExist() throws {
        let objects = try CNanopbObjects.load()
        // Sanitizer builds add instrumentation globals of their own (ASan's
        // `___asan_globals_registered`, coverage counters); they are not nanopb's.
        let instrumentation = ["__asan", "___asan", "__odr_asan", "__sancov", "__tsan", "__ubsan"]
        let foreign = objects.definedGlobals
            .filter { name in !name.hasPrefix("wp_") && !instrumentation.contains { name.hasPrefix($0) } }
            .sorted()
        #expect(foreign.isEmpty, "CNanopb exports symbols outside the wp_ namespace: \(foreign)")
        for name in ["wp_pb_encode", "wp_pb_decode", "wp_pb_release", "wp_pb_istream_from_buffer",
                     "wp_pb_ostream_from_buffer", "wp_pb_get_encoded_size", "wp_pb_decode_ex",
                     "wp_pb_encode_ex", "wp_pb_default_field_callback"] {
            #expect(objects.definedGlobals.contains(name), "\(name) is not defined by CNanopb")
        }
    }
}

@Suite("CNanopb configuration as Swift sees it")
struct ImportedConfigurationTests {
    @Test("pb_size_t is 32-bit (PB_FIELD_32BIT reached the importer)")
    func sizeTypeIs32Bit() {
        #expect(MemoryLayout<pb_size_t>.size == 4)
        #expect(MemoryLayout<pb_bytes_array_t>.offset(of: \pb_bytes_array_t.bytes) == 4)
    }

    @Test("stream structs have the buffer-only layout with errmsg, the depth counter of patch 0100, the budget of patch 0200 and the size cache of patch 0300")
    func streamLayout() {
        let word = MemoryLayout<UnsafeRawPointer>.size
        #expect(MemoryLayout<pb_istream_t>.size == 6 * word)
        #expect(MemoryLayout<pb_istream_t>.offset(of: \pb_istream_t.depth) == 4 * word)
        #expect(MemoryLayout<pb_istream_t>.offset(of: \pb_istream_t.budget) == 5 * word)
        #expect(MemoryLayout<pb_budget_t>.size == 3 * word)
        #expect(MemoryLayout<pb_ostream_t>.size == 6 * word)
        #expect(MemoryLayout<pb_ostream_t>.offset(of: \pb_ostream_t.size_cache) == 5 * word)
        #expect(MemoryLayout<pb_size_cache_t>.size == 5 * word)
        #expect(MemoryLayout<pb_istream_t>.offset(of: \pb_istream_t.errmsg) == 3 * word)
    }

    @Test("the renamed functions are callable: an empty buffer round-trips through the streams")
    func renamedFunctionsCallable() {
        var buffer = [pb_byte_t](repeating: 0, count: 8)
        let written: Int = buffer.withUnsafeMutableBufferPointer { raw in
            let out = wp_pb_ostream_from_buffer(raw.baseAddress, raw.count)
            return out.max_size == 8 ? out.bytes_written : -1
        }
        #expect(written == 0)
        let left: Int = buffer.withUnsafeBufferPointer { raw in
            let input = wp_pb_istream_from_buffer(raw.baseAddress, raw.count)
            return input.bytes_left
        }
        #expect(left == 8)
    }
}
