/*
 * merge_gen.c - nq-bench-merge-gen: many small journals of one real
 * count, for timing merge at a record run's scale (bench/merge_scale.sh).
 *
 *   nq-bench-merge-gen N JOURNALS DIR [PARTS]
 *
 * Counts N once with fast (every unit's tally kept), then writes
 * JOURNALS journals into DIR (which must exist), named 000000, 000001,
 * ... (short names: the old merge took its journals as arguments only).
 * Journal i is part i % PARTS + 1 of PARTS (default: the plan's units,
 * one unit a part, as a record run of more parts than units has), with a
 * key of its own, its share's records and a run line giving it the
 * count's time in proportion to its units: as if each part had been
 * counted JOURNALS / PARTS times over by independent runs.  Every line
 * is made by the library's own journal functions (journal_format.c), so
 * the files are journals as count --part writes them, without counting
 * JOURNALS times or an fsync per file.  Exit 1 on a failure, 2 on a
 * usage error.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nqueens.h"
#include "../src/journal/journal.h"

typedef struct {
    nq_tally *t;
} tallies;

static nq_status keep(void *ctx, uint64_t unit, const nq_tally *t)
{
    ((tallies *)ctx)->t[unit] = *t;
    return NQ_OK;
}

static int usage(void)
{
    fprintf(stderr, "usage: nq-bench-merge-gen N JOURNALS DIR [PARTS]\n");
    return 2;
}

/* Journal i of the set: its share's records and one run line. */
static int write_journal(const char *dir, long i, const nq_journal_header *h,
                         const nq_tally *t, double seconds)
{
    char path[4096], line[NQ_JOURNAL_LINE_MAX];
    uint64_t mine = 0;
    snprintf(path, sizeof path, "%s/%06ld", dir, i);
    FILE *f = fopen(path, "w");
    if (!f)
        return 1;
    nq_jf_header_line(line, sizeof line, h);
    fputs(line, f);
    for (uint64_t u = h->part - 1; u < h->units; u += h->parts, mine++) {
        nq_jf_record_line(line, sizeof line, h, u, &t[u]);
        fputs(line, f);
    }
    nq_jf_run_line(line, sizeof line, h, seconds * (double)mine /
                   (double)h->units, 1, mine);
    fputs(line, f);
    return fclose(f) != 0;
}

int main(int argc, char **argv)
{
    if (argc < 4 || argc > 5)
        return usage();
    int n = atoi(argv[1]);
    long journals = atol(argv[2]);
    nq_request req = NQ_REQUEST_INIT;
    nq_plan *p;
    req.n = n;
    if (n < 4 || n > 20 || journals < 1 || nq_plan_create(&req, &p) != NQ_OK)
        return usage();
    nq_journal_header h = {.version = NQ_JOURNAL_VERSION, .n = n,
                           .units = nq_plan_units(p),
                           .identity = nq_plan_identity(p)};
    long parts = argc == 5 ? atol(argv[4]) : (long)h.units;
    if (parts < 1 || (uint64_t)parts > h.units)
        return usage();
    snprintf(h.plan, sizeof h.plan, "%s", nq_plan_split(p));
    snprintf(h.engine, sizeof h.engine, "%s", req.engine ? req.engine : "fast");
    tallies k = {calloc(h.units, sizeof *k.t)};
    nq_run_options o = {.on_unit = keep, .ctx = &k};
    nq_tally sum = {0};
    double t0 = nq_clock_seconds();
    if (!k.t || nq_plan_run(p, &o, &sum) != NQ_OK) {
        fprintf(stderr, "nq-bench-merge-gen: counting N=%d failed\n", n);
        return 1;
    }
    double seconds = nq_clock_seconds() - t0;
    h.parts = (uint32_t)parts;
    for (long i = 0; i < journals; i++) {
        h.part = (uint32_t)(i % parts) + 1;
        nq_journal_new_key(h.key);
        if (write_journal(argv[3], i, &h, k.t, seconds)) {
            fprintf(stderr, "nq-bench-merge-gen: cannot write %s/%06ld\n",
                    argv[3], i);
            return 1;
        }
    }
    free(k.t);
    nq_plan_free(p);
    return 0;
}
