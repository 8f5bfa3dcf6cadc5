/*
 * test_core.c - placements, symmetries and 128-bit counts.
 */
#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "../src/core/core.h"

/* Gauss's 8-queens solution (seed 001: 4 7 3 8 2 5 1 6, 1-based). */
static const int gauss8[8] = {3, 6, 2, 7, 1, 4, 0, 5};

static void placement_checks(void *arg)
{
    (void)arg;
    int bad_col[4] = {1, 3, 0, 3}, bad_diag[4] = {0, 2, 1, 3};
    int off_board[4] = {1, 3, 0, 4}, four[4] = {1, 3, 0, 2};
    CHECK(nq_check_placement(gauss8, 8) == NQ_OK);
    CHECK(nq_check_placement(four, 4) == NQ_OK);
    CHECK(nq_check_placement(bad_col, 4) == NQ_ERR_INVALID);
    CHECK(nq_check_placement(bad_diag, 4) == NQ_ERR_INVALID);
    CHECK(nq_check_placement(off_board, 4) == NQ_ERR_INVALID);
    CHECK(nq_check_placement(four, 0) == NQ_ERR_ARG);
    CHECK(nq_check_placement(NULL, 4) == NQ_ERR_ARG);
}

static int same(const int *a, const int *b, int n)
{
    return memcmp(a, b, sizeof *a * (size_t)n) == 0;
}

/* Symmetry k applied to cols, computed from its geometric definition on
 * squares, independently of transform.c's formulas. */
static void square_by_geometry(int n, int k, int r, int c, int *r2, int *c2)
{
    *r2 = r, *c2 = c;
    switch (k) {
    case 1: *r2 = c, *c2 = n - 1 - r; break;
    case 2: *r2 = n - 1 - r, *c2 = n - 1 - c; break;
    case 3: *r2 = n - 1 - c, *c2 = r; break;
    case 4: *c2 = n - 1 - c; break;
    case 5: *r2 = n - 1 - r; break;
    case 6: *r2 = c, *c2 = r; break;
    case 7: *r2 = n - 1 - c, *c2 = n - 1 - r; break;
    }
}

static void transform_by_squares(const int *cols, int n, int k, int *out)
{
    for (int r = 0; r < n; r++) {
        int r2, c2;
        square_by_geometry(n, k, r, cols[r], &r2, &c2);
        out[r2] = c2;
    }
}

static void symmetry_matches_geometry(void *arg)
{
    (void)arg;
    int a[8], b[8];
    for (int k = 0; k < NQ_SYMMETRIES; k++) {
        nq_transform_placement(gauss8, 8, k, a);
        transform_by_squares(gauss8, 8, k, b);
        CHECKF(same(a, b, 8), "symmetry %d differs from its definition", k);
        CHECKF(nq_check_placement(a, 8) == NQ_OK, "image %d is no solution", k);
    }
}

static void symmetry_group_laws(void *arg)
{
    (void)arg;
    int a[8], b[8], c[8];
    /* a quarter turn twice is a half turn, four times the identity */
    nq_transform_placement(gauss8, 8, 1, a);
    nq_transform_placement(a, 8, 1, b);
    nq_transform_placement(gauss8, 8, 2, c);
    CHECK(same(b, c, 8));
    nq_transform_placement(b, 8, 2, a);
    CHECK(same(a, gauss8, 8));
    /* every reflection is its own inverse */
    for (int k = 4; k < 8; k++) {
        nq_transform_placement(gauss8, 8, k, a);
        nq_transform_placement(a, 8, k, b);
        CHECKF(same(b, gauss8, 8), "reflection %d twice is not the identity", k);
    }
}

static void canonical_weights(void *arg)
{
    (void)arg;
    int four[4] = {1, 3, 0, 2}, four_b[4] = {2, 0, 3, 1}, one[1] = {0};
    /* The N=4 solutions are each other's mirror images and quarter-turn
     * symmetric: one class of 2. */
    CHECK(nq_canonical_weight(four, 4) == 2);
    CHECK(nq_canonical_weight(four_b, 4) == 0);
    CHECK(nq_canonical_weight(one, 1) == 1);
    /* Gauss's solution is not the smallest of its class; the smallest is
     * the one of its images below all others. */
    int img[8], best[8];
    memcpy(best, gauss8, sizeof best);
    for (int k = 1; k < 8; k++) {
        nq_transform_placement(gauss8, 8, k, img);
        if (memcmp(img, best, sizeof img) < 0)
            for (int i = 0; i < 8; i++)
                best[i] = img[i];
    }
    CHECK(nq_canonical_weight(gauss8, 8) == 0);
    CHECK(nq_canonical_weight(best, 8) == 8);
}

static void u128_text(void *arg)
{
    (void)arg;
    char buf[NQ_U128_DIGITS];
    nq_u128 v, two64 = (nq_u128)1 << 64;
    CHECK(strcmp(nq_format_u128(0, buf), "0") == 0);
    CHECK(strcmp(nq_format_u128(two64, buf), "18446744073709551616") == 0);
    CHECK(strcmp(nq_format_u128(~(nq_u128)0, buf),
                 "340282366920938463463374607431768211455") == 0);
    CHECK(nq_parse_u128("340282366920938463463374607431768211455", &v) == NQ_OK);
    CHECK(v == ~(nq_u128)0);
    CHECK(nq_parse_u128("340282366920938463463374607431768211456", &v) ==
          NQ_ERR_OVERFLOW);
    CHECK(nq_parse_u128("12a", &v) == NQ_ERR_ARG);
    CHECK(nq_parse_u128("", &v) == NQ_ERR_ARG);
}

