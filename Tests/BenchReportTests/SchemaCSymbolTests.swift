// Which names count as generated C in a probe: those the objects of each of the bench package's
// three schema C modules define, and no others.

import Foundation
import Testing
@testable import BenchReport

@Suite struct SchemaCSymbolTests {
    @Test func theObjectsOfEverySchemaCModuleDefineTheGeneratedC() throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        let release = folder.path + "/release"
        for (module, symbol) in [("BundledProtoC", "rtm_All_msg"), ("PrunedOneC", "rtm_One_msg"),
                                 ("PrunedPacketC", "rtm_Packet_msg"), ("CNanopb", "pb_decode")] {
            try ProbeObjects.assemble(".data\n.globl \(symbol)\n\(symbol):\n .long 1\n", to: "\(release)/\(module).build/\(symbol).c.o")
        }
        #expect(try SymbolAttributor.schemaCSymbols(release: release) == ["rtm_All_msg", "rtm_One_msg", "rtm_Packet_msg"])
    }
}
