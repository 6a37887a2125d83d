// What a generated catalog module (`wireproof catalog`, one per schema) hands the proof: every
// message type of the schema by full name, and every oracle exemplar built through the facades.
// This is the only place where proof code learns about a schema's facades, so one implementation
// of every check serves the bundled schema, the user's schema and the fuzz targets alike.

import NanopbDeviceLimits
import NanopbRuntime

/// One message type of a facade module, reachable by its full proto name.
public struct FacadeMessageType: Sendable {
    /// Full proto name (`pkg.Outer.Inner`).
    public let fullName: String
    /// Decodes bytes with the facade and encodes the result again. Throws `NanopbError`.
    public let decodeReencode: @Sendable ([UInt8]) throws -> [UInt8]
    /// When the facades carry the device's limits (`--limits-from-options`): decodes bytes with
    /// the facade and returns its `deviceLimitViolations()` as descriptions.
    public let deviceLimitViolations: (@Sendable ([UInt8]) throws -> [String])?

    public init<Storage: NanopbStorage & SendableMetatype>(_ fullName: String, _ facade: NanopbMsg<Storage>.Type) {
        self.fullName = fullName
        self.decodeReencode = { try NanopbMsg<Storage>(serializedBytes: $0).serializedBytes() }
        if Storage.self is any NanopbDeviceLimited.Type {
            self.deviceLimitViolations = { bytes in try Self.limitViolations(Storage.self, bytes) }
        } else {
            self.deviceLimitViolations = nil
        }
    }

    private static func limitViolations<Storage: NanopbStorage>(_ type: Storage.Type, _ bytes: [UInt8]) throws -> [String] {
        guard let limited = type as? any NanopbDeviceLimited.Type else { return [] }
        return try violations(limited, bytes)
    }

    private static func violations<Limited: NanopbDeviceLimited>(_ type: Limited.Type, _ bytes: [UInt8]) throws -> [String] {
        try NanopbMsg<Limited>(serializedBytes: bytes).deviceLimitViolations().map(\.description)
    }
}

/// One oracle exemplar, built through the facade's builder.
public struct FacadeExemplar: Sendable {
    /// The oracle's exemplar name (`pkg.Msg`, `pkg.Msg#oneof=member`, `pkg.Msg!edge`).
    public let name: String
    /// Full proto name of the message type.
    public let messageType: String
    /// Builds the exemplar with the facade's builder and encodes it.
    public let build: @Sendable () throws -> [UInt8]

    public init<Storage: NanopbStorage & SendableMetatype>(
        _ name: String, _ messageType: String, _ make: @escaping @Sendable () -> NanopbMsg<Storage>
    ) {
        self.name = name
        self.messageType = messageType
        self.build = { try make().serializedBytes() }
    }
}

/// An exemplar the generator could not express through the facades, and why.
public struct FacadeExemplarExclusion: Sendable {
    public let name: String
    public let reason: String

    public init(name: String, reason: String) { self.name = name; self.reason = reason }
}

/// Everything the proof needs of one schema's facades.
///
/// Invariant (kept by the generator): `messageTypes` is sorted by full name, has no duplicates and
/// lists every message type the facades can decode (map entries and namespaces excluded);
/// `exemplars` are in the oracle's order; every oracle exemplar of an emitted message is either in
/// `exemplars` or in `exclusions`.
public struct FacadeCatalog: Sendable {
    public let messageTypes: [FacadeMessageType]
    public let exemplars: [FacadeExemplar]
    public let exclusions: [FacadeExemplarExclusion]
    /// The schema folder relative to the package root, when the generator was told it.
    public let protoDirectoryHint: String?

    public init(messageTypes: [FacadeMessageType], exemplars: [FacadeExemplar],
                exclusions: [FacadeExemplarExclusion], protoDirectoryHint: String?) {
        self.messageTypes = messageTypes
        self.exemplars = exemplars
        self.exclusions = exclusions
        self.protoDirectoryHint = protoDirectoryHint
    }

    /// The message type with this full proto name (binary search over the sorted table).
    public func messageType(named fullName: String) -> FacadeMessageType? {
        var low = 0, high = messageTypes.count
        while low < high {
            let middle = (low + high) / 2
            if messageTypes[middle].fullName < fullName { low = middle + 1 } else { high = middle }
        }
        return low < messageTypes.count && messageTypes[low].fullName == fullName ? messageTypes[low] : nil
    }
}

extension FacadeMessageType {
    /// A message type with a decoder of the caller's (a test double, or a differential wrapper).
    public init(_ fullName: String, decodeReencode: @escaping @Sendable ([UInt8]) throws -> [UInt8]) {
        self.fullName = fullName
        self.decodeReencode = decodeReencode
        self.deviceLimitViolations = nil
    }

    /// A message type whose decoder and limit check are the caller's: a test double of facades
    /// generated with `--limits-from-options`.
    public init(_ fullName: String, decodeReencode: @escaping @Sendable ([UInt8]) throws -> [UInt8],
                deviceLimitViolations: @escaping @Sendable ([UInt8]) throws -> [String]) {
        self.fullName = fullName
        self.decodeReencode = decodeReencode
        self.deviceLimitViolations = deviceLimitViolations
    }
}

extension FacadeExemplar {
    /// An exemplar with a builder of the caller's (a test double: a stale or mislabelled catalog).
    public init(_ name: String, _ messageType: String, build: @escaping @Sendable () throws -> [UInt8]) {
        self.name = name
        self.messageType = messageType
        self.build = build
    }
}
