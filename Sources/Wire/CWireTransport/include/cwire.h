// C shim for WireTransport: OpenSSL (whose API is partly macros Swift cannot call), the
// multi-message socket calls (sendmmsg/recvmmsg need _GNU_SOURCE, which Swift's Glibc module does not
// define) and rtnetlink's numbers (cwire_netlink.h). Every function is a thin forwarder: no state kept between calls, nothing allocated that
// outlives the call, no errno handling (the Swift syscall layer reads errno and retries EINTR in one
// place).
#ifndef CWIRE_H
#define CWIRE_H

#include <openssl/ssl.h>
#include <openssl/err.h>
#include <openssl/x509v3.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <arpa/inet.h>
#include <netdb.h>
#include "cwire_netlink.h"

/// Socket types and flags as plain ints (Glibc imports them as an enum Swift spells awkwardly).
static const int cwire_sock_stream = SOCK_STREAM;
static const int cwire_sock_dgram = SOCK_DGRAM;

/// accept4(2) with SOCK_NONBLOCK | SOCK_CLOEXEC (accept4 needs _GNU_SOURCE).
int cwire_accept4(int fd, struct sockaddr_storage *addr, socklen_t *len);

/// errno of the calling thread.
int cwire_errno(void);

/// sendmmsg(2) on a connected socket (addrs == NULL) or to one address per datagram: datagram i is
/// iovs[i] (to addrs[i], addrlens[i]). count <= CWIRE_MAX_BATCH. Returns sendmmsg's result
/// (datagrams sent, or -1 with errno).
int cwire_sendmmsg(int fd, const struct iovec *iovs, unsigned count,
                   const struct sockaddr_storage *addrs, const socklen_t *addrlens);

/// recvmmsg(2), MSG_DONTWAIT: datagram i lands in iovs[i]; lengths[i] receives its length,
/// truncated[i] 1 if it was longer than the buffer, addrs[i]/addrlens[i] its source (addrs may be
/// NULL). Returns datagrams received, or -1 with errno.
int cwire_recvmmsg(int fd, struct iovec *iovs, unsigned count, unsigned *lengths, int *truncated,
                   struct sockaddr_storage *addrs, socklen_t *addrlens);

#define CWIRE_MAX_BATCH 1024

// OpenSSL macros as functions.
long cwire_ssl_set_partial_writes(SSL *ssl);
/// SSL_CTX_set_min/max_proto_version; 1 when both took.
int cwire_ssl_ctx_set_versions(SSL_CTX *ctx, int min, int max);
extern const int cwire_tls1_2_version;
extern const int cwire_tls1_3_version;
/// Server-side ALPN: picks the first protocol of `prefixed` (4 bytes of big-endian length, then
/// the wire-format list) that the client offers; no overlap fails the handshake. `prefixed` must
/// outlive `ctx` (the caller's TLSContext owns both).
void cwire_ssl_ctx_set_alpn_server(SSL_CTX *ctx, const unsigned char *prefixed);
/// The negotiated cipher suite's name, or NULL before the handshake.
const char *cwire_ssl_cipher_name(const SSL *ssl);
int cwire_ssl_set_server_name(SSL *ssl, const char *name);
/// Loads a PEM certificate chain from memory into ctx: the first certificate is the leaf, any
/// others are its chain. 1 on success; 0 with OpenSSL's error queued (no certificate, bad PEM).
int cwire_ssl_ctx_use_chain_pem(SSL_CTX *ctx, const void *pem, int length);
/// Loads a PEM private key from memory into ctx. 1 on success; 0 with OpenSSL's error queued.
int cwire_ssl_ctx_use_key_pem(SSL_CTX *ctx, const void *pem, int length);
/// Peer verification that never stops the handshake: OpenSSL still checks the chain and the name
/// and records the outcome (SSL_get_verify_result), and the caller decides once the handshake is
/// done. `mode` is SSL_VERIFY_PEER, with SSL_VERIFY_FAIL_IF_NO_PEER_CERT on a server that requires
/// a client certificate.
void cwire_ssl_ctx_set_verify_deferred(SSL_CTX *ctx, int mode);
/// The certificates the peer sent, leaf first, on either side (OpenSSL leaves the leaf out of a
/// server's view of the client's chain): how many, and the DER of certificate `index` copied into
/// `out` (up to `size` bytes). The DER length, or -1 when there is no such certificate.
int cwire_ssl_peer_chain_count(const SSL *ssl);
int cwire_ssl_peer_cert_der(const SSL *ssl, int index, unsigned char *out, int size);
/// SHA-256 of the SubjectPublicKeyInfo of the DER certificate `der` into out[32]. 1 on success.
int cwire_spki_sha256(const unsigned char *der, int length, unsigned char *out);
/// Appends OpenSSL's queued error strings ("; "-separated) to buf (NUL-terminated) and clears the queue.
void cwire_ssl_error_string(char *buf, size_t size);

#endif
