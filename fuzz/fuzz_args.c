/*
 * fuzz_args.c - libFuzzer target: count's argument parser (cli_parse_count,
 * the parser nqueens and nqueens-mpi share, with getopt_long, N and A-B,
 * --threads, --part, --devices, --kernel, ...) on any argument vector.
 *
 * The input is the arguments, separated by zero bytes.  The parser must
 * never crash or read out of bounds; what it accepts must be in range.
 * Its messages go to stderr and help pages to stdout: make fuzz runs it
 * with -close_fd_mask=3, which silences them and not libFuzzer's reports.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../programs/cli.h"

enum { MAX_ARGS = 32 };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *copy = malloc(size + 1), *argv[MAX_ARGS + 1];
    int argc = 0;
    if (!copy)
        return 0;
    memcpy(copy, data, size);
    copy[size] = '\0';
    for (size_t i = 0; i <= size && argc < MAX_ARGS; argc++) {
        argv[argc] = copy + i;
        i += strlen(copy + i) + 1;
    }
    argv[argc] = NULL;
    cli_count_args a = {0};
    int rc = cli_parse_count("usage: count\n", argc, argv, 1, &a);
    if (rc == CLI_OK && (a.lo < 1 || a.hi > NQ_MAX_N || a.lo > a.hi ||
                         a.c.req.threads < 0 ||
                         a.c.req.threads > CLI_MAX_THREADS))
        abort(); /* accepted out of range */
    free(copy);
    return 0;
}
