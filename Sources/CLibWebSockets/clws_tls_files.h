// Checking a server's certificate and key files with OpenSSL, to say why a TLS server could not
// start (shim.h includes this).
#ifndef CLWS_TLS_FILES_H
#define CLWS_TLS_FILES_H

#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>

#include <arpa/inet.h>
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

/// The DNS names and IP addresses in `cert`'s subjectAltName, ", "-separated into `out` (empty
/// when it has none; names past `size` are left out): what a name mismatch is said against.
static inline void clws_certificate_names(X509 *cert, char *out, size_t size) {
    if (size == 0) return;
    out[0] = 0;
    if (!cert) return;
    GENERAL_NAMES *names = X509_get_ext_d2i(cert, NID_subject_alt_name, NULL, NULL);
    if (!names) return;
    size_t used = 0;
    for (int i = 0; i < sk_GENERAL_NAME_num(names); i++) {
        const GENERAL_NAME *name = sk_GENERAL_NAME_value(names, i);
        char text[INET6_ADDRSTRLEN > 80 ? INET6_ADDRSTRLEN : 80] = "";
        if (name->type == GEN_DNS) {
            int length = ASN1_STRING_length(name->d.dNSName);
            snprintf(text, sizeof text, "%.*s", length > 64 ? 64 : length,
                     (const char *)ASN1_STRING_get0_data(name->d.dNSName));
        } else if (name->type == GEN_IPADD) {
            int length = ASN1_STRING_length(name->d.iPAddress);
            const unsigned char *address = ASN1_STRING_get0_data(name->d.iPAddress);
            if (length == 4) inet_ntop(AF_INET, address, text, sizeof text);
            else if (length == 16) inet_ntop(AF_INET6, address, text, sizeof text);
        }
        if (!text[0]) continue;
        int written = snprintf(out + used, size - used, "%s%s", used ? ", " : "", text);
        if (written < 0 || (size_t)written >= size - used) {
            out[used] = 0;  // the name that does not fit is left out whole
            break;
        }
        used += (size_t)written;
    }
    GENERAL_NAMES_free(names);
}

#endif
