// Where the bundled schema lives in this package, and the one rule that says whether a generation
// run is the bundled schema's: only that run writes the catalog module the package's tests read.

/// The bundled schema's folders, relative to the Wireproof root (`make proto`'s defaults).
enum BundledSchemaLayout {
    static let protoDirectory = "Protos"
    static let cOut = "Sources/Generated/BundledProtoC"
    static let facadeFolder = "Sources/Generated/BundledProto"
    static let catalogFolder = "Sources/Generated/BundledProtoCatalog"

    /// The catalog folder a generation writes (or `check-protocol` compares) when none is named:
    /// the bundled catalog when the run generates the bundled schema whole into its own facade
    /// folder, else none, so generating a user's schema never rewrites the package's own targets.
    /// The folders are compared as given, relative to the root, as `make proto` passes them.
    static func defaultCatalog(protoDirectory: String, swiftOut: String?, cOnly: Bool, pruneSources: [String]) -> String? {
        let bundled = !cOnly && protoDirectory == Self.protoDirectory && swiftOut == facadeFolder && pruneSources.isEmpty
        return bundled ? catalogFolder : nil
    }
}
