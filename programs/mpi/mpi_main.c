/*
 * mpi_main.c - nqueens-mpi: `count N` and `verify JOURNAL...` spread over
 * an MPI job.
 *
 *   mpirun -np P nqueens-mpi count N [--engine NAME] [--checkpoint FILE]
 *          [--threads T] [--max-units K] [--json] [--quiet]
 *   mpirun -np P nqueens-mpi verify JOURNAL... [verify's options]
 *
 * Rank 0 hands out units and keeps the journal (the same format as a
 * threaded run's, so either can resume the other); the other ranks count
 * with all their cores.  verify: rank 0 reads the journals and chooses,
 * the ranks recount the chosen units the same way.  Only rank 0 prints,
 * through the same report as `nqueens count --checkpoint` (or `nqueens
 * verify`).  A rank that fails is named by rank 0
 * ("rank 1 failed: ..."), and every rank ends without aborting the job.
 *
 * A rank that stops answering (its machine or network lost) is another
 * matter: MPI_Finalize would wait for it forever.  Rank 0 names it when
 * its deadline passes, the others count its units, and once the result
 * is printed and journaled rank 0 ends the job with MPI_Abort, errorcode
 * EXIT_LOST_RANK (mpirun's exit status then says: complete, a rank lost).
 * A worker that loses rank 0 exits without MPI_Finalize.
 */
#define _GNU_SOURCE /* sched_setaffinity */
#include <limits.h>
#include <mpi.h>
#include <sched.h>
#include <unistd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../cli.h"
#include "nqueens_mpi.h"

/* mpirun's exit status for a count complete (printed, journaled) in a job
 * that lost a rank; documented in the help, README and doc/cluster.md. */
#define EXIT_LOST_RANK 3

static const char mpi_help[] = N_(
    "usage: mpirun -np P nqueens-mpi count N [options]\n"
    "       mpirun -np P nqueens-mpi verify JOURNAL... [options]\n"
    "\n"
    "Count N over an MPI job: rank 0 hands out the work units, the other\n"
    "ranks count them with all their cores.  With one rank, rank 0 counts.\n"
    "verify checks journals the same way (see 'nqueens-mpi verify --help').\n"
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
    "A worker silent for --worker-timeout S seconds (default 30; each\n"
    "speaks every second) is lost: rank 0 names it, its units go to the\n"
    "others, and with the count complete the job ends with exit status 3\n"
    "(mpirun cannot end it normally without the lost rank).\n"
    "\n"
    "options:\n"
    "  --worker-timeout S seconds of silence before a rank counts as\n"
    "                     lost (default: 30)\n"
    "{options}"
    "\n"
    "examples:\n"
    "  mpirun -np 9 nqueens-mpi count 22 --checkpoint n22.journal\n"
    "  mpirun -np 3 nqueens-mpi count 16 --json\n");

static const char mpi_verify_help[] = N_(
    "usage: mpirun -np P nqueens-mpi verify JOURNAL... [options]\n"
    "\n"
    "'nqueens verify' over an MPI job: rank 0 reads the journals and\n"
    "chooses the units to recount exactly as 'nqueens verify' does (the\n"
    "same seed chooses the same units), and the ranks recount them as\n"
    "nqueens-mpi count counts units, largest estimate first; only rank 0\n"
    "reads the journals and prints.  With --part K/M the job recounts one\n"
    "part of a check in parts, its --output verdict for 'nqueens merge\n"
    "--verified' like any other part's.  --threads are per worker rank.\n"
    "A worker silent for --worker-timeout S seconds (default 30) is lost:\n"
    "the others recount its units, and with the check complete the job\n"
    "ends with exit status 3.\n"
    "\n"
    "options:\n"
    "  --worker-timeout S seconds of silence before a rank counts as\n"
    "                     lost (default: 30)\n"
    "{options}"
    "\n"
    "examples:\n"
    "  mpirun -np 9 nqueens-mpi verify n22.journal\n"
    "  mpirun -np 65 nqueens-mpi verify --list parts.txt --part 3/8 \\\n"
    "      --seed 77 --output verdict.3\n");

/* --worker-timeout S (or =S), nqueens-mpi's own option, taken out of
 * argv before count's parser sees the rest: 0 if absent, -1 (said) if
 * its value is not a number of seconds from 1 (a worker pings every
 * second at most, rank 0's answer must fit) to 10^6. */
static double take_timeout(int *argc, char **argv)
{
    const char *name = "--worker-timeout";
    size_t len = strlen(name);
    for (int i = 2; i < *argc; i++) {
        if (strncmp(argv[i], name, len) || (argv[i][len] && argv[i][len] != '='))
            continue;
        int with = argv[i][len] == '=', k = with ? 1 : 2;
        const char *v = with ? argv[i] + len + 1 : i + 1 < *argc ? argv[i + 1] : "";
        char *end;
        double s = strtod(v, &end);
        memmove(argv + i, argv + i + k, (size_t)(*argc - i - k + 1) * sizeof *argv);
        *argc -= k;
        if (!*v || *end || !(s >= 1 && s <= 1e6))
            return cli_error(CLI_USAGE, "--worker-timeout wants seconds "
                             "(1 to 1000000), not '%s'", v), -1;
        return s;
    }
    return 0;
}

