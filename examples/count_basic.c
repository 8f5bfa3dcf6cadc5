/*
 * count_basic.c - count the solutions of one board with libnqueens.
 *
 * After `make install` (or with PKG_CONFIG_PATH pointing at the
 * lib/pkgconfig directory of an install), build it against the shared
 * library:
 *
 *     cc examples/count_basic.c $(pkg-config --cflags --libs nqueens) -o count
 *
 * or against the static one, libnqueens.a (--static adds -lpthread, which
 * the archive needs; -l:libnqueens.a makes the linker take the archive
 * even where the shared library is installed beside it):
 *
 *     cc examples/count_basic.c $(pkg-config --cflags nqueens) -o count \
 *         $(pkg-config --static --libs nqueens | sed 's/-lnqueens/-l:libnqueens.a/')
 *
 *     ./count 12        prints "12 14200 1787": N, total, unique
 *
 * It is C99 and C++ alike (tests/install.sh builds it both ways):
 *
 *     c++ -x c++ examples/count_basic.c $(pkg-config --cflags --libs nqueens) -o count
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include <nqueens.h>

int main(int argc, char **argv)
{
    int n = 12;
    if (argc > 2) {
        fprintf(stderr, "usage: %s [N]\n", argv[0]);
        return 2;
    }
    if (argc == 2) {
        char *end;
        errno = 0;
        long v = strtol(argv[1], &end, 10);
        if (errno || end == argv[1] || *end || v < 1 || v > NQ_MAX_N) {
            fprintf(stderr, "%s: N must be a whole number from 1 to %d\n",
                    argv[0], NQ_MAX_N);
            return 2;
        }
        n = (int)v;
    }

    /* NQ_REQUEST_INIT sets the request's size and nothing else: engine
     * NULL is the library's default (fast), threads 0 every core */
    nq_request req = NQ_REQUEST_INIT;
    char why[256] = "";
    req.n = n;
    req.why = why, req.why_size = sizeof why; /* a failure's own words */
    nq_counts counts;
    nq_status st = nq_count_solutions(&req, &counts);
    if (st != NQ_OK) {
        fprintf(stderr, "%s: N=%d: %s%s%s%s\n", argv[0], n, nq_strerror(st),
                why[0] ? " (" : "", why, why[0] ? ")" : "");
        return 1;
    }

    char total[NQ_U128_DIGITS], unique[NQ_U128_DIGITS];
    printf("%d %s %s\n", n, nq_format_u128(counts.total, total),
           nq_format_u128(counts.unique, unique));
    return 0;
}
