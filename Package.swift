// swift-tools-version:6.2
// Wireproof: nanopb-backed Swift protobuf facades, the reference codec that proves them, and the
// harness around both. No remote dependencies: third-party C source arrives via `make setup`.
import PackageDescription

let package = Package(
    name: "Wireproof",
    products: [
        .library(name: "ProtoSchema", targets: ["ProtoSchema"]),
    ],
    targets: [
        // Schema model decoded from a protoc FileDescriptorSet by the project's own wire reader.
        .target(name: "ProtoSchema"),
        .testTarget(name: "ProtoSchemaTests", dependencies: ["ProtoSchema"]),
    ]
)
