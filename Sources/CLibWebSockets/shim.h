// The one C boundary of Transition Sandbox: libwebsockets 4.1 plus `static inline` helpers for
// what Swift cannot import (computed macros, variadics) or builds awkwardly (the creation info
// with its linked option lists). Every helper carries the `clws_` prefix.
#ifndef CLWS_SHIM_H
#define CLWS_SHIM_H

#include <libwebsockets.h>
#include <linux/sockios.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/timerfd.h>
#include <unistd.h>

static inline size_t clws_pre(void) { return LWS_PRE; }

static inline void clws_set_log_level(int level) { lws_set_log_level(level, NULL); }

static inline int clws_write_text(struct lws *wsi, unsigned char *payload, size_t length) {
    return lws_write(wsi, payload, length, LWS_WRITE_TEXT);
}

/// The connection's kernel send buffer: its size (SO_SNDBUF, the kernel's own accounting, which
/// counts bookkeeping as well as payload) and the payload bytes still in it (SIOCOUTQ: unsent
/// plus unacknowledged). Returns -1 if the socket cannot be asked.
static inline int clws_send_buffer(struct lws *wsi, int *size, int *queued) {
    int fd = lws_get_socket_fd(wsi);
    socklen_t length = sizeof *size;
    if (fd < 0 || getsockopt(fd, SOL_SOCKET, SO_SNDBUF, size, &length) != 0) return -1;
    if (ioctl(fd, SIOCOUTQ, queued) != 0) return -1;
    return 0;
}

/// Raises the connection's send buffer to at least `bytes` (the kernel doubles the request for
/// its bookkeeping and caps it at net.core.wmem_max). Used only for a message so large that it
/// could never be sent whole into the buffer the kernel chose.
static inline int clws_grow_send_buffer(struct lws *wsi, int bytes) {
    int fd = lws_get_socket_fd(wsi);
    return fd < 0 ? -1 : setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &bytes, sizeof bytes);
}

/// Makes the connection's close a reset (SO_LINGER 0): the kernel frees its send queue at close
/// instead of keeping it to send on.
static inline int clws_reset_on_close(struct lws *wsi) {
    struct linger reset = { .l_onoff = 1, .l_linger = 0 };
    int fd = lws_get_socket_fd(wsi);
    return fd < 0 ? -1 : setsockopt(fd, SOL_SOCKET, SO_LINGER, &reset, sizeof reset);
}

/// Closes a connection from the service loop's next turn, without waiting for it to become
/// writeable (a peer that never reads would otherwise hold it forever).
static inline void clws_kill_soon(struct lws *wsi) {
    lws_set_timeout(wsi, PENDING_TIMEOUT_USER_OK, LWS_TO_KILL_ASYNC);
}

/// Closes a connection `seconds` from now unless something else closes it first.
static inline void clws_kill_after(struct lws *wsi, int seconds) {
    lws_set_timeout(wsi, PENDING_TIMEOUT_USER_OK, seconds);
}

/// Answers an HTTP request with a status and a short plain-text body, then ends the transaction.
/// Returns nonzero if the connection must be closed.
static inline int clws_http_refuse(struct lws *wsi, unsigned int status, const char *message) {
    return lws_return_http_status(wsi, status, message);
}

#include "clws_timers.h"


/// Everything the server context needs, kept alive (lws keeps pointers into it) until freed.
typedef struct clws_server {
    struct lws_protocols protocols[4];
    struct lws_protocol_vhost_options default_option;
    struct lws_protocol_vhost_options protocol_options;
    struct lws_http_mount mount;
    struct lws_http_mount metrics_mount;
    lws_retry_bo_t retry;
    char *web_root;
    char *iface;
    char *protocol_name;  // protocol 2's subprotocol
    char *protocol_v1;    // protocol 1's: the default, for clients that offer none
    char v1_first;        // its first character while hidden (clws_server_hide_v1)
    char *tls_cert;
    char *tls_key;
    struct lws_context *context;
} clws_server;

static inline void clws_server_free(clws_server *server) {
    free(server->web_root); free(server->iface); free(server->protocol_name); free(server->protocol_v1);
    free(server->tls_cert); free(server->tls_key); free(server);
}

