/*
 * carry.c - the carry chain of the seed series (after the Q27 project):
 * pre-place the queens of the frame, solve the inside.
 *
 * The frame is the two outer rows and the two outer columns on each side:
 * rows 0, 1, n-2, n-1 and columns 0, 1, n-2, n-1.  Each holds exactly one
 * queen of any solution, so every solution has a constellation: the 4 to 8
 * queens standing on the frame.  Constellations are enumerated (the row
 * queens first, then a queen in an inner row for each frame column they
 * leave empty), reduced to one per orbit of the 8 symmetries (frame.h),
 * and each becomes a work unit: count the ways to fill the inner rows.
 *
 * Weights.  A constellation C with stabiliser H (only rotations can fix a
 * set of queens that do not attack each other) has 8/|H| images, each with
 * as many completions as C, so it adds 8/|H| * c to the total, c being its
 * completions.  The classes of solutions whose constellation lies in that
 * orbit are the orbits of H on C's completions; by Burnside's lemma there
 * are (c + f180 + 2 f90) / |H| of them, f180 and f90 counting the
 * completions fixed by the half and quarter turns (each term present only
 * if that turn is in H).  Symmetric constellations are rare, so their
 * completions are listed and tested one by one.
 */
#include <stdio.h>
#include <stdlib.h>

#include "../core/bits.h"
#include "../core/board.h"
#include "engine.h"
#include "frame.h"
#include "../search/frontier.h"
#include "../search/stop.h"

/* Below this the frame's lines overlap; such a board is one unit. */
#define FRAME_MIN_N 4
/* The frame: two rows and two columns on each side. */
#define FRAME_WIDTH 2

/* A unit: the frame key (frame.c: 8 lines of 5 bits) and the stabiliser
 * (a bit per symmetry) in bits 40..47. */
typedef uint64_t carry_unit;

static int push(nq_plan *p, carry_unit u)
{
    return nq_plan_push(p, &u, sizeof u);
}

static int free_square(const nq_frame *f, int r, int c)
{
    for (int q = 0; q < f->count; q++)
        if (nq_lines_shared(r, c, f->r[q], f->c[q]))
            return 0;
    return 1;
}

/* A necessary condition for being canonical, checked as soon as an outer
 * line's queen is known: the first key value (row 0's column) is the least
 * of the 8 values an image can put there, one per outer line and end. */
static int could_lead(const nq_frame *f, int pos)
{
    int lead = f->c[0], n = f->n; /* the queen of row 0 comes first */
    return lead <= pos && lead <= n - 1 - pos;
}

/* Frame columns left empty by the row queens get a queen in an inner row;
 * each complete constellation that is canonical becomes a unit. */
static int frame_columns(nq_frame *f, int i, nq_plan *l)
{
    int n = f->n, col = i < 2 ? i : n - 4 + i;
    if (i == 4) {
        unsigned stab = nq_frame_stabiliser(f);
        return stab ? push(l, nq_frame_key(f) | (uint64_t)stab << 40) : 0;
    }
    for (int q = 0; q < f->count; q++)
        if (f->c[q] == col)
            return frame_columns(f, i + 1, l);
    for (int r = 2; r <= n - 3; r++) {
        if (!free_square(f, r, col) || ((i == 0 || i == 3) && !could_lead(f, r)))
            continue;
        f->r[f->count] = r, f->c[f->count++] = col;
        int rc = frame_columns(f, i + 1, l);
        f->count--;
        if (rc)
            return rc;
    }
    return 0;
}

/* The queens of rows 0, 1, n-2, n-1, one row at a time.  Big plans take
 * a minute (N = 20) to minutes: a stop is seen at each placing of the
 * four, before their columns are filled (at N = 22 a queen of row 1 is
 * up to 6 s of planning, its columns' queens milliseconds).  Returns -1
 * out of memory, -2 stopped. */
static int frame_rows(nq_frame *f, int i, nq_plan *l)
{
    int n = f->n, row = i < 2 ? i : n - 4 + i;
    if (i == 4)
        return nq_stop_requested(l->stop) ? -2 : frame_columns(f, 0, l);
    for (int c = 0; c < n; c++) {
        if (!free_square(f, row, c))
            continue;
        f->r[f->count] = row, f->c[f->count++] = c;
        if ((i == 0 || i == 3) && !could_lead(f, c)) {
            f->count--;
            continue;
        }
        int rc = frame_rows(f, i + 1, l);
        f->count--;
        if (rc)
            return rc;
    }
    return 0;
}

