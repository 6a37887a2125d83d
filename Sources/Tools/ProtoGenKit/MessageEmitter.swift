// A message: the storage conformance of its nanopb C struct, the `NanopbMsg` typealias, a Swift
// enum per real oneof, getters on the message and getters + setters on its Builder (members from
// FieldEmitter and OneofEmitter).

import ProtoSchema

struct MessageEmitter {
    let plan: FacadePlan
    let cModule: String

    func declarations(_ message: MessageSchema) -> [FacadeDeclaration] {
        let name = plan.swiftName(message.fullName)
        let cName = plan.cTypeName(message.fullName)
        // Every reference to the C struct is module-qualified: in a file without a package the
        // C name and the Swift name are the same (`Msg`), and an unqualified `NanopbMsg<Msg>`
        // inside the facade module would name the typealias itself (a circular reference).
        let cType = "\(cModule).\(cName)"
        let names = plan.members(of: message)
        let fields = plan.plainFields(of: message)
        let oneofs = plan.oneofPlans(of: message)
        var result: [FacadeDeclaration] = []

        // Module-qualified instead of `@retroactive`: the attribute is an error when the runtime
        // is in the same package and its absence a warning when it is not; qualifying works in both.
        var storage = FacadeDeclaration(kind: .storageConformance, header: "extension \(cType): NanopbRuntime.NanopbStorage {")
        storage.members = [
            .constant("_descriptor", "public static var _descriptor: pb_msgdesc_t { \(cModule).\(cName)_msg }"),
            .constant("_emptyBox", "public static let _emptyBox = NanopbBox(emptyOf: \(cType).self)"),
            .constant("_swiftName", "public static var _swiftName: String { \(name.swiftLiteral) }"),
        ]
        result.append(storage)
        result.append(FacadeDeclaration(kind: .messageAlias, doc: ["/// `\(message.fullName)`"],
                                        header: "public typealias \(name) = NanopbMsg<\(cType)>"))
        for oneof in oneofs { result.append(OneofEmitter(plan: plan).enumDeclaration(oneof, names: names)) }

        for builder in [false, true] {
            var block = FacadeDeclaration(kind: builder ? .builderExtension : .messageExtension,
                                          header: builder ? "extension \(name).Builder {" : "extension \(name) {")
            for field in fields { block.members += FieldEmitter().members(field, names: names, builder: builder) }
            for oneof in oneofs {
                block.members += OneofEmitter(plan: plan).members(oneof, names: names, builder: builder)
            }
            result.append(block)
        }
        return result
    }
}
