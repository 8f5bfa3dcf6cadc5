/*
 * checks.c - the engine and kernel an option names, checked against the
 * library's tables (so that a new engine or kernel is accepted, listed
 * and named in messages by itself): unknown, lacking what the command
 * needs, too small for the board, not run by this CPU.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../cli.h"

/* What an engine lacking a capability cannot do, for the message. */
static const char *cannot(unsigned caps)
{
    /* TRANSLATORS: each follows "engine 'NAME'" */
    return caps & NQ_CAP_FLAG_ARRAYS ? _("keeps no flag arrays to show")
         : caps & NQ_CAP_EVENTS ? _("cannot show its search step by step")
         : caps & NQ_CAP_UNITS ? _("does not split the board into units")
                               : _("cannot list solutions");
}

/* `nqueens --completion COMMAND`: instead of checking one engine, the
 * engines this check accepts ("engine NAME" lines), whatever the board
 * (which only bounds each engine's N); the command stops there. */
static int describe_engines(unsigned caps)
{
    for (int i = 0; i < nq_engine_count(); i++)
        if ((nq_engine_caps(nq_engine_at(i)) & caps) == caps)
            printf("engine %s\n", nq_engine_name(nq_engine_at(i)));
    cli_describe_pending = 0;
    return CLI_HELP_SHOWN;
}

int cli_check_engine(const char *name, int lo, int hi, unsigned caps)
{
    char names[512];
    if (cli_describing)
        return describe_engines(caps);
    const nq_engine *e = nq_engine_find(name);
    cli_engines_with(caps, names, sizeof names);
    if (!e)
        return cli_error(CLI_USAGE, "unknown engine '%s' (engines: %s)", name,
                         names);
    if ((nq_engine_caps(e) & caps) != caps)
        return cli_error(CLI_USAGE, "engine '%s' %s (engines that can: %s)",
                         name, cannot(caps), names);
    if (lo < 1 || hi > nq_engine_max_n(e))
        return cli_error(CLI_USAGE, "engine '%s' takes N from 1 to %d, not %d",
                         name, nq_engine_max_n(e), hi);
    return CLI_OK;
}

/* name added to the list "a, b, ..." in buf (cut short if it is full). */
static void add_name(char *buf, size_t size, size_t *len, const char *name)
{
    if (*len >= size)
        return;
    int k = snprintf(buf + *len, size - *len, "%s%s", *len ? ", " : "", name);
    *len += k > 0 ? (size_t)k : 0;
}

const char *cli_engines_with(unsigned caps, char *buf, size_t size)
{
    size_t len = 0;
    buf[0] = '\0';
    for (int i = 0; i < nq_engine_count(); i++) {
        const nq_engine *e = nq_engine_at(i);
        if ((nq_engine_caps(e) & caps) == caps)
            add_name(buf, size, &len, nq_engine_name(e));
    }
    return buf;
}

/* "scalar, sse4, avx2, avx512": the kernels built in, or those this CPU
 * runs. */
const char *cli_kernel_names(char *buf, size_t size, int only_supported)
{
    size_t len = 0;
    buf[0] = '\0';
    for (int i = 0; i < nq_kernel_count(); i++)
        if (!only_supported || nq_kernel_supported(nq_kernel_at(i)))
            add_name(buf, size, &len, nq_kernel_at(i));
    return buf;
}

/* What nq_select_kernel would say of the name, without selecting it. */
static nq_status kernel_status(const char *name)
{
    for (int i = 0; i < nq_kernel_count(); i++)
        if (!strcmp(nq_kernel_at(i), name))
            return nq_kernel_supported(name) ? NQ_OK : NQ_ERR_UNSUPPORTED;
    return NQ_ERR_ARG;
}

/* A kernel refused, said (from: "--kernel" or "NQ_KERNEL"). */
static int kernel_error(nq_status st, const char *name, const char *from)
{
    char names[128];
    if (st == NQ_ERR_ARG)
        return cli_error(CLI_USAGE, "%s: unknown kernel '%s' (kernels: %s)",
                         from, name, cli_kernel_names(names, sizeof names, 0));
    if (st == NQ_ERR_UNSUPPORTED)
        return cli_error(CLI_USAGE, "%s: this CPU lacks %s (it runs: %s)",
                         from, name, cli_kernel_names(names, sizeof names, 1));
    return CLI_OK;
}

int cli_check_kernel(const char *name, const char *from)
{
    return kernel_error(kernel_status(name), name, from);
}

int cli_kernel_from_environment(void)
{
    const char *name = getenv("NQ_KERNEL");
    return name && *name ? kernel_error(nq_select_kernel(name), name,
                                        "NQ_KERNEL") : CLI_OK;
}
