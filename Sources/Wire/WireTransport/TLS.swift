import CWireTransport
import Glibc

/// TLS configuration for a connection (client) or a listener (server). Files are PEM.
///
/// Client: the peer's certificate is verified against `trustedCAFile` (or the system store when
/// nil) and its name against `serverName` (default: the connection's host; an IP literal is checked
/// against the certificate's IP addresses). Verification is on unless `verifyPeer` is false.
/// Server: an identity is required, from files (`certificateFile`, `privateKeyFile`) or from
/// memory (`certificateChainPEM`, `privateKeyPEM`); client certificates are asked for only with
/// `clientCertificates`. A client may present an identity the same ways. `verifyBlock` replaces
/// OpenSSL's verdict with the caller's, on either side.
///
/// `handshakeTimeout` bounds the handshake on both sides: a client whose server never answers its
/// ClientHello, and a listener's connection whose peer never sends one, fail with
/// `WireError.timedOut(.tlsHandshake, …)` and release their socket (a listener's slot with it).
public struct TLSOptions: Sendable, Hashable {
    public var trustedCAFile: String?
    public var certificateFile: String?
    public var privateKeyFile: String?
    public var serverName: String?
    public var verifyPeer: Bool
    /// Seconds from TCP connected (or accepted and started) to handshake done. Default 10.
    public var handshakeTimeout: Double
    /// The oldest and newest protocol versions offered or accepted (default: TLS 1.2 to 1.3).
    public var minimumVersion: TLSVersion
    public var maximumVersion: TLSVersion
    /// ALPN, in preference order. A client offers them; a listener picks the first of its own
    /// that the client offers, and fails the handshake when none is (an empty list: no ALPN).
    /// The outcome is `TLSMetadata.applicationProtocol`.
    public var applicationProtocols: [String]
    /// The identity from memory instead of files: the certificate chain as PEM (leaf first, then
    /// its intermediates) and the private key as PEM (e.g. from a keychain or a secret store).
    /// Either both or neither, and not together with `certificateFile` / `privateKeyFile`.
    public var certificateChainPEM: [UInt8]?
    public var privateKeyPEM: [UInt8]?
    /// The cipher suites allowed, by name: TLS 1.3 suites by their IANA names
    /// (`TLS_AES_128_GCM_SHA256`), TLS 1.2 suites by OpenSSL's (`ECDHE-ECDSA-AES128-GCM-SHA256`).
    /// Naming suites of one version restricts that version only; the other keeps OpenSSL's
    /// defaults. An unknown name fails setup. Empty (the default): OpenSSL's defaults.
    public var cipherSuites: [String]
    /// Decides on the peer's certificate after the handshake, on either side (see
    /// `TLSVerifyBlock`; `.pinning(spkiSHA256:)` for certificate pinning). nil: OpenSSL's verdict
    /// decides (when `verifyPeer`).
    public var verifyBlock: TLSVerifyBlock?
    /// A listener's request for client certificates, verified against `trustedCAFile` (or the
    /// system store); ignored by a client.
    public var clientCertificates: TLSClientCertificates

    public init(trustedCAFile: String? = nil, certificateFile: String? = nil, privateKeyFile: String? = nil,
                serverName: String? = nil, verifyPeer: Bool = true, handshakeTimeout: Double = 10,
                minimumVersion: TLSVersion = .v1_2, maximumVersion: TLSVersion = .v1_3, applicationProtocols: [String] = [],
                certificateChainPEM: [UInt8]? = nil, privateKeyPEM: [UInt8]? = nil, cipherSuites: [String] = [],
                verifyBlock: TLSVerifyBlock? = nil, clientCertificates: TLSClientCertificates = .none) {
        self.trustedCAFile = trustedCAFile
        self.certificateFile = certificateFile
        self.privateKeyFile = privateKeyFile
        self.serverName = serverName
        self.verifyPeer = verifyPeer
        self.handshakeTimeout = handshakeTimeout
        self.minimumVersion = minimumVersion
        self.maximumVersion = maximumVersion
        self.applicationProtocols = applicationProtocols
        self.certificateChainPEM = certificateChainPEM
        self.privateKeyPEM = privateKeyPEM
        self.cipherSuites = cipherSuites
        self.verifyBlock = verifyBlock
        self.clientCertificates = clientCertificates
    }

