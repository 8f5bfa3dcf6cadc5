/*
 * mpi_main.c - nqueens-mpi: `count N` spread over an MPI job.
 *
 *   mpirun -np P nqueens-mpi count N [--engine fast|carry]
 *          [--checkpoint FILE] [--threads T] [--max-units K] [--json]
 *
 * Rank 0 hands out units and keeps the journal (the same format as a
 * threaded run's, so either can resume the other); the other ranks count
 * with all their cores.  Only rank 0 prints.
 */
#include <mpi.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "../parallel/nq_mpi.h"
#include "cli.h"

static const char mpi_help[] =
    "usage: mpirun -np P nqueens-mpi count N [options]\n"
    "\n"
    "Count N over an MPI job: rank 0 hands out the work units, the other\n"
    "ranks count them with all their cores.  With one rank, rank 0 counts.\n"
    "\n"
    "options:\n"
    "  --engine NAME      fast (default) or carry\n"
    "  --checkpoint FILE  record each finished unit (rank 0 writes); run the\n"
    "                     same command again to resume\n"
    "  --threads T        threads per worker rank (default: all cores)\n"
    "  --max-units K      stop after K more units (resume later)\n"
    "  --json             a JSON line instead of the table row\n";

static volatile sig_atomic_t stop_requested;

static void on_signal(int sig)
{
    (void)sig;
    __atomic_store_n(&stop_requested, 1, __ATOMIC_RELAXED);
}

static nq_status record_unit(void *ctx, uint64_t unit, const nq_tally *t)
{
    return ctx ? nq_journal_record(ctx, unit, t) : NQ_OK;
}

typedef struct {
    const char *engine, *checkpoint;
    int n, json;
    uint64_t threads, max_units;
} mpi_args;

