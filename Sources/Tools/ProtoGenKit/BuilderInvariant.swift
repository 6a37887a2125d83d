// Checks the generator's own output: messages are immutable, so a member that writes storage
// (a property with a setter, a `mutating func`) may appear only in an `extension X.Builder`
// declaration. Checked on the emitter's model (FacadeFileModel), where each member records what
// it can do; no generated text is scanned. A violation is a generator bug and fails generation.

enum BuilderInvariant {
    static func verify(_ file: FacadeFileModel) throws(GeneratorError) {
        for declaration in file.declarations where declaration.kind != .builderExtension {
            if let member = declaration.members.first(where: \.writes) {
                throw .invariant(file: file.name, declaration: "\(declaration.header) \(member.name)",
                                 reason: "a member that writes storage outside an `extension X.Builder` declaration")
            }
        }
    }
}
