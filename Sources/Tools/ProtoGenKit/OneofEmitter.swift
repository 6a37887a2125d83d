// A real oneof: its Swift enum (one case per member), the optional enum property, and per-member
// accessors as protoc-gen-swift has them (the member's value when it is the active variant, its
// default otherwise; setting one selects it). The union is reached through the plan's path, so
// `anonymous_oneof` (members directly in the struct) needs nothing else here.

import ProtoSchema

struct OneofEmitter {
    let plan: FacadePlan

    func enumDeclaration(_ oneof: OneofPlan, names: FacadePlan.Members) -> FacadeDeclaration {
        var declaration = FacadeDeclaration(kind: .oneofEnum, header: "public enum \(oneof.typeName): Hashable, Sendable {")
        for member in oneof.members {
            let caseName = names.oneofCase[member.field.number]!
            declaration.members.append(.constant(caseName, "case \(Naming.escaped(caseName))(\(member.value.swiftType))"))
        }
        return declaration
    }

    func members(_ oneof: OneofPlan, names: FacadePlan.Members, builder: Bool) -> [FacadeMember] {
        let property = Naming.escaped(names.oneof[oneof.index]!)
        let which = "_pointer.pointee.\(oneof.whichCName)"
        func path(_ member: FieldPlan) -> String { "_pointer.pointee.\(oneof.memberPath(member))" }
        func caseName(_ member: FieldPlan) -> String { Naming.escaped(names.oneofCase[member.field.number]!) }

        var read = ["switch \(which) {"]
        for member in oneof.members {
            read.append("case \(member.field.number): return .\(caseName(member))(\(member.value.read(path(member), builder: builder)))")
        }
        read += ["default: return nil", "}"]

        // Release the active variant with its own layout before the union is reused. Every
        // member is a pointer, so clearing the released one clears the (possibly anonymous) union.
        var write = ["switch \(which) {"]
        for member in oneof.members {
            write.append("case \(member.field.number): \(member.value.release(path(member))); \(path(member)) = nil")
        }
        // The new value is handed over (`consume`), so a freshly built message member is uniquely
        // referenced and the runtime adopts its tree instead of copying it.
        write += ["default: break", "}", "\(which) = 0", "switch consume newValue {", "case nil: break"]
        for member in oneof.members {
            write.append("case .\(caseName(member))(let value)?:")
            let value = member.value.isMessage ? "consume value" : "value"
            write.append("    \(path(member)) = \(member.value.store(value, replacing: "nil", omit: false))")
            write.append("    if \(path(member)) != nil { \(which) = \(member.field.number) }")
        }
        write.append("}")
        let type = "\(oneof.typeName)?"
        var members = [builder ? FacadeMember.property(property, type: type, read: read, write: write)
                                : FacadeMember.getter(property, type: type, read: read)]

        for member in oneof.members {
            let name = Naming.escaped(names.field[member.field.number]!)
            // A message member reads an absent pointer as its empty value, so one call serves both
            // cases (a guard would add a second, generic `init()` call per member).
            let memberRead = member.value.isMessage
                ? [member.value.read("\(which) == \(member.field.number) ? \(path(member)) : nil", builder: builder)]
                : ["guard \(which) == \(member.field.number) else { return \(member.value.defaultValue) }",
                   "return \(member.value.read(path(member), builder: builder))"]
            members.append(builder
                ? .property(name, type: member.value.swiftType, read: memberRead, write: ["self.\(property) = .\(caseName(member))(\(member.value.isMessage ? "consume newValue" : "newValue"))"])
                : .getter(name, type: member.value.swiftType, read: memberRead))
        }
        return members
    }
}
