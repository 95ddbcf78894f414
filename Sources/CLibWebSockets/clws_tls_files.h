// Checking a server's certificate and key files with OpenSSL, to say why a TLS server could not
// start (shim.h includes this).
#ifndef CLWS_TLS_FILES_H
#define CLWS_TLS_FILES_H

#include <openssl/err.h>
#include <openssl/ssl.h>

#include <stdio.h>

/// Loads `cert` (a PEM chain) and `key` (a PEM private key) as libwebsockets does, each alone
/// first (so a file that cannot be loaded is told from a pair that does not match), then the
/// key beside the certificate. Returns 0 when they are a pair; else 1 (the certificate), 2
/// (the key) or 3 (they do not match), with OpenSSL's reason in `reason`.
static inline int clws_tls_check_files(const char *cert, const char *key, char *reason, size_t reason_size) {
    reason[0] = 0;
    ERR_clear_error();
    SSL_CTX *pair = SSL_CTX_new(TLS_server_method());
    SSL_CTX *alone = SSL_CTX_new(TLS_server_method());
    int result = 0;
    if (!pair || !alone) result = 1;
    else if (SSL_CTX_use_certificate_chain_file(pair, cert) != 1) result = 1;
    else if (SSL_CTX_use_PrivateKey_file(alone, key, SSL_FILETYPE_PEM) != 1) result = 2;
    else if (SSL_CTX_use_PrivateKey_file(pair, key, SSL_FILETYPE_PEM) != 1) result = 3;
    else if (SSL_CTX_check_private_key(pair) != 1) result = 3;
    unsigned long error = ERR_peek_last_error();
    if (result && error) ERR_error_string_n(error, reason, reason_size);
    ERR_clear_error();
    if (pair) SSL_CTX_free(pair);
    if (alone) SSL_CTX_free(alone);
    return result;
}

#endif
