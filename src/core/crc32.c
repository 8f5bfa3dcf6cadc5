/*
 * crc32.c - CRC-32 (IEEE 802.3, the polynomial of zlib and PNG).
 *
 * Journals protect each record with a CRC so that a flipped bit or a
 * half-written line is caught, never summed.
 */
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "core.h"

static uint32_t crc_table[256];
static pthread_once_t crc_once = PTHREAD_ONCE_INIT;

static void crc_init(void)
{
    for (uint32_t i = 0; i < 256; i++) {
        uint32_t c = i;
        for (int k = 0; k < 8; k++)
            c = c & 1 ? 0xedb88320u ^ (c >> 1) : c >> 1;
        crc_table[i] = c;
    }
}

uint32_t nq_crc32(uint32_t crc, const void *data, size_t len)
{
    const unsigned char *p = data;
    pthread_once(&crc_once, crc_init);
    crc = ~crc;
    while (len--)
        crc = crc_table[(crc ^ *p++) & 0xff] ^ (crc >> 8);
    return ~crc;
}