    /// Whether OpenSSL checks the peer's certificate at all: a client verifying, a client or
    /// listener with a verify block, a listener asking for client certificates.
    func checksPeer(server: Bool) -> Bool { verifyBlock != nil || (server ? clientCertificates != .none : verifyPeer) }

    /// Whether an identity (from files or memory) is configured.
    var hasIdentity: Bool { (certificateFile != nil && privateKeyFile != nil) || (certificateChainPEM != nil && privateKeyPEM != nil) }
}

/// A TLS protocol version the transport can speak.
public enum TLSVersion: Int, Sendable, Hashable, Comparable {
    case v1_2 = 12
    case v1_3 = 13

    var openSSLValue: Int32 { self == .v1_2 ? cwire_tls1_2_version : cwire_tls1_3_version }

    public static func < (a: TLSVersion, b: TLSVersion) -> Bool { a.rawValue < b.rawValue }
}

/// What a finished handshake agreed on (`Connection.tlsMetadata`).
public struct TLSMetadata: Sendable, Hashable {
    /// OpenSSL's name of the version, e.g. "TLSv1.3".
    public let version: String
    /// The cipher suite's OpenSSL name, e.g. "TLS_AES_256_GCM_SHA384".
    public let cipherSuite: String
    /// The ALPN protocol agreed on; nil when either side offered none.
    public let applicationProtocol: String?
    /// The certificates the peer sent (DER, leaf first); empty when it sent none.
    public let peerCertificateChain: [[UInt8]]
}

/// OpenSSL's queued errors as one string (clears the queue).
func openSSLErrors() -> String {
    var buffer = [CChar](repeating: 0, count: 1024)
    cwire_ssl_error_string(&buffer, buffer.count)
    let text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    return text.isEmpty ? "no OpenSSL error queued" : text
}

/// The one owner of an `SSL_CTX*`: freed in deinit. Immutable after init, so it may be shared by
/// every connection a listener accepts (OpenSSL's SSL_CTX is thread-safe once configured).
final class TLSContext: @unchecked Sendable {
    // SAFETY: non-nil for the object's lifetime; freed exactly once, in deinit.
    let ctx: OpaquePointer
    // SAFETY: a listener's ALPN list (4-byte length, then the wire format), read by OpenSSL's
    // select callback for as long as `ctx` lives; freed in deinit after the context.
    private var serverProtocols: UnsafeMutableBufferPointer<UInt8>?

