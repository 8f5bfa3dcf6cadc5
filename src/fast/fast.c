/*
 * fast.c - the default counter: edge-queen symmetry reduction, a
 * vectorised frontier search, and Burnside's lemma for the unique count.
 *
 * Total.  Every solution has one queen on each edge line of the board:
 * row 0 (column a), row n-1 (column b), column 0 (row c), column n-1
 * (row d).  These four queens, the ring, are read as a key (a, c, d, b);
 * the 8 symmetries of the board permute rings, and a ring is canonical if
 * no image has a smaller key.  The total is the sum over solutions with a
 * canonical ring of the ring's orbit size 8/|stabiliser|: each orbit of
 * rings is counted through its one canonical member, with all its
 * completions (the images of a completion complete the image ring).  No
 * solution is ever compared with its images, so the count needs no
 * per-solution work: the search only visits canonical rings.
 *
 * Because a comes first in the key, a canonical ring has a = m, the least
 * distance of any edge queen from a corner (an image puts any edge queen
 * in row 0 at its distance from either end of its line).  So m <= (n-1)/2,
 * c and d lie in m..n-1-m, and so does b.  A unit fixes m, c and d (and,
 * for n >= 12, the queen of the first free row); b is left to the search,
 * whose last row is restricted to the columns b that make the ring
 * canonical, each counting with its orbit size.
 *
 * The corner rule.  A solution with a corner queen has m = 0 and no
 * symmetry (only the transpose keeps the corner (0,0), and no reflection
 * fixes a solution); it and its transpose both have the corner, so one of
 * the two is chosen: the one whose column-1 queen stands below its row-1
 * queen (they cannot be level: (1, x) and (x, 1) attack each other).  A
 * corner unit fixes row 1's queen at column x, so column 1 is closed in
 * rows 2..x from the start, which prunes far more than any condition on
 * the last row could; that rule also rules out d = 1 (row 1's queen would
 * be in column n-1, past every row of column 1).
 *
 * Unique.  By Burnside's lemma the classes number (T + P + 2R) / 8 for
 * n > 1, with P and R the solutions fixed by the half and quarter turns
 * (no reflection fixes a solution).  Two extra units count P and R with
 * small symmetric searches (fixed_points.c).  Boards under 4 x 4 have no ring of
 * distinct edge queens; they are one unit solved by the symmetry engine.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <stdarg.h>

#include "../core/bits.h"
#include "../core/core.h"
#include "../core/random.h"
#include "../core/board.h"
#include "../engines/engine.h"
#include "fast.h"
#include "../engines/frame.h"
#include "../search/frontier.h"
#include "../search/pieces.h"
#include "../search/stop.h"

enum { UNIT_RING, UNIT_HALF_TURN, UNIT_QUARTER_TURN, UNIT_WHOLE };

typedef struct {
    uint8_t kind;
    uint8_t m, c, d;       /* ring: row 0's column, rows of columns 0, n-1 */
    int8_t first;          /* column of the first free row's queen, or -1 */
    uint32_t weight[3];    /* last row: columns b giving orbit 8, 4, 2 */
    nq_piece piece;        /* the piece of the ring's search (pieces.h) */
    float seconds;         /* its estimate on the reference core, or -1:
                              not made yet (nq_fast_unit_seconds) */
} fast_unit;

static const uint32_t orbit_sizes[3] = {8, 4, 2};

#define RING_MIN_N NQ_FAST_RING_MIN_N
#define SPLIT_N NQ_FAST_SPLIT_N

/* ---- the plan ---- */

static int push(nq_plan *p, fast_unit u)
{
    return nq_plan_push(p, &u, sizeof u);
}

static void ring_job(int n, const fast_unit *u, nq_frontier *job,
                     nq_frontier_state *start);

/* A ring unit on its way into a plan, cut into pieces (nq_pieces_cut). */
typedef struct {
    nq_plan *into;
    fast_unit u;
} cutting;

static int push_piece(void *ctx, const nq_piece *pc, double nodes)
{
    cutting *c = ctx;
    c->u.piece = *pc;
    c->u.seconds = (float)(nodes * NQ_REF_SECONDS_PER_NODE);
    c->into->cut |= pc->depth || pc->mask;
    return push(c->into, c->u);
}