static int parse(int argc, char **argv, mpi_args *a)
{
    const char *threads = NULL, *max = NULL;
    int lo, hi, rc;
    const cli_spec specs[] = {
        {"--engine", &a->engine, NULL},
        {"--checkpoint", &a->checkpoint, NULL},
        {"--threads", &threads, NULL},
        {"--max-units", &max, NULL},
        {"--json", NULL, &a->json},
        {NULL, NULL, NULL},
    };
    cli_program = "nqueens-mpi";
    if (argc < 2 || strcmp(argv[1], "count") != 0) {
        if (argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")))
            return fputs(mpi_help, stdout), CLI_HELP_SHOWN;
        if (argc >= 2 && (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")))
            return printf("nqueens-mpi %s\n", nq_get_version()), CLI_HELP_SHOWN;
        return cli_error(CLI_USAGE, "nqueens-mpi runs 'count N' (see "
                         "'nqueens-mpi --help')");
    }
    rc = cli_parse_board("count", mpi_help, specs, argc - 2, argv + 2, 0, &lo,
                         &hi);
    if (rc != CLI_OK)
        return rc;
    a->n = lo;
    if ((rc = cli_check_engine(a->engine, lo, hi, 0)) != CLI_OK)
        return rc;
    if (!(nq_engine_caps(nq_engine_find(a->engine)) & NQ_CAP_UNITS))
        return cli_error(CLI_USAGE, "engine '%s' does not split the board "
                         "into units (engines that do: carry, fast)", a->engine);
    if (threads && cli_parse_uint(threads, 1, 1024, &a->threads))
        return cli_error(CLI_USAGE, "--threads takes a whole number from 1 to "
                         "1024, not '%s'", threads);
    if (max && cli_parse_uint(max, 1, UINT64_MAX, &a->max_units))
        return cli_error(CLI_USAGE, "--max-units takes a whole number from 1, "
                         "not '%s'", max);
    if (a->max_units && !a->checkpoint)
        return cli_error(CLI_USAGE, "--max-units needs --checkpoint FILE");
    return CLI_OK;
}

/* Rank 0 opens the journal; every rank learns whether it could. */
static int open_journal(const mpi_args *a, const nq_plan *plan, int rank,
                        nq_journal **j)
{
    char why[4096] = "";
    int ok = 1;
    *j = NULL;
    if (rank == 0 && a->checkpoint) {
        nq_status st = nq_journal_open(a->checkpoint, plan, 0, 0, j, why,
                                       sizeof why);
        if (st != NQ_OK) {
            cli_error(CLI_FAIL, "%s", why[0] ? why : nq_strerror(st));
            ok = 0;
        } else if (nq_journal_state_get(*j)->dropped_tail) {
            fprintf(stderr, "nqueens: warning: %s: dropped a half-written "
                    "last line (a crash); its unit will be counted again\n",
                    a->checkpoint);
        }
    }
    MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
    return ok;
}

static int finish(const mpi_args *a, const nq_plan *plan, nq_journal *j,
                  nq_status run, const nq_tally *sum, double seconds)
{
    nq_tally total = *sum;
    nq_journal_state js = {0};
    if (j)
        js = *nq_journal_state_get(j);
    nq_status closed = nq_journal_close(j);
    if (closed != NQ_OK)
        return cli_error(CLI_FAIL, "cannot write the journal %s: %s",
                         a->checkpoint, nq_strerror(closed));
    if (run == NQ_ERR_STOPPED)
        return cli_error(CLI_FAIL, "stopped with %llu of %llu units of N=%d "
                         "recorded in %s; run the same command again to resume",
                         (unsigned long long)js.units_done,
                         (unsigned long long)nq_plan_units(plan), a->n,
                         a->checkpoint ? a->checkpoint : "no journal");
    if (run != NQ_OK)
        return cli_error(CLI_FAIL, "count %d: %s", a->n, nq_strerror(run));
    if (j)
        total = js.sum; /* earlier sessions' units too */
    nq_counts c;
    nq_status st = nq_plan_finish(plan, &total, &c);
    if (st != NQ_OK)
        return cli_error(CLI_FAIL, "count %d: %s", a->n, nq_strerror(st));
    int size;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    cli_print_counts(a->n, &c, a->engine, size, seconds, a->json, 1);
    return CLI_OK;
}

int main(int argc, char **argv)
{
    int rank, rc, is_root, provided;
    mpi_args a = {.engine = "fast"};
    /* threads count units, one thread (main) calls MPI */
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (provided < MPI_THREAD_FUNNELED) {
        if (rank == 0)
            cli_error(CLI_FAIL, "this MPI library does not allow threads "
                      "(MPI_THREAD_FUNNELED)");
        MPI_Finalize();
        return CLI_FAIL;
    }
    if (rank != 0) { /* identical arguments: only rank 0 speaks */
        freopen("/dev/null", "w", stdout);
        freopen("/dev/null", "w", stderr);
    }
    rc = parse(argc, argv, &a);
    if (rc != CLI_OK) {
        MPI_Finalize();
        return cli_finish_output(rc == CLI_HELP_SHOWN ? CLI_OK : rc);
    }
    nq_request req = {.n = a.n, .engine = a.engine};
    nq_plan *plan;
    nq_journal *j;
    nq_status st = nq_plan_create(&req, &plan);
    if (st != NQ_OK) {
        cli_error(CLI_FAIL, "count %d: %s", a.n, nq_strerror(st));
        MPI_Abort(MPI_COMM_WORLD, CLI_FAIL);
    }
    if (!open_journal(&a, plan, rank, &j)) {
        nq_plan_free(plan);
        MPI_Finalize();
        return CLI_FAIL;
    }
    if (rank == 0) {
        signal(SIGINT, on_signal);
        signal(SIGTERM, on_signal);
    }
    nq_run_options o = {.threads = (int)a.threads, .max_units = a.max_units,
                        .stop = &stop_requested, .on_unit = record_unit,
                        .ctx = j, .done = j ? nq_journal_done(j) : NULL};
    nq_tally sum = {0};
    double t0 = nq_clock_seconds();
    st = nq_mpi_run(plan, &o, &sum, &is_root);
    rc = is_root ? cli_finish_output(finish(&a, plan, j, st, &sum,
                                            nq_clock_seconds() - t0))
                 : (st == NQ_OK ? CLI_OK : CLI_FAIL);
    nq_plan_free(plan);
    MPI_Finalize();
    return rc;
}
