// Hostile bytes on both ends: one input decoded by the facades and by the device's build (the
// schema's own nanopb options), acceptance and meaning compared. Both are nanopb, so they share
// nanopb's deviations from protobuf (docs/deviations.md); what may differ is what the options
// change, and the allocation: the device holds submessages in place (FT_STATIC, merged as
// protobuf merges them) where the facades hold pointers (a duplicate submessage replaces the
// first: rows 3 and 4).
// Every difference is explained by one of those, named, or it is a failure.

import FacadeProof
import NanopbDeviceLayout
import ProtoOracle
import ProtoSchema

/// How one input was judged.
public enum DeviceMutantVerdict: Sendable, Equatable {
    /// Both refused it.
    case bothRefuse
    /// Both accepted it and mean the same (the facades re-encode both readings to the same bytes).
    case same
    /// They differ, and an option of the device's build explains it (the explanation).
    case explainedByOption(String)
    /// Both accepted it and differ only in submessage fields, where the device's reading is
    /// protobuf's (the oracle's): the device merges a duplicate submessage, the facades replace
    /// it (their documented pointer semantics, rows 3 and 4).
    case deviceMergesWhereFacadesReplace
    /// The input holds what the facades' nanopb, patched to read tags and unknown fields as
    /// Google's parsers do (patches/nanopb/0001), reads differently from the device's stock
    /// nanopb (a tag over 5 bytes or 32 bits, a group, a varint over 10 bytes): not compared.
    case readDifferentlyByStockNanopb
    /// A difference nothing explains (what differs).
    case failure(String)
}

public enum DeviceMutantCheck {
    /// nanopb's reading, for comparing two nanopb parties: invalid UTF-8 kept (deviation 9), any
    /// enum value kept as the field's value.
    static let nanopbReading = BinaryDecodingOptions(acceptInvalidUTF8: true, openEnums: true)

    /// Judges one input of message type `schema` given the device's answer to it. `layout` is the
    /// device layout with the compiled device's sizes applied.
    public static func judge(_ input: [UInt8], schema: MessageSchema, facade: FacadeMessageType, answer: DeviceAnswer,
                             schemas: SchemaSet, layout: DeviceLayout) -> DeviceMutantVerdict {
        let facades = try? facade.decodeReencode(input)
        switch answer {
        case .crashed(let signal):
            return .failure("the device build crashed (signal \(signal))")
        case .reencodeFailed(let message):
            return .failure("the device decoded it but could not re-encode it: \(message)")
        case .refused(let message):
            guard let facades else { return .bothRefuse }
            guard let value = try? DynamicMessage(serializedBytes: facades, schema: schema, in: schemas, options: nanopbReading) else {
                return .failure("the device refuses it ('\(message)'); the facades accept it, and their reading cannot be read back")
            }
            let violations = DeviceLimitCheck.violations(of: value, layout: layout)
            if let cause = violations.first(where: { $0.limit.decodeErrors.contains(message) }) {
                return .explainedByOption("refused by option: \(cause) (device: \(message))")
            }
            // The device checks every occurrence of a field as it comes; the facades keep the last.
            if let cause = occurrenceViolations(input, schema: schema, schemas: schemas, layout: layout)
                .first(where: { $0.limit.decodeErrors.contains(message) }) {
                return .explainedByOption("refused by option: \(cause), in an occurrence a later one replaces (device: \(message))")
            }
            if readsDifferentlyFromStockNanopb(input, schema: schema, schemas: schemas) { return .readDifferentlyByStockNanopb }
            return .failure("the device refuses it ('\(message)') and no option explains it; the facades accept it"
                + (violations.isEmpty ? "" : " (past limits: \(violations.map(\.description).joined(separator: "; ")))"))
        case .accepted(let deviceBytes):
            guard let facades else {
                // The device skips what it drops (callbacks, FT_IGNORE) unparsed; the facades parse
                // it. Explained when the input without those fields is accepted by the facades.
                if let stripped = withoutDroppedFields(input, schema: schema, schemas: schemas, layout: layout), stripped != input {
                    do {
                        _ = try facade.decodeReencode(stripped)
                        return .explainedByOption("the facades refuse what is inside fields the device drops")
                    } catch where "\(error)".contains("missing required field") {
                        return .explainedByOption("the facades refuse what is inside fields the device drops, a required one among them")
                    } catch {}
                }
                if readsDifferentlyFromStockNanopb(input, schema: schema, schemas: schemas) { return .readDifferentlyByStockNanopb }
                return .failure("the device accepts it; the facades refuse it")
            }
            let readBack: [UInt8]
            do { readBack = try facade.decodeReencode(deviceBytes) } catch {
                let required = droppedRequired(schema, layout: layout)
                if "\(error)".contains("missing required field"), !required.isEmpty {
                    return .explainedByOption("a required field the device drops (\(required.joined(separator: ", "))): the facades refuse what it sends back")
                }
                return .failure("the facades refuse the device's re-encoding: \(error)")
            }
            if readBack == facades { return .same }
            guard let mine = try? DynamicMessage(serializedBytes: facades, schema: schema, in: schemas, options: nanopbReading),
                  let theirs = try? DynamicMessage(serializedBytes: readBack, schema: schema, in: schemas, options: nanopbReading) else {
                return .failure("both accept it, they differ, and a reading cannot be read back")
            }
            let differences = DeviceComparison.differences(sent: mine, back: theirs, layout: layout)
            guard let mismatch = differences.first(where: { $0.kind == .mismatch }) else {
                return .explainedByOption(differences.map(\.description).joined(separator: "; "))
            }
            // The device holds submessages in place and merges a duplicate as protobuf does: only
            // when every difference lies in a submessage field and the device reads as protobuf.
            let inSubmessages = differences.filter { $0.kind == .mismatch }.allSatisfy { difference in
                let name = difference.path.prefix { $0 != "." && $0 != "[" }
                return schema.fields.first { $0.name == name }?.type == .message
            }
            if inSubmessages, let protobuf = try? DynamicMessage(serializedBytes: input, schema: schema, in: schemas, options: nanopbReading),
               !DeviceComparison.differences(sent: protobuf, back: theirs, layout: layout).contains(where: { $0.kind == .mismatch }) {
                return .deviceMergesWhereFacadesReplace
            }
            return .failure("both accept it and mean different things: \(mismatch)")
        }
    }

