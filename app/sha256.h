/* app/sha256.h: SHA-256 (FIPS 180-4), for the trace's checksum in the
 * results (metrics.json's trace_sha256, config.ini's `; trace:` line).
 *
 * Streamed: sha256_init, sha256_update over the bytes in any pieces,
 * sha256_final; the digest is that of the concatenation of the pieces,
 * the same as `sha256sum` prints for a file of those bytes.
 */
#ifndef PNRSIM_APP_SHA256_H
#define PNRSIM_APP_SHA256_H

#include <stddef.h>
#include <stdint.h>

typedef struct sha256_ctx {
    uint32_t h[8];       /* the hash value so far */
    uint64_t bytes;      /* message length so far */
    unsigned char buf[64]; /* the block being filled */
    size_t nbuf;         /* bytes in buf */
} sha256_ctx;

/* Start a new message. */
void sha256_init(sha256_ctx *s);
/* Append n bytes at p to the message. */
void sha256_update(sha256_ctx *s, const void *p, size_t n);
/* Pad, and write the 32-byte digest to out; s must be initialised again
 * before it is reused. */
void sha256_final(sha256_ctx *s, unsigned char out[32]);
/* The digest as 64 lowercase hex digits and a NUL, into hex. */
void sha256_hex(const unsigned char digest[32], char hex[65]);

#endif
