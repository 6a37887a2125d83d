import CWireTransport
import Glibc

/// TLS configuration for a connection (client) or a listener (server). Files are PEM.
///
/// Client: the peer's certificate is verified against `trustedCAFile` (or the system store when
/// nil) and its name against `serverName` (default: the connection's host; an IP literal is checked
/// against the certificate's IP addresses). Verification is on unless `verifyPeer` is false.
/// Server: `certificateFile` and `privateKeyFile` are required; client certificates are not asked for.
/// A client may present a certificate the same way (`certificateFile`, `privateKeyFile`).
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

    public init(trustedCAFile: String? = nil, certificateFile: String? = nil, privateKeyFile: String? = nil,
                serverName: String? = nil, verifyPeer: Bool = true, handshakeTimeout: Double = 10) {
        self.trustedCAFile = trustedCAFile
        self.certificateFile = certificateFile
        self.privateKeyFile = privateKeyFile
        self.serverName = serverName
        self.verifyPeer = verifyPeer
        self.handshakeTimeout = handshakeTimeout
    }
}

/// OpenSSL's queued errors as one string (clears the queue).
func openSSLErrors() -> String {
    var buffer = [CChar](repeating: 0, count: 1024)
    cwire_ssl_error_string(&buffer, buffer.count)
    let text = String(cString: buffer)
    return text.isEmpty ? "no OpenSSL error queued" : text
}

/// The one owner of an `SSL_CTX*`: freed in deinit. Immutable after init, so it may be shared by
/// every connection a listener accepts (OpenSSL's SSL_CTX is thread-safe once configured).
final class TLSContext: @unchecked Sendable {
    // SAFETY: non-nil for the object's lifetime; freed exactly once, in deinit.
    let ctx: OpaquePointer

    init(options: TLSOptions, server: Bool) throws(WireError) {
        // OpenSSL writes to the socket with write(2): a peer gone mid-write must be EPIPE, not SIGPIPE.
        _ = Self.ignoreSIGPIPE
        guard let ctx = SSL_CTX_new(server ? TLS_server_method() : TLS_client_method()) else {
            throw .tls(reason: "SSL_CTX_new: \(openSSLErrors())")
        }
        self.ctx = ctx
        _ = cwire_ssl_ctx_set_min_tls12(ctx)
        if let cert = options.certificateFile, SSL_CTX_use_certificate_chain_file(ctx, cert) != 1 {
            throw .tls(reason: "cannot load certificate \(cert): \(openSSLErrors())")
        }
        if let key = options.privateKeyFile {
            guard SSL_CTX_use_PrivateKey_file(ctx, key, SSL_FILETYPE_PEM) == 1 else {
                throw .tls(reason: "cannot load private key \(key): \(openSSLErrors())")
            }
            guard SSL_CTX_check_private_key(ctx) == 1 else {
                throw .tls(reason: "private key \(key) does not match the certificate: \(openSSLErrors())")
            }
        }
        if server {
            guard options.certificateFile != nil, options.privateKeyFile != nil else {
                throw .tls(reason: "a TLS listener needs certificateFile and privateKeyFile")
            }
        } else if options.verifyPeer {
            if let ca = options.trustedCAFile {
                guard SSL_CTX_load_verify_locations(ctx, ca, nil) == 1 else {
                    throw .tls(reason: "cannot load trusted CA \(ca): \(openSSLErrors())")
                }
            } else if SSL_CTX_set_default_verify_paths(ctx) != 1 {
                throw .tls(reason: "cannot load the system trust store: \(openSSLErrors())")
            }
            SSL_CTX_set_verify(ctx, SSL_VERIFY_PEER, nil)
        } else {
            SSL_CTX_set_verify(ctx, SSL_VERIFY_NONE, nil)
        }
    }

    private static let ignoreSIGPIPE: Void = { _ = signal(SIGPIPE, SIG_IGN) }()

    deinit { SSL_CTX_free(ctx) }
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