/// Creates a context listening on `iface:port` (port 0: any free port) that serves `web_root`
/// over HTTP and speaks the subprotocols `protocol_name` (protocol 2) and `protocol_v1` (marked
/// "default", so clients that offer none reach it), one callback for both. IPv6 is disabled so
/// that 127.0.0.1 really means loopback only.
/// `http_callback` serves protocol 0 (the page; lws_callback_http_dummy does the work). `listen`
/// 0 makes a context that listens nowhere and only serves sockets handed to it
/// (`lws_adopt_socket_vhost`): the extra service threads of `sandbox serve --threads`.
/// `metrics` 1 mounts `/metrics` on the sandbox protocol's callback (LWS_CALLBACK_HTTP), whose
/// large `tx_packet_size` lets the answer go out in one write (see below). `tls_cert` and
/// `tls_key` (PEM files, both or neither) make the context serve TLS only: https and wss, through
/// lws' own OpenSSL; sockets adopted from the listening thread are TLS too.
static inline clws_server *clws_server_create(const char *iface, int port, const char *web_root,
                                              const char *protocol_name, const char *protocol_v1,
                                              lws_callback_function *callback,
                                              lws_callback_function *http_callback,
                                              size_t per_session_size, size_t tx_packet_size, void *user,
                                              uint16_t ping_secs, uint16_t hangup_secs, unsigned int timeout_secs,
                                              int listen, int metrics, const char *tls_cert, const char *tls_key) {
    clws_server *server = calloc(1, sizeof(clws_server));
    if (!server) return NULL;
    server->web_root = strdup(web_root);
    server->iface = strdup(iface);
    server->protocol_name = strdup(protocol_name);
    server->protocol_v1 = strdup(protocol_v1);
    if (tls_cert && tls_key) {
        server->tls_cert = strdup(tls_cert);
        server->tls_key = strdup(tls_key);
    }

    server->protocols[0].name = "http";
    server->protocols[0].callback = http_callback;
    server->protocols[1].name = server->protocol_name;
    server->protocols[1].callback = callback;
    server->protocols[1].per_session_data_size = per_session_size;
    server->protocols[1].rx_buffer_size = 0;
    // lws sends at most tx_packet_size (default: its 4 KiB service buffer) of a write and keeps the
    // rest itself; a peer that then half-closes livelocks 4.1.6 (see docs/SECURITY.md). With the
    // largest message allowed here, a write goes to the kernel whole; the caller checks the room.
    server->protocols[1].tx_packet_size = tx_packet_size;
    server->protocols[2] = server->protocols[1];
    server->protocols[2].name = server->protocol_v1;

    server->default_option.name = "default";
    server->default_option.value = "1";
    server->protocol_options.name = server->protocol_v1;
    server->protocol_options.options = &server->default_option;

    server->mount.mountpoint = "/";
    server->mount.origin = server->web_root;
    server->mount.def = "index.html";
    server->mount.origin_protocol = LWSMPRO_FILE;
    server->mount.mountpoint_len = 1;
    if (metrics) {
        // lws picks the longest matching mountpoint, so /metrics wins over / for that path only.
        server->metrics_mount.mountpoint = "/metrics";
        server->metrics_mount.mountpoint_len = 8;
        server->metrics_mount.origin = server->protocol_name;
        server->metrics_mount.origin_protocol = LWSMPRO_CALLBACK;
        server->metrics_mount.mount_next = &server->mount;
    }

    server->retry.secs_since_valid_ping = ping_secs;
    server->retry.secs_since_valid_hangup = hangup_secs;

    struct lws_context_creation_info info;
    memset(&info, 0, sizeof info);
    info.port = listen ? port : CONTEXT_PORT_NO_LISTEN_SERVER;
    info.iface = server->iface;
    info.protocols = server->protocols;
    info.pvo = &server->protocol_options;
    info.mounts = metrics ? &server->metrics_mount : &server->mount;
    info.user = user;
    info.retry_and_idle_policy = &server->retry;
    info.timeout_secs = timeout_secs;
    info.vhost_name = "default";
    info.options = LWS_SERVER_OPTION_DISABLE_IPV6 | LWS_SERVER_OPTION_VALIDATE_UTF8 |
                   LWS_SERVER_OPTION_HTTP_HEADERS_SECURITY_BEST_PRACTICES_ENFORCE;
    if (server->tls_cert) {
        // Also how lws 4.1 tells a context to use TLS at all: every context of `--threads N`
        // needs it (without it the adopted sockets of the extra threads are served in clear).
        info.options |= LWS_SERVER_OPTION_DO_SSL_GLOBAL_INIT;
        info.ssl_cert_filepath = server->tls_cert;
        info.ssl_private_key_filepath = server->tls_key;
        // HTTP/1.1 only. Debian's lws speaks HTTP/2 when ALPN offers it (every browser and curl
        // do), and an h2 request carries `:authority`, not `Host`: the Host allow-list (DNS
        // rebinding) would see no Host (seen: over h2 the page was served to any Host).
        info.alpn = "http/1.1";
    }
    server->context = lws_create_context(&info);
    if (!server->context) {
        clws_server_free(server);
        return NULL;
    }
    return server;
}