    init(options: TLSOptions, server: Bool) throws(WireError) {
        // OpenSSL writes to the socket with write(2): a peer gone mid-write must be EPIPE, not SIGPIPE.
        _ = Self.ignoreSIGPIPE
        guard let ctx = SSL_CTX_new(server ? TLS_server_method() : TLS_client_method()) else {
            throw .tls(reason: "SSL_CTX_new: \(openSSLErrors())")
        }
        self.ctx = ctx
        guard options.minimumVersion <= options.maximumVersion else {
            throw .invalidArgument("TLS minimumVersion \(options.minimumVersion) is above maximumVersion \(options.maximumVersion)")
        }
        guard cwire_ssl_ctx_set_versions(ctx, options.minimumVersion.openSSLValue, options.maximumVersion.openSSLValue) == 1 else {
            throw .tls(reason: "cannot set the protocol versions: \(openSSLErrors())")
        }
        if !options.applicationProtocols.isEmpty {
            let wire = try Self.alpnWireFormat(options.applicationProtocols)
            if server {
                let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: wire.count + 4)
                let n = UInt32(wire.count).bigEndian
                withUnsafeBytes(of: n) { for i in 0 ..< 4 { buffer[i] = $0[i] } }
                for (i, byte) in wire.enumerated() { buffer[4 + i] = byte }
                serverProtocols = buffer
                cwire_ssl_ctx_set_alpn_server(ctx, buffer.baseAddress)
            } else if SSL_CTX_set_alpn_protos(ctx, wire, UInt32(wire.count)) != 0 {  // 0 is success here
                throw .tls(reason: "cannot set the ALPN protocols: \(openSSLErrors())")
            }
        }
        try Self.setCipherSuites(ctx, options.cipherSuites)
        try Self.loadIdentity(ctx, options)
        if server, !options.hasIdentity {
            throw .tls(reason: "a TLS listener needs an identity: certificateFile and privateKeyFile, or certificateChainPEM and privateKeyPEM")
        }
        guard options.checksPeer(server: server) else {
            SSL_CTX_set_verify(ctx, SSL_VERIFY_NONE, nil)
            return
        }
        if let ca = options.trustedCAFile {
            guard SSL_CTX_load_verify_locations(ctx, ca, nil) == 1 else {
                throw .tls(reason: "cannot load trusted CA \(ca): \(openSSLErrors())")
            }
            // A listener names the CAs it accepts in its certificate request.
            if server, let names = SSL_load_client_CA_file(ca) { SSL_CTX_set_client_CA_list(ctx, names) }
        } else if SSL_CTX_set_default_verify_paths(ctx) != 1 {
            throw .tls(reason: "cannot load the system trust store: \(openSSLErrors())")
        }
        var mode = SSL_VERIFY_PEER
        if server && options.clientCertificates == .require { mode |= SSL_VERIFY_FAIL_IF_NO_PEER_CERT }
        // A listener that does not ask for certificates but has a verify block sees no chain; it
        // asks (without requiring), so the block has something to decide on.
        if options.verifyBlock != nil {
            cwire_ssl_ctx_set_verify_deferred(ctx, mode)
        } else {
            SSL_CTX_set_verify(ctx, mode, nil)
        }
    }

    private static let ignoreSIGPIPE: Void = { _ = signal(SIGPIPE, SIG_IGN) }()

    /// Restricts each TLS version whose suites `names` lists to them. Each name is tried alone
    /// first, since OpenSSL accepts a 1.2 list in which only some names are known.
    private static func setCipherSuites(_ ctx: OpaquePointer, _ names: [String]) throws(WireError) {
        let tls13 = names.filter { $0.hasPrefix("TLS_") }, tls12 = names.filter { !$0.hasPrefix("TLS_") }
        for name in tls13 where SSL_CTX_set_ciphersuites(ctx, name) != 1 {
            ERR_clear_error()
            throw .invalidArgument("cipherSuites: \(name) is not a TLS 1.3 suite OpenSSL knows")
        }
        for name in tls12 where name.contains(":") || SSL_CTX_set_cipher_list(ctx, name) != 1 {
            ERR_clear_error()
            throw .invalidArgument("cipherSuites: \(name) is not a TLS 1.2 suite OpenSSL knows")
        }
        if !tls13.isEmpty, SSL_CTX_set_ciphersuites(ctx, tls13.joined(separator: ":")) != 1 {
            throw .tls(reason: "cannot set the TLS 1.3 suites: \(openSSLErrors())")
        }
        if !tls12.isEmpty, SSL_CTX_set_cipher_list(ctx, tls12.joined(separator: ":")) != 1 {
            throw .tls(reason: "cannot set the TLS 1.2 suites: \(openSSLErrors())")
        }
    }

    /// The certificate chain and key, from files or from memory; checks that they match.
    private static func loadIdentity(_ ctx: OpaquePointer, _ options: TLSOptions) throws(WireError) {
        let files = options.certificateFile != nil || options.privateKeyFile != nil
        let memory = options.certificateChainPEM != nil || options.privateKeyPEM != nil
        guard !(files && memory) else {
            throw .invalidArgument("TLS identity: give certificateFile/privateKeyFile or certificateChainPEM/privateKeyPEM, not both")
        }
        guard (options.certificateChainPEM == nil) == (options.privateKeyPEM == nil) else {
            throw .invalidArgument("TLS identity: certificateChainPEM and privateKeyPEM go together")
        }
        if let cert = options.certificateFile, SSL_CTX_use_certificate_chain_file(ctx, cert) != 1 {
            throw .tls(reason: "cannot load certificate \(cert): \(openSSLErrors())")
        }
        if let key = options.privateKeyFile, SSL_CTX_use_PrivateKey_file(ctx, key, SSL_FILETYPE_PEM) != 1 {
            throw .tls(reason: "cannot load private key \(key): \(openSSLErrors())")
        }
        if let chain = options.certificateChainPEM, cwire_ssl_ctx_use_chain_pem(ctx, chain, Int32(clamping: chain.count)) != 1 {
            throw .tls(reason: "cannot load certificateChainPEM: \(openSSLErrors())")
        }
        if let key = options.privateKeyPEM, cwire_ssl_ctx_use_key_pem(ctx, key, Int32(clamping: key.count)) != 1 {
            throw .tls(reason: "cannot load privateKeyPEM: \(openSSLErrors())")
        }
        let key = options.privateKeyFile ?? (options.privateKeyPEM != nil ? "privateKeyPEM" : nil)
        if let key, SSL_CTX_check_private_key(ctx) != 1 {
            throw .tls(reason: "private key \(key) does not match the certificate: \(openSSLErrors())")
        }
    }

    /// ALPN's wire format: each name as a length byte and its bytes.
    static func alpnWireFormat(_ protocols: [String]) throws(WireError) -> [UInt8] {
        var wire: [UInt8] = []
        for name in protocols {
            let bytes = Array(name.utf8)
            guard (1 ... 255).contains(bytes.count) else { throw .invalidArgument("ALPN protocol \"\(name)\" must be 1 to 255 bytes") }
            wire.append(UInt8(bytes.count))
            wire += bytes
        }
        return wire
    }

    deinit {
        SSL_CTX_free(ctx)
        serverProtocols?.deallocate()
    }
}

