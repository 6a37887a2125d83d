// Tiny relocatable objects assembled by `as` (binutils, which the size report needs anyway) that
// stand in for probe executables: `strip`, `size`, `nm -S` and `readelf -SW` read them as they
// read the real probes, with sizes known in advance.

import Foundation
@testable import BenchReport

enum ProbeObjects {
    /// Assembly of an object whose .text holds `<program>_main` (`main` bytes), `pb_decode`
    /// (`nanopb` bytes, absent when 0) and 5 bytes in no symbol; and whose .data holds
    /// `probe_table` (`data` bytes) and `rtm_Extra_msg` (`extra` bytes, absent when 0).
    /// So `size` reads text main + nanopb + 5 and data data + extra.
    static func source(program: String, main: Int, nanopb: Int, data: Int, extra: Int = 0) -> String {
        var s = ".text\n.globl \(program)_main\n\(program)_main:\n.fill \(main), 1, 0x90\n.size \(program)_main, \(main)\n"
        if nanopb > 0 { s += ".globl pb_decode\npb_decode:\n.fill \(nanopb), 1, 0x90\n.size pb_decode, \(nanopb)\n" }
        s += ".fill 5, 1, 0xcc\n.data\n.globl probe_table\nprobe_table:\n.fill \(data), 1, 1\n.size probe_table, \(data)\n"
        if extra > 0 { s += ".globl rtm_Extra_msg\nrtm_Extra_msg:\n.fill \(extra), 1, 2\n.size rtm_Extra_msg, \(extra)\n" }
        return s
    }

    /// Assembles `source` into the object at `path` (its folder created).
    static func assemble(_ source: String, to path: String) throws {
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent,
                                                withIntermediateDirectories: true)
        try source.write(toFile: path + ".s", atomically: true, encoding: .utf8)
        _ = try BinaryTools.run("as", ["-o", path, path + ".s"])
    }

    /// Links (binutils' ld) a static executable at `path` that exits with `status` whatever its
    /// arguments, with the objects of `source(program: "probe", main: 16, nanopb: 0, data: data)`.
    static func link(status: Int, data: Int = 24, to path: String) throws {
        let source = source(program: "probe", main: 16, nanopb: 0, data: data)
            + ".text\n.globl _start\n_start:\n mov $60, %eax\n mov $\(status), %edi\n syscall\n"
        try assemble(source, to: path + ".o")
        _ = try BinaryTools.run("ld", ["-o", path, path + ".o"])
    }
}
