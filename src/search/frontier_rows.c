/*
 * frontier_rows.c - the scalar kernel for jobs in 16 columns: a state is
 * the open squares of every row left, not the three attack words.
 *
 * The vector kernels (frontier_vec.c) carry a state as the columns and
 * two diagonals taken, and work out a row's open squares from them when
 * they need it, which costs a shift and an or per word and row.  In a
 * vector that work is spread over 8 to 32 lanes; in a general register
 * it is not, and storing the four planes of each state lane by lane
 * costs most of the rest.  Here a state is the open squares of each row
 * still to fill, 16 bits a row, four rows to a 64-bit word: placing a
 * queen is one `and` a word with a mask looked up by its square (the
 * squares it attacks in every later row, built once per job), and a
 * state is one to four words whatever the lane width.  A dead end
 * anywhere below shows at once (some row left with no open square), so
 * every stored state has all its rows open, which prunes a little more
 * than the vector kernels' look one row ahead and at the last (5% fewer
 * placements at N = 14; bench/RESULTS.md has the speeds).
 *
 * The walk is frontier_vec.c's: level by level in chunks, passes that
 * each make one child per parent and store the parents with squares
 * left (here in place: a chunk's states are not read again once it is
 * expanded), unconditional stores at a count that advances by 0 or 1,
 * so no branch depends on the data.  The level before the last two rows
 * counts its children in closed form.
 *
 * The layout is chosen so that the row being filled needs no mask.  Row
 * j sits in field j + off of the job's W words, off = 4W - R, so the
 * last row is the top field of the top word; a filled row's field and
 * the fields below the first row are 0.  The row being filled is then
 * the lowest field that is not 0: its lowest open square is the word's
 * lowest bit, and the square is cleared by x & (x - 1).  A level's words
 * are the high ones (its row's word and those above it), stored from
 * plane 0 up, so a state shrinks as it descends.  A child is alive when
 * every field of its live rows is not 0: one test of the fields' top
 * bits after an add that carries into them (open_fields), the dead
 * fields of its lowest word given their top bit by the added constant
 * (`add` below); cheaper when no square lies in a field's top bit
 * (expand_any).
 */
#include <string.h>

#include "../core/bits.h"
#include "frontier_kernel.h"
#include "stop.h"

#define FIELD 16
#define WORDS 4                     /* 16 rows of 16 columns */
#define MAX_ROWS (WORDS * 64 / FIELD)
#define LOWS 0x7fff7fff7fff7fffull  /* each field but its top bit */

/* A run: plane k (word k of each state) at run + k * PLANE.  A level
 * buffer of nq_frontier_work holds four such planes (frontier_kernel.h:
 * 3 planes of SEG + PAD 32-bit words). */
#define PLANE ((size_t)RSEG + 8)
#define RSEG 16384
#define MAX_CHUNK 2048
_Static_assert(WORDS * PLANE * 8 <= 3 * (NQ_FRONTIER_SEG + NQ_FRONTIER_PAD) * 4,
               "a level's run must fit its buffer");

/* What a job's levels read: for level i (placing a queen in row i) and
 * each square of its row, by the square's bit in its word (row i's field
 * at `shift`, so the lowest open square's bit indexes the table as it
 * stands), the squares to keep in each word once the queen is there
 * (every square but those it attacks in the rows below, and none of row
 * i's own field); row i's word; the constant that gives the child's dead
 * fields their top bit in its row test. */
typedef struct {
    int rows, words;
    unsigned shift[MAX_ROWS];          /* row i's field: bit in its word */
    int word[MAX_ROWS];                /* row i's word */
    uint64_t add[MAX_ROWS];            /* the child's lowest word's add */
    uint64_t keep[MAX_ROWS][WORDS][64];
    uint64_t weight[2][256];           /* last row: a set of its columns, */
                                       /* by its low and its high byte */
    unsigned gap2;                     /* the last two rows' gap */
    int narrow;                        /* no square in a field's top bit */
    const volatile sig_atomic_t *stop;
} rows_job;

/* The job's tables live in the scratch buffer, which the passes do not
 * use (they run in place in each level's run). */