/// The outcome of one non-blocking TLS step.
enum TLSStep {
    case done(Int)          // bytes moved (0 for a finished handshake)
    case wantRead
    case wantWrite
    case closed             // the peer's close_notify (clean end of stream)
    case failed(WireError)
}

/// The one owner of an `SSL*` bound to a socket descriptor (which it does not own: the
/// `IOChannel` frees the session before closing the descriptor).
final class TLSSession {
    // SAFETY: non-nil for the object's lifetime; freed exactly once, in deinit. The context is
    // kept alive by `context` (SSL_new also takes a reference).
    private let ssl: OpaquePointer
    private let context: TLSContext
    private let server: Bool

    init(context: TLSContext, fd: Int32, server: Bool, verifyName: String?) throws(WireError) {
        guard let ssl = SSL_new(context.ctx) else { throw .tls(reason: "SSL_new: \(openSSLErrors())") }
        self.ssl = ssl
        self.context = context
        self.server = server
        _ = cwire_ssl_set_partial_writes(ssl)
        guard SSL_set_fd(ssl, fd) == 1 else { throw .tls(reason: "SSL_set_fd: \(openSSLErrors())") }
        if server {
            SSL_set_accept_state(ssl)
        } else {
            SSL_set_connect_state(ssl)
            if let name = verifyName {
                let isIP = name.contains(":") || name.allSatisfy { $0.isNumber || $0 == "." }
                if !isIP { _ = cwire_ssl_set_server_name(ssl, name) }
                let param = SSL_get0_param(ssl)
                let ok = isIP ? X509_VERIFY_PARAM_set1_ip_asc(param, name) : X509_VERIFY_PARAM_set1_host(param, name, 0)
                guard ok == 1 else { throw .tls(reason: "cannot set the name to verify (\(name)): \(openSSLErrors())") }
            }
        }
    }

