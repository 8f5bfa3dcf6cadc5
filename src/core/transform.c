/*
 * transform.c - the 8 symmetries of the square acting on placements.
 *
 * A solution is a permutation p (p[r] = column of row r).  Rotations and
 * reflections of the board map it to another permutation; the eight images
 * form its class.  The class representative used everywhere in nqueens is
 * the lexicographically smallest image, and the class size is 8 divided by
 * the number of symmetries that leave the solution unchanged.
 */
#include "nqueens.h"

/* The definition of the 8 symmetries: where each takes a square. */
void nq_transform_square(int n, int t, int *r, int *c)
{
    if (!r || !c) /* nowhere to put the square: nothing to do */
        return;
    int m = n - 1, r0 = *r, c0 = *c;
    switch (t & 7) {
    case 1: *r = c0, *c = m - r0; break;          /* quarter turn */
    case 2: *r = m - r0, *c = m - c0; break;      /* half turn */
    case 3: *r = m - c0, *c = r0; break;          /* three-quarter turn */
    case 4: *c = m - c0; break;                   /* mirror left-right */
    case 5: *r = m - r0; break;                   /* mirror top-bottom */
    case 6: *r = c0, *c = r0; break;              /* transpose */
    case 7: *r = m - c0, *c = m - r0; break;      /* anti-transpose */
    default: break;
    }
}

/* Row r of image t of p, where inv is the inverse permutation: the column
 * nq_transform_square gives the queen that lands in row r, written as a
 * lookup of one entry so comparisons can stop at the first difference
 * without building the whole image (tests/test_core.c checks the two
 * agree). */
static inline int image_at(const int *p, const int *inv, int n, int t, int r)
{
    switch (t) {
    case 1: return n - 1 - inv[r];          /* quarter turn clockwise */
    case 2: return n - 1 - p[n - 1 - r];    /* half turn */
    case 3: return inv[n - 1 - r];          /* quarter turn anticlockwise */
    case 4: return n - 1 - p[r];            /* mirror left-right */
    case 5: return p[n - 1 - r];            /* mirror top-bottom */
    case 6: return inv[r];                  /* transpose */
    case 7: return n - 1 - inv[n - 1 - r];  /* anti-transpose */
    default: return p[r];                   /* identity */
    }
}

/* The inverse permutation; entries a non-permutation leaves unset stay 0 so
 * that a bad input gives garbage rather than undefined behaviour. */
static void invert(const int *p, int n, int *inv)
{
    for (int i = 0; i < n; i++)
        inv[i] = 0;
    for (int r = 0; r < n; r++)
        if (p[r] >= 0 && p[r] < n)
            inv[p[r]] = r;
}

void nq_transform_placement(const int *cols, int n, int symmetry, int *out)
{
    int inv[NQ_MAX_N];
    if (!cols || !out || n < 1 || n > NQ_MAX_N)
        return;
    invert(cols, n, inv);
    for (int r = 0; r < n; r++)
        out[r] = image_at(cols, inv, n, symmetry & 7, r);
}

/* Sign of (image t) - p in lexicographic order. */
static int compare_image(const int *p, const int *inv, int n, int t)
{
    for (int r = 0; r < n; r++) {
        int v = image_at(p, inv, n, t, r);
        if (v != p[r])
            return v < p[r] ? -1 : 1;
    }
    return 0;
}

/* Most images differ from p in row 0, so the lazy comparison usually costs
 * one lookup per symmetry: cheap enough to run at every solution leaf. */
int nq_canonical_weight(const int *cols, int n)
{
    int inv[NQ_MAX_N], fixed = 1;
    if (!cols || n < 1 || n > NQ_MAX_N)
        return 0;
    invert(cols, n, inv);
    for (int t = 1; t < NQ_SYMMETRIES; t++) {
        int c = compare_image(cols, inv, n, t);
        if (c < 0)
            return 0;
        fixed += (c == 0);
    }
    return NQ_SYMMETRIES / fixed;
}
