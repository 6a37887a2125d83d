// The catalog's lookup by full name is what the proof, the fuzz targets and the network peer use to
// reach a message type's decoder; a name it does not hold must come back nil wherever it would sort.

import BundledProtoCatalog
import FacadeProof
import Testing

@Suite struct CatalogLookupTests {
    @Test func everyListedTypeIsFoundByItsOwnName() throws {
        for type in facadeCatalog.messageTypes {
            #expect(facadeCatalog.messageType(named: type.fullName)?.fullName == type.fullName)
        }
    }

    @Test func namesTheCatalogDoesNotHoldAreNilWhereverTheySort() throws {
        let names = facadeCatalog.messageTypes.map(\.fullName)
        let first = try #require(names.first), last = try #require(names.last)
        // Before the first entry, between two entries, and after the last one (the binary search's
        // insertion point is then one past the end of the table).
        for absent in ["", String(first.dropLast()), first + "\u{0}", last + "~", "\u{10FFFF}"] where !names.contains(absent) {
            #expect(facadeCatalog.messageType(named: absent) == nil, "\(absent.debugDescription) is not in the catalog")
        }
    }

    /// The bundled facades are generated without the device's limits: no type offers a limit check
    /// (the device proof compares the check with the device's layout wherever one is offered).
    @Test func facadesWithoutDeviceLimitsOfferNoLimitCheck() {
        #expect(!facadeCatalog.messageTypes.isEmpty)
        #expect(facadeCatalog.messageTypes.allSatisfy { $0.deviceLimitViolations == nil },
                "\(facadeCatalog.messageTypes.filter { $0.deviceLimitViolations != nil }.map(\.fullName))")
    }
}
