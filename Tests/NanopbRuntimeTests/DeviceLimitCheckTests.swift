// The runtime half of `--limits-from-options`: what NanopbDeviceLimitCheck calls a violation, on C
// values laid out as nanopb's decoder and the runtime's setters leave them (a NUL-terminated
// string, a pb_bytes_array_t, counted arrays, absent fields as nil). The generated walk that calls
// it is proved against the device's layout by `wireproof prove` (docs/device.md).

import CNanopb
import Foundation
@_spi(NanopbFacade) import NanopbDeviceLimits
@_spi(NanopbFacade) import NanopbRuntime
import Testing

private func limit(_ kind: NanopbDeviceLimit.Kind, _ option: String = "the option") -> NanopbDeviceLimit {
    NanopbDeviceLimit(field: "f", kind: kind, option: option)
}

/// A malloc'd pb_bytes_array_t holding `count` bytes (freed by the caller).
private func bytesArray(_ count: Int) -> UnsafeMutablePointer<pb_bytes_array_t> {
    let raw = malloc(MemoryLayout<pb_bytes_array_t>.size + count)!
    let array = raw.bindMemory(to: pb_bytes_array_t.self, capacity: 1)
    array.pointee.size = pb_size_t(count)
    return array
}

@Suite struct DeviceLimitCheckTests {
    @Test func aStringIsPastItsLimitOnlyBeyondTheBytesTheDeviceKeeps() {
        var check = NanopbDeviceLimitCheck()
        let at = strdup("12345"), past = strdup("123456")
        defer { free(at); free(past) }
        check.string(limit(.stringBytes(max: 5), "max_size = 6"), "name", at)
        check.string(limit(.stringBytes(max: 5), "max_size = 6"), "name", nil)
        #expect(check.violations.isEmpty)
        check.string(limit(.stringBytes(max: 5), "max_size = 6"), "name", past)
        #expect(check.violations.map(\.description) == ["name: 6 bytes past max_size = 6"])
    }

    @Test func bytesAreCheckedByTheirSizeAndFixedLengthAllowsOnlyEmptyOrExact() {
        var check = NanopbDeviceLimitCheck()
        let three = bytesArray(3), four = bytesArray(4), empty = bytesArray(0)
        defer { free(three); free(four); free(empty) }
        check.bytes(limit(.bytes(max: 3)), "b", three)
        check.bytes(limit(.fixedBytes(size: 3)), "k", three)
        check.bytes(limit(.fixedBytes(size: 3)), "k", empty)
        #expect(check.violations.isEmpty)
        check.bytes(limit(.bytes(max: 3)), "b", four)
        check.bytes(limit(.fixedBytes(size: 4)), "k", three)
        #expect(check.violations.map(\.description) == ["b: 4 bytes past the option", "k: 3 bytes past the option"])
    }

    @Test func countsArePastBeyondMaxAndFixedCountsUnlessExactOrAbsent() {
        var check = NanopbDeviceLimitCheck()
        check.count(limit(.count(max: 2)), "r", 2)
        check.count(limit(.fixedCount(count: 2)), "t", 2)
        check.count(limit(.fixedCount(count: 2)), "t", 0)
        #expect(check.violations.isEmpty)
        check.count(limit(.count(max: 2)), "r", 3)
        check.count(limit(.fixedCount(count: 2)), "t", 1)
        #expect(check.violations.map(\.description) == ["r: 3 elements past the option", "t: 1 elements past the option"])
    }

    @Test func integersAreCheckedAgainstBothEndsAndElementsNameTheirIndex() {
        var check = NanopbDeviceLimitCheck()
        var values: [Int32] = [-128, 127, 128, -129]
        values.withUnsafeMutableBufferPointer { buffer in
            check.integer(limit(.integer(low: -128, high: 127), "int_size = IS_8"), "small", buffer.baseAddress!)
            check.integer(limit(.integer(low: -128, high: 127), "int_size = IS_8"), "small", Optional<UnsafeMutablePointer<Int32>>.none)
            check.integers(limit(.integer(low: -128, high: 127), "int_size = IS_8"), "many", buffer.baseAddress!, 4)
        }
        #expect(check.violations.map(\.description) == ["many[2]: 128 past int_size = IS_8", "many[3]: -129 past int_size = IS_8"])
        var wide: UInt64 = UInt64.max
        check.integer(limit(.integer(low: 0, high: 65535)), "u", &wide)
        #expect(check.violations.last?.description == "u: 18446744073709551615 past the option")
    }

    @Test func repeatedStringsAndBytesNameEachElementPastItsLimit() {
        var check = NanopbDeviceLimitCheck()
        var strings: [UnsafeMutablePointer<CChar>?] = [strdup("ok"), strdup("too long")]
        var arrays: [UnsafeMutablePointer<pb_bytes_array_t>?] = [bytesArray(1), bytesArray(9)]
        defer { strings.forEach { free($0) }; arrays.forEach { free($0) } }
        strings.withUnsafeMutableBufferPointer { check.strings(limit(.stringBytes(max: 4)), "tags", $0.baseAddress, 2) }
        arrays.withUnsafeMutableBufferPointer { check.byteArrays(limit(.bytes(max: 4)), "blobs", $0.baseAddress, 2) }
        check.strings(limit(.stringBytes(max: 4)), "none", nil, 0)
        #expect(check.violations.map(\.description) == ["tags[1]: 8 bytes past the option", "blobs[1]: 9 bytes past the option"])
    }
}