_Static_assert(sizeof(rows_job) <= 4 * (NQ_FRONTIER_SEG + NQ_FRONTIER_PAD) * 4,
               "the tables must fit the scratch buffer");

static int field_of(const rows_job *r, int row)
{
    return row + 4 * r->words - r->rows;
}

/* The words a state at level i has: its row's word and those above. */
static int words_at(const rows_job *r, int i) { return r->words - r->word[i]; }

/* Each field's top bit set exactly when the field is not 0 (the low 15
 * bits plus 0x7fff carry into bit 15 when one of them is set), or, for a
 * field whose part of `add` is 0x8000, set always; the other bits are
 * garbage, so the words' results are and-ed and one test serves them all:
 * every top bit set, i.e. the result or LOWS all ones.  A narrow job has
 * no bit 15 to mask or or back in. */
static inline uint64_t open_fields(uint64_t x, uint64_t add, int narrow)
{
    return narrow ? x + add : ((x & LOWS) + add) | x;
}

/* The add for a child whose lowest word's rows start at field `live`:
 * 0x7fff for its live fields, 0x8000 below them (a dead field is 0, so
 * the sum is its top bit: it always passes). */
static uint64_t dead_carry(int live)
{
    uint64_t add = 0;
    for (int f = 0; f < 4; f++)
        add |= (uint64_t)(f < live ? 0x8000u : 0x7fffu) << (f * FIELD);
    return add;
}

/* The per-level tables of job j (narrowed to 16 columns). */
static void build(const nq_frontier *j, rows_job *r)
{
    int at[MAX_ROWS];
    r->rows = j->rows;
    r->words = (j->rows + 3) / 4;
    r->stop = j->stop;
    for (int i = 0, row = 0; i < j->rows; row += j->gap[i++])
        at[i] = row;
    for (int i = 0; i < j->rows; i++) {
        int f = field_of(r, i);
        r->word[i] = f / 4;
        r->shift[i] = (unsigned)(f % 4 * FIELD);
        r->add[i] = dead_carry((f + 1) % 4);
    }
    for (int i = 0; i < j->rows; i++) {
        uint64_t(*keep)[64] = r->keep[i];
        for (uint32_t open = j->open[i]; open; open &= open - 1) {
            int c = nq_ctz(open);
            unsigned at_c = r->shift[i] + (unsigned)c;
            for (int k = 0; k < WORDS; k++)
                keep[k][at_c] = ~0ull;
            keep[r->word[i]][at_c] &= ~(0xffffull << r->shift[i]);
            for (int below = i + 1; below < j->rows; below++) {
                uint64_t hit = nq_row_attacks(1ull << c, at[below] - at[i]);
                keep[r->word[below]][at_c] &= ~((hit & 0xffffu) << r->shift[below]);
            }
        }
    }
    uint64_t column[FIELD] = {0};
    for (int c = 0; c < FIELD; c++)
        for (int k = 0; k < NQ_FRONTIER_WEIGHTS; k++)
            column[c] += (j->weight_cols[k] >> c & 1) ? j->weight[k] : 0;
    for (int half = 0; half < 2; half++) {
        r->weight[half][0] = 0;
        for (unsigned set = 1; set < 256; set++) /* a set: its lowest and the rest */
            r->weight[half][set] = r->weight[half][set & (set - 1)] +
                                   column[nq_ctz(set) + 8 * half];
    }
    r->gap2 = j->gap[j->rows - 2];
    uint32_t squares = 0;
    for (int i = 0; i < j->rows; i++)
        squares |= j->open[i];
    r->narrow = !(squares & 0x8000u);
}

/* The root state, its rows' open squares; 0 when some row has none. */
static int root(const nq_frontier *j, nq_frontier_state s, const rows_job *r,
                uint64_t *word)
{
    int open = 1;
    memset(word, 0, WORDS * sizeof *word);
    for (int i = 0, at = 0; i < j->rows; at += j->gap[i++]) {
        uint64_t taken = s.down | ((uint64_t)s.left << at) | ((uint64_t)s.right >> at);
        uint64_t f = j->open[i] & ~taken & 0xffffu;
        word[r->word[i]] |= f << r->shift[i];
        open &= f != 0;
    }
    return open;
}

