// The system's OpenSSL (Debian's libssl3, updated by apt), for wx-aqi-watch's wss:// feeds.
// Macros Swift cannot call, as functions.
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>

/// Server Name Indication: the host name sent in the ClientHello.
static inline long wx_tls_set_server_name(SSL *ssl, const char *name) {
  return SSL_set_tlsext_host_name(ssl, name);
}

/// TLS 1.2 or later only.
static inline int wx_tls_require_tls12(SSL_CTX *ctx) {
  return SSL_CTX_set_min_proto_version(ctx, TLS1_2_VERSION);
}

/// No renegotiation (TLS 1.2): a server may not swap certificates mid-connection.
static inline void wx_tls_refuse_renegotiation(SSL_CTX *ctx) {
  SSL_CTX_set_options(ctx, SSL_OP_NO_RENEGOTIATION);
}

/// An empty memory BIO asks for more (retry) instead of reporting the end of input.
static inline long wx_tls_bio_retry_when_empty(BIO *bio) {
  return BIO_set_mem_eof_return(bio, -1);
}
