#ifndef FTW_COPENSSL_SHIM_H
#define FTW_COPENSSL_SHIM_H
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#include <openssl/pem.h>
#include <openssl/ec.h>

/* Swift cannot call OpenSSL's function-like macros; these wrappers give the few the TLS code needs a name. */

static inline int ftw_SSL_CTX_set_min_tls12(SSL_CTX *context) {
    return (int)SSL_CTX_set_min_proto_version(context, TLS1_2_VERSION);
}

/* A server's version range, both ends inclusive (0 leaves an end open): the tests' TLS 1.1 server. */
static inline int ftw_SSL_CTX_set_proto_versions(SSL_CTX *context, int lowest, int highest) {
    return (int)(SSL_CTX_set_min_proto_version(context, lowest) && SSL_CTX_set_max_proto_version(context, highest));
}

/* Whether the leaf a server sent carries a subjectAltName: 1 yes, 0 no, -1 when it sent no certificate. Readable
   after a failed verification too, when the session has no verified peer yet. */
static inline int ftw_SSL_peer_leaf_has_subject_alt_name(const SSL *ssl) {
    STACK_OF(X509) *chain = SSL_get_peer_cert_chain(ssl);
    if (chain == NULL || sk_X509_num(chain) == 0) return -1;
    return X509_get_ext_by_NID(sk_X509_value(chain, 0), NID_subject_alt_name, -1) >= 0;
}

static inline int ftw_SSL_set_server_name(SSL *ssl, const char *name) {
    return (int)SSL_set_tlsext_host_name(ssl, name);
}

static inline int ftw_SSL_CTX_add_chain_certificate(SSL_CTX *context, X509 *certificate) {
    return (int)SSL_CTX_add1_chain_cert(context, certificate);
}

/* A fresh P-256 key; NULL on failure. */
static inline EVP_PKEY *ftw_generate_p256_key(void) {
    EVP_PKEY *key = NULL;
    EVP_PKEY_CTX *context = EVP_PKEY_CTX_new_id(EVP_PKEY_EC, NULL);
    if (context == NULL) return NULL;
    if (EVP_PKEY_keygen_init(context) <= 0
        || EVP_PKEY_CTX_set_ec_paramgen_curve_nid(context, NID_X9_62_prime256v1) <= 0
        || EVP_PKEY_keygen(context, &key) <= 0) {
        key = NULL;
    }
    EVP_PKEY_CTX_free(context);
    return key;
}

/* Adds an X.509v3 extension written in OpenSSL's configuration syntax ("critical,CA:TRUE"); 1 on success. */
static inline int ftw_X509_add_extension(X509 *certificate, X509 *issuer, int nid, const char *value) {
    X509V3_CTX context;
    X509V3_set_ctx_nodb(&context);
    X509V3_set_ctx(&context, issuer, certificate, NULL, NULL, 0);
    X509_EXTENSION *extension = X509V3_EXT_conf_nid(NULL, &context, nid, value);
    if (extension == NULL) return 0;
    int added = X509_add_ext(certificate, extension, -1);
    X509_EXTENSION_free(extension);
    return added;
}
#endif
