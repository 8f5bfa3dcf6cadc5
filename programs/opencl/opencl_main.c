/*
 * opencl_main.c - nqueens-opencl: the nqueens command line with the
 * OpenCL back-end's engine added to the library's table
 * (libnqueens-opencl), and the back-end's two settings for developers
 * taken from the environment.  Built by `make opencl` only.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../cli.h"
#include "nqueens_opencl.h"

/* The whole of a text file, NUL-terminated (NULL, errno set, if it
 * cannot be read). */
static char *read_text(const char *path)
{
    FILE *f = fopen(path, "rb");
    char *text = NULL;
    size_t len = 0, cap = 0;
    while (f) {
        if (len + 4096 + 1 > cap) {
            char *grown = realloc(text, cap = 2 * cap + 4096 + 1);
            if (!grown)
                break;
            text = grown;
        }
        size_t got = fread(text + len, 1, cap - len - 1, f);
        len += got;
        if (got == 0) {
            int failed = ferror(f);
            fclose(f);
            f = NULL;
            if (!failed) {
                text[len] = '\0';
                return text;
            }
            errno = EIO;
        }
    }
    if (f)
        fclose(f);
    free(text);
    return NULL;
}

/* NQ_OPENCL_SOURCE names a file holding an OpenCL program to build
 * instead of the one built in (for developers of the kernel, and the
 * test of a program that fails to build); NQ_OPENCL_MEMORY caps the
 * bytes of device memory the engine may hold (the test of a device out
 * of memory).  A bad value is said and refused, as NQ_KERNEL's is. */
static int settings_from_environment(void)
{
    const char *source = getenv("NQ_OPENCL_SOURCE");
    const char *memory = getenv("NQ_OPENCL_MEMORY");
    uint64_t bytes = 0;
    if (memory && *memory && cli_parse_uint(memory, 1, UINT64_MAX, &bytes))
        return cli_error(CLI_USAGE, "NQ_OPENCL_MEMORY takes a number of "
                         "bytes from 1, not '%s'", memory);
    nq_opencl_set_memory_limit(bytes);
    if (!source || !*source)
        return CLI_OK;
    char *text = read_text(source);
    if (!text)
        return cli_error(CLI_USAGE, "NQ_OPENCL_SOURCE: cannot read '%s': %s",
                         source, strerror(errno));
    nq_status st = nq_opencl_set_source(text);
    free(text);
    return st == NQ_OK ? CLI_OK
                       : cli_error(CLI_FAIL, "NQ_OPENCL_SOURCE: %s",
                                   nq_strerror(st));
}

int main(int argc, char **argv)
{
    nq_status st = nq_opencl_register();
    if (st != NQ_OK)
        return cli_error(CLI_FAIL, "cannot add engine opencl: %s",
                         nq_strerror(st));
    int rc = settings_from_environment();
    return rc != CLI_OK ? rc : cli_main(argc, argv);
}
