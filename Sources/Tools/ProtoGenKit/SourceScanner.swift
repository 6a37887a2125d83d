// Type-level pruning input: the identifiers that Swift sources spell.

import Foundation

enum SourceScanner {
    /// Every identifier chain (`A`, `A.B.C`) in the `.swift` files under `folders`, recursively,
    /// skipping generated facades (`*.pb.swift`), so facades never keep themselves alive.
    static func identifiers(in folders: [String]) throws(GeneratorError) -> Set<String> {
        var result: Set<String> = []
        for folder in folders {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw .io(path: folder, reason: "not a folder (--prune-sources)")
            }
            guard let walker = FileManager.default.enumerator(atPath: folder) else {
                throw .io(path: folder, reason: "cannot list folder")
            }
            var paths: [String] = []
            while let relative = walker.nextObject() as? String {
                if relative.hasSuffix(".swift") && !relative.hasSuffix(".pb.swift") { paths.append(relative) }
            }
            for relative in paths.sorted() {
                let path = folder + "/" + relative
                guard let data = FileManager.default.contents(atPath: path) else { throw .io(path: path, reason: "cannot read") }
                scan(String(decoding: data, as: UTF8.self), into: &result)
            }
        }
        return result
    }

    static func scan(_ text: String, into result: inout Set<String>) {
        // `chain` holds whole words joined by dots, never a trailing dot: a dot right after a word
        // keeps the chain open for the next word; anything else closes it.
        var chain = ""
        var word = ""
        func endWord() {
            if !word.isEmpty { chain += chain.isEmpty ? word : "." + word }
            word = ""
        }
        for scalar in text.unicodeScalars {
            let isIdentifier = scalar == "_" || (scalar.properties.isAlphabetic && scalar.isASCII) || ("0"..."9").contains(scalar)
            if isIdentifier {
                word.unicodeScalars.append(scalar)
            } else if scalar == "." && !word.isEmpty {
                endWord()
            } else {
                endWord()
                if !chain.isEmpty { result.insert(chain) }
                chain = ""
            }
        }
        endWord()
        if !chain.isEmpty { result.insert(chain) }
    }
}
