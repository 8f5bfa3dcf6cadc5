/*
 * fixed_points.c - counting the solutions a half turn or a quarter turn of the
 * board leaves unchanged.
 *
 * Burnside's lemma turns these into the unique count: the classes under
 * the 8 symmetries number (T + P + 2R + F) / 8, where T is the total, P the
 * solutions fixed by the half turn, R those fixed by a quarter turn (and
 * so also by the three-quarter turn), and F those fixed by the four
 * reflections, which is 0 for n > 1 (two queens mirrored across the axis
 * would attack each other).  P and R need only searches of symmetric
 * placements: a queen at (r, c) brings its images with it, so only about a
 * half (P) or a quarter (R) of the rows are chosen freely.
 *
 * The searches are small next to the total.  The quarter turn's, a
 * tenth of the half turn's time or less, places whole orbits on plain
 * occupancy words for rows, columns and the 2n-1 diagonals of each
 * direction; the half turn's keeps the same words as bit sets it shifts
 * to each row.
 */
#include "../core/bits.h"
#include "../engines/engine.h"
#include "fast.h"
#include "../search/stop.h"

typedef struct {
    int n;
    uint64_t rows, cols, sum, dif; /* dif is indexed by r - c + n - 1 */
    uint64_t nodes;
    const volatile sig_atomic_t *stop;
} fixed_board;

static int square_free(const fixed_board *b, int r, int c)
{
    return !(b->rows >> r & 1) && !(b->cols >> c & 1) &&
           !(b->sum >> (r + c) & 1) && !(b->dif >> (r - c + b->n - 1) & 1);
}

static void square_take(fixed_board *b, int r, int c)
{
    b->rows ^= (uint64_t)1 << r;
    b->cols ^= (uint64_t)1 << c;
    b->sum ^= (uint64_t)1 << (r + c);
    b->dif ^= (uint64_t)1 << (r - c + b->n - 1);
}

/* The squares of the orbit of (r, c) under rotation by `turns` quarter
 * turns (2: the half turn, 1: the quarter turn); all distinct except for
 * the centre, which callers place on its own. */
static int orbit_squares(int n, int r, int c, int turns, int *rr, int *cc)
{
    int k = 0;
    for (int i = 0; i < 4; i += turns) {
        rr[k] = r, cc[k] = c, k++;
        nq_transform_square(n, turns, &r, &c); /* 1 or 2 quarter turns */
    }
    return k;
}

/* Take the k squares if none is attacked, counting attacks within the
 * orbit itself; on failure the board is left as it was. */
static int squares_place(fixed_board *b, const int *rr, const int *cc, int k)
{
    for (int i = 0; i < k; i++) {
        if (!square_free(b, rr[i], cc[i])) {
            while (i--)
                square_take(b, rr[i], cc[i]);
            return 0;
        }
        square_take(b, rr[i], cc[i]);
    }
    return 1;
}

/* The words are XORed, so taking the squares again frees them. */
static void squares_remove(fixed_board *b, const int *rr, const int *cc, int k)
{
    for (int i = 0; i < k; i++)
        square_take(b, rr[i], cc[i]);
}

/* Fill the lowest empty row with an orbit, recursively.  For big boards
 * this runs for hours, so it gives up when the run is asked to stop. */
static uint64_t fixed_search(fixed_board *b, int turns)
{
    int n = b->n, r = 0;
    while (r < n && (b->rows >> r & 1))
        r++;
    if (r == n)
        return 1;
    uint64_t count = 0;
    for (int c = 0; c < n && !nq_stop_requested(b->stop); c++) {
        int rr[4], cc[4], k = orbit_squares(n, r, c, turns, rr, cc);
        if (!squares_place(b, rr, cc, k))
            continue;
        b->nodes++;
        count += fixed_search(b, turns);
        squares_remove(b, rr, cc, k);
    }
    return count;
}

/* The half turn's search (with fixed_search's orbits, 2% of the whole
 * count at n = 18; a tenth of that in this form): rows r and n-1-r are
 * filled together, r from the top, the queen (r, c) bringing its image
 * (n-1-r, n-1-c).  The image needs no test of its own against the board:
 * the board is its own half turn, so the image is attacked exactly when
 * (r, c) is.  Only the pair itself must be at peace: never one column
 * (the centre column of an odd board is the centre queen's), and on one
 * diagonal exactly when c is r or n-1-r.  The same squares, in the same
 * order, as fixed_search takes.  cols, sum (r + c) and dif (c - r + n - 1,
 * fixed_board's r - c + n - 1 mirrored, which is the same bit for the
 * centre queen, the one square a search starts with) as bit sets. */
static uint64_t half_turn_rows(fixed_board *b, int r, uint64_t cols,
                               uint64_t sum, uint64_t dif)
{
    int n = b->n;
    if (2 * r + 1 >= n)
        return 1;
    uint64_t count = 0;
    uint64_t open = nq_low_bits(n) & ~(cols | sum >> r | dif >> (n - 1 - r)) &
                    ~((uint64_t)1 << r | (uint64_t)1 << (n - 1 - r));
    for (; open && !nq_stop_requested(b->stop); open &= open - 1) {
        int c = nq_ctz(open), ic = n - 1 - c;
        b->nodes++;
        count += half_turn_rows(b, r + 1,
                                cols | (uint64_t)1 << c | (uint64_t)1 << ic,
                                sum | (uint64_t)1 << (r + c) |
                                    (uint64_t)1 << (2 * n - 2 - r - c),
                                dif | (uint64_t)1 << (c - r + n - 1) |
                                    (uint64_t)1 << (r - c + n - 1));
    }
    return count;
}

/* Odd n: the centre square is its own image, and the middle row and column
 * must hold their queen there. */
static uint64_t count_fixed(int n, int turns, uint64_t *nodes,
                            const volatile sig_atomic_t *stop)
{
    fixed_board b = {.n = n, .stop = stop};
    int centre = n / 2;
    if (n % 2 == 1)
        squares_place(&b, &centre, &centre, 1);
    uint64_t count = turns == 2 ? half_turn_rows(&b, 0, b.cols, b.sum, b.dif)
                                : fixed_search(&b, turns);
    *nodes += b.nodes;
    return count;
}

nq_status nq_count_fixed_points(int n, nq_u128 *half_turn,
                                nq_u128 *quarter_turn,
                                const volatile sig_atomic_t *stop)
{
    uint64_t nodes = 0;
    if (n < 1 || n > NQ_MAX_N)
        return NQ_ERR_RANGE;
    if (half_turn)
        *half_turn = count_fixed(n, 2, &nodes, stop);
    if (quarter_turn)
        *quarter_turn = count_fixed(n, 1, &nodes, stop);
    return nq_stop_requested(stop) ? NQ_ERR_STOPPED : NQ_OK; /* cut short */
}

nq_status nq_count_symmetric_solutions(int n, nq_u128 *half_turn,
                                       nq_u128 *quarter_turn)
{
    return nq_count_fixed_points(n, half_turn, quarter_turn, NULL);
}
