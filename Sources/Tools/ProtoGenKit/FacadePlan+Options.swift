// The schema's own nanopb options in the plan: each one honoured, skipped (with the reason) or
// refused, decided by NanopbOptionPolicy, and the options-file lines the C side applies.

import ProtoSchema

extension FacadePlan {

    /// Decides every setting; refusals are kept until the files that get C are known
    /// (`refuseOptions`), since options of files that get no C do not matter.
    mutating func decideOptions() {
        for setting in inputs.nanopbOptions {
            let field = setting.kind == .field ? fieldSchema(element: setting.element) : nil
            switch NanopbOptionPolicy.decide(setting, field: field, mode: inputs.optionsMode) {
            case .honoured: honoured.append(setting)
            case .skipped(let reason): skipped.append((setting, reason))
            case .refused(let reason): refused.append((setting, reason))
            }
        }
        for setting in honoured where setting.option == "type" && setting.value == "FT_IGNORE" {
            if setting.kind == .field, let (message, field) = fieldParts(setting.element) {
                ignoredFields[message.fullName, default: []].insert(field.number)
            } else if setting.kind == .oneof, let (message, index) = oneofParts(setting.element) {
                for field in message.fields where field.oneofIndex == index {
                    ignoredFields[message.fullName, default: []].insert(field.number)
                }
            }
        }
    }

    /// Keeps the decisions about files that get C here; throws the refusals among them.
    mutating func refuseOptions() throws(GeneratorError) {
        let files = Set(cFiles)
        honoured = honoured.filter { files.contains($0.file) }
        skipped = skipped.filter { files.contains($0.setting.file) }
        let refusals = refused.filter { files.contains($0.setting.file) }.map {
            "\($0.setting.label): \($0.reason). Remove it from \($0.setting.source), or generate without --honour-options (options are then skipped)"
        }
        if !refusals.isEmpty { throw .optionsRefused(refusals) }
    }

    private func fieldParts(_ element: String) -> (MessageSchema, FieldSchema)? {
        guard let dot = element.lastIndex(of: "."), let message = schema.message(String(element[..<dot])),
              let field = message.field(named: String(element[element.index(after: dot)...])) else { return nil }
        return (message, field)
    }

    private func oneofParts(_ element: String) -> (MessageSchema, Int)? {
        guard let dot = element.lastIndex(of: "."), let message = schema.message(String(element[..<dot])) else { return nil }
        let name = String(element[element.index(after: dot)...])
        guard let index = message.oneofs.firstIndex(where: { $0.name == name }) else { return nil }
        return (message, index)
    }

    private func fieldSchema(element: String) -> FieldSchema? { fieldParts(element)?.1 }

    func honouredValue(_ option: String, element: String) -> String? {
        honoured.last { $0.option == option && $0.element == element }?.value
    }

    /// Whether a field is left out of the C struct (FT_IGNORE honoured).
    package func isIgnored(_ field: FieldSchema, in message: MessageSchema) -> Bool {
        ignoredFields[message.fullName]?.contains(field.number) ?? false
    }

    /// The nanopb options-file lines the C side applies: every field FT_POINTER, extension
    /// fields of extendable messages left out (the facades do not carry extensions), and the
    /// honoured options, on the C-renamed element names.
    package var nanopbOptionsFile: [String] {
        var lines = ["* type:FT_POINTER"]
        let files = Set(cFiles)
        for message in schema.messages where files.contains(message.file) && !message.extensionRanges.isEmpty {
            lines.append("\(cDottedName(message.fullName)).extensions type:FT_IGNORE")
        }
        for setting in honoured {
            lines.append("\(cDottedElement(setting)) \(setting.option):\(setting.value)")
        }
        return lines
    }

    /// A type's full name as nanopb matches it in options files, after C renames.
    private func cDottedName(_ fullName: String) -> String {
        guard let package = schema.message(fullName)?.package ?? schema.enumType(fullName)?.package else { return fullName }
        let path = Naming.relativePath(fullName: fullName, package: package)
        var parts = package.isEmpty ? [] : [package]
        if let top = path.first { parts.append(package.isEmpty ? Naming.cTypeIdentifier(top) : top) }
        return (parts + path.dropFirst()).joined(separator: ".")
    }

    private func cDottedElement(_ setting: NanopbOptionSetting) -> String {
        switch setting.kind {
        case .field, .oneof:
            guard let dot = setting.element.lastIndex(of: ".") else { return setting.element }
            let scope = String(setting.element[..<dot])
            return "\(cDottedName(scope)).\(Naming.cIdentifier(String(setting.element[setting.element.index(after: dot)...])))"
        case .message, .enumType: return cDottedName(setting.element)
        case .file, .pattern: return setting.element
        }
    }
}