/* Weighted completions of the last two rows, open squares f1 (the
 * second-last) and f0: the two free columns x < y go in either order,
 * unless they are exactly the rows' gap apart, and the last row's column
 * carries its weight.  Both rows lie within {x, y}, the only columns
 * left, so the completions are the last row's squares whose partner (the
 * other free column) is open above, each counted by its weight: the set
 * is looked up by its two bytes, with no branch and no multiply. */
static inline uint64_t count_two(const rows_job *r, uint64_t f1, uint64_t f0)
{
    uint64_t u = f1 | f0, x = u & (0 - u), y = u ^ x;
    /* f1 holds a bit b (one bit or none: u has two at most, the free
     * columns) exactly when f1 ^ b < f1: a compare and a borrow each, no
     * test and set */
    uint64_t has_x = 0 - (uint64_t)((f1 ^ x) < f1);
    uint64_t has_y = 0 - (uint64_t)((f1 ^ y) < f1);
    uint64_t last = f0 & ((y & has_x) | (x & has_y));
    last &= 0 - (uint64_t)((x << r->gap2) != y);
    return r->weight[0][last & 0xff] + r->weight[1][last >> 8];
}

/* One pass over m parents at `in` of level i, nw words each (word 0
 * holds row i): each makes the child on the lowest open square of its
 * row.  The child, cw words (one fewer than its parent's when row i is
 * its word's top field: that word has no row the child has left to
 * fill), is stored at out[*op] (the count advancing when all its rows
 * are open), or with `fused` counted; the parent, without that square,
 * back in the run at in[lp] (lp advancing when it has squares left, so
 * lp <= t: a parent is loaded before anything is stored over it).
 * Returns the parents left. */
static inline __attribute__((always_inline)) size_t
pass(const rows_job *r, int i, int nw, int cw, int fused, int narrow,
     uint64_t *in, size_t m, uint64_t *out, size_t *op, uint64_t *count)
{
    const int drop = nw - cw;
    const uint64_t *keep = r->keep[i][r->word[i] + drop];
    const uint64_t add = r->add[i];
    const uint64_t end = r->shift[i] + FIELD; /* the bit past row i's field */
    size_t lp = 0, o = *op;
    uint64_t sum = 0;
    /* Four parents an iteration: the loop's own compare and branch, a
     * tenth of a short pass's instructions, go, and the compiler
     * interleaves the copies (9% at count 17, bench/RESULTS.md). */
#pragma GCC unroll 4
    for (size_t t = 0; t < m; t++) {
        uint64_t w[WORDS], c[WORDS], open = ~0ull;
        for (int k = 0; k < nw; k++)
            w[k] = in[k * PLANE + t];
        uint64_t at = nq_ctz_index(w[0]);
        for (int k = 0; k < cw; k++) {
            c[k] = w[k + drop] & keep[k * 64 + at];
            open &= open_fields(c[k], k ? LOWS : add, narrow);
        }
        w[0] &= w[0] - 1;
        for (int k = 0; k < nw; k++)
            in[k * PLANE + lp] = w[k];
        /* another square left: where the row is its word's top field
         * the fields below it are 0, so the word is the row; else the
         * word's lowest bit is still in the row's field */
        lp += drop ? w[0] != 0 : nq_ctz_index(w[0]) < end;
        if (fused) {
            sum += count_two(r, c[0] >> 2 * FIELD & 0xffffu, c[0] >> 3 * FIELD);
            continue;
        }
        for (int k = 0; k < cw; k++)
            out[k * PLANE + o] = c[k];
        o += nq_all_ones64(open | LOWS);
    }
    *op = o;
    *count += sum;
    return lp;
}

/* All the children of m parents at `in` (level i): passes until no
 * parent has a square left.  Returns the children stored at `out`. */
static inline __attribute__((always_inline)) size_t
expand(const rows_job *r, int i, int nw, int cw, int fused, int narrow,
       uint64_t *in, size_t m, uint64_t *out, uint64_t *count,
       uint64_t *nodes)
{
    size_t op = 0;
    *nodes += m;
    m = pass(r, i, nw, cw, fused, narrow, in, m, out, &op, count);
    while (m) {
        *nodes += m;
        m = pass(r, i, nw, cw, fused, narrow, in, m, out, &op, count);
    }
    return op;
}

