#define _GNU_SOURCE
#include "cwire.h"
#include <errno.h>
#include <string.h>
#include <stdio.h>
#include <openssl/pem.h>
#include <openssl/evp.h>

int cwire_errno(void) { return errno; }

int cwire_accept4(int fd, struct sockaddr_storage *addr, socklen_t *len) {
    return accept4(fd, (struct sockaddr *)addr, len, SOCK_NONBLOCK | SOCK_CLOEXEC);
}

int cwire_sendmmsg(int fd, const struct iovec *iovs, unsigned count,
                   const struct sockaddr_storage *addrs, const socklen_t *addrlens) {
    if (count > CWIRE_MAX_BATCH) { errno = EINVAL; return -1; }
    struct mmsghdr msgs[count ? count : 1];
    memset(msgs, 0, sizeof(msgs[0]) * (count ? count : 1));
    for (unsigned i = 0; i < count; i++) {
        msgs[i].msg_hdr.msg_iov = (struct iovec *)&iovs[i];
        msgs[i].msg_hdr.msg_iovlen = 1;
        if (addrs) {
            msgs[i].msg_hdr.msg_name = (void *)&addrs[i];
            msgs[i].msg_hdr.msg_namelen = addrlens[i];
        }
    }
    return sendmmsg(fd, msgs, count, MSG_DONTWAIT | MSG_NOSIGNAL);
}

int cwire_recvmmsg(int fd, struct iovec *iovs, unsigned count, unsigned *lengths, int *truncated,
                   struct sockaddr_storage *addrs, socklen_t *addrlens) {
    if (count > CWIRE_MAX_BATCH || count == 0) { errno = EINVAL; return -1; }
    struct mmsghdr msgs[count];
    memset(msgs, 0, sizeof(msgs[0]) * count);
    for (unsigned i = 0; i < count; i++) {
        msgs[i].msg_hdr.msg_iov = &iovs[i];
        msgs[i].msg_hdr.msg_iovlen = 1;
        if (addrs) {
            msgs[i].msg_hdr.msg_name = &addrs[i];
            msgs[i].msg_hdr.msg_namelen = sizeof(struct sockaddr_storage);
        }
    }
    int n = recvmmsg(fd, msgs, count, MSG_DONTWAIT, NULL);
    for (int i = 0; i < n; i++) {
        lengths[i] = msgs[i].msg_len;
        truncated[i] = (msgs[i].msg_hdr.msg_flags & MSG_TRUNC) != 0;
        if (addrs) addrlens[i] = msgs[i].msg_hdr.msg_namelen;
    }
    return n;
}

int cwire_ssl_ctx_set_versions(SSL_CTX *ctx, int min, int max) {
    return SSL_CTX_set_min_proto_version(ctx, min) == 1 && SSL_CTX_set_max_proto_version(ctx, max) == 1;
}

const int cwire_tls1_2_version = TLS1_2_VERSION;
const int cwire_tls1_3_version = TLS1_3_VERSION;

// The server's ALPN choice: the first of the server's protocols the client also offers
// (SSL_select_next_proto walks the server list); no overlap ends the handshake with an alert.
static int cwire_alpn_select(SSL *ssl, const unsigned char **out, unsigned char *outlen,
                             const unsigned char *in, unsigned int inlen, void *arg) {
    (void)ssl;
    const unsigned char *server = arg;
    // arg points to a length-prefixed copy: 4 bytes of total length, then the wire-format list.
    unsigned int serverlen = ((unsigned)server[0] << 24) | ((unsigned)server[1] << 16) | ((unsigned)server[2] << 8) | server[3];
    unsigned char *chosen = NULL;
    unsigned char chosenlen = 0;
    if (SSL_select_next_proto(&chosen, &chosenlen, server + 4, serverlen, in, inlen) != OPENSSL_NPN_NEGOTIATED) {
        return SSL_TLSEXT_ERR_ALERT_FATAL;
    }
    *out = chosen;
    *outlen = chosenlen;
    return SSL_TLSEXT_ERR_OK;
}

void cwire_ssl_ctx_set_alpn_server(SSL_CTX *ctx, const unsigned char *prefixed) {
    SSL_CTX_set_alpn_select_cb(ctx, cwire_alpn_select, (void *)prefixed);
}

const char *cwire_ssl_cipher_name(const SSL *ssl) {
    const SSL_CIPHER *cipher = SSL_get_current_cipher(ssl);
    return cipher ? SSL_CIPHER_get_name(cipher) : NULL;
}

long cwire_ssl_set_partial_writes(SSL *ssl) {
    return SSL_set_mode(ssl, SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER);
}

