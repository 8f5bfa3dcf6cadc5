/*
 * siphash.c - SipHash-2-4 (Aumasson and Bernstein, 2012), a keyed 64-bit
 * hash of short messages.
 *
 * The journal tags each record with it, keyed by a random key of the
 * journal's header mixed with the plan's identity.  A CRC can be redone
 * for any edited line by anyone; a record edited without recomputing the
 * keyed tag is caught (doc/journal-format.md says what this does and does
 * not protect against).  Written from the paper's description.
 */
#include "core.h"

#define ROTL(x, b) (uint64_t)(((x) << (b)) | ((x) >> (64 - (b))))

static void sip_round(uint64_t v[4])
{
    v[0] += v[1], v[1] = ROTL(v[1], 13), v[1] ^= v[0], v[0] = ROTL(v[0], 32);
    v[2] += v[3], v[3] = ROTL(v[3], 16), v[3] ^= v[2];
    v[0] += v[3], v[3] = ROTL(v[3], 21), v[3] ^= v[0];
    v[2] += v[1], v[1] = ROTL(v[1], 17), v[1] ^= v[2], v[2] = ROTL(v[2], 32);
}

/* Little-endian, whatever the machine: the tags are part of a file
 * format and must be the same everywhere. */
static uint64_t load_le(const unsigned char *p, size_t len)
{
    uint64_t m = 0;
    for (size_t i = 0; i < len; i++)
        m |= (uint64_t)p[i] << (8 * i);
    return m;
}

static void absorb(uint64_t v[4], uint64_t m)
{
    v[3] ^= m;
    sip_round(v);
    sip_round(v);
    v[0] ^= m;
}

uint64_t nq_siphash(uint64_t k0, uint64_t k1, const void *data, size_t len)
{
    const unsigned char *p = data;
    uint64_t v[4] = {k0 ^ 0x736f6d6570736575ull, k1 ^ 0x646f72616e646f6dull,
                     k0 ^ 0x6c7967656e657261ull, k1 ^ 0x7465646279746573ull};
    size_t whole = len - len % 8;
    for (size_t i = 0; i < whole; i += 8)
        absorb(v, load_le(p + i, 8));
    absorb(v, load_le(p + whole, len % 8) | (uint64_t)(len & 0xff) << 56);
    v[2] ^= 0xff;
    for (int i = 0; i < 4; i++)
        sip_round(v);
    return v[0] ^ v[1] ^ v[2] ^ v[3];
}