/* A ring unit's estimate, made and kept, unless its search cannot reach
 * floor_us however it branches (every unit of a small board): then it
 * is not estimated, and 0. */
double nq_fast_weigh(nq_plan *p, uint64_t i, uint64_t floor_us)
{
    fast_unit *u = (fast_unit *)p->data + i;
    nq_frontier job;
    nq_frontier_state start;
    if (u->kind != UNIT_RING)
        return 0;
    ring_job(p->n, u, &job, &start);
    if (nq_pieces_ceiling(&job, start) * NQ_REF_SECONDS_PER_NODE <=
        floor_us / 1e6)
        return 0;
    double nodes = nq_frontier_estimate(&job, 0, start, NQ_PLAN_PROBES);
    u->seconds = (float)(nodes * NQ_REF_SECONDS_PER_NODE);
    return u->seconds;
}

/* Unit i into `into`: whole if weighed at max_us or less (or not
 * weighed), else as its pieces. */
nq_status nq_fast_cut(const nq_plan *p, uint64_t i, uint64_t max_us,
                      nq_plan *into)
{
    const fast_unit *u = (const fast_unit *)p->data + i;
    nq_frontier job;
    nq_frontier_state start;
    double bound = max_us / 1e6 / NQ_REF_SECONDS_PER_NODE;
    cutting c = {into, *u};
    if (u->kind != UNIT_RING || u->seconds < 0 ||
        u->seconds <= max_us / 1e6)
        return push(into, *u) ? NQ_ERR_NOMEM : NQ_OK;
    ring_job(p->n, u, &job, &start);
    int rc = nq_pieces_cut(&job, start, u->seconds / NQ_REF_SECONDS_PER_NODE,
                           bound, NQ_PLAN_PROBES, p->stop, push_piece, &c);
    return rc < 0 ? NQ_ERR_STOPPED : rc ? NQ_ERR_NOMEM : NQ_OK;
}

/* The ring's queens; corner queens (m = 0) are listed once. */
static void ring_frame(int n, int a, int b, int c, int d, nq_frame *f)
{
    int k = 0;
    f->n = n, f->width = 1;
    f->r[k] = 0, f->c[k++] = a;
    f->r[k] = n - 1, f->c[k++] = b;
    if (!(c == 0 && a == 0) && !(c == n - 1 && b == 0))
        f->r[k] = c, f->c[k++] = 0;
    if (!(d == 0 && a == n - 1) && !(d == n - 1 && b == n - 1))
        f->r[k] = d, f->c[k++] = n - 1;
    f->count = k;
}

/* For each bottom column b, the orbit size of the ring if it is canonical
 * (and its queens are at peace), sorted into the three weight masks.
 * Corner rings are all kept with weight 8: a solution with a corner queen
 * has no symmetry, and the one image it shares the corner with, its
 * transpose, is told apart by the corner rule instead (see corner_rule). */
static int ring_weights(int n, int m, int c, int d, uint32_t w[3])
{
    int any = 0;
    w[0] = w[1] = w[2] = 0;
    for (int b = 0; b < n; b++) {
        nq_frame f;
        ring_frame(n, m, b, c, d, &f);
        if (f.count != 4 - (m == 0) || !nq_frame_consistent(&f))
            continue;
        if (m == 0) {
            w[0] |= 1u << b;
            any = 1;
            continue;
        }
        unsigned stab = nq_frame_stabiliser(&f);
        if (!stab)
            continue;
        int size = 8 / nq_popcount(stab);
        w[size == 8 ? 0 : size == 4 ? 1 : 2] |= 1u << b;
        any = 1;
    }
    return any;
}

/* Rows the search fills, in order: all but row 0 and the side queens'. */
static int free_rows(int n, const fast_unit *u, int *rows)
{
    int k = 0;
    for (int r = 1; r < n; r++)
        if (r != u->c && r != u->d)
            rows[k++] = r;
    return k;
}

/* Split a ring unit by the queen of its first free row.  Corner units are
 * always split: the corner rule needs row 1's queen (the first free row,
 * as the rule excludes d = 1). */