static nq_status carry_plan(nq_plan *p)
{
    nq_frame f = {.n = p->n, .width = FRAME_WIDTH};
    int rc = p->n < FRAME_MIN_N ? push(p, 0) : frame_rows(&f, 0, p);
    return rc == -2 ? NQ_ERR_STOPPED : rc ? NQ_ERR_NOMEM : NQ_OK;
}

/* The frame queens back from a key. */
static void unit_frame(int n, carry_unit u, nq_frame *f)
{
    int v[8];
    f->n = n, f->width = FRAME_WIDTH, f->count = 0;
    for (int i = 7; i >= 0; i--, u >>= 5)
        v[i] = (int)(u & 31);
    for (int i = 0; i < 2; i++) { /* rows 0, 1 and n-2, n-1 */
        f->r[f->count] = i, f->c[f->count++] = v[i];
        f->r[f->count] = n - 2 + i, f->c[f->count++] = v[6 + i];
    }
    for (int i = 0; i < 4; i++) { /* columns 0, 1, n-2, n-1 */
        int col = i < 2 ? i : n - 4 + i, r = v[2 + i];
        if (r >= 2 && r <= n - 3)
            f->r[f->count] = r, f->c[f->count++] = col;
    }
}

/* The inner rows as a frontier job: the rows without a frame queen, each
 * open on the columns no frame queen holds or attacks. */
static void inner_job(const nq_frame *f, nq_frontier *job,
                      nq_frontier_state *start, int *rows)
{
    int n = f->n, k = 0;
    uint32_t taken_rows = 0, cols = 0;
    for (int q = 0; q < f->count; q++)
        taken_rows |= 1u << f->r[q], cols |= 1u << f->c[q];
    *job = (nq_frontier){.full = (uint32_t)nq_low_bits(n)};
    for (int r = 2; r <= n - 3; r++)
        if (!(taken_rows >> r & 1))
            rows[k++] = r;
    job->rows = k;
    for (int i = 0; i < k; i++) {
        uint32_t open = job->full & ~cols;
        for (int c = 0; c < n; c++)
            if ((open >> c & 1) && !free_square(f, rows[i], c))
                open &= ~(1u << c);
        job->open[i] = open;
        job->gap[i] = (uint8_t)(i + 1 < k ? rows[i + 1] - rows[i] : 1);
    }
    job->weight_cols[0] = job->full, job->weight[0] = 1;
    *start = (nq_frontier_state){cols, 0, 0};
}

typedef struct {
    const nq_frontier *job;
    const int *rows;
    int cols[NQ_MAX_N];
    unsigned stab;
    uint64_t fixed180, fixed90;
} fixed_walk;

/* Is the whole placement its own image under symmetry t? */
static int fixed_by(const int *cols, int n, int t)
{
    int img[NQ_MAX_N];
    nq_transform_placement(cols, n, t, img);
    for (int r = 0; r < n; r++)
        if (img[r] != cols[r])
            return 0;
    return 1;
}

/* List the completions of a symmetric constellation, testing each. */
static void walk(fixed_walk *w, int i, uint32_t d, uint32_t l, uint32_t r,
                 int n)
{
    const nq_frontier *j = w->job;
    if (i == j->rows) {
        w->fixed180 += (w->stab >> 2 & 1) && fixed_by(w->cols, n, 2);
        w->fixed90 += (w->stab >> 1 & 1) && fixed_by(w->cols, n, 1);
        return;
    }
    uint32_t a = j->open[i] & ~(d | l | r);
    while (a) {
        uint32_t b = nq_lowest_bit32(a);
        a ^= b;
        w->cols[w->rows[i]] = nq_ctz(b);
        walk(w, i + 1, d | b, (l | b) << j->gap[i], (r | b) >> j->gap[i], n);
    }
}

