// The error every `wireproof fuzz` workflow reports.

/// Why a fuzz workflow stopped: printed as "fuzz: <description>" and exit status 1.
struct FuzzError: Error, CustomStringConvertible, Equatable {
    let description: String
    init(_ description: String) { self.description = description }
}