/* The same with the parent's and the child's words constants, so each
 * loop is unrolled.  A child one word short saves a table load, an
 * `and`, a test and a store: a quarter of the nodes are made with five
 * rows left (6% at count 17, bench/RESULTS.md). */
static inline __attribute__((always_inline)) size_t
expand_words(const rows_job *r, int i, int narrow, uint64_t *in, size_t m,
             uint64_t *out, uint64_t *count, uint64_t *nodes)
{
    if (i + 3 == r->rows)
        return expand(r, i, 1, 1, 1, narrow, in, m, out, count, nodes);
    switch (words_at(r, i) * 8 + words_at(r, i + 1)) {
    case 011: return expand(r, i, 1, 1, 0, narrow, in, m, out, count, nodes);
    case 021: return expand(r, i, 2, 1, 0, narrow, in, m, out, count, nodes);
    case 022: return expand(r, i, 2, 2, 0, narrow, in, m, out, count, nodes);
    case 032: return expand(r, i, 3, 2, 0, narrow, in, m, out, count, nodes);
    case 033: return expand(r, i, 3, 3, 0, narrow, in, m, out, count, nodes);
    case 043: return expand(r, i, 4, 3, 0, narrow, in, m, out, count, nodes);
    default: return expand(r, i, 4, 4, 0, narrow, in, m, out, count, nodes);
    }
}

/* A job whose squares all lie in the low 15 columns leaves each field's
 * top bit free, so open_fields needs no mask and no or: one add a word
 * instead of three operations (bench/RESULTS.md).  That is every job of
 * the fast engine: frontier.c splits wider ones for this kernel (its
 * span16), which pays at N = 18 and 19. */
static size_t expand_any(const rows_job *r, int i, uint64_t *in, size_t m,
                         uint64_t *out, uint64_t *count, uint64_t *nodes)
{
    if (r->narrow)
        return expand_words(r, i, 1, in, m, out, count, nodes);
    return expand_words(r, i, 0, in, m, out, count, nodes);
}

static uint64_t *run_of(nq_frontier_work *w, int level)
{
    return (uint64_t *)w->level[level];
}

/* Level i's states at `in`, in chunks whose children fit the next
 * level's run, each carried to the bottom before the next. */
static void expand_level(const nq_frontier *j, const rows_job *r,
                         nq_frontier_work *w, int i, uint64_t *in,
                         size_t m, uint64_t *count, uint64_t *nodes)
{
    size_t fan = (size_t)nq_popcount(j->open[i]) + 1;
    size_t chunk = RSEG / fan < MAX_CHUNK ? RSEG / fan : MAX_CHUNK;
    uint64_t *out = run_of(w, i + 1);
    for (size_t at = 0; at < m && !nq_stop_requested(r->stop); at += chunk) {
        size_t take = m - at < chunk ? m - at : chunk;
        size_t kids = expand_any(r, i, in + at, take, out, count, nodes);
        if (i + 3 < r->rows)
            expand_level(j, r, w, i + 1, out, kids, count, nodes);
    }
}

/* Jobs of 3 to 16 rows whose columns fit 16 bits (frontier.c narrows
 * them); others go to the 32-bit kernel. */
uint64_t nq_frontier_count_rows_16(const nq_frontier *j, nq_frontier_state s,
                                   nq_frontier_work *w, uint64_t *nodes)
{
    if (j->rows < 3 || j->rows > MAX_ROWS)
        return nq_frontier_count_scalar_32(j, s, w, nodes);
    rows_job *r = (rows_job *)w->scratch;
    uint64_t count = 0, word[WORDS];
    build(j, r);
    if (root(j, s, r, word)) {
        uint64_t *run = run_of(w, 0);
        for (int k = 0; k < WORDS; k++)
            run[k * PLANE] = word[k];
        expand_level(j, r, w, 0, run, 1, &count, nodes);
    }
    return count;
}