/// lws 4.1 binds the first subprotocol of the client's list that it knows, and exports no way to
/// bind another. To serve protocol 2 to a client that lists protocol 1 first, protocol 1's name
/// is emptied for that one upgrade (it then matches no offered name; lws reads it, not a copy)
/// and given back by clws_server_restore_v1 at the upgrade's next callback — or at any later
/// callback of this context, whatever happened between (one thread runs a context).
static inline void clws_server_hide_v1(clws_server *server) {
    if (server->protocol_v1[0]) {
        server->v1_first = server->protocol_v1[0];
        server->protocol_v1[0] = '\0';
    }
}

static inline void clws_server_restore_v1(clws_server *server) {
    if (server->v1_first) {
        server->protocol_v1[0] = server->v1_first;
        server->v1_first = 0;
    }
}

/// The subprotocol lws bound the connection to ("" if none).
static inline const char *clws_protocol_name(struct lws *wsi) {
    const struct lws_protocols *protocol = lws_get_protocol(wsi);
    return protocol && protocol->name ? protocol->name : "";
}

/// Serves an accepted socket on this context (call on its service thread).
static inline int clws_server_adopt(clws_server *server, int fd) {
    struct lws_vhost *vhost = lws_get_vhost_by_name(server->context, "default");
    return vhost && lws_adopt_socket_vhost(vhost, fd) ? 0 : -1;
}

/// The accepted descriptor of LWS_CALLBACK_FILTER_NETWORK_CONNECTION.
static inline int clws_filter_fd(void *in) { return (int)(lws_intptr_t)in; }

static inline int clws_server_port(clws_server *server) {
    struct lws_vhost *vhost = lws_get_vhost_by_name(server->context, "default");
    return vhost ? lws_get_vhost_listen_port(vhost) : -1;
}

static inline void clws_server_destroy(clws_server *server) {
    lws_context_destroy(server->context);
    clws_server_free(server);
}

/// Answers the HTTP request being served with `status`, `content_type` and `body`, headers and
/// body in one write, and ends the transaction. The caller has checked that the kernel can take
/// it whole (SendRoom), so lws never holds part of it. Returns nonzero if the connection must be
/// closed (the callback then returns -1).
static inline int clws_http_respond(struct lws *wsi, unsigned int status, const char *content_type,
                                    const unsigned char *body, size_t length) {
    size_t capacity = LWS_PRE + 1024 + length;
    unsigned char *buffer = malloc(capacity);
    if (!buffer) return 1;
    unsigned char *start = buffer + LWS_PRE, *p = start, *end = buffer + capacity;
    if (lws_add_http_common_headers(wsi, status, content_type, (lws_filepos_t)length, &p, end) ||
        lws_finalize_http_header(wsi, &p, end)) {
        free(buffer);
        return 1;
    }
    memcpy(p, body, length);
    p += length;
    int written = lws_write(wsi, start, (size_t)(p - start), LWS_WRITE_HTTP_FINAL);
    free(buffer);
    if (written < (int)(p - start)) return 1;
    return lws_http_transaction_completed(wsi);
}

/// The peer's address ("127.0.0.1"), or "" when lws cannot tell.
static inline void clws_peer(struct lws *wsi, char *buffer, size_t length) {
    buffer[0] = 0;
    if (!lws_get_peer_simple(wsi, buffer, length)) buffer[0] = 0;
}

/// libwebsockets' own log lines (errors and warnings) go to `emit`, so they take the server's
/// log format instead of lws' own stderr lines.
static inline void clws_set_log_emit(int level, void (*emit)(int level, const char *line)) {
    lws_set_log_level(level, emit);
}

/// 1 when the request is a GET (the only method `/metrics` answers).
static inline int clws_is_get(struct lws *wsi) { return lws_hdr_total_length(wsi, WSI_TOKEN_GET_URI) > 0; }

/// Copies a header into `buffer`; returns its length, -1 when absent, -2 when longer than the
/// buffer (never to be mistaken for absent).
static inline int clws_header(struct lws *wsi, enum lws_token_indexes token, char *buffer, int length) {
    int total = lws_hdr_total_length(wsi, token);
    if (total <= 0) return -1;
    if (total >= length) return -2;
    int copied = lws_hdr_copy(wsi, buffer, length, token);
    return copied < 0 ? -2 : copied;
}

/// 1 if the request is a CONNECT (lws 4.1 would adopt the socket as a raw one, with no timeout).
static inline int clws_is_connect(struct lws *wsi) { return lws_hdr_total_length(wsi, WSI_TOKEN_CONNECT) > 0; }

#include "clws_client.h"
#include "clws_tls_files.h"

static inline int clws_close_code(void *in, size_t len) {
    if (!in || len < 2) return -1;
    const unsigned char *p = (const unsigned char *)in;
    return (p[0] << 8) | p[1];
}

static inline int clws_is_final_fragment(struct lws *wsi) {
    return lws_is_final_fragment(wsi) && lws_remaining_packet_payload(wsi) == 0;
}

#endif
