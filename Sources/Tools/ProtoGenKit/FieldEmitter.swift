// The accessors of a field outside a real oneof: its property (singular, repeated or map), and
// `hasX` / `clearX` when it has explicit presence. Getters only on the message; setters and
// `clearX` only on the Builder.

import ProtoSchema

struct FieldEmitter {
    func members(_ plan: FieldPlan, names: FacadePlan.Members, builder: Bool) -> [FacadeMember] {
        let property = Naming.escaped(names.field[plan.field.number]!)
        let slot = "_pointer.pointee.\(plan.cMember)"
        let count = "_pointer.pointee.\(plan.countName)"
        let type: String
        let read: [String]
        let write: [String]
        switch plan.shape {
        case let .map(key, value, entryCName):
            type = "[\(key.swiftType): \(value.swiftType)]"
            // The dictionary is built and sorted by the runtime (once per binary, not per field);
            // the facade only reads or writes one entry's members.
            read = [
                "NanopbField.map(\(slot), \(count)) { entry in",
                "    (\(key.read("entry.pointee.key", builder: builder)), \(value.read("entry.pointee.value", builder: builder)))",
                "}",
            ]
            // Entries are written in key order (by the runtime), so equal dictionaries encode to equal bytes.
            write = [
                "(\(slot), \(count)) = NanopbField.storing(map: newValue, descriptor: \(entryCName)_msg, replacing: \(slot), count: \(count)) { key, value, entry in",
                "    entry.pointee.key = \(key.store("key", replacing: "nil", omit: false))",
                "    entry.pointee.value = \(value.store("value", replacing: "nil", omit: false))",
                "    return entry.pointee.key != nil && entry.pointee.value != nil",
                "}",
            ]
        case .repeated:
            type = "[\(plan.value.swiftType)]"
            read = [plan.value.readArray(slot, count: count, builder: builder)]
            write = ["(\(slot), \(count)) = \(plan.value.storeArray(slot, count: count))"]
        case .singular(let presence):
            type = plan.value.swiftType
            read = [plan.value.read(slot, builder: builder)]
            // A message setter hands its value over (`consume`): a freshly built child is then
            // uniquely referenced and the runtime adopts its tree instead of copying it.
            let value = plan.value.isMessage ? "consume newValue" : "newValue"
            write = ["\(slot) = \(plan.value.store(value, replacing: slot, omit: !presence))"]
        case .oneofMember:
            preconditionFailure("oneof members are emitted by OneofEmitter")
        }
        var members = [builder ? FacadeMember.property(property, type: type, read: read, write: write)
                                : FacadeMember.getter(property, type: type, read: read)]
        if let has = names.has[plan.field.number] {
            members.append(.getter(Naming.escaped(has), type: "Bool", read: ["\(slot) != nil"]))
            if builder {
                members.append(.mutatingFunc(Naming.escaped(names.clear[plan.field.number]!), body: "\(plan.value.release(slot)); \(slot) = nil"))
            }
        }
        return members
    }
}
