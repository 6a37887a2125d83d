import DeviceProof
import ProtoOracle
import Testing

/// How a value the device sent back is compared with the one it was sent: a field the layout drops
/// is "truncated" only when it did not come back, a zero a proto3-style field does not send is
/// "truncated", an empty fixed_length value that comes back as exactly max_size zeros is "filled";
/// every other difference, including one in a field the layout does not know, is a mismatch at
/// its path.
@Suite struct DeviceComparisonExplanationTests {
    typealias L = HandWrittenDeviceLayout

    static func differences(_ sent: [UInt8], _ back: [UInt8]) throws -> [String] {
        DeviceComparison.differences(sent: try L.message("Dev", sent), back: try L.message("Dev", back), layout: L.layout).map(\.description)
    }
    static func kinds(_ sent: [UInt8], _ back: [UInt8]) throws -> [String] {
        DeviceComparison.differences(sent: try L.message("Dev", sent), back: try L.message("Dev", back), layout: L.layout)
            .map { "\($0.path) \($0.kind)" }
    }

    @Test func aDroppedFieldIsTruncatedOnlyWhenItDoesNotComeBack() throws {
        #expect(try Self.differences([0x30, 0x05], []) == ["gone: truncated (type = FT_IGNORE)"])
        #expect(try Self.differences([0x30, 0x05], [0x30, 0x05]) == ["gone: mismatch (the device has a field it drops)"])
        #expect(try Self.differences([0x08, 0x01], [0x08, 0x01]) == [])
    }

    @Test func aFieldOutsideTheLayoutMayOnlyComeBackUnchanged() throws {
        #expect(try Self.differences([0x40, 0x01], [0x40, 0x02]) == ["extra: mismatch (differs; not in the device layout)"])
        #expect(try Self.differences([0x40, 0x01], [0x40, 0x01]) == [])
    }

    @Test func aZeroTheDeviceDoesNotSendIsTruncatedUnderProto3True() throws {
        #expect(try Self.differences([0x48, 0x00], []) == ["plain: truncated (proto3 = true: the device does not send a zero)"])
        #expect(try Self.kinds([0x48, 0x01], []) == ["plain mismatch"])
    }

    @Test func anEmptyFixedLengthValueIsFilledOnlyWithExactlyMaxSizeZeros() throws {
        #expect(try Self.differences([0x3A, 0x00], [0x3A, 0x02, 0, 0]) == ["key: filled (fixed_length (max_size = 2))"])
        #expect(try Self.kinds([0x3A, 0x00], [0x3A, 0x03, 0, 0, 0]) == ["key mismatch"])
        #expect(try Self.kinds([0x3A, 0x00], [0x3A, 0x02, 0, 1]) == ["key mismatch"])
        #expect(try Self.kinds([0x3A, 0x01, 0x00], [0x3A, 0x02, 0, 0]) == ["key mismatch"])
        // The same per element of a repeated fixed_length field.
        #expect(try Self.differences([0x52, 0x00, 0x52, 0x02, 1, 2], [0x52, 0x02, 0, 0, 0x52, 0x02, 1, 2])
                == ["keys[0]: filled (fixed_length (max_size = 2))"])
        #expect(try Self.kinds([0x52, 0x02, 1, 2], [0x52, 0x02, 1, 3]) == ["keys[0] mismatch"])
    }

    @Test func submessagesAreComparedFieldByFieldAndCountsAsAWhole() throws {
        #expect(try Self.kinds([0x22, 0x03, 0x0A, 0x01, 0x61], [0x22, 0x03, 0x0A, 0x01, 0x62]) == ["sub.tag mismatch"])
        #expect(try Self.differences([0x52, 0x02, 1, 2], []) == ["keys: mismatch (sent 1 elements, back absent)"])
        #expect(try Self.differences([0x52, 0x02, 1, 2], [0x52, 0x02, 1, 2, 0x52, 0x02, 3, 4]) == ["keys: mismatch (sent 1 elements, back 2 elements)"])
        #expect(try Self.differences([0x52, 0x02, 1, 2], [0x52, 0x02, 1, 2]) == [])
    }
}