static nq_status push_split(nq_plan *l, int n, fast_unit u)
{
    int rows[NQ_MAX_N], r = (free_rows(n, &u, rows), rows[0]);
    nq_status st = NQ_OK;
    if (n < SPLIT_N && u.m != 0)
        return push(l, u) ? NQ_ERR_NOMEM : NQ_OK;
    for (int col = 1; col < n - 1 && st == NQ_OK; col++) {
        if (col == u.m || nq_lines_shared(r, col, 0, u.m) ||
            nq_lines_shared(r, col, u.c, 0) ||
            nq_lines_shared(r, col, u.d, n - 1))
            continue;
        u.first = (int8_t)col;
        st = push(l, u) ? NQ_ERR_NOMEM : NQ_OK;
    }
    return st;
}

static nq_status ring_units(int n, nq_plan *l)
{
    for (int m = 0; 2 * m <= n - 1; m++) {
        int lo = m ? m : 0, hi = m ? n - 1 - m : 0;
        for (int c = lo; c <= hi; c++)
            for (int d = m ? m : 2; d <= (m ? n - 1 - m : n - 2); d++) {
                fast_unit u = {UNIT_RING, (uint8_t)m, (uint8_t)c, (uint8_t)d,
                               -1, {0, 0, 0}, {0, 0, 0}, -1};
                if (c == d || !ring_weights(n, m, c, d, u.weight))
                    continue;
                nq_status st = push_split(l, n, u);
                if (st != NQ_OK)
                    return st;
            }
    }
    return NQ_OK;
}

nq_status nq_fast_plan(nq_plan *p)
{
    int n = p->n, rc;
    if (n < RING_MIN_N) {
        rc = push(p, (fast_unit){.kind = UNIT_WHOLE, .first = -1,
                                 .seconds = -1});
        return rc ? NQ_ERR_NOMEM : NQ_OK;
    }
    /* the symmetric searches are single units larger than most ring
     * units: first, so that no thread is left finishing them alone */
    rc = push(p, (fast_unit){.kind = UNIT_HALF_TURN, .first = -1,
                             .seconds = -1});
    rc = rc || push(p, (fast_unit){.kind = UNIT_QUARTER_TURN, .first = -1,
                                   .seconds = -1});
    return rc ? NQ_ERR_NOMEM : ring_units(n, p);
}

/* ---- running a unit ---- */

/* The frontier job of a ring unit: every pre-placed queen (ring and first
 * free row) rules out squares of the free rows; the search fills the rest,
 * the last row restricted to the canonical bottom columns. */
static void ring_job(int n, const fast_unit *u, nq_frontier *job,
                     nq_frontier_state *start)
{
    int rows[NQ_MAX_N], k = free_rows(n, u, rows), q = 0, skip = u->first >= 0;
    int pr[4], pc[4];
    pr[q] = 0, pc[q++] = u->m;
    if (u->c != 0) /* else the corner queen (0, 0) is also column 0's */
        pr[q] = u->c, pc[q++] = 0;
    pr[q] = u->d, pc[q++] = n - 1;
    if (skip)
        pr[q] = rows[0], pc[q++] = u->first;
    memset(job, 0, sizeof *job);
    job->full = (uint32_t)nq_low_bits(n);
    job->rows = k - skip;
    *start = (nq_frontier_state){0, 0, 0};
    for (int i = 0; i < q; i++)
        start->down |= 1u << pc[i];
    for (int i = 0; i < job->rows; i++) {
        int r = rows[i + skip];
        uint32_t open = job->full & ~start->down;
        for (int j = 0; j < q; j++) {
            int dr = r > pr[j] ? r - pr[j] : pr[j] - r;
            if (pc[j] + dr < n)
                open &= ~(1u << (pc[j] + dr));
            if (pc[j] - dr >= 0)
                open &= ~(1u << (pc[j] - dr));
        }
        if (u->m == 0 && r <= u->first) /* the corner rule */
            open &= ~2u;
        job->open[i] = open;
        job->gap[i] = (uint8_t)(i + 1 < job->rows ? rows[i + skip + 1] - r : 1);
    }
    job->open[job->rows - 1] &= u->weight[0] | u->weight[1] | u->weight[2];
    for (int w = 0; w < 3; w++) {
        job->weight_cols[w] = u->weight[w];
        job->weight[w] = orbit_sizes[w];
    }
    nq_piece_job(&u->piece, job, start);
}

