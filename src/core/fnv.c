/*
 * fnv.c - the 64-bit FNV-1a hash.
 *
 * Plans are fingerprinted with a 64-bit FNV-1a hash of their units'
 * descriptions (doc/journal-format.md).
 */
#include <stddef.h>
#include <stdint.h>

#include "core.h"

uint64_t nq_fnv1a(uint64_t hash, const void *data, size_t len)
{
    const unsigned char *p = data;
    while (len--)
        hash = (hash ^ *p++) * 0x100000001b3ull;
    return hash;
}