/* A sum forced past 2^64 stays exact; past 2^128 it is refused. */
static void u128_sums(void *arg)
{
    (void)arg;
    char buf[NQ_U128_DIGITS];
    nq_u128 acc = UINT64_MAX;
    CHECK(nq_add_u128(&acc, UINT64_MAX) == NQ_OK);
    CHECK(strcmp(nq_format_u128(acc, buf), "36893488147419103230") == 0);
    acc = ~(nq_u128)0 - 1;
    CHECK(nq_add_u128(&acc, 1) == NQ_OK);
    CHECK(nq_add_u128(&acc, 1) == NQ_ERR_OVERFLOW);
    CHECK(acc == ~(nq_u128)0);
}

/* The library's one definition of the symmetries on squares agrees with
 * the geometric one above, on every square of boards 1..9. */
static void squares_match_geometry(void *arg)
{
    (void)arg;
    for (int n = 1; n <= 9; n++)
        for (int k = 0; k < NQ_SYMMETRIES; k++)
            for (int r = 0; r < n; r++)
                for (int c = 0; c < n; c++) {
                    int wr, wc, r2 = r, c2 = c;
                    square_by_geometry(n, k, r, c, &wr, &wc);
                    nq_transform_square(n, k, &r2, &c2);
                    CHECKF(r2 == wr && c2 == wc,
                           "n=%d symmetry %d square %d:%d", n, k, r, c);
                }
}

/* Every pair of squares of an 8x8 board: the lines shared, against the
 * definitions (same row, column, r+c, r-c). */
static void attack_lines(void *arg)
{
    (void)arg;
    for (int a = 0; a < 64; a++)
        for (int b = 0; b < 64; b++) {
            int r1 = a / 8, c1 = a % 8, r2 = b / 8, c2 = b % 8;
            unsigned want = (r1 == r2 ? NQ_BY_ROW : 0u) |
                            (c1 == c2 ? NQ_BY_COLUMN : 0u) |
                            (r1 + c1 == r2 + c2 ? NQ_BY_SUM : 0u) |
                            (r1 - c1 == r2 - c2 ? NQ_BY_DIF : 0u);
            CHECKF(nq_attack_lines(r1, c1, r2, c2) == want, "%d:%d %d:%d",
                   r1, c1, r2, c2);
        }
    CHECK(nq_attack_lines(0, 0, 1, 2) == 0);
}

/* SipHash-2-4 against the reference vectors of the paper's code: key
 * 00 01 .. 0f, messages 00 01 .. of length 0, 8 and 15. */
static void siphash_vectors(void *arg)
{
    (void)arg;
    unsigned char m[16];
    for (int i = 0; i < 16; i++)
        m[i] = (unsigned char)i;
    uint64_t k0 = 0x0706050403020100ull, k1 = 0x0f0e0d0c0b0a0908ull;
    CHECK(nq_siphash(k0, k1, m, 0) == 0x726fdb47dd0e0e31ull);
    CHECK(nq_siphash(k0, k1, m, 8) == 0x93f5f5799a932462ull);
    CHECK(nq_siphash(k0, k1, m, 15) == 0xa129ca6149be45e5ull);
}

static void status_words(void *arg)
{
    (void)arg;
    for (int s = 0; s < NQ_STATUS_COUNT; s++)
        CHECKF(nq_strerror((nq_status)s) && *nq_strerror((nq_status)s),
               "status %d has no words", s);
    CHECK(strcmp(nq_strerror((nq_status)999), "unknown status") == 0);
    CHECK(strcmp(nq_get_version(), NQ_VERSION_STRING) == 0);
}

/* The version's three numbers, its number and its string say the same,
 * and the library that runs says what the header says. */
static void version_numbers(void *arg)
{
    (void)arg;
    char want[32];
    snprintf(want, sizeof want, "%d.%d.%d", NQ_VERSION_MAJOR,
             NQ_VERSION_MINOR, NQ_VERSION_PATCH);
    CHECKF(strcmp(NQ_VERSION_STRING, want) == 0, "'%s' is not '%s'",
           NQ_VERSION_STRING, want);
    CHECK(NQ_VERSION_MINOR < 100 && NQ_VERSION_PATCH < 100);
    CHECK(NQ_VERSION_NUMBER == NQ_VERSION_MAJOR * 10000 +
          NQ_VERSION_MINOR * 100 + NQ_VERSION_PATCH);
    CHECK(nq_get_version_number() == NQ_VERSION_NUMBER);
}

void tests_core(void)
{
    t_case(version_numbers, NULL, "core/version-numbers");
    t_case(placement_checks, NULL, "core/placement-check");
    t_case(symmetry_matches_geometry, NULL, "core/symmetries-match-geometry");
    t_case(symmetry_group_laws, NULL, "core/symmetry-group-laws");
    t_case(canonical_weights, NULL, "core/canonical-weights");
    t_case(u128_text, NULL, "core/u128-text");
    t_case(u128_sums, NULL, "core/u128-sum-past-2^64");
    t_case(status_words, NULL, "core/status-words");
    t_case(squares_match_geometry, NULL, "core/square-symmetries-match-geometry");
    t_case(attack_lines, NULL, "core/attack-lines");
    t_case(siphash_vectors, NULL, "core/siphash-reference-vectors");
}
