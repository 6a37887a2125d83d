// Members of each facade: property, has/clear and oneof names (collisions resolved in declaration
// order), and the one decision per field of how its value is held and seen.

import ProtoSchema

extension FacadePlan {

    /// Member names of one message: a property per field and per real oneof, `hasX` / `clearX`
    /// per field with explicit presence outside a real oneof. Collisions (`foo_bar` vs `fooBar`,
    /// `has_x` vs `hasX`) are resolved in declaration order, later names taking a suffix with the
    /// field number (`fooBar_7`), then underscores, so the result never depends on hashing.
    /// FT_IGNORE fields have no member.
    package struct Members {
        package var field: [Int32: String] = [:]
        package var has: [Int32: String] = [:]
        package var clear: [Int32: String] = [:]
        package var oneof: [Int: String] = [:]
        package var oneofCase: [Int32: String] = [:]
    }

    package func members(of message: MessageSchema) -> Members {
        var members = Members()
        var used: Set<String> = []
        func unique(_ base: String, suffix: String) -> String {
            var name = base
            if used.contains(name) { name = base + suffix }
            while used.contains(name) { name += "_" }
            used.insert(name)
            return name
        }
        let fields = message.fields.filter { !isIgnored($0, in: message) }
        for field in fields {
            members.field[field.number] = unique(Naming.propertyName(field.name), suffix: "_\(field.number)")
        }
        for (index, oneof) in message.oneofs.enumerated() where !oneof.isSynthetic && !isIgnoredOneof(index, in: message) {
            members.oneof[index] = unique(Naming.propertyName(oneof.name), suffix: "_oneof")
        }
        for field in fields where hasAccessors(field, in: message) {
            let base = Naming.upperFirst(members.field[field.number]!)
            members.has[field.number] = unique("has" + base, suffix: "_\(field.number)")
            members.clear[field.number] = unique("clear" + base, suffix: "_\(field.number)")
        }
        // Oneof enum cases live in their own type; only collisions among members matter.
        for oneof in message.realOneofs {
            var caseNames: Set<String> = []
            for number in oneof.fieldNumbers where members.field[number] != nil {
                var name = Naming.camelCase(message.field(number: number)!.name, initialUpper: false)
                if Naming.reservedEnumCases.contains(name) { name += "_" }
                if caseNames.contains(name) { name += "_\(number)" }
                caseNames.insert(name)
                members.oneofCase[number] = name
            }
        }
        return members
    }

    /// A oneof whose every member is FT_IGNORE has no struct members and no facade.
    package func isIgnoredOneof(_ index: Int, in message: MessageSchema) -> Bool {
        let numbers = message.oneofs[index].fieldNumbers
        return !numbers.isEmpty && numbers.allSatisfy { ignoredFields[message.fullName]?.contains($0) ?? false }
    }

    /// Real oneof (not the synthetic one of a proto3 `optional`) a field belongs to, if any.
    package func realOneof(of field: FieldSchema, in message: MessageSchema) -> (index: Int, oneof: OneofSchema)? {
        guard let index = field.oneofIndex, message.oneofs.indices.contains(index), !message.oneofs[index].isSynthetic
        else { return nil }
        return (index, message.oneofs[index])
    }

    package func hasAccessors(_ field: FieldSchema, in message: MessageSchema) -> Bool {
        field.hasPresence && !field.isRepeated && realOneof(of: field, in: message) == nil
    }

    // MARK: Field kinds (the one decision per field)

    /// How one value of `field` is held and seen.
    package func valueKind(_ field: FieldSchema, in message: MessageSchema) -> ValueKind {
        let defaults = FieldDefaults(schema: schema)
        switch field.type {
        case .string: return ValueKind(category: .string, swiftType: "String", defaultValue: defaults.string(field))
        case .bytes: return ValueKind(category: .bytes, swiftType: "[UInt8]", defaultValue: defaults.bytes(field))
        case .bool: return ValueKind(category: .bool, swiftType: "Bool", defaultValue: field.defaultValue == "true" ? "true" : "false")
        case .enum:
            let type = swiftName(field.typeName!)
            return ValueKind(category: .enumeration, swiftType: type, defaultValue: "\(type)(rawValue: \(defaults.enumNumber(field)))")
        case .message, .group:
            let type = swiftName(field.typeName!)
            return ValueKind(category: .message, swiftType: type, defaultValue: "\(type)()")
        case .float, .double:
            return ValueKind(category: .scalar, swiftType: field.type == .float ? "Float" : "Double", defaultValue: defaults.floating(field))
        case .int32, .sint32, .sfixed32, .int64, .sint64, .sfixed64, .uint32, .fixed32, .uint64, .fixed64:
            var type: String
            switch field.type {
            case .int32, .sint32, .sfixed32: type = "Int32"
            case .int64, .sint64, .sfixed64: type = "Int64"
            case .uint32, .fixed32: type = "UInt32"
            default: type = "UInt64"
            }
            if let size = honouredValue("int_size", element: "\(message.fullName).\(field.name)"),
               let narrowed = NanopbOptionPolicy.intSizeType(field.type, size) {
                type = narrowed
            }
            return ValueKind(category: .scalar, swiftType: type, defaultValue: field.defaultValue ?? "0")
        }
    }

    /// The plan of one field (not FT_IGNORE).
    func fieldPlan(_ field: FieldSchema, in message: MessageSchema) -> FieldPlan {
        let cName = Naming.cIdentifier(field.name)
        let value = valueKind(field, in: message)
        let shape: FieldPlan.Shape
        if let entry = field.typeName.flatMap(schema.message), entry.isMapEntry, field.isRepeated {
            let key = entry.mapKey!, mapValue = entry.mapValue!
            shape = .map(key: valueKind(key, in: entry), value: valueKind(mapValue, in: entry),
                         entryCName: cTypeName(entry.fullName))
        } else if field.isRepeated {
            shape = .repeated
        } else if let (index, _) = realOneof(of: field, in: message) {
            shape = .oneofMember(index: index)
        } else {
            shape = .singular(presence: field.hasPresence)
        }
        return FieldPlan(field: field, cName: cName, value: value, shape: shape)
    }

    /// The plans of a message's fields outside real oneofs, in declaration order.
    func plainFields(of message: MessageSchema) -> [FieldPlan] {
        message.fields.filter { !isIgnored($0, in: message) && realOneof(of: $0, in: message) == nil }
            .map { fieldPlan($0, in: message) }
    }

    /// The plans of a message's real oneofs, in declaration order.
    func oneofPlans(of message: MessageSchema) -> [OneofPlan] {
        message.oneofs.enumerated().compactMap { index, oneof in
            guard !oneof.isSynthetic, !isIgnoredOneof(index, in: message) else { return nil }
            let anonymous = honouredValue("anonymous_oneof", element: "\(message.fullName).\(oneof.name)") == "true"
            let cName = Naming.cIdentifier(oneof.name)
            let members = oneof.fieldNumbers.compactMap { message.field(number: $0) }
                .filter { !isIgnored($0, in: message) }.map { fieldPlan($0, in: message) }
            return OneofPlan(index: index, oneof: oneof, unionCName: anonymous ? nil : cName, whichCName: "which_\(cName)",
                             typeName: oneofTypeName(messageName: swiftName(message.fullName), oneof: oneof), members: members)
        }
    }
}
