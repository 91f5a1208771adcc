// OpenSSL's libcrypto (3.0 or later), found through pkg-config (libcrypto.pc): Debian and Ubuntu
// `apt-get install libssl-dev`, Homebrew `brew install openssl@3` (keg-only: put
// "$(brew --prefix openssl@3)/lib/pkgconfig" on PKG_CONFIG_PATH).
//
// Bearer signs DPoP proofs (RFC 9449) with ES256, and checks the ES256, RS256 and PS256 signatures
// of servers' tokens, through these calls on Linux; Apple platforms use CryptoKit and the Security
// framework instead. The helpers below only string libcrypto's own calls together, with the
// non-deprecated 3.0 interfaces: every key operation and the signature itself are libcrypto's.
#ifndef BEARER_CLIBCRYPTO_SHIM_H
#define BEARER_CLIBCRYPTO_SHIM_H

#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/ec.h>
#include <openssl/evp.h>
#include <openssl/param_build.h>
#include <openssl/err.h>
#include <openssl/rsa.h>

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

/// The key of `type` ("EC", "RSA") made from the parameters in `builder` (NULL when pushing them
/// failed) for `selection`, or NULL when libcrypto refuses them.
static inline EVP_PKEY *bearer_key_from_parameters(const char *type, int selection, OSSL_PARAM_BLD *builder) {
    EVP_PKEY *key = NULL;
    OSSL_PARAM *parameters = builder ? OSSL_PARAM_BLD_to_param(builder) : NULL;
    EVP_PKEY_CTX *context = EVP_PKEY_CTX_new_from_name(NULL, type, NULL);
    if (parameters && context && EVP_PKEY_fromdata_init(context) == 1
        && EVP_PKEY_fromdata(context, &key, selection, parameters) != 1) {
        key = NULL;
    }
    EVP_PKEY_CTX_free(context);
    // A private scalar went into the parameters from a secure big number, so OpenSSL keeps its
    // copy in the secure heap, which OSSL_PARAM_free clears as it frees it.
    OSSL_PARAM_free(parameters);
    return key;
}

/// `key` when `check` (EVP_PKEY_pairwise_check, EVP_PKEY_public_check) accepts it; else frees it
/// and returns NULL.
static inline EVP_PKEY *bearer_checked_key(EVP_PKEY *key, int (*check)(EVP_PKEY_CTX *)) {
    if (!key) return NULL;
    EVP_PKEY_CTX *context = EVP_PKEY_CTX_new_from_pkey(NULL, key, NULL);
    int ok = context && check(context) == 1;
    EVP_PKEY_CTX_free(context);
    if (ok) return key;
    EVP_PKEY_free(key);
    return NULL;
}

