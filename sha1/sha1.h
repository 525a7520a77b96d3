/* sha1.h: our SHA-1. Two block functions (SHA-NI, portable C) behind one
 * API; the choice is made at the first block, not at start-up. */
#ifndef SHA1_SHA1_H
#define SHA1_SHA1_H

#include <stddef.h>
#include <stdint.h>

struct sha1_ctx {
	uint32_t h[5];
	uint64_t total;          /* bytes hashed so far */
	unsigned char buf[64];   /* partial block */
};

void sha1_init(struct sha1_ctx *c);
void sha1_update(struct sha1_ctx *c, const void *data, size_t len);
void sha1_final(unsigned char out[20], struct sha1_ctx *c);
/* One shot. */
void sha1_buf(unsigned char out[20], const void *data, size_t len);

/* Block functions: process nblocks 64-byte blocks into h. */
typedef void (*sha1_block_fn)(uint32_t h[5], const unsigned char *p, size_t nblocks);
void sha1_block_portable(uint32_t h[5], const unsigned char *p, size_t nblocks);
void sha1_block_shani(uint32_t h[5], const unsigned char *p, size_t nblocks);
int sha1_cpu_has_shani(void);
/* Name of the implementation in use ("shani" or "portable"); chooses it if
 * not yet chosen (MINI_GIT_SHA1=portable|shani forces one). */
const char *sha1_impl_name(void);

#endif