/* `count N` and count's options (the same table as nqueens count), with
 * an engine that splits the board into units. */
static int parse(int argc, char **argv, cli_count_args *a, double *timeout)
{
    char units[256];
    cli_program = "nqueens-mpi";
    if (argc < 2 || strcmp(argv[1], "count") != 0) {
        if (argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")))
            return cli_parse_count(mpi_help, 1, argv + 1, 0, a);
        if (argc >= 2 && (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")))
            return cli_print_version("nqueens-mpi"), CLI_HELP_SHOWN;
        return cli_error(CLI_USAGE, "nqueens-mpi runs 'count N' or 'verify "
                         "JOURNAL...' (see 'nqueens-mpi --help')");
    }
    if ((*timeout = take_timeout(&argc, argv)) < 0)
        return CLI_USAGE;
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
 * gave (a core or a socket, unless oversubscribed) widened to
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

/* The end of a job whose arguments a rank could not run: rank 0 says
 * which (its own refusal its parser said), and its status is the job's.
 * A worker exits 0: a worker's non-zero exit makes mpirun abort the job,
 * and the SIGTERM that sends could reach rank 0 in MPI_Finalize, which
 * would then say a stop after the refusal (seen under load). */
static int end_refused(int rc, int bad, int rank)
{
    if (rank == 0 && rc == CLI_OK) /* rank 0's are fine, another's not */
        rc = cli_error(CLI_USAGE, "rank %d cannot run its arguments", bad);
    MPI_Finalize();
    rc = cli_finish_output(rc == CLI_HELP_SHOWN ? CLI_OK : rc);
    return rank == 0 ? rc : CLI_OK;
}

/* Rank 0 estimates the count at its own speed, shared by the workers
 * (every rank but 0, or rank 0 alone), and every rank learns its verdict. */
static int feasible(cli_count_args *a, int rank)
{
    int size, rc = CLI_OK;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (rank == 0)
        rc = cli_check_feasible(a, size > 1 ? size - 1 : 1);
    if (rank == 0 && rc == CLI_OK)
        rc = cli_say_count_estimate(a, a->hi, size > 1 ? size - 1 : 1);
    MPI_Bcast(&rc, 1, MPI_INT, 0, MPI_COMM_WORLD);
    return rc;
}

/* Rank 0's line for a rank lost, as it happens. */
static void say_lost(void *ctx, int rank, const char *host, double silent,
                     uint64_t units_back)
{
    (*(int *)ctx)++;
    fprintf(stderr, "nqueens-mpi: rank %d%s%s is lost (silent for %.0f s); "
            "its %llu units in hand go to the other ranks\n", rank,
            host[0] ? " on " : "", host, silent,
            (unsigned long long)units_back);
    fflush(stderr);
}

/* Rank 0's line for a take-back, with NQ_MPI_TRACE set in its
 * environment (the tests' proof that the tail was shared out). */
static void say_take_back(void *ctx, int rank, uint64_t units)
{
    (void)ctx;
    fprintf(stderr, "nqueens-mpi: rank %d gave back %llu unstarted units "
            "for an idle rank\n", rank, (unsigned long long)units);
    fflush(stderr);
}

/* The end of a job that lost a rank, where MPI_Finalize would wait for it
 * forever.  Rank 0 has printed and journaled what it has: it ends the job
 * with MPI_Abort, EXIT_LOST_RANK if the count is complete.  A worker that
 * lost rank 0 just exits (mpirun, if it still hears this machine, ends
 * the rest).  Other workers finalize as usual: rank 0's abort ends them. */
static void end_after_loss(int is_root, int lost, nq_status st, int rc,
                           const char *what)
{
    if (is_root && (lost || st == NQ_ERR_LOST)) {
        fflush(stdout); /* the result before the line that follows it */
        if (rc == CLI_OK)
            fprintf(stderr, "nqueens-mpi: the %s is complete; ending the "
                    "job without the lost ranks (exit status %d)\n", what,
                    EXIT_LOST_RANK);
        fflush(NULL);
        MPI_Abort(MPI_COMM_WORLD, rc == CLI_OK ? EXIT_LOST_RANK : rc);
    }
    if (!is_root && st == NQ_ERR_LOST)
        _exit(CLI_FAIL);
}

/* ---- verify ---- */

/* What rank 0's check needs beyond verify's arguments. */
typedef struct {
    nq_mpi_options mo;
    int lost;                   /* ranks lost in the recount */
    nq_status st;               /* the check's status */
} mpi_check;

/* cli_verify_args.check on rank 0: the check over the job. */
static nq_status check_on_job(void *ctx, const char *const *paths,
                              int count, const nq_verify_options *o,
                              nq_journal_header *h, nq_verify_report *r,
                              char *why, size_t wsize)
{
    mpi_check *m = ctx;
    int is_root;
    m->st = nq_mpi_journal_verify(paths, count, o, &m->mo, h, r, &m->lost,
                                  why, wsize, &is_root);
    return m->st;
}

/* Rank 0's line per worker with NQ_MPI_TRACE set: the tests' proof that
 * the recount was shared out. */
static void say_rank_units(void *ctx, int rank, uint64_t units)
{
    (void)ctx;
    fprintf(stderr, "nqueens-mpi: rank %d counted %llu units\n", rank,
            (unsigned long long)units);
    fflush(stderr);
}

/* `verify JOURNAL...` and verify's options, with --worker-timeout. */
static int parse_verify(int argc, char **argv, cli_verify_args *a,
                        const char ***pos, int *npos, double *timeout)
{
    *pos = NULL;
    if ((*timeout = take_timeout(&argc, argv)) < 0)
        return CLI_USAGE;
    int rc = cli_kernel_from_environment();
    return rc == CLI_OK ? cli_parse_verify(mpi_verify_help, argc - 2,
                                           argv + 2, a, pos, npos)
                        : rc;
}

/* The check: rank 0 reads, chooses and prints; every rank recounts. */
static int run_verify(int argc, char **argv, int rank)
{
    cli_verify_args a = {0};
    const char **pos;
    int npos = 0, bad, rc, is_root;
    double timeout;
    rc = parse_verify(argc, argv, &a, &pos, &npos, &timeout);
    if ((bad = arguments_agree(rc)) >= 0) {
        free(pos);
        return end_refused(rc, bad, rank);
    }
    int trace = getenv("NQ_MPI_TRACE") != NULL;
    mpi_check m = {{sizeof m.mo, timeout, say_lost, &m.lost,
                    trace ? say_take_back : NULL,
                    trace ? say_rank_units : NULL}, 0, NQ_OK};
    if (rank == 0) {
        a.check = check_on_job, a.check_ctx = &m;
        rc = cli_finish_output(cli_verify_journals(pos, npos, &a, NULL));
    } else {
        nq_journal_header h;
        nq_verify_report r;
        nq_verify_options o = {.threads = a.threads};
        char why[256];
        m.st = nq_mpi_journal_verify(NULL, 0, &o, &m.mo, &h, &r, &m.lost,
                                     why, sizeof why, &is_root);
        rc = CLI_OK;
    }
    free(pos);
    end_after_loss(rank == 0, m.lost, m.st, rc, "check");
    MPI_Finalize();
    return rc;
}

int main(int argc, char **argv)
{
    int rank, rc, is_root, bad, lost = 0;
    double timeout = 0;
    cli_count_args a = {0};
    signal(SIGXFSZ, SIG_IGN); /* past `ulimit -f`: EFBIG, said (dispatch.c) */
    /* before MPI_Init, which takes a second or more across machines: a
     * Ctrl-C or a scheduler's SIGTERM then is said and ends the rank
     * with the shell's status, as at any later moment */
    cli_program = "nqueens-mpi";
    cli_catch_from_start(argc, argv);
    cli_nls_init(); /* nqueens' own: its catalogues, found beside it */
    if (!start_mpi(&argc, &argv, &rank)) {
        MPI_Finalize();
        return CLI_FAIL;
    }
    if (rank != 0) { /* identical arguments: only rank 0 speaks */
        freopen("/dev/null", "w", stdout);
        freopen("/dev/null", "w", stderr);
        worker_policy();
    }
    if (argc >= 2 && !strcmp(argv[1], "verify"))
        return run_verify(argc, argv, rank);
    rc = parse(argc, argv, &a, &timeout);
    if ((bad = arguments_agree(rc)) >= 0)
        return end_refused(rc, bad, rank);
    if (rank == 0) /* before the estimate: it watches the flag too */
        cli_watch_stop("count", &a);
    if ((rc = feasible(&a, rank)) != CLI_OK) {
        MPI_Finalize();
        return cli_finish_output(rc);
    }
    cli_long_count c = a.c;
    nq_run_report r = NQ_RUN_REPORT_INIT;
    int trace = getenv("NQ_MPI_TRACE") != NULL;
    nq_mpi_options mo = {sizeof mo, timeout, say_lost, &lost,
                         trace ? say_take_back : NULL,
                         trace ? say_rank_units : NULL};
    nq_status st = nq_mpi_count_resumable(&c.req, &c.opt, &mo, &r, &is_root);
    /* rank 0's status is the job's: the others' would race it to mpirun */
    rc = is_root ? cli_finish_output(cli_report_long_count(&c, st, &r))
                 : CLI_OK;
    end_after_loss(is_root, lost, st, rc, "count");
    MPI_Finalize();
    return rc;
}
