/*
 * fuzz_request.c - libFuzzer target: the library's request reader (the
 * sized nq_request every public call takes: its size, N, engine, kernel,
 * devices, threads and flags) through nq_check_request, and through
 * nq_count_solutions where the request is accepted and cheap.
 *
 * Input: a byte choosing the size field (the struct's, a smaller one,
 * a larger one with zeroed tail, or any the buffer holds: the size rule
 * lets the library read as many bytes as the caller says it has), four bytes each of n and
 * threads, a flags byte, then the engine, kernel and devices strings,
 * separated by zero bytes.  The reader must never crash or read out of
 * bounds; what it accepts must hold (N within the engine's range, threads
 * not negative), and an accepted count of N <= 7 must be OEIS A000170's.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "nqueens.h"

/* OEIS A000170, N = 1..7: counts cheap enough for every engine (brute
 * tries N^N boards). */
static const uint64_t totals[] = {1, 0, 0, 2, 10, 4, 40};

static int32_t take32(const uint8_t **d, size_t *left)
{
    uint32_t v = 0;
    for (int i = 0; i < 4 && *left; i++, (*d)++, (*left)--)
        v |= (uint32_t)**d << (8 * i);
    return (int32_t)v;
}

/* The next zero-ended string of the input (NULL when the input ends or
 * the string is empty: the default). */
static const char *take_string(char **s, const char *end)
{
    if (*s >= end)
        return NULL;
    char *str = *s;
    *s += strlen(str) + 1;
    return *str ? str : NULL;
}

/* The request in a buffer twice its size, the tail zero, so that a
 * size field larger than the struct is read as a newer caller's. */
typedef struct {
    nq_request req;
    char tail[sizeof(nq_request)];
} padded;

static size_t choose_size(uint8_t b, size_t rest)
{
    switch (b & 3) {
    case 0: return sizeof(nq_request);
    case 1: return (size_t)(b >> 2) * 4 % sizeof(nq_request); /* smaller */
    case 2: return sizeof(nq_request) + (size_t)(b >> 2); /* a newer one */
    default: return rest * 1000003u % (sizeof(padded) + 1); /* any that
                                      the buffer holds: a size past the
                                      caller's struct is its lie, read */
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    uint8_t pick = *data++;
    size--;
    padded p;
    memset(&p, 0, sizeof p);
    p.req.size = choose_size(pick, size);
    p.req.n = take32(&data, &size);
    p.req.threads = take32(&data, &size);
    uint8_t flags = size ? (size--, *data++) : 0;
    p.req.iterative = flags & 1, p.req.unique_only = flags >> 1 & 1;
    char *text = malloc(size + 1), *s = text;
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    p.req.engine = take_string(&s, text + size);
    p.req.kernel = take_string(&s, text + size);
    p.req.devices = take_string(&s, text + size);
    char why[128];
    p.req.why = flags & 4 ? why : NULL, p.req.why_size = sizeof why;
    nq_status st = nq_check_request(&p.req, 0);
    if (st == NQ_OK) {
        const nq_engine *e = nq_engine_find(p.req.engine ? p.req.engine
                                            : nq_default_count_engine());
        if (!e || p.req.n < 1 || p.req.n > nq_engine_max_n(e) ||
            p.req.threads < 0)
            abort(); /* accepted out of range */
        if (p.req.n <= 7 && p.req.threads <= 4 &&
            !(nq_engine_caps(e) & NQ_CAP_GPU)) {
            nq_counts c;
            if (nq_count_solutions(&p.req, &c) == NQ_OK &&
                c.total != totals[p.req.n - 1])
                abort(); /* a wrong count from an accepted request */
        }
    }
    free(text);
    return 0;
}
