import DeviceProof
import Foundation
import Testing

/// How `DeviceBuild.compile` compiles the device driver: with nanopb's default configuration
/// first, again with PB_FIELD_32BIT only when the compiler's complaint is one it answers (and says
/// so in its output), and otherwise fails with the first three error lines. The Wireproof tree is
/// stood in for by a folder whose nanopb sources and driver are empty C files, and nanopb's build
/// of the schema by a fixed layout and one generated C file; the C compiler is the real one.
@Suite struct DeviceBuildCompileRetryTests {
    /// A stand-in tree whose device build holds `generatedC`; owned by the value, removed by `remove()`.
    struct StandInTree {
        let root: String
        init(generatedC: String) throws {
            root = FileManager.default.temporaryDirectory.appendingPathComponent("wireproof-devbuild-\(UUID().uuidString)").path
            let files = [
                "work/layout.json": #"{"messages": [], "options": true}"#,
                "work/gen/schema.pb.c": generatedC,
                ".deps/nanopb/pb_common.c": "int wp_stand_in_common(void) { return 0; }\n",
                ".deps/nanopb/pb_decode.c": "int wp_stand_in_decode(void) { return 0; }\n",
                ".deps/nanopb/pb_encode.c": "int wp_stand_in_encode(void) { return 0; }\n",
                "Sources/Proof/DeviceDriver/device_driver.c": "int main(void) { return 0; }\n",
            ]
            for (path, text) in files {
                let url = URL(fileURLWithPath: root + "/" + path)
                try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try text.write(to: url, atomically: true, encoding: .utf8)
            }
        }
        func make() throws -> DeviceBuild.Output {
            try DeviceBuild.compile(root: root, work: root + "/work")
        }
        func remove() { try? FileManager.default.removeItem(atPath: root) }
    }

    @Test func generatedCThatDemandsField32IsCompiledAgainWithIt() throws {
        let tree = try StandInTree(generatedC: "#ifndef PB_FIELD_32BIT\n#error \"this file needs PB_FIELD_32BIT\"\n#endif\nint generated(void) { return 1; }\n")
        defer { tree.remove() }
        let output = try tree.make()
        #expect(output.field32)
        #expect(output.driver == tree.root + "/work/device_driver")
        #expect(FileManager.default.isExecutableFile(atPath: tree.root + "/work/device_driver"))
    }

    /// pb.h's own check, as a tag past 65535 trips it: the generator writes no `#error` for it.
    @Test func aFieldInfoThatDoesNotFitItsWidthIsCompiledAgainWithField32() throws {
        let tree = try StandInTree(generatedC: """
            #ifndef PB_FIELD_32BIT
            _Static_assert(262143 < (1u << 16), "FIELDINFO_DOES_NOT_FIT_width4_field262143");
            #endif
            int generated(void) { return 1; }

            """)
        defer { tree.remove() }
        let output = try tree.make()
        #expect(output.field32)
        #expect(FileManager.default.isExecutableFile(atPath: tree.root + "/work/device_driver"))
    }

    @Test func generatedCThatCompilesAsIsKeepsTheDefaultConfiguration() throws {
        let tree = try StandInTree(generatedC: "int generated(void) { return 1; }\n")
        defer { tree.remove() }
        #expect(try tree.make().field32 == false)
    }

    @Test func generatedCThatDoesNotCompileFailsWithItsFirstThreeErrors() throws {
        let tree = try StandInTree(generatedC: "int a = one;\nint b = two;\nint c = three;\nint d = four;\n")
        defer { tree.remove() }
        do {
            _ = try tree.make()
            Issue.record("C that does not compile was built")
        } catch let error as DeviceProofError {
            let prefix = "nanopb's generator output does not compile: "
            #expect(error.description.hasPrefix(prefix), "\(error)")
            let lines = error.description.dropFirst(prefix.count).components(separatedBy: "; ")
            #expect(lines.count == 3, "\(lines)")
            #expect(zip(lines, ["one", "two", "three"]).allSatisfy { $0.contains("error:") && $0.contains($1) }, "\(lines)")
        }
    }
}
