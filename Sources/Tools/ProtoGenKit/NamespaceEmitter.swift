// A field-less message holding nested types, as a caseless enum of type aliases, so the dotted
// spelling `Pkg_Outer.Inner` names `Pkg_Outer_Inner`. A nested name Swift reserves (`Type`,
// `Protocol`, ...) takes the same suffix as a flat type name would (`TypeEnum`, `TypeMessage`).

import ProtoSchema

struct NamespaceEmitter {
    let plan: FacadePlan

    func declaration(_ message: MessageSchema) -> FacadeDeclaration {
        let name = plan.swiftName(message.fullName)
        var declaration = FacadeDeclaration(
            kind: .namespace,
            doc: ["/// `\(message.fullName)` holds only nested types: a namespace, so `\(name).X` spells `\(name)_X`."],
            header: "public enum \(name) {")
        for child in message.nestedMessages + message.nestedEnums where plan.emitted.contains(child) {
            if plan.schema.message(child)?.isMapEntry == true { continue }
            let member = plan.namespaceMemberName(child)
            declaration.members.append(.constant(member, "public typealias \(Naming.escaped(member)) = \(plan.swiftName(child))"))
        }
        return declaration
    }
}