    deinit { SSL_free(ssl) }

    func handshake() -> TLSStep { classify(SSL_do_handshake(ssl), call: "handshake") { _ in .done(0) } }

    func read(into buffer: UnsafeMutableRawBufferPointer) -> TLSStep {
        classify(SSL_read(ssl, buffer.baseAddress, Int32(min(buffer.count, Int(Int32.max)))), call: "read") { .done(Int($0)) }
    }

    func write(_ buffer: UnsafeRawBufferPointer) -> TLSStep {
        classify(SSL_write(ssl, buffer.baseAddress, Int32(min(buffer.count, Int(Int32.max)))), call: "write") { .done(Int($0)) }
    }

    /// The negotiated version, cipher suite and ALPN protocol (after the handshake).
    var metadata: TLSMetadata {
        var selected: UnsafePointer<UInt8>?
        var length: UInt32 = 0
        SSL_get0_alpn_selected(ssl, &selected, &length)
        // SAFETY: OpenSSL owns `selected` (length bytes) for the session's lifetime; copied here.
        let alpn = selected.map { String(decoding: UnsafeBufferPointer(start: $0, count: Int(length)), as: UTF8.self) }
        return TLSMetadata(version: String(cString: SSL_get_version(ssl)),
                           cipherSuite: cwire_ssl_cipher_name(ssl).map { String(cString: $0) } ?? "",
                           applicationProtocol: length == 0 ? nil : alpn, peerCertificateChain: peerCertificateChain)
    }

    /// The certificates the peer sent, DER, leaf first (after the handshake).
    var peerCertificateChain: [[UInt8]] {
        (0 ..< Int(cwire_ssl_peer_chain_count(ssl))).compactMap { index in
            let length = cwire_ssl_peer_cert_der(ssl, Int32(index), nil, 0)
            guard length > 0 else { return nil }
            var der = [UInt8](repeating: 0, count: Int(length))
            return cwire_ssl_peer_cert_der(ssl, Int32(index), &der, length) == length ? der : nil
        }
    }

    /// OpenSSL's verdict on `chain` (the peer's certificates, read once for the metadata), for a
    /// verify block.
    func trust(in chain: [[UInt8]]) -> TLSPeerTrust {
        let result = SSL_get_verify_result(ssl)
        let error: String? = chain.isEmpty ? "no certificate"
            : result == X509_V_OK ? nil : String(cString: X509_verify_cert_error_string(result))
        return TLSPeerTrust(certificateChain: chain, verificationError: error)
    }

    /// Sends close_notify once (best effort, non-blocking).
    func shutdown() { _ = SSL_shutdown(ssl); ERR_clear_error() }

    private func classify(_ rc: Int32, call: String, success: (Int32) -> TLSStep) -> TLSStep {
        if rc > 0 { return success(rc) }
        let e = cwire_errno()
        let code = SSL_get_error(ssl, rc)
        switch code {
        case SSL_ERROR_WANT_READ: return .wantRead
        case SSL_ERROR_WANT_WRITE: return .wantWrite
        case SSL_ERROR_ZERO_RETURN: return .closed
        case SSL_ERROR_SYSCALL:
            let queued = openSSLErrors()
            if e == EINTR { return .wantRead }
            if e != 0 { return .failed(.posix(call: "TLS \(call)", errno: e)) }
            return .failed(.tls(reason: "\(call): the peer closed the connection without close_notify (\(queued))"))
        default:
            let verify = SSL_get_verify_result(ssl)
            if verify != X509_V_OK {
                let text = String(cString: X509_verify_cert_error_string(verify))
                ERR_clear_error()
                return .failed(.tls(reason: "certificate verify failed: \(text)"))
            }
            return .failed(.tls(reason: "\(call) failed: \(openSSLErrors())"))
        }
    }
}
