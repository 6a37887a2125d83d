// The terminal text of `wirebench report sizes`: the probes' sizes, the per-message figures and
// the shipped layer's breakdown, per configuration.

import Foundation

enum SizeReportText {
    typealias F = NumberFormat

    static func print(_ configs: [String], sizes: [String: ConfigurationSizes], figures: [String: SizeFigures],
                      allCount: Int, oneCount: Int, print: (String) -> Void) {
        for config in configs {
            let s = sizes[config]!
            print("\n  [\(config)] stripped executables (`size`: text includes .rodata and .eh_frame)")
            print("    " + F.left("executable", 18) + F.right("file bytes", 12) + F.right("text", 10) + F.right("data", 9)
                  + F.right("text+data", 11))
            for exe in SizeReport.probes {
                let e = s.executables[exe]!
                print("    " + F.left(exe, 18) + F.right(F.grouped(e.file), 12) + F.right(F.grouped(e.text), 10)
                      + F.right(F.grouped(e.data), 9) + F.right(F.grouped(e.alloc), 11))
            }
        }
        for config in configs {
            perMessage(config, sizes[config]!, figures[config]!, allCount: allCount, oneCount: oneCount, print: print)
        }
        for config in configs {
            breakdown(config, sizes[config]!, figures[config]!, print: print)
        }
    }

    static func perMessage(_ config: String, _ s: ConfigurationSizes, _ d: SizeFigures, allCount: Int, oneCount: Int,
                           print: (String) -> Void) {
        let b0 = { (x: Double) in F.grouped(x, decimals: 0) }
        print("\n  [\(config)] bytes of facade code per message (\(allCount) messages in the schema)")
        print("    used (SizeAll - SizeOne) / \(allCount - 1):  facade symbols \(b0(d.usedPerMessageFacade)) B/message; "
              + "whole binary \(b0(d.usedPerMessageAlloc)) B/message (of which the calling program \(b0(d.usedPerMessageProgram)))")
        print("    unused but linked (SizeOne - SizeOnePruned) / \(allCount - oneCount):  facade symbols "
              + "\(b0(d.unusedPerMessageFacade)) B/message; whole binary \(b0(d.unusedPerMessageAlloc)) B/message")
        print("    SizeOnePruned's facade symbols in total: \(F.grouped(d.onePrunedFacade)) B")
        let per = Double(allCount - oneCount)
        print("    what each unused message keeps, per message (sized symbols in SizeOne, not in SizeOnePruned):")
        for k in SymbolKind.allCases {
            print("      " + F.left(k.rawValue, 48) + F.right(b0(Double(s.unusedKinds[k.rawValue] ?? 0) / per), 8) + " B")
        }
        print("    by section, per message:   " + F.right("used", 8) + F.right("unused", 9))
        let all = s.executables["SizeAll"]!, one = s.executables["SizeOne"]!, pruned = s.executables["SizeOnePruned"]!
        for g in SectionGroup.allCases {
            let used = Double(all.section(g) - one.section(g)) / Double(allCount - 1)
            let unused = Double(one.section(g) - pruned.section(g)) / per
            print("      " + F.left(g.rawValue, 36) + F.right(b0(used), 8) + F.right(b0(unused), 9))
        }
    }

    static func breakdown(_ config: String, _ s: ConfigurationSizes, _ d: SizeFigures, print: (String) -> Void) {
        print("\n  [\(config)] shipped layer in SizePacket (encode + decode of a chat DataPacket) vs SizeBaseline")
        print("    all types: +\(F.grouped(d.packetAlloc)) B text+data (\(F.kib(d.packetAlloc))), "
              + "+\(F.grouped(d.packetFile)) B stripped file")
        print("    pruned:    +\(F.grouped(d.packetPrunedAlloc)) B text+data (\(F.kib(d.packetPrunedAlloc))), "
              + "+\(F.grouped(d.packetPrunedFile)) B stripped file")
        let packet = s.executables["SizePacket"]!, pruned = s.executables["SizePacketPruned"]!, base = s.executables["SizeBaseline"]!
        let header = { (first: String) in
            "    " + F.left(first, 36) + F.right("all types", 12) + F.right("pruned", 12) + F.right("baseline", 12)
        }
        let row = { (name: String, values: [Int]) in
            "    " + F.left(name, 36) + values.map { F.right(F.grouped($0), 12) }.joined()
        }
        print(header("group (nm -S, unstripped)"))
        for g in SymbolGroup.allCases { print(row(g.rawValue, [packet.group(g), pruned.group(g), base.group(g)])) }
        print(header("section (stripped binary)"))
        for g in SectionGroup.allCases { print(row(g.rawValue, [packet.section(g), pruned.section(g), base.section(g)])) }
    }
}