    /// Names of `schema`'s required fields the device keeps nothing of.
    static func droppedRequired(_ schema: MessageSchema, layout: DeviceLayout) -> [String] {
        let dropped = droppedNumbers(schema.fullName, layout: layout)
        return schema.fields.filter { $0.label == .required && dropped.contains($0.number) }.map(\.name)
    }

    /// Whether `input` holds, at any level the schema reaches, a tag of more than 5 bytes or
    /// above 32 bits, a group, or a varint of more than 10 bytes: where patch 0001 of the facades'
    /// nanopb departs from stock nanopb. Stops (false) where the input stops being well-formed.
    static func readsDifferentlyFromStockNanopb(_ input: [UInt8], schema: MessageSchema, schemas: SchemaSet, depth: Int = 0) -> Bool {
        var offset = 0
        func varint() -> (value: UInt64, bytes: Int)? {
            var value: UInt64 = 0, count = 0
            while offset < input.count {
                let byte = input[offset]; offset += 1; count += 1
                if count <= 10 { value |= UInt64(byte & 0x7F) << UInt64(7 * (count - 1)) }
                if byte & 0x80 == 0 { return (value, count) }
            }
            return nil
        }
        while offset < input.count {
            guard let tag = varint() else { return false }
            if tag.bytes > 5 || tag.value > UInt64(UInt32.max) { return true }
            switch tag.value & 7 {
            case 0:
                guard let value = varint() else { return false }
                if value.bytes > 10 { return true }
            case 1: offset += 8
            case 5: offset += 4
            case 2:
                guard let length = varint(), length.value <= UInt64(input.count - offset) else { return false }
                let body = Array(input[offset..<(offset + Int(length.value))])
                offset += Int(length.value)
                if depth < 32, let field = schema.field(number: Int32(truncatingIfNeeded: tag.value >> 3)), field.type == .message,
                   let name = field.typeName, let sub = schemas.message(name),
                   readsDifferentlyFromStockNanopb(body, schema: sub, schemas: schemas, depth: depth + 1) { return true }
            case 3, 4: return true
            default: return false
            }
        }
        return false
    }

    /// Field numbers of `message` the device keeps nothing of.
    static func droppedNumbers(_ message: String, layout: DeviceLayout) -> Set<Int32> {
        guard let shape = layout.message(message) else { return [] }
        return Set(shape.dropped.map(\.number) + shape.fields.filter(\.isDroppedByDevice).map(\.number))
    }

