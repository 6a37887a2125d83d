// swift-tools-version:6.2
// SwiftProtobuf as a peer of the proof, in a package of its own (as Fuzz/ is): a program that
// depends on NanopbRuntime or the facades never resolves swift-protobuf. The manifest never changes
// at run time, so SwiftProtobuf and protoc-gen-swift are built once per checkout and reused.
//
// The code protoc-gen-swift writes lands in git-ignored folders under Generated/, which
// `wireproof swiftprotobuf-peer` (ProveKit's SwiftProtobufPeer) creates and fills before any build (it
// is also the only supported way in: `wireproof swiftprotobuf-peer plugin|conformance-host|generate ...`).
// Nothing of SwiftProtobuf is committed; Package.resolved is not either (the bundle mirror's
// revision is not upstream's).
import PackageDescription

let swiftProtobuf: Target.Dependency = .product(name: "SwiftProtobuf", package: "swift-protobuf")

let package = Package(
    name: "WireproofSwiftProtobufPeer",
    dependencies: [
        .package(url: "https://github.com/apple/swift-protobuf.git", exact: "1.38.1"),
    ],
    targets: [
        // conformance.proto and test_messages_proto3.proto through protoc-gen-swift (generated).
        .target(name: "ConformanceMessagesSwift", dependencies: [swiftProtobuf], path: "Generated/ConformanceMessages"),
        // Google's conformance runner's testee, answering through SwiftProtobuf (`make conformance`).
        .executableTarget(name: "swiftprotobuf-conformance-host", dependencies: ["ConformanceMessagesSwift", swiftProtobuf]),
        // The bundled schema (Protos/) through protoc-gen-swift (generated).
        .target(name: "BundledProtoSwift", dependencies: [swiftProtobuf], path: "Generated/BundledProto"),
        // Benchmarks/SizePacket/main.swift, the facades' size probe, compiled unchanged but for its
        // import against SwiftProtobuf's code (`make bench`'s size rows; the same source builds on both).
        .executableTarget(name: "size-packet-swiftprotobuf", dependencies: ["BundledProtoSwift"], path: "Generated/SizePacket"),
        // Tests/MigrationSampleTests/MovingFromSwiftProtobuf.swift, typical SwiftProtobuf calls, with
        // a main that prints its transcript (`wireproof swiftprotobuf-peer migration-sample`).
        .executableTarget(name: "migration-sample-swiftprotobuf", dependencies: ["BundledProtoSwift"], path: "Generated/MigrationSample"),
        // SwiftProtobuf's decode and encode of the bench packets, counted by callgrind next to the
        // facades, plain nanopb C and libprotobuf (`make bench`'s speed table).
        .executableTarget(name: "codec-speed-swiftprotobuf", dependencies: ["BundledProtoSwift", swiftProtobuf]),
    ]
)
