// swift-tools-version:6.2
// Wireproof's libFuzzer targets, in a package of their own (as swift-protobuf's FuzzTesting/):
// libFuzzer supplies `main`, which would clash with the root package's executables. Build one
// target with `make fuzz-build TARGET=decode` (release, -sanitize=fuzzer,address); see docs/fuzzing.md.
import PackageDescription

let package = Package(
    name: "WireproofFuzz",
    products: [
        .executable(name: "decode", targets: ["decode"]),
        .executable(name: "differential", targets: ["differential"]),
        .executable(name: "structure", targets: ["structure"]),
    ],
    dependencies: [.package(name: "Wireproof", path: "..")],
    targets: [
        // What every target shares: the schema (descriptor set), input framing, traps that name
        // the broken property. The properties themselves live in the root package's FacadeProof,
        // so `swift test` replays Corpus/regressions with the same code.
        .target(name: "FuzzKit", dependencies: [
            .product(name: "FacadeProof", package: "Wireproof"),
            .product(name: "BundledProtoCatalog", package: "Wireproof"),
            .product(name: "ProtoOracle", package: "Wireproof"),
            .product(name: "ProtoSchema", package: "Wireproof"),
            .product(name: "NanopbRuntime", package: "Wireproof"),
            "CLibcrypto",
        ]),
        // <openssl/sha.h> for corpus file names (SHA-1 of the content, as libFuzzer names them).
        .target(name: "CLibcrypto", linkerSettings: [.linkedLibrary("crypto")]),
        // Google's C++ parser (Debian's libprotobuf) behind a C interface: DynamicMessage of a
        // type from the same descriptor set.
        .target(name: "GoogleParser", linkerSettings: [.linkedLibrary("protobuf"), .linkedLibrary("stdc++")]),
        .executableTarget(name: "decode", dependencies: ["FuzzKit"]),
        .executableTarget(name: "differential", dependencies: ["FuzzKit", "GoogleParser"]),
        .executableTarget(name: "structure", dependencies: ["FuzzKit"]),
    ],
    cxxLanguageStandard: .cxx17
)
