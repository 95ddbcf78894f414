// The tools' client context and its connections (shim.h includes this).
#ifndef CLWS_CLIENT_H
#define CLWS_CLIENT_H

#include <libwebsockets.h>

#include <string.h>
#include <unistd.h>

// MARK: - Client

/// A client context: one protocol, no listening socket. Each connection carries its own opaque
/// pointer (lws_get_opaque_user_data), so per-session data is not needed. With `tls` the
/// context also makes a client TLS context (OpenSSL, through libwebsockets) trusting the
/// certificates of `ca_filepath` (a PEM file; NULL: none — then only an insecure connection
/// can be made).
typedef struct clws_client {
    struct lws_protocols protocols[2];
    char *protocol_name;
    struct lws_context *context;
} clws_client;

static inline clws_client *clws_client_create(const char *protocol_name, lws_callback_function *callback,
                                              void *user, int tls, const char *ca_filepath) {
    clws_client *client = calloc(1, sizeof(clws_client));
    if (!client) return NULL;
    client->protocol_name = strdup(protocol_name);
    client->protocols[0].name = client->protocol_name;
    client->protocols[0].callback = callback;
    client->protocols[0].rx_buffer_size = 0;

    struct lws_context_creation_info info;
    memset(&info, 0, sizeof info);
    info.port = CONTEXT_PORT_NO_LISTEN;
    info.protocols = client->protocols;
    info.user = user;
    info.options = LWS_SERVER_OPTION_DISABLE_IPV6;
    if (tls) {
        info.options |= LWS_SERVER_OPTION_DO_SSL_GLOBAL_INIT;
        info.client_ssl_ca_filepath = ca_filepath;
    }
    client->context = lws_create_context(&info);
    if (!client->context) {
        free(client->protocol_name); free(client);
        return NULL;
    }
    return client;
}

static inline void clws_client_destroy(clws_client *client) {
    lws_context_destroy(client->context);
    free(client->protocol_name); free(client);
}

/// TLS of one connection: none, verified (the chain against the context's CA file and the
/// host name against the certificate), or insecure (any certificate: self-signed, expired,
/// for another name — encrypted, not authenticated).
enum clws_client_tls { CLWS_PLAIN = 0, CLWS_TLS_VERIFIED = 1, CLWS_TLS_INSECURE = 2 };

/// Starts connecting to ws://address:port/path (wss:// with `tls`); `subprotocol` NULL offers none.
static inline struct lws *clws_client_connect(clws_client *client, const char *address, int port, const char *path,
                                              const char *host, const char *origin, const char *subprotocol,
                                              void *opaque, int tls) {
    struct lws_client_connect_info info;
    memset(&info, 0, sizeof info);
    info.context = client->context;
    info.address = address;
    info.port = port;
    info.path = path;
    info.host = host;
    info.origin = origin;
    info.protocol = subprotocol;
    info.local_protocol_name = client->protocol_name;
    info.opaque_user_data = opaque;
    if (tls == CLWS_TLS_VERIFIED) info.ssl_connection = LCCSCF_USE_SSL;
    if (tls == CLWS_TLS_INSECURE) {
        info.ssl_connection = LCCSCF_USE_SSL | LCCSCF_ALLOW_SELFSIGNED | LCCSCF_SKIP_SERVER_CERT_HOSTNAME_CHECK |
                              LCCSCF_ALLOW_EXPIRED | LCCSCF_ALLOW_INSECURE;
    }
    return lws_client_connect_via_info(&info);
}


#endif