    /// The limit violations of each occurrence of each field on its own, at every level the schema
    /// reaches: what the device refuses as it decodes, before a later occurrence replaces it.
    static func occurrenceViolations(_ input: [UInt8], schema: MessageSchema, schemas: SchemaSet, layout: DeviceLayout,
                                     prefix: String = "", depth: Int = 0) -> [DeviceViolation] {
        guard depth < 32, let fields = fields(of: input) else { return [] }
        var found: [DeviceViolation] = []
        for field in fields {
            let alone = Array(input[field.whole])
            if let single = try? DynamicMessage(serializedBytes: alone, schema: schema, in: schemas, options: nanopbReading) {
                found += DeviceLimitCheck.violations(of: single, layout: layout).map {
                    DeviceViolation(path: prefix + $0.path, limit: $0.limit, actual: $0.actual)
                }
            }
            // An empty packed block holds no element the oracle keeps; nanopb counts it against a
            // fixed_count all the same.
            if field.wireType == 2, field.payload.isEmpty, let declared = schema.field(number: field.number), declared.isRepeated,
               ![.message, .string, .bytes, .group].contains(declared.type),
               let limit = layout.message(schema.fullName)?.field(number: field.number)?.limits.whole.first(where: {
                   if case .fixedCount = $0.kind { true } else { false } }) {
                found.append(DeviceViolation(path: prefix + declared.name, limit: limit, actual: "0 elements (an empty packed block)"))
            }
            if field.wireType == 2, let declared = schema.field(number: field.number), declared.type == .message, let name = declared.typeName,
               let sub = schemas.message(name), !sub.isMapEntry {
                found += occurrenceViolations(Array(input[field.payload]), schema: sub, schemas: schemas, layout: layout,
                                              prefix: prefix + declared.name + ".", depth: depth + 1)
            }
        }
        // A submessage's single occurrence is checked whole at this level and field by field one
        // level down: the same violation, found twice, is reported once.
        var reported = Set<String>()
        return found.filter { reported.insert($0.description).inserted }
    }

    /// The top-level fields of `input`: number, wire type, the field's bytes and its payload's;
    /// nil when it is not a sequence of well-formed fields.
    static func fields(of input: [UInt8]) -> [(number: Int32, wireType: UInt64, whole: Range<Int>, payload: Range<Int>)]? {
        var out: [(number: Int32, wireType: UInt64, whole: Range<Int>, payload: Range<Int>)] = [], offset = 0
        func varint() -> UInt64? {
            var value: UInt64 = 0, shift: UInt64 = 0
            while offset < input.count, shift < 64 {
                let byte = input[offset]; offset += 1
                value |= UInt64(byte & 0x7F) << shift
                if byte & 0x80 == 0 { return value }
                shift += 7
            }
            return nil
        }
        while offset < input.count {
            let start = offset
            guard let tag = varint() else { return nil }
            var payloadStart = offset
            switch tag & 7 {
            case 0: guard varint() != nil else { return nil }
            case 1: offset += 8
            case 5: offset += 4
            case 2:
                guard let length = varint(), length <= UInt64(input.count - offset) else { return nil }
                payloadStart = offset
                offset += Int(length)
            default: return nil
            }
            guard offset <= input.count else { return nil }
            out.append((Int32(truncatingIfNeeded: tag >> 3), tag & 7, start..<offset, payloadStart..<offset))
        }
        return out
    }

    /// `input` without the fields the device drops, at every level the schema reaches (submessage
    /// lengths rewritten); nil where it is not a sequence of well-formed fields.
    static func withoutDroppedFields(_ input: [UInt8], schema: MessageSchema, schemas: SchemaSet, layout: DeviceLayout,
                                     depth: Int = 0) -> [UInt8]? {
        guard depth < 32, let fields = fields(of: input) else { return nil }
        let dropped = droppedNumbers(schema.fullName, layout: layout)
        var out: [UInt8] = []
        for field in fields where !dropped.contains(field.number) {
            guard field.wireType == 2, let declared = schema.field(number: field.number), declared.type == .message,
                  let name = declared.typeName, let sub = schemas.message(name),
                  let body = withoutDroppedFields(Array(input[field.payload]), schema: sub, schemas: schemas, layout: layout, depth: depth + 1)
            else {
                out += input[field.whole]
                continue
            }
            out += input[field.whole.lowerBound..<(field.whole.lowerBound + tagLength(input, at: field.whole.lowerBound))]
            var length = UInt64(body.count)
            while length >= 0x80 { out.append(UInt8(length & 0x7F) | 0x80); length >>= 7 }
            out.append(UInt8(length))
            out += body
        }
        return out
    }

    /// The number of bytes of the tag varint at `offset`.
    private static func tagLength(_ input: [UInt8], at offset: Int) -> Int {
        var end = offset
        while end < input.count, input[end] & 0x80 != 0 { end += 1 }
        return end + 1 - offset
    }
}
