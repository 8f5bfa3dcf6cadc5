/*
 * pieces.c - cutting a search into pieces of bounded size (pieces.h).
 *
 * The cut walks the job's first rows: a node estimated over the bound has
 * each queen of its next row estimated in column order; a child over the
 * bound is cut in turn (a row deeper), the others are packed, in order,
 * into groups whose estimates add up to the bound at most, one piece a
 * group.  Packing keeps a journal's records near the bound in size rather
 * than one per child (most children of a big node are small).
 */
#include "../core/bits.h"
#include "pieces.h"
#include "stop.h"

/* Rows a node must keep to be cut: a piece never places the last rows,
 * whose weights and closed form the counters own. */
#define CUT_MIN_ROWS 5

void nq_piece_job(const nq_piece *pc, nq_frontier *job,
                  nq_frontier_state *start)
{
    for (int k = 0; k < pc->depth; k++) {
        nq_frontier kid;
        nq_frontier_state ks;
        uint32_t b = 1u << (pc->path >> (5 * k) & 31);
        nq_frontier_place_first(job, *start, b, &kid, &ks);
        *job = kid, *start = ks;
    }
    if (pc->mask)
        job->open[0] &= pc->mask;
}

double nq_pieces_ceiling(const nq_frontier *job, nq_frontier_state start)
{
    double width = 1, nodes = 0;
    for (int i = 0; i < job->rows; i++)
        nodes += width *= nq_popcount(job->open[i] & ~start.down);
    return nodes;
}

typedef struct {
    double bound;
    uint32_t probes;
    const volatile sig_atomic_t *stop;
    nq_piece_fn fn;
    void *ctx;
} cutter;

/* A group of siblings, flushed as one piece. */
typedef struct {
    nq_piece pc;
    double nodes;
} group;

static int flush(const cutter *c, group *g)
{
    int rc = g->pc.mask ? c->fn(c->ctx, &g->pc, g->nodes) : 0;
    g->pc.mask = 0, g->nodes = 0;
    return rc;
}

/* Node (job, s) at `depth` rows placed along path, over the bound: its
 * children cut or packed, in column order. */
static int cut_node(const cutter *c, const nq_frontier *job,
                    nq_frontier_state s, int depth, uint32_t path)
{
    uint32_t avail = job->open[0] & ~(s.down | s.left | s.right);
    group g = {{path, 0, (uint8_t)depth}, 0};
    int rc = 0;
    for (; avail && !rc; avail &= avail - 1) {
        uint32_t b = nq_lowest_bit32(avail);
        nq_frontier kid;
        nq_frontier_state ks;
        if (nq_stop_requested(c->stop))
            return -1;
        nq_frontier_place_first(job, s, b, &kid, &ks);
        double e = nq_frontier_estimate(&kid, 0, ks, c->probes);
        if (e > c->bound && depth + 1 < NQ_PIECE_DEPTH &&
            kid.rows >= CUT_MIN_ROWS) {
            uint32_t deeper = path | (uint32_t)nq_ctz(b) << (5 * depth);
            rc = flush(c, &g);
            rc = rc ? rc : cut_node(c, &kid, ks, depth + 1, deeper);
            continue;
        }
        if (g.pc.mask && g.nodes + e > c->bound)
            rc = flush(c, &g);
        g.pc.mask |= b, g.nodes += e;
    }
    return rc ? rc : flush(c, &g);
}

int nq_pieces_cut(const nq_frontier *job, nq_frontier_state start,
                  double estimate, double bound, uint32_t probes,
                  const volatile sig_atomic_t *stop, nq_piece_fn fn,
                  void *ctx)
{
    cutter c = {bound, probes, stop, fn, ctx};
    nq_piece whole = {0, 0, 0};
    if (estimate <= bound || job->rows < CUT_MIN_ROWS)
        return fn(ctx, &whole, estimate);
    return cut_node(&c, job, start, 0, 0);
}
