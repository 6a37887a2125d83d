// What every fuzz target shares: the schema the facades were generated from, the framing of an
// input (first byte: message type; rest: the bytes to decode), and the trap that names a broken
// property so libFuzzer records the input as a crash.

import BundledProtoCatalog
import FacadeProof
import Foundation
import ProtoOracle
import ProtoSchema

/// The bundled schema's facades and descriptor set, loaded once per process.
public struct FuzzHarness: Sendable {
    public let catalog: FacadeCatalog
    public let schemas: SchemaSet
    /// The serialized FileDescriptorSet `schemas` came from (Google's parser builds from it too).
    public let descriptorSet: [UInt8]
    /// `schemas.message` of each catalog type, by catalog index.
    public let messageSchemas: [MessageSchema]

    /// Environment variable naming the descriptor set; without it, `wireproof.pb` next to the executable.
    public static let descriptorSetVariable = "WIREPROOF_DESCRIPTOR_SET"

    public static let shared: FuzzHarness = load()

    private static func load() -> FuzzHarness {
        let path = environmentValue(descriptorSetVariable)
            ?? URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
                .deletingLastPathComponent().appendingPathComponent("wireproof.pb").path
        guard let data = FileManager.default.contents(atPath: path) else {
            fatalError("fuzz harness: cannot read the descriptor set \(path) (set \(descriptorSetVariable), or run `make fuzz-build`)")
        }
        let bytes = [UInt8](data)
        let schemas: SchemaSet
        do { schemas = try SchemaSet(descriptorSet: bytes) } catch { fatalError("fuzz harness: \(path): \(error)") }
        let catalog = facadeCatalog
        let messageSchemas = catalog.messageTypes.map { type -> MessageSchema in
            guard let schema = schemas.message(type.fullName) else {
                fatalError("fuzz harness: \(path) does not declare \(type.fullName); the descriptor set is not the facades' schema")
            }
            return schema
        }
        return FuzzHarness(catalog: catalog, schemas: schemas, descriptorSet: bytes, messageSchemas: messageSchemas)
    }

    /// The catalog index a selector byte picks (the byte modulo the number of types).
    public func typeIndex(selector: UInt8) -> Int { Int(selector) % catalog.messageTypes.count }

    /// An input split into its message type and the bytes to decode; nil for the empty input.
    public func frame(_ data: UnsafeRawPointer, _ size: Int) -> (index: Int, bytes: [UInt8])? {
        guard size > 0 else { return nil }
        let all = UnsafeRawBufferPointer(start: data, count: size)
        return (typeIndex(selector: all[0]), Array(all.dropFirst()))
    }

    /// The selector byte for a catalog index (for seed corpora).
    public func selector(ofTypeAt index: Int) -> UInt8 { UInt8(index) }
}

/// Stops the process with the broken property named first, so libFuzzer saves the input and the
/// message says what broke. `detail` already starts with `[property]`.
extension FuzzHarness {
    /// The property a peer codec (SwiftProtobuf) breaks when it differs from the facades in a way
    /// no row of docs/deviations.md explains.
    public static let peerProperty = "facade-swiftprotobuf"

    /// One libFuzzer input (its first byte picks the message type): the decode round-trip properties,
    /// then facade against oracle, against Google's parser when `google` is given, and against
    /// `peer` (SwiftProtobuf) judged as `wireproof prove` judges its mutants (PeerProof.judgeMutant:
    /// a difference needs a row of docs/deviations.md). A broken property traps naming `target`,
    /// so libFuzzer keeps the input as a reproducer.
    public func checkDecodeAndDifferential(_ data: UnsafeRawPointer, _ size: Int, target: String,
                                           google: GoogleJudge? = nil, peer: PeerCodec? = nil) {
        guard let (index, bytes) = frame(data, size) else { return }
        let type = catalog.messageTypes[index], schema = messageSchemas[index]
        var accepted = 0, rejected = 0
        if let failure = DecodeMutationCheck.check(bytes, type, schema: schema, schemas: schemas,
                                                   accepted: &accepted, rejected: &rejected) {
            brokenProperty(target, failure)
        }
        if let failure = DifferentialCheck.check(bytes, type, schema: schema, schemas: schemas, google: google) {
            brokenProperty(target, failure)
        }
        if let peer, case .failed(let why) = PeerProof.judgeMutant(bytes, type, schema: schema, schemas: schemas, peer: peer) {
            brokenProperty(target, "[\(Self.peerProperty)] \(type.fullName): \(why)")
        }
    }
}

public func brokenProperty(_ target: String, _ detail: String) -> Never {
    fatalError("\(target): broken property \(detail)")
}

/// The value of an environment variable, read with getenv: Foundation's ProcessInfo copies the whole
/// environment into objects that LeakSanitizer reports when a run ends through exit().
public func environmentValue(_ name: String) -> String? { getenv(name).map { String(cString: $0) } }