int nq_fast_job(const nq_plan *p, uint64_t i, nq_frontier *job,
                nq_frontier_state *start)
{
    const fast_unit *u = (const fast_unit *)p->data + i;
    if (u->kind != UNIT_RING)
        return 0;
    ring_job(p->n, u, job, start);
    return 1;
}

static nq_status ring_unit(const nq_plan *p, const fast_unit *u,
                           nq_unit_env *env, nq_tally *t)
{
    nq_frontier job;
    nq_frontier_state start;
    uint64_t nodes = 0;
    nq_frontier_work *w = nq_unit_frontier_work(p, env);
    if (!w)
        return NQ_ERR_NOMEM;
    ring_job(p->n, u, &job, &start);
    job.stop = env->stop;
    t->total = nq_frontier_count(&job, start, w, &nodes);
    t->nodes = nodes;
    return nq_stop_requested(env->stop) ? NQ_ERR_STOPPED : NQ_OK;
}

nq_status nq_fast_unit(const nq_plan *p, uint64_t i, nq_unit_env *env,
                       nq_tally *t)
{
    const fast_unit *u = (const fast_unit *)p->data + i;
    switch (u->kind) {
    case UNIT_RING:
        return ring_unit(p, u, env, t);
    case UNIT_HALF_TURN:
        return nq_count_fixed_points(p->n, &t->fixed180, NULL, env->stop);
    case UNIT_QUARTER_TURN:
        return nq_count_fixed_points(p->n, NULL, &t->fixed90, env->stop);
    default:
        nq_count_whole_board(p->n, t);
        return NQ_OK;
    }
}

static void fast_free_scratch(void *scratch)
{
    nq_frontier_work_free(scratch);
}

/* The fixed points' own relations (n > 1, where no solution is its own
 * mirror image): a class fixed by the quarter turn has 2 members, one
 * fixed by the half turn only 4, any other 8, so R is even, P - R a
 * multiple of 4 and T - P of 8, P at most T; and the quarter turn fixes
 * none unless n is 0 or 1 mod 4 (the queens off the centre go round in
 * fours). */
static int fixed_points_possible(int n, const nq_tally *sum)
{
    return sum->fixed180 <= sum->total && sum->fixed90 % 2 == 0 &&
           (sum->fixed180 - sum->fixed90) % 4 == 0 &&
           (sum->total - sum->fixed180) % 8 == 0 &&
           (n % 4 < 2 || sum->fixed90 == 0);
}

/* (T + P + 2R) / 8, which must be whole: a remainder means a wrong count. */
nq_status nq_fast_finish(const nq_plan *p, const nq_tally *sum,
                         nq_counts *out)
{
    const fast_unit *u = p->data;
    out->total = sum->total;
    out->nodes = sum->nodes;
    if (p->units == 1 && u[0].kind == UNIT_WHOLE) {
        out->unique = sum->unique;
        return NQ_OK;
    }
    nq_u128 classes = sum->total;
    if (nq_add_u128(&classes, sum->fixed180) ||
        nq_add_u128(&classes, sum->fixed90) ||
        nq_add_u128(&classes, sum->fixed90))
        return NQ_ERR_OVERFLOW;
    /* a solution fixed by the quarter turn is fixed by the half turn */
    if (classes % 8 || sum->fixed90 > sum->fixed180 ||
        !fixed_points_possible(p->n, sum))
        return NQ_ERR_INTERNAL;
    out->unique = classes / 8;
    return NQ_OK;
}

/* The symmetric counts and a whole board carry what only a recount can
 * check (P and R decide the unique count); a ring unit's total is checked
 * by the sampled recount like any other. */
int nq_fast_unit_forced(const nq_plan *p, uint64_t i)
{
    return ((const fast_unit *)p->data)[i].kind != UNIT_RING;
}

/* A ring unit's search, its nodes estimated by Knuth's estimator from
 * `paths` random paths (fixed ones: the same every time).  Its solutions
 * would be the thing to guess, but most random paths die before the last
 * row, and a unit guessed at 0 could hide any total; nodes track
 * solutions well enough (run_verify.c says how well). */
double nq_fast_unit_estimate(const nq_plan *p, uint64_t i, uint32_t paths)
{
    nq_frontier job;
    nq_frontier_state start;
    if (!nq_fast_job(p, i, &job, &start))
        return -1;
    return nq_frontier_estimate(&job, 0, start, paths);
}