/// The P-256 key with the private scalar `scalar` and the public point 04‖x‖y (`point`, 65 bytes),
/// or NULL when libcrypto refuses them (a point off the curve, a scalar out of range).
static inline EVP_PKEY *bearer_p256_import(const unsigned char *scalar, const unsigned char *point) {
    BIGNUM *number = BN_secure_new();
    OSSL_PARAM_BLD *builder = OSSL_PARAM_BLD_new();
    int pushed = number && builder && BN_bin2bn(scalar, 32, number)
        && OSSL_PARAM_BLD_push_utf8_string(builder, OSSL_PKEY_PARAM_GROUP_NAME, "prime256v1", 0)
        && OSSL_PARAM_BLD_push_BN(builder, OSSL_PKEY_PARAM_PRIV_KEY, number)
        && OSSL_PARAM_BLD_push_octet_string(builder, OSSL_PKEY_PARAM_PUB_KEY, point, 65);
    EVP_PKEY *key = bearer_key_from_parameters("EC", EVP_PKEY_KEYPAIR, pushed ? builder : NULL);
    OSSL_PARAM_BLD_free(builder);
    BN_clear_free(number);
    // A point that is not the scalar's own (a record edited by hand) would sign proofs that no
    // server accepts: refuse it here.
    return bearer_checked_key(key, EVP_PKEY_pairwise_check);
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

/// The P-256 public key with the point 04‖x‖y (`point`, 65 bytes), or NULL when libcrypto refuses
/// it (a point off the curve).
static inline EVP_PKEY *bearer_p256_public_key(const unsigned char *point) {
    OSSL_PARAM_BLD *builder = OSSL_PARAM_BLD_new();
    int pushed = builder
        && OSSL_PARAM_BLD_push_utf8_string(builder, OSSL_PKEY_PARAM_GROUP_NAME, "prime256v1", 0)
        && OSSL_PARAM_BLD_push_octet_string(builder, OSSL_PKEY_PARAM_PUB_KEY, point, 65);
    EVP_PKEY *key = bearer_key_from_parameters("EC", EVP_PKEY_PUBLIC_KEY, pushed ? builder : NULL);
    OSSL_PARAM_BLD_free(builder);
    return bearer_checked_key(key, EVP_PKEY_public_check);
}

/// The RSA public key with big-endian `modulus` and `exponent`, or NULL.
static inline EVP_PKEY *bearer_rsa_public_key(const unsigned char *modulus, size_t modulusLength,
                                              const unsigned char *exponent, size_t exponentLength) {
    BIGNUM *n = BN_bin2bn(modulus, (int)modulusLength, NULL);
    BIGNUM *e = BN_bin2bn(exponent, (int)exponentLength, NULL);
    OSSL_PARAM_BLD *builder = OSSL_PARAM_BLD_new();
    int pushed = n && e && builder && OSSL_PARAM_BLD_push_BN(builder, OSSL_PKEY_PARAM_RSA_N, n)
        && OSSL_PARAM_BLD_push_BN(builder, OSSL_PKEY_PARAM_RSA_E, e);
    EVP_PKEY *key = bearer_key_from_parameters("RSA", EVP_PKEY_PUBLIC_KEY, pushed ? builder : NULL);
    OSSL_PARAM_BLD_free(builder);
    BN_free(n);
    BN_free(e);
    return key;
}

/// `rs`, an ES256 signature (r‖s, 64 bytes), in DER into `der` (room for `*length` bytes; set to
/// the length written). Returns 1 on success.
static inline int bearer_p256_der_signature(const unsigned char *rs, unsigned char *der, size_t *length) {
    ECDSA_SIG *signature = ECDSA_SIG_new();
    BIGNUM *r = BN_bin2bn(rs, 32, NULL);
    BIGNUM *s = BN_bin2bn(rs + 32, 32, NULL);
    if (!signature || !r || !s || ECDSA_SIG_set0(signature, r, s) != 1) {
        BN_free(r);
        BN_free(s);
        ECDSA_SIG_free(signature);
        return 0;
    }
    int needed = i2d_ECDSA_SIG(signature, NULL);
    int ok = needed > 0 && (size_t)needed <= *length;
    if (ok) {
        unsigned char *cursor = der;
        *length = (size_t)i2d_ECDSA_SIG(signature, &cursor);
    }
    ECDSA_SIG_free(signature);
    return ok;
}

/// Checks `signature` over `message` with `key` and SHA-256: ECDSA for an EC key; for an RSA key,
/// PKCS #1 v1.5 padding, or PSS with MGF1-SHA-256 and a 32-byte salt when `pss` is 1
/// (RFC 7518 §3.3, §3.5). Returns 1 for a valid signature, 0 for an invalid one, -1 when libcrypto
/// could not check it.
static inline int bearer_verify(EVP_PKEY *key, int pss, const unsigned char *message, size_t messageLength,
                                const unsigned char *signature, size_t signatureLength) {
    EVP_MD_CTX *context = EVP_MD_CTX_new();
    EVP_PKEY_CTX *keyContext = NULL;
    int result = -1;
    if (context && EVP_DigestVerifyInit_ex(context, &keyContext, "SHA256", NULL, NULL, key, NULL) == 1
        && (!pss
            || (EVP_PKEY_CTX_set_rsa_padding(keyContext, RSA_PKCS1_PSS_PADDING) == 1
                && EVP_PKEY_CTX_set_rsa_pss_saltlen(keyContext, RSA_PSS_SALTLEN_DIGEST) == 1
                && EVP_PKEY_CTX_set_rsa_mgf1_md_name(keyContext, "SHA256", NULL) == 1))) {
        result = EVP_DigestVerify(context, signature, signatureLength, message, messageLength) == 1 ? 1 : 0;
    }
    EVP_MD_CTX_free(context);
    // A refused signature leaves its reasons on this thread's error queue, which nothing reads.
    if (result != 1) ERR_clear_error();
    return result;
}

#endif
