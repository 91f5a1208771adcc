// OpenSSL's libcrypto (3.0 or later), found through pkg-config (libcrypto.pc): Debian and Ubuntu
// `apt-get install libssl-dev`, Homebrew `brew install openssl@3` (keg-only: put
// "$(brew --prefix openssl@3)/lib/pkgconfig" on PKG_CONFIG_PATH).
//
// Bearer signs DPoP proofs (RFC 9449) with ES256 through these calls on Linux; Apple platforms use
// CryptoKit instead. The helpers below only string libcrypto's own calls together, with the
// non-deprecated 3.0 interfaces: every key operation and the signature itself are libcrypto's.
#ifndef BEARER_CLIBCRYPTO_SHIM_H
#define BEARER_CLIBCRYPTO_SHIM_H

#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/ec.h>
#include <openssl/evp.h>
#include <openssl/param_build.h>

/// A new P-256 key pair, or NULL.
static inline EVP_PKEY *bearer_p256_generate(void) {
    return EVP_PKEY_Q_keygen(NULL, NULL, "EC", "P-256");
}

/// Copies `name` (a big-number parameter of `key`) into `out` as `length` big-endian bytes.
static inline int bearer_p256_export_number(const EVP_PKEY *key, const char *name, unsigned char *out, int length) {
    BIGNUM *number = NULL;
    if (EVP_PKEY_get_bn_param(key, name, &number) != 1) return 0;
    int written = BN_bn2binpad(number, out, length);
    BN_clear_free(number);
    return written == length;
}

/// The private scalar (32 bytes) and the public point's coordinates (32 bytes each) of `key`.
static inline int bearer_p256_export(const EVP_PKEY *key, unsigned char *scalar, unsigned char *x, unsigned char *y) {
    return bearer_p256_export_number(key, OSSL_PKEY_PARAM_PRIV_KEY, scalar, 32)
        && bearer_p256_export_number(key, OSSL_PKEY_PARAM_EC_PUB_X, x, 32)
        && bearer_p256_export_number(key, OSSL_PKEY_PARAM_EC_PUB_Y, y, 32);
}

/// The P-256 key with the private scalar `scalar` and the public point 04‖x‖y (`point`, 65 bytes),
/// or NULL when libcrypto refuses them (a point off the curve, a scalar out of range).
static inline EVP_PKEY *bearer_p256_import(const unsigned char *scalar, const unsigned char *point) {
    EVP_PKEY *key = NULL;
    BIGNUM *number = BN_secure_new();
    OSSL_PARAM_BLD *builder = OSSL_PARAM_BLD_new();
    OSSL_PARAM *parameters = NULL;
    EVP_PKEY_CTX *context = EVP_PKEY_CTX_new_from_name(NULL, "EC", NULL);
    if (number && builder && context && BN_bin2bn(scalar, 32, number)
        && OSSL_PARAM_BLD_push_utf8_string(builder, OSSL_PKEY_PARAM_GROUP_NAME, "prime256v1", 0)
        && OSSL_PARAM_BLD_push_BN(builder, OSSL_PKEY_PARAM_PRIV_KEY, number)
        && OSSL_PARAM_BLD_push_octet_string(builder, OSSL_PKEY_PARAM_PUB_KEY, point, 65)
        && (parameters = OSSL_PARAM_BLD_to_param(builder)) != NULL
        && EVP_PKEY_fromdata_init(context) == 1) {
        if (EVP_PKEY_fromdata(context, &key, EVP_PKEY_KEYPAIR, parameters) != 1) key = NULL;
    }
    if (key) {
        // A point that is not the scalar's own (a record edited by hand) would sign proofs that
        // no server accepts: refuse it here.
        EVP_PKEY_CTX *check = EVP_PKEY_CTX_new_from_pkey(NULL, key, NULL);
        if (!check || EVP_PKEY_pairwise_check(check) != 1) {
            EVP_PKEY_free(key);
            key = NULL;
        }
        EVP_PKEY_CTX_free(check);
    }
    EVP_PKEY_CTX_free(context);
    // The scalar went into the parameters from a secure big number, so OpenSSL keeps its copy in
    // the secure heap, which OSSL_PARAM_free clears as it frees it.
    OSSL_PARAM_free(parameters);
    OSSL_PARAM_BLD_free(builder);
    BN_clear_free(number);
    return key;
}

/// The DER-encoded ECDSA signature over SHA-256 of `message` (libcrypto's own form), into
/// `signature` (room for `*length` bytes; set to the length written). Returns 1 on success.
static inline int bearer_p256_sign_der(EVP_PKEY *key, const unsigned char *message, size_t messageLength,
                                       unsigned char *signature, size_t *length) {
    EVP_MD_CTX *context = EVP_MD_CTX_new();
    int ok = context && EVP_DigestSignInit_ex(context, NULL, "SHA256", NULL, NULL, key, NULL) == 1
        && EVP_DigestSign(context, signature, length, message, messageLength) == 1;
    EVP_MD_CTX_free(context);
    return ok;
}

/// A context that signs with `key` (ECDSA over SHA-256), set up once: looking up the algorithms
/// costs more than the signature, so each signature starts from a copy of it. NULL on failure.
static inline EVP_MD_CTX *bearer_p256_signing_context(EVP_PKEY *key) {
    EVP_MD_CTX *context = EVP_MD_CTX_new();
    if (context && EVP_DigestSignInit_ex(context, NULL, "SHA256", NULL, NULL, key, NULL) != 1) {
        EVP_MD_CTX_free(context);
        context = NULL;
    }
    return context;
}

/// A copy of `template` (from bearer_p256_signing_context) for one signature, or NULL.
static inline EVP_MD_CTX *bearer_p256_signing_copy(const EVP_MD_CTX *template) {
    EVP_MD_CTX *context = EVP_MD_CTX_new();
    if (context && EVP_MD_CTX_copy_ex(context, template) != 1) {
        EVP_MD_CTX_free(context);
        context = NULL;
    }
    return context;
}

/// `der`, an ECDSA signature in DER, as r‖s (32 bytes each) into `out` (64 bytes). Returns 1 on success.
static inline int bearer_p256_raw_signature(const unsigned char *der, size_t derLength, unsigned char *out) {
    const unsigned char *cursor = der;
    ECDSA_SIG *signature = d2i_ECDSA_SIG(NULL, &cursor, (long)derLength);
    if (!signature) return 0;
    const BIGNUM *r = NULL, *s = NULL;
    ECDSA_SIG_get0(signature, &r, &s);
    int ok = BN_bn2binpad(r, out, 32) == 32 && BN_bn2binpad(s, out + 32, 32) == 32;
    ECDSA_SIG_free(signature);
    return ok;
}

/// The ES256 signature of `message` (RFC 7518 §3.4: r‖s, 32 bytes each) into `out` (64 bytes),
/// made with `copy` (from bearer_p256_signing_copy), which this frees. Returns 1 on success.
static inline int bearer_p256_sign(EVP_MD_CTX *copy, const unsigned char *message, size_t messageLength,
                                   unsigned char *out) {
    unsigned char der[80];
    size_t derLength = sizeof der;
    int ok = EVP_DigestSignUpdate(copy, message, messageLength) == 1
        && EVP_DigestSignFinal(copy, der, &derLength) == 1
        && bearer_p256_raw_signature(der, derLength, out);
    EVP_MD_CTX_free(copy);
    return ok;
}

#endif
