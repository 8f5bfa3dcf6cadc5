/*
 * fuzz_journal.c - libFuzzer target: the journal reader (nq_jf_read) on
 * any bytes, as count --checkpoint, merge and verify meet a file.
 *
 * The reader must never crash, hang or read out of bounds, and what it
 * accepts must hold together: the bytes it calls good are a prefix of
 * the input, and every record it passes on names a unit of the header's
 * plan and share.  A record's tag is SipHash under the header's key,
 * which random mutation will not forge: the committed corpus holds real
 * journals so that mutations start from lines that check out.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../src/journal/journal.h"

typedef struct {
    nq_journal_header header;
    int have_header;
    uint64_t records;
} seen;

static nq_status take_header(void *ctx, const char *path,
                             const nq_journal_header *h, char *why,
                             size_t wsize)
{
    (void)path, (void)why, (void)wsize;
    seen *s = ctx;
    s->header = *h, s->have_header = 1;
    return NQ_OK;
}

static nq_status take_record(void *ctx, const char *path, long line,
                             uint64_t unit, const nq_tally *t, char *why,
                             size_t wsize)
{
    (void)path, (void)line, (void)t, (void)why, (void)wsize;
    seen *s = ctx;
    if (!s->have_header || unit >= s->header.units ||
        unit % s->header.parts != s->header.part - 1)
        abort(); /* a record before its header, outside its plan or share */
    s->records++;
    return NQ_OK;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    FILE *f = fmemopen((void *)data, size, "r");
    if (!f || !size) {
        if (f)
            fclose(f);
        return 0;
    }
    seen s = {0};
    nq_jf_reader rd = {take_header, take_record, &s, NULL};
    nq_jf_result res;
    char why[512];
    nq_status st = nq_jf_read(f, "fuzz", &rd, &res, why, sizeof why);
    fclose(f);
    if (st == NQ_OK && (res.good < 0 || (size_t)res.good > size ||
                        (res.good && data[res.good - 1] != '\n')))
        abort(); /* "good" must end a whole line of the input */
    return 0;
}