double nq_fast_unit_seconds(const nq_plan *p, uint64_t i)
{
    const fast_unit *u = (const fast_unit *)p->data + i;
    if (u->kind != UNIT_RING)
        return -1;
    if (u->seconds >= 0)
        return u->seconds;
    return nq_fast_unit_estimate(p, i, NQ_PLAN_PROBES) *
           NQ_REF_SECONDS_PER_NODE;
}

/* Paths of the estimate that chooses a piece: a tenth of a unit's, as
 * a piece is chosen among up to N at each cut. */
#define PIECE_PATHS 64

/* One of the job's pieces (nq_frontier_pieces), chosen with a chance in
 * proportion to its estimated size (plus one node: a piece estimated at
 * none may still hold some), into *job and *start; its estimate in *e,
 * the chance taken in *chance.  0 if the job has no pieces. */
static int choose_piece(nq_frontier *job, nq_frontier_state *start,
                        const nq_frontier_work *w, uint64_t *rng, double *e,
                        double *chance)
{
    nq_frontier kids[NQ_MAX_N];
    nq_frontier_state ks[NQ_MAX_N];
    double size[NQ_MAX_N], sum = 0;
    int k = nq_frontier_pieces(job, *start, w, kids, ks);
    for (int i = 0; i < k; i++)
        sum += size[i] = nq_frontier_estimate(&kids[i], 0, ks[i],
                                              PIECE_PATHS) + 1;
    if (k == 0)
        return 0;
    double x = (double)(nq_random_next(rng) >> 11) * 0x1p-53 * sum;
    int i = 0;
    for (; i < k - 1 && x >= size[i]; i++)
        x -= size[i];
    *job = kids[i], *start = ks[i], *e = size[i];
    *chance *= size[i] / sum;
    return 1;
}

/* A piece of ring unit i (the unit while it is estimated at `size`
 * nodes or less), counted and timed on this thread's CPU clock; other
 * units are timed whole. */
nq_status nq_fast_sample(const nq_plan *p, uint64_t i, double size,
                         uint64_t *rng, nq_unit_env *env, double *seconds,
                         double *chance)
{
    nq_frontier job;
    nq_frontier_state start;
    nq_tally t = {0};
    uint64_t nodes = 0;
    nq_frontier_work *w = nq_unit_frontier_work(p, env);
    *chance = 1;
    double t0 = nq_thread_seconds();
    if (!nq_fast_job(p, i, &job, &start) || !w) {
        nq_status st = nq_fast_unit(p, i, env, &t);
        *seconds = nq_thread_seconds() - t0;
        return st;
    }
    double e = nq_frontier_estimate(&job, 0, start, PIECE_PATHS);
    while (e > size && choose_piece(&job, &start, w, rng, &e, chance))
        ;
    job.stop = env->stop;
    t0 = nq_thread_seconds();
    nq_frontier_count(&job, start, w, &nodes);
    *seconds = nq_thread_seconds() - t0;
    return nq_stop_requested(env->stop) ? NQ_ERR_STOPPED : NQ_OK;
}

/* The least orbit size a ring unit counts with: every completion adds one
 * of its weights, so its total is a multiple of the least. */
static unsigned ring_grain(const fast_unit *u)
{
    return u->weight[2] ? 2 : u->weight[1] ? 4 : 8;
}

/* What a unit's record can hold.  A ring unit counts only a total; a
 * symmetric count only its own fixed points, an even number (the mirror
 * image of a solution fixed by a turn is another one, never itself). */
const char *nq_fast_record_flaw(const nq_plan *p, uint64_t i,
                                const nq_tally *t)
{
    const fast_unit *u = (const fast_unit *)p->data + i;
    switch (u->kind) {
    case UNIT_RING:
        if (t->unique || t->fixed180 || t->fixed90)
            return "a ring unit counts only a total, no unique count or "
                   "fixed points";
        return t->total % ring_grain(u) ? "its total is no multiple of its "
               "rings' orbit sizes" : NULL;
    case UNIT_HALF_TURN:
    case UNIT_QUARTER_TURN:
        if (t->total || t->unique ||
            (u->kind == UNIT_HALF_TURN ? t->fixed90 : t->fixed180))
            return "a symmetric count records only the solutions fixed by "
                   "its own turn";
        return (t->fixed180 | t->fixed90) % 2 ? "an odd number of solutions "
               "fixed by a turn (mirror images pair them)" : NULL;
    default:
        return t->fixed180 || t->fixed90 || t->unique > t->total
               ? "a whole board's unique count exceeds its total, or it "
                 "records fixed points" : NULL;
    }
}

