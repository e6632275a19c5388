#ifndef MSGC_CTLS_SHIM_H
#define MSGC_CTLS_SHIM_H

#include <openssl/ssl.h>
#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/bio.h>
#include <openssl/x509.h>

// The settings below are macros in OpenSSL's headers, which Swift cannot call.

// TLS 1.2 and later; no renegotiation, no compression; the server's cipher order; buffers
// released while a connection is idle.
static inline int msgc_tls_configure_server(SSL_CTX *context) {
    if (SSL_CTX_set_min_proto_version(context, TLS1_2_VERSION) != 1) return 0;
    SSL_CTX_set_options(context, SSL_OP_NO_RENEGOTIATION | SSL_OP_NO_COMPRESSION | SSL_OP_CIPHER_SERVER_PREFERENCE);
    SSL_CTX_set_mode(context, SSL_MODE_RELEASE_BUFFERS);
    return 1;
}

// Adds a certificate of the chain after the leaf; the context takes ownership on success.
static inline int msgc_tls_add_chain_certificate(SSL_CTX *context, X509 *certificate) {
    return (int)SSL_CTX_add0_chain_cert(context, certificate);
}

#endif
