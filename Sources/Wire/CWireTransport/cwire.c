#define _GNU_SOURCE
#include "cwire.h"
#include <errno.h>
#include <string.h>
#include <stdio.h>

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

long cwire_ssl_ctx_set_min_tls12(SSL_CTX *ctx) { return SSL_CTX_set_min_proto_version(ctx, TLS1_2_VERSION); }

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
