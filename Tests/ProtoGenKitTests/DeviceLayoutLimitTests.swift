// What DeviceLayout derives from nanopb's layout of one field, on layouts written out by hand in
// the shape scripts/device-build.py gives them (the device party proves the same rules on real
// builds in make check-foreign; these pin the cases the corpus schemas do not all reach).

import Foundation
import NanopbDeviceLayout
import NanopbDeviceLimits
import Testing

@Suite struct DeviceLayoutLimitTests {
    /// One static singular enum field of C type `wild_Color`, stored in `enumBytes` bytes.
    private func enumField(_ type: String, enumBytes: Int?) throws -> DeviceLayout.Field {
        let bytes = enumBytes.map { ", \"enumBytes\": \($0)" } ?? ""
        let json = """
            {"name": "color", "number": 3, "allocation": "STATIC", "rules": "SINGULAR", "type": "\(type)",
             "cType": "wild_Color", "options": {"packed_enum": "true"}\(bytes)}
            """
        return try JSONDecoder().decode(DeviceLayout.Field.self, from: Data(json.utf8))
    }

    @Test func anEnumStoredNarrowerThanFourBytesIsLimitedToWhatItsCTypeHolds() throws {
        let signed = try enumField("ENUM", enumBytes: 1).limits.value
        #expect(signed == [NanopbDeviceLimit(field: "color", kind: .integer(low: -128, high: 127), option: "enum stored in 1 byte (wild_Color)")])
        let unsigned = try enumField("UENUM", enumBytes: 2).limits.value
        #expect(unsigned == [NanopbDeviceLimit(field: "color", kind: .integer(low: 0, high: 65535), option: "enum stored in 2 bytes (wild_Color)")])
    }

    @Test func anEnumInFourBytesOrNotYetMeasuredCarriesNoLimit() throws {
        #expect(try enumField("ENUM", enumBytes: 4).limits.value.isEmpty)
        #expect(try enumField("ENUM", enumBytes: nil).limits.value.isEmpty)
    }

    /// A repeated int32 field with max_count 3, in nanopb's `rules` and `allocation`.
    private func repeatedField(rules: String, allocation: String) throws -> DeviceLayout.Field {
        let json = """
            {"name": "ids", "number": 4, "allocation": "\(allocation)", "rules": "\(rules)", "type": "INT32",
             "cType": "int32_t", "maxCount": 3, "options": {}}
            """
        return try JSONDecoder().decode(DeviceLayout.Field.self, from: Data(json.utf8))
    }

    @Test func aFixedCountBindsTheWholeFieldWhetherStaticOrPointerAllocated() throws {
        let fixedThree = NanopbDeviceLimit(field: "ids", kind: .fixedCount(count: 3), option: "fixed_count (max_count = 3)")
        for allocation in ["STATIC", "POINTER"] {
            let limits = try repeatedField(rules: "FIXARRAY", allocation: allocation).limits
            #expect(limits.whole == [fixedThree], "\(allocation)")
        }
        // A max_count binds only the static array; a pointer array grows to what arrives.
        let countThree = NanopbDeviceLimit(field: "ids", kind: .count(max: 3), option: "max_count = 3")
        #expect(try repeatedField(rules: "REPEATED", allocation: "STATIC").limits.whole == [countThree])
        #expect(try repeatedField(rules: "REPEATED", allocation: "POINTER").limits.whole.isEmpty)
    }
}
