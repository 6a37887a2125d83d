// Checks the generator's own output: messages are immutable, so anything that writes storage
// (`set {`, `mutating func`, a store or release through NanopbField) may appear only inside an
// `extension X.Builder {` block. A violation is a generator bug and fails generation.

enum BuilderInvariant {
    static func verify(_ file: GeneratedFile) throws(GeneratorError) {
        var inBuilder = false
        for (index, line) in file.contents.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if line.hasPrefix("extension ") { inBuilder = line.hasSuffix(".Builder {") }
            else if line.hasPrefix("}") { inBuilder = false }
            guard !inBuilder else { continue }
            for marker in ["set {", "mutating func", "NanopbField.storing", "NanopbField.release", "nonmutating"]
            where line.contains(marker) {
                throw .invariant(file: file.name, line: index + 1, reason: "`\(marker)` outside an `extension X.Builder` block")
            }
        }
    }
}