static nq_status carry_unit_run(const nq_plan *p, uint64_t i, nq_unit_env *env,
                                nq_tally *t)
{
    carry_unit u = ((const carry_unit *)p->data)[i];
    unsigned stab = (unsigned)(u >> 40 & 0xff);
    nq_frame f;
    nq_frontier job;
    nq_frontier_state start;
    int rows[NQ_MAX_N], n = p->n, size;
    uint64_t nodes = 0, c;
    if (n < FRAME_MIN_N) {
        nq_count_whole_board(n, t);
        return NQ_OK;
    }
    unit_frame(n, u, &f);
    inner_job(&f, &job, &start, rows);
    job.stop = env->stop;
    c = job.rows ? nq_frontier_count_dfs(&job, start, &nodes) : 1;
    if (nq_stop_requested(env->stop))
        return NQ_ERR_STOPPED;
    size = nq_popcount(stab);
    t->total = (nq_u128)c * (unsigned)(8 / size);
    t->nodes = nodes;
    if (size == 1) {
        t->unique = c;
        return NQ_OK;
    }
    fixed_walk w = {.job = &job, .rows = rows, .stab = stab};
    for (int q = 0; q < f.count; q++)
        w.cols[f.r[q]] = f.c[q];
    walk(&w, 0, start.down, 0, 0, n);
    uint64_t orbits = c + w.fixed180 + 2 * w.fixed90;
    if (orbits % (unsigned)size)
        return NQ_ERR_INTERNAL;
    t->unique = orbits / (unsigned)size;
    return NQ_OK;
}

static nq_status carry_finish(const nq_plan *p, const nq_tally *sum,
                              nq_counts *out)
{
    (void)p;
    out->total = sum->total;
    out->unique = sum->unique;
    out->nodes = sum->nodes;
    return NQ_OK;
}

/* The stabiliser's size of unit i: 1 for most, 2 or 4 for a symmetric
 * constellation (0 for a board counted whole). */
static int stabiliser_size(const nq_plan *p, uint64_t i)
{
    carry_unit u = ((const carry_unit *)p->data)[i];
    return p->n < FRAME_MIN_N ? 0 : nq_popcount((uint32_t)(u >> 40 & 0xff));
}

/* A symmetric constellation's unique count comes from its fixed
 * completions, which only a recount sees; an asymmetric one's is its
 * total over 8, checked from the record alone (carry_flaw). */
static int carry_forced(const nq_plan *p, uint64_t i)
{
    return stabiliser_size(p, i) != 1;
}

/* What a record can hold: a total of 8/|H| per completion c, and
 * (c + f180 + 2 f90) / |H| classes, which lie between c/|H| and 4c/|H|
 * (each fixed count is at most c). */
static const char *carry_flaw(const nq_plan *p, uint64_t i, const nq_tally *t)
{
    int size = stabiliser_size(p, i);
    if (t->fixed180 || t->fixed90)
        return "a carry unit records no fixed points";
    if (!size)
        return t->unique > t->total ? "a whole board's unique count exceeds "
               "its total" : NULL;
    nq_u128 grain = (unsigned)(8 / size), c = t->total / grain;
    if (t->total % grain)
        return "its total is no multiple of its constellation's orbit size";
    if (size == 1)
        return t->unique != c ? "an asymmetric constellation's unique count "
               "is not its total over 8" : NULL;
    nq_u128 scaled = t->unique * (unsigned)size;
    return scaled / (unsigned)size != t->unique || scaled < c ||
           (scaled && (scaled - 1) / 4 >= c) /* scaled > 4c, not wrapping */
           ? "a symmetric constellation's unique count out of the bounds "
             "its completions set" : NULL;
}

/* "r:c r:c ... weight w": the frame queens, and the orbit size. */
static void carry_describe(const nq_plan *p, uint64_t i, char *buf,
                           size_t size)
{
    carry_unit u = ((const carry_unit *)p->data)[i];
    nq_frame f;
    size_t len = 0;
    if (p->n < FRAME_MIN_N) {
        snprintf(buf, size, "the whole board");
        return;
    }
    unit_frame(p->n, u, &f);
    for (int q = 0; q < f.count && len < size; q++) {
        int k = snprintf(buf + len, size - len, "%s%d:%d", q ? " " : "",
                         f.r[q], f.c[q]);
        len += k > 0 ? (size_t)k : 0;
    }
    if (len < size)
        snprintf(buf + len, size - len, " weight %d",
                 8 / nq_popcount((uint32_t)(u >> 40 & 0xff)));
}

const nq_engine nq_engine_carry = {
    .name = "carry",
    .summary = "carry chain: frame constellations up to symmetry, inside by DFS",
    .plan_id = "carry-frame/1",
    .plan_param = {FRAME_MIN_N, FRAME_WIDTH},
    /* The plan lists every constellation before counting: 187 million
     * (1.5 GB) at N = 22, about three times more per size after that.
     * fast is the engine for larger boards. */
    .max_n = 22,
    .caps = NQ_CAP_UNITS,
    .plan = carry_plan,
    .unit = carry_unit_run,
    .describe = carry_describe,
    .finish = carry_finish,
    .forced = carry_forced,
    .flaw = carry_flaw,
};