/* snprintf that keeps appending safely once the buffer is full. */
static void append(char *buf, size_t size, size_t *len, const char *fmt, ...)
{
    va_list ap;
    if (*len >= size)
        return;
    va_start(ap, fmt);
    int k = vsnprintf(buf + *len, size - *len, fmt, ap);
    va_end(ap);
    *len += k > 0 ? (size_t)k : 0;
}

/* A piece's queens placed ("row:col") and the columns its next row may
 * take ("| row R in c,c,c"). */
static void describe_piece(int n, const fast_unit *u, char *buf, size_t size,
                           size_t *len)
{
    int rows[NQ_MAX_N], skip = u->first >= 0;
    const nq_piece *pc = &u->piece;
    free_rows(n, u, rows);
    for (int k = 0; k < pc->depth; k++)
        append(buf, size, len, " %d:%u", rows[skip + k],
               pc->path >> (5 * k) & 31);
    if (!pc->mask)
        return;
    append(buf, size, len, " | row %d in ", rows[skip + pc->depth]);
    for (int b = 0, sep = 0; b < n; b++)
        if (pc->mask >> b & 1)
            append(buf, size, len, "%s%d", sep++ ? "," : "", b);
}

/* "row:col" of each pre-placed queen, then the bottom-row columns allowed
 * with the orbit size each counts for. */
void nq_fast_describe(const nq_plan *p, uint64_t i, char *buf, size_t size)
{
    const fast_unit *u = (const fast_unit *)p->data + i;
    int n = p->n, rows[NQ_MAX_N];
    size_t len = 0;
    buf[0] = '\0';
    if (u->kind == UNIT_HALF_TURN || u->kind == UNIT_QUARTER_TURN) {
        append(buf, size, &len, "solutions fixed by the %s turn (for unique)",
               u->kind == UNIT_HALF_TURN ? "half" : "quarter");
        return;
    }
    if (u->kind == UNIT_WHOLE) {
        append(buf, size, &len, "the whole board");
        return;
    }
    append(buf, size, &len, "0:%d", u->m);
    if (u->c)
        append(buf, size, &len, " %d:0", u->c);
    append(buf, size, &len, " %d:%d", u->d, n - 1);
    if (u->first >= 0) {
        free_rows(n, u, rows);
        append(buf, size, &len, " %d:%d", rows[0], u->first);
    }
    describe_piece(n, u, buf, size, &len);
    if (u->m == 0)
        append(buf, size, &len, " | column 1 below row %d", u->first);
    for (int w = 0; w < 3; w++) {
        const char *sep = "";
        if (!u->weight[w])
            continue;
        append(buf, size, &len, " | weight %u for %d:", orbit_sizes[w], n - 1);
        for (int b = 0; b < n; b++)
            if (u->weight[w] >> b & 1) {
                append(buf, size, &len, "%s%d", sep, b);
                sep = ",";
            }
    }
}

const nq_engine nq_engine_fast = {
    .name = "fast",
    .summary = "edge-queen symmetry, vectorised frontier search, Burnside",
    .plan_id = NQ_FAST_PLAN_ID,
    .plan_param = NQ_FAST_PLAN_PARAMS,
    .max_n = NQ_MAX_N,
    .caps = NQ_CAP_UNITS | NQ_CAP_KERNEL,
    .plan = nq_fast_plan,
    .unit = nq_fast_unit,
    .describe = nq_fast_describe,
    .finish = nq_fast_finish,
    .forced = nq_fast_unit_forced,
    .flaw = nq_fast_record_flaw,
    .estimate = nq_fast_unit_estimate,
    .sample = nq_fast_sample,
    .free_scratch = fast_free_scratch,
    .seconds = nq_fast_unit_seconds,
    .weigh = nq_fast_weigh,
    .cut = nq_fast_cut,
};
