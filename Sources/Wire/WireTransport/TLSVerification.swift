import CWireTransport

/// What a verify block decides on: the certificates the peer sent and OpenSSL's own verdict on
/// them (chain to a trusted CA, validity dates, the name or IP address for a client).
public struct TLSPeerTrust: Sendable, Hashable {
    /// DER, leaf first, as the peer sent them. Empty when the peer sent none (a client that was
    /// asked for a certificate and had none).
    public let certificateChain: [[UInt8]]
    /// nil when OpenSSL's verification passed; else its reason ("unable to get local issuer
    /// certificate", "certificate has expired", "Hostname mismatch", "no certificate").
    public let verificationError: String?

    public init(certificateChain: [[UInt8]], verificationError: String?) {
        self.certificateChain = certificateChain
        self.verificationError = verificationError
    }

    /// SHA-256 of the leaf's SubjectPublicKeyInfo (the value HPKP-style pins name); nil without a
    /// leaf or when the leaf does not parse.
    public var leafSPKISHA256: [UInt8]? {
        guard let leaf = certificateChain.first else { return nil }
        var digest = [UInt8](repeating: 0, count: 32)
        return cwire_spki_sha256(leaf, Int32(clamping: leaf.count), &digest) == 1 ? digest : nil
    }
}

/// A verify block (the role of `sec_protocol_options_set_verify_block`): called once per
/// connection, on the connection's queue, after the handshake and before the connection is
/// `ready`; returning false fails the connection with `WireError.tls(reason: "the verify block
/// rejected the peer's certificate …")` before any application data moves. When set, it decides
/// alone: OpenSSL's verdict is an input (`TLSPeerTrust.verificationError`), not a veto.
///
/// Compared by identity, so `TLSOptions` stays Hashable: two blocks are equal only if they are
/// the same object.
public final class TLSVerifyBlock: @unchecked Sendable, Hashable {
    // SAFETY of @unchecked: `decide` is immutable and itself @Sendable.
    let decide: @Sendable (TLSPeerTrust) -> Bool

    public init(_ decide: @escaping @Sendable (TLSPeerTrust) -> Bool) { self.decide = decide }

    /// Accepts only a leaf whose SubjectPublicKeyInfo SHA-256 is one of `pins` and, with
    /// `requireValidChain` (the default), whose chain OpenSSL also verified.
    public static func pinning(spkiSHA256 pins: [[UInt8]], requireValidChain: Bool = true) -> TLSVerifyBlock {
        TLSVerifyBlock { trust in
            guard !requireValidChain || trust.verificationError == nil, let spki = trust.leafSPKISHA256 else { return false }
            return pins.contains(spki)
        }
    }

    public static func == (a: TLSVerifyBlock, b: TLSVerifyBlock) -> Bool { a === b }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

/// Whether a listener asks its clients for a certificate.
public enum TLSClientCertificates: Sendable, Hashable {
    /// Not asked for (the default).
    case none
    /// Asked for; a client without one is still accepted. One that sends a certificate OpenSSL
    /// cannot verify against `trustedCAFile` fails the handshake (unless a verify block decides).
    case request
    /// Asked for and required: a client without one fails the handshake.
    case require
}
