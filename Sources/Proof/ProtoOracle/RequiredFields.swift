import ProtoSchema

/// Proto2 `required` checking, kept apart from decoding on purpose.
///
/// Google's parsers have a "partial" mode that skips this check, and `protoc --decode` /
/// `--encode` use it: a message missing required fields parses and prints, with only a warning
/// on stderr. So the oracle's decoder accepts such input too (it is well-formed on the wire),
/// and callers that need initialized messages ask `isInitialized` / `missingRequiredFields`.
extension DynamicMessage {
    /// Paths of absent required fields, in this message and in every present submessage
    /// (repeated elements as `name[i]`, map values as `name[key]`), in field-number order.
    public var missingRequiredFields: [String] {
        var missing: [String] = []
        collectMissing(prefix: "", into: &missing)
        return missing
    }

    /// True when no required field is absent anywhere in the message.
    public var isInitialized: Bool { missingRequiredFields.isEmpty }

    private func collectMissing(prefix: String, into missing: inout [String]) {
        for field in layout.sortedFields {
            let path = prefix + field.name
            switch content(number: field.number) {
            case nil:
                if field.label == .required { missing.append(path) }
            case let .single(.message(inner))?:
                inner.collectMissing(prefix: path + ".", into: &missing)
            case let .repeated(values)?:
                for (index, value) in values.enumerated() {
                    if case let .message(inner) = value { inner.collectMissing(prefix: "\(path)[\(index)].", into: &missing) }
                }
            case let .map(map)?:
                for (key, value) in map.entries {
                    if case let .message(inner) = value {
                        let keyText = TextFormatPrinter.scalarText(key.value, enumType: nil)
                        inner.collectMissing(prefix: "\(path)[\(keyText)].", into: &missing)
                    }
                }
            case .single?:
                continue
            }
        }
    }
}