int cwire_ssl_set_server_name(SSL *ssl, const char *name) { return (int)SSL_set_tlsext_host_name(ssl, name); }

void cwire_ssl_error_string(char *buf, size_t size) {
    if (size == 0) return;
    size_t used = strlen(buf);
    unsigned long code;
    while ((code = ERR_get_error()) != 0) {
        char one[256];
        ERR_error_string_n(code, one, sizeof(one));
        int n = snprintf(buf + used, size - used, "%s%s", used ? "; " : "", one);
        if (n < 0 || (size_t)n >= size - used) { ERR_clear_error(); break; }
        used += (size_t)n;
    }
}

int cwire_ssl_ctx_use_chain_pem(SSL_CTX *ctx, const void *pem, int length) {
    BIO *bio = BIO_new_mem_buf(pem, length);
    if (!bio) return 0;
    int ok = 0;
    X509 *leaf = PEM_read_bio_X509_AUX(bio, NULL, NULL, NULL);
    if (leaf && SSL_CTX_use_certificate(ctx, leaf) == 1 && SSL_CTX_clear_chain_certs(ctx) == 1) {
        ok = 1;
        X509 *next;
        while ((next = PEM_read_bio_X509(bio, NULL, NULL, NULL)) != NULL) {
            // add0 takes the reference on success only.
            if (SSL_CTX_add0_chain_cert(ctx, next) != 1) { X509_free(next); ok = 0; break; }
        }
        // The loop ends on "no start line" past the last certificate: not an error.
        unsigned long last = ERR_peek_last_error();
        if (ok && ERR_GET_LIB(last) == ERR_LIB_PEM && ERR_GET_REASON(last) == PEM_R_NO_START_LINE) ERR_clear_error();
    }
    X509_free(leaf);
    BIO_free(bio);
    return ok;
}

int cwire_ssl_ctx_use_key_pem(SSL_CTX *ctx, const void *pem, int length) {
    BIO *bio = BIO_new_mem_buf(pem, length);
    if (!bio) return 0;
    EVP_PKEY *key = PEM_read_bio_PrivateKey(bio, NULL, NULL, NULL);
    int ok = key && SSL_CTX_use_PrivateKey(ctx, key) == 1;
    EVP_PKEY_free(key);
    BIO_free(bio);
    return ok;
}

static int cwire_verify_continue(int ok, X509_STORE_CTX *store) {
    (void)ok;
    (void)store;
    return 1;
}

void cwire_ssl_ctx_set_verify_deferred(SSL_CTX *ctx, int mode) { SSL_CTX_set_verify(ctx, mode, cwire_verify_continue); }

// The peer's certificate `index` (0 = leaf), borrowed from the session; NULL past the end.
static X509 *cwire_peer_cert_at(const SSL *ssl, int index) {
    X509 *leaf = SSL_get0_peer_certificate(ssl);
    if (!leaf || index < 0) return NULL;
    if (index == 0) return leaf;
    STACK_OF(X509) *chain = SSL_get_peer_cert_chain(ssl);
    if (!chain) return NULL;
    // A client's view of the chain starts with the server's leaf; a server's view has no leaf.
    int skip = (sk_X509_num(chain) > 0 && X509_cmp(sk_X509_value(chain, 0), leaf) == 0) ? 1 : 0;
    int at = index - 1 + skip;
    return at < sk_X509_num(chain) ? sk_X509_value(chain, at) : NULL;
}

int cwire_ssl_peer_chain_count(const SSL *ssl) {
    int n = 0;
    while (cwire_peer_cert_at(ssl, n)) n++;
    return n;
}

int cwire_ssl_peer_cert_der(const SSL *ssl, int index, unsigned char *out, int size) {
    X509 *cert = cwire_peer_cert_at(ssl, index);
    if (!cert) return -1;
    int length = i2d_X509(cert, NULL);
    if (length < 0 || length > size) return length;
    unsigned char *cursor = out;
    return i2d_X509(cert, &cursor);
}

int cwire_spki_sha256(const unsigned char *der, int length, unsigned char *out) {
    const unsigned char *cursor = der;
    X509 *cert = d2i_X509(NULL, &cursor, length);
    if (!cert) return 0;
    unsigned char *spki = NULL;
    int spkiLength = i2d_PUBKEY(X509_get0_pubkey(cert), &spki);
    unsigned int digestLength = 0;
    int ok = spkiLength > 0 && EVP_Digest(spki, (size_t)spkiLength, out, &digestLength, EVP_sha256(), NULL) == 1 && digestLength == 32;
    OPENSSL_free(spki);
    X509_free(cert);
    return ok;
}
