/*
 * fuzz_verify.c - libFuzzer target: nq_journal_verify's options (the
 * sample's percentage, at_least, largest, the weighted draws, the seed,
 * threads, fixed points, the part of a check in parts, estimate only) on
 * any bytes,
 * against one genuine journal of N = 8 written at start.
 *
 * Whatever the options, verify must never crash, overflow or leak
 * (largest = UINT64_MAX once wrapped a heap's size to 0), and what it
 * says must hold together: an OK recounts no more than is recorded,
 * its part's share at most, and finds every record of a genuine
 * journal right; options it cannot honour are NQ_ERR_ARG, in words.
 *
 * The input, little-endian, short inputs zero-padded: percent (8 bytes,
 * an IEEE double: NaN, infinities and 1e300 included), at_least (8),
 * largest (8), seed (8), threads (4, signed), part (4), parts (4), then
 * a byte of flags: 1 fixed points, 2 estimate only; then weighted (8).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "nqueens.h"

static char journal[64];

static void remove_journal(void)
{
    remove(journal);
}

/* The journal every input verifies: N = 8, whole, written once (and
 * removed at exit). */
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    snprintf(journal, sizeof journal, "/tmp/nq-fuzz-verify-%d.journal",
             (int)getpid());
    nq_request req = NQ_REQUEST_INIT;
    nq_resume_options o = NQ_RESUME_OPTIONS_INIT;
    nq_run_report r = NQ_RUN_REPORT_INIT;
    req.n = 8, req.threads = 1, o.journal = journal;
    remove(journal);
    if (nq_count_resumable(&req, &o, &r) != NQ_OK || !r.complete)
        abort(); /* no journal to fuzz against */
    atexit(remove_journal);
    return 0;
}

static uint64_t take(const uint8_t **p, size_t *left, int bytes)
{
    uint64_t v = 0;
    for (int i = 0; i < bytes; i++) {
        uint64_t b = *left ? (*left)--, *(*p)++ : 0;
        v |= b << (8 * i);
    }
    return v;
}

static nq_verify_options options_of(const uint8_t *data, size_t size)
{
    nq_verify_options o = {0};
    uint64_t bits = take(&data, &size, 8);
    memcpy(&o.percent, &bits, sizeof o.percent);
    o.at_least = take(&data, &size, 8);
    o.largest = take(&data, &size, 8);
    o.seed = take(&data, &size, 8);
    o.threads = (int)(int32_t)take(&data, &size, 4);
    o.part = (uint32_t)take(&data, &size, 4);
    o.parts = (uint32_t)take(&data, &size, 4);
    unsigned flags = (unsigned)take(&data, &size, 1);
    o.fixed_points = flags & 1, o.estimate_only = (flags & 2) != 0;
    o.weighted = take(&data, &size, 8);
    /* a few threads at most: the count of threads is the runner's to
     * bound (by the units), the machine's to give */
    if (o.threads > 4)
        o.threads %= 4;
    return o;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    nq_verify_options o = options_of(data, size);
    const char *paths[1] = {journal};
    nq_journal_header h;
    nq_verify_report r;
    char why[512] = "";
    nq_status st = nq_journal_verify(paths, 1, &o, &h, &r, NULL, NULL, NULL,
                                     why, sizeof why);
    if (st == NQ_ERR_ARG && !why[0])
        abort(); /* refused without a word */
    if (st != NQ_OK && st != NQ_ERR_ARG)
        abort(); /* a genuine journal, readable: nothing else may fail */
    if (st == NQ_OK && (r.checked > r.recorded || r.disagree ||
                        r.chosen > r.recorded || r.share > r.chosen ||
                        (!o.estimate_only && r.checked != r.share) ||
                        r.by_weight > r.chosen ||
                        (o.percent == 0 && !o.at_least && !o.largest &&
                         !o.fixed_points && !o.weighted)))
        abort(); /* more than recorded, a genuine record wrong, or OK for
                    a check of nothing */
    return 0;
}
