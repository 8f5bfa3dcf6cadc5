/*
 * mpi_main.c - nqueens-mpi: `count N` spread over an MPI job.
 *
 *   mpirun -np P nqueens-mpi count N [--engine NAME] [--checkpoint FILE]
 *          [--threads T] [--max-units K] [--json] [--quiet]
 *
 * Rank 0 hands out units and keeps the journal (the same format as a
 * threaded run's, so either can resume the other); the other ranks count
 * with all their cores.  Only rank 0 prints, through the same report as
 * `nqueens count --checkpoint`.  A rank that fails is named by rank 0
 * ("rank 1 failed: ..."), and every rank ends without aborting the job.
 */
#define _GNU_SOURCE /* sched_setaffinity */
#include <limits.h>
#include <mpi.h>
#include <sched.h>
#include <unistd.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "../../programs/cli.h"
#include "nqueens_mpi.h"

static const char mpi_help[] =
    "usage: mpirun -np P nqueens-mpi count N [options]\n"
    "\n"
    "Count N over an MPI job: rank 0 hands out the work units, the other\n"
    "ranks count them with all their cores.  With one rank, rank 0 counts.\n"
    "\n"
    "The options are count's, with these differences: --engine must name\n"
    "an engine that splits the board into units ({units}; default:\n"
    "the fastest); --checkpoint's journal is written by rank 0; --threads\n"
    "are per worker rank (default: all cores); --kernel (also NQ_KERNEL=K;\n"
    "default: the widest each CPU runs) and --devices (0,2) hold on every\n"
    "rank; --force runs even a count the workers could not finish in a\n"
    "century (a week without --checkpoint), which rank 0 otherwise refuses\n"
    "up front, estimating from its own speed; -q, --quiet and --progress\n"
    "are accepted, as count takes them (no bar is drawn).\n"
    "\n"
    "options:\n"
    "{options}"
    "\n"
    "examples:\n"
    "  mpirun -np 9 nqueens-mpi count 22 --checkpoint n22.journal\n"
    "  mpirun -np 3 nqueens-mpi count 16 --json\n";

/* `count N` and count's options (the same table as nqueens count), with
 * an engine that splits the board into units. */
static int parse(int argc, char **argv, cli_count_args *a)
{
    char units[256];
    cli_program = "nqueens-mpi";
    if (argc < 2 || strcmp(argv[1], "count") != 0) {
        if (argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")))
            return cli_parse_count(mpi_help, 1, argv + 1, 0, a);
        if (argc >= 2 && (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")))
            return cli_print_version("nqueens-mpi"), CLI_HELP_SHOWN;
        return cli_error(CLI_USAGE, "nqueens-mpi runs 'count N' (see "
                         "'nqueens-mpi --help')");
    }
    int rc = cli_kernel_from_environment();
    if (rc == CLI_OK)
        rc = cli_parse_count(mpi_help, argc - 2, argv + 2, 0, a);
    if (rc != CLI_OK)
        return rc;
    if (!(nq_engine_caps(nq_engine_find(a->c.req.engine)) & NQ_CAP_UNITS))
        return cli_error(CLI_USAGE, "engine '%s' does not split the board "
                         "into units (engines that do: %s)", a->c.req.engine,
                         cli_engines_with(NQ_CAP_UNITS, units, sizeof units));
    return CLI_OK;
}

/* A worker rank's policy, the program's to set: SIGINT and SIGTERM
 * ignored (mpirun forwards them to every rank; rank 0 stops the workers
 * itself, so their half-done units end cleanly), and the affinity mpirun
 * gave (one core, when there are no more ranks than cores) widened to
 * every core, so that one rank per machine counts with all of them. */
static void worker_policy(void)
{
    signal(SIGINT, SIG_IGN);
    signal(SIGTERM, SIG_IGN);
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    cpu_set_t all;
    CPU_ZERO(&all);
    for (long c = 0; c < cores && c < CPU_SETSIZE; c++)
        CPU_SET((int)c, &all);
    sched_setaffinity(0, sizeof all, &all);
}

/* MPI up, with threads allowed; 0 (said on rank 0) if not. */
static int start_mpi(int *argc, char ***argv, int *rank)
{
    int provided;
    MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, rank);
    if (provided >= MPI_THREAD_FUNNELED)
        return 1;
    if (*rank == 0)
        cli_error(CLI_FAIL, "this MPI library does not allow threads "
                  "(MPI_THREAD_FUNNELED)");
    return 0;
}

/* Every rank goes on only if every rank's arguments parsed (ranks of an
 * MPMD job may have different ones): the lowest rank that cannot, or -1. */
static int arguments_agree(int rc)
{
    int rank, mine, lowest;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    mine = rc == CLI_OK ? INT_MAX : rank;
    MPI_Allreduce(&mine, &lowest, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    return lowest == INT_MAX ? -1 : lowest;
}

/* Rank 0 estimates the count at its own speed, shared by the workers
 * (every rank but 0, or rank 0 alone), and every rank learns its verdict. */
static int feasible(const cli_count_args *a, int rank)
{
    int size, rc = CLI_OK;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (rank == 0)
        rc = cli_check_feasible(a, size > 1 ? size - 1 : 1);
    MPI_Bcast(&rc, 1, MPI_INT, 0, MPI_COMM_WORLD);
    return rc;
}

int main(int argc, char **argv)
{
    int rank, rc, is_root, bad;
    cli_count_args a = {0};
    signal(SIGXFSZ, SIG_IGN); /* past `ulimit -f`: EFBIG, said (dispatch.c) */
    if (!start_mpi(&argc, &argv, &rank)) {
        MPI_Finalize();
        return CLI_FAIL;
    }
    if (rank != 0) { /* identical arguments: only rank 0 speaks */
        freopen("/dev/null", "w", stdout);
        freopen("/dev/null", "w", stderr);
        worker_policy();
    }
    rc = parse(argc, argv, &a);
    if ((bad = arguments_agree(rc)) >= 0) {
        if (rc == CLI_OK) /* rank 0's are fine, another's not */
            rc = cli_error(CLI_USAGE, "rank %d cannot run its arguments", bad);
        MPI_Finalize();
        return cli_finish_output(rc == CLI_HELP_SHOWN ? CLI_OK : rc);
    }
    if (rank == 0) /* before the estimate: it watches the flag too */
        cli_watch_stop("count", &a);
    if ((rc = feasible(&a, rank)) != CLI_OK) {
        MPI_Finalize();
        return cli_finish_output(rc);
    }
    cli_long_count c = a.c;
    nq_run_report r = NQ_RUN_REPORT_INIT;
    nq_status st = nq_mpi_count_resumable(&c.req, &c.opt, &r, &is_root);
    /* rank 0's status is the job's: the others' would race it to mpirun */
    rc = is_root ? cli_finish_output(cli_report_long_count(&c, st, &r))
                 : CLI_OK;
    MPI_Finalize();
    return rc;
}
