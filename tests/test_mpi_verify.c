/*
 * test_mpi_verify.c - `nqueens-mpi verify`: a check's recount spread over
 * an MPI job chooses what `nqueens verify` chooses, is shared by the
 * workers, catches what it catches, writes verdicts that merge with
 * threaded parts', refuses bad input in one line, and finishes around a
 * worker lost mid-recount.
 *
 * These run only where NQ_MPI names build/nqueens-mpi and mpirun is on
 * PATH (as test_mpi.c's).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"

/* A finished fast journal of N at path (q: --checkpoint's, quiet). */
static int journal_of(const char *n, const char *path)
{
    t_proc p;
    unlink(path);
    if (t_run_cli(&p, ARGS("count", n, "--checkpoint", path, "-q")) != 0)
        return 0;
    int ok = p.exit_code == 0;
    t_proc_free(&p);
    return ok;
}

/* A whole-number member of a JSON summary, or -1. */
static long long member(const char *out, const char *name)
{
    char key[64];
    snprintf(key, sizeof key, "\"%s\":", name);
    const char *at = out ? strstr(out, key) : NULL;
    return at ? atoll(at + strlen(key)) : -1;
}

/* What nqueens-mpi's trace says each worker counted, summed; -1 if a
 * worker of the two counted none. */
static long long shared_out(const char *err)
{
    long long sum = 0;
    for (int rank = 1; rank <= 2; rank++) {
        char line[64];
        snprintf(line, sizeof line, "nqueens-mpi: rank %d counted ", rank);
        const char *at = strstr(err, line);
        long long k = at ? atoll(at + strlen(line)) : 0;
        if (k <= 0)
            return -1;
        sum += k;
    }
    return sum;
}

/* With one seed the job recounts what the threaded check recounts: the
 * same numbers in the summary, all agreeing, and both workers counted a
 * share that adds up to what was recounted. */
static void same_check_shared(void *arg)
{
    (void)arg;
    const char *j = t_file("n16.journal"), *mpi = getenv("NQ_MPI");
    const char *names[] = {"units", "recorded", "checked", "sampled",
                           "fixed_points", "by_size", "size_bound", "seed"};
    t_proc one, job;
    CHECK(journal_of("16", j));
    CHECK(t_run_cli(&one, ARGS("verify", j, "--seed", "7", "--json",
                               "-q")) == 0);
    CHECK(t_run_signalled(&job, "mpirun", ARGS("mpirun", "--oversubscribe",
          "-np", "3", "-x", "NQ_MPI_TRACE=1", mpi, "verify", j, "--seed",
          "7", "--json", "-q", "--threads", "1"), 0, 0) == 0);
    int same = 1;
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        same &= member(one.out, names[i]) == member(job.out, names[i]) &&
                member(job.out, names[i]) >= 0;
    long long checked = member(job.out, "checked");
    int ok = one.exit_code == 0 && job.exit_code == 0 &&
             member(job.out, "disagree") == 0 && checked > 16;
    long long shared = shared_out(job.err);
    if (!ok || !same || shared != checked)
        fprintf(stderr, "threaded: %s\njob (exit %d): %s%s", one.out,
                job.exit_code, job.out, job.err);
    t_proc_free(&one);
    t_proc_free(&job);
    CHECKF(ok, "the job's check failed or recounted too little");
    CHECKF(same, "the job chose other units than the threaded check");
    CHECKF(shared == checked, "the workers' shares (%lld) are not the %lld "
           "recounted, or a worker had none", shared, checked);
}

/* A forged journal is caught by the job: both units named on stdout as
 * they disagree, one line on stderr, exit 1. */
static void forgery_caught(void *arg)
{
    (void)arg;
    const char *j = t_file("forged.journal");
    t_proc p;
    CHECK(journal_of("12", j));
    CHECK(t_forge(j, t_zero_fixed_points, NULL) == 2);
    CHECK(t_run_signalled(&p, "mpirun", ARGS("mpirun", "--oversubscribe",
          "-np", "3", getenv("NQ_MPI"), "verify", j, "-q", "--threads", "1"),
          0, 0) == 0);
    const char *said = strstr(p.err, "nqueens-mpi: ");
    int ok = p.exit_code == 1 && strstr(p.out, "unit 0 disagrees") &&
             strstr(p.out, "unit 1 disagrees") && said &&
             !strstr(said + 1, "nqueens-mpi: ") && strstr(said, "2 of the");
    if (!ok)
        fprintf(stderr, "exit %d\n%s%s", p.exit_code, p.out, p.err);
    t_proc_free(&p);
    CHECKF(ok, "the job passed a forged journal");
}

/* A check in two parts, part 1 over the job and part 2 on threads: the
 * verdicts merge (--verified) to OEIS's row. */
static void part_verdicts_merge(void *arg)
{
    (void)arg;
    const char *j = t_file("n14.journal"), *v1 = t_file("v1"),
               *v2 = t_file("v2");
    char total[NQ_U128_DIGITS], unique[NQ_U128_DIGITS], want[96];
    t_proc p;
    CHECK(journal_of("14", j));
    CHECK(t_run_signalled(&p, "mpirun", ARGS("mpirun", "--oversubscribe",
          "-np", "3", getenv("NQ_MPI"), "verify", j, "--part", "1/2",
          "--seed", "9", "--output", v1, "-q"), 0, 0) == 0);
    int one = p.exit_code == 0 && strstr(p.out, "part 1/2 recounted");
    t_proc_free(&p);
    CHECK(t_run_cli(&p, ARGS("verify", j, "--part", "2/2", "--seed", "9",
                             "--output", v2, "-q")) == 0);
    int two = p.exit_code == 0;
    t_proc_free(&p);
    CHECKF(one && two, "a part failed (job: %d, threads: %d)", one, two);
    CHECK(t_run_cli(&p, ARGS("merge", "--verified", j, v1, v2)) == 0);
    snprintf(want, sizeof want, "%s %s", nq_format_u128(t_oeis_total(14),
             total), nq_format_u128(t_oeis_unique(14), unique));
    int ok = p.exit_code == 0 && strstr(p.out, total) &&
             strstr(p.out, unique) && strstr(p.out, "verified in 2 parts");
    if (!ok)
        fprintf(stderr, "exit %d\n%s%s", p.exit_code, p.out, p.err);
    t_proc_free(&p);
    CHECKF(ok, "the job's verdict did not merge with the threaded part's "
           "to OEIS's row (%s)", want);
}

/* Bad input: a journal that is not there (exit 1), --part without a
 * seed and a bad --worker-timeout (exit 2): one line from nqueens-mpi
 * each, no hang, nothing printed. */
static void bad_input_one_line(void *arg)
{
    (void)arg;
    const char *mpi = getenv("NQ_MPI"), *gone = t_file("gone.journal");
    const char *const *cases[] = {
        ARGS("mpirun", "--oversubscribe", "-np", "2", mpi, "verify", gone),
        ARGS("mpirun", "--oversubscribe", "-np", "2", mpi, "verify", gone,
             "--part", "1/2"),
        ARGS("mpirun", "--oversubscribe", "-np", "2", mpi, "verify", gone,
             "--worker-timeout", "0"),
        ARGS("mpirun", "--oversubscribe", "-np", "2", mpi, "verifi", gone),
    };
    const int want[] = {1, 2, 2, 2};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        t_proc p;
        CHECK(t_run_signalled(&p, "mpirun", cases[i], 0, 0) == 0);
        int lines = 0;
        for (const char *s = strstr(p.err, "nqueens-mpi: "); s;
             s = strstr(s + 1, "nqueens-mpi: "))
            lines++;
        int ok = p.exit_code == want[i] && lines == 1 && !p.out[0];
        if (!ok)
            fprintf(stderr, "case %zu: exit %d (want %d)\n%s%s", i,
                    p.exit_code, want[i], p.out, p.err);
        t_proc_free(&p);
        CHECKF(ok, "bad input case %zu not refused in one line", i);
    }
}

/* nqueens-mpi verify --help has verify's options and its own. */
static void help_has_verify_options(void *arg)
{
    (void)arg;
    const struct {
        const char *name;
        char letter;
        int value;
    } names[] = {{"--part", 0, 1}, {"--seed", 0, 1}, {"--output", 'o', 1},
                 {"--estimate", 0, 0}, {"--sample", 0, 1}, {"--all", 0, 0},
                 {"--list", 0, 1}, {"--threads", 't', 1},
                 {"--worker-timeout", 0, 1}};
    t_proc p;
    CHECK(t_run_signalled(&p, "mpirun", ARGS("mpirun", "-np", "1",
          getenv("NQ_MPI"), "verify", "--help"), 0, 0) == 0);
    int missing = p.exit_code != 0 || !strstr(p.out, "nqueens-mpi verify");
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        if (!t_help_has_option(p.out, names[i].name, names[i].letter,
                               names[i].value) && ++missing)
            fprintf(stderr, "no entry for %s\n", names[i].name);
    t_proc_free(&p);
    CHECKF(!missing, "nqueens-mpi verify --help lacks its options");
}

/* A worker stopped (SIGSTOP, as a hung machine) once it has counted for
 * half a second of CPU: rank 0 names it lost after the 2 s deadline, the
 * other worker recounts its units, every unit of N = 18 agrees, and the
 * job ends with exit status 3 (the check complete, a rank lost); or, the
 * check whole and said so, with mpirun's own failure after it (as in
 * test_mpi.c's lost-rank cases: OpenMPI's, doc/cluster.md). */
static void lost_worker_recounted_around(void *arg)
{
    (void)arg;
    const char *j = t_file("n18.journal");
    char script[2048];
    t_proc p;
    CHECK(journal_of("18", j));
    snprintf(script, sizeof script,
             "timeout -k 5 120 mpirun --oversubscribe -np 3 %s verify %s "
             "--all -q --threads 1 --worker-timeout 2 & m=$!; i=0; s=''; "
             "while [ $i -lt 600 ] && [ -z \"$s\" ]; do sleep 0.05; "
             "i=$((i+1)); for c in $(pgrep -f '^%s verify %s'); do "
             "tr '\\0' '\\n' < /proc/$c/environ 2>/dev/null | "
             "grep -qx OMPI_COMM_WORLD_RANK=2 && "
             "[ \"$(awk '{print $14}' /proc/$c/stat)\" -ge 50 ] && "
             "kill -STOP $c && s=$c; done; done; "
             "wait $m; rc=$?; [ -n \"$s\" ] && kill -KILL $s; exit $rc",
             getenv("NQ_MPI"), j, getenv("NQ_MPI"), j);
    CHECK(t_run_signalled(&p, "sh", ARGS("sh", "-c", script), 0, 0) == 0);
    int whole = strstr(p.out, "recounted all ") && strstr(p.out, "all agree")
                && strstr(p.err, "nqueens-mpi: rank 2 on ") &&
                strstr(p.err, "is lost (silent for 2 s)") &&
                strstr(p.err, "the check is complete");
    int ok = whole && (p.exit_code == 3 || t_mpirun_failed_after(&p));
    if (!ok)
        fprintf(stderr, "exit %d\n%s%s", p.exit_code, p.out, p.err);
    else if (p.exit_code != 3)
        fprintf(stderr, "  (mpirun itself failed after the whole check, "
                "exit %d: OpenMPI's, doc/cluster.md)\n", p.exit_code);
    t_proc_free(&p);
    CHECKF(ok, "a stopped worker was not lost and recounted around");
}

void tests_mpi_verify(void)
{
    t_skip_cases(!getenv("NQ_MPI") || !t_have_mpirun()
                 ? "no NQ_MPI or no mpirun" : NULL);
    t_mpi_env();
    t_case(same_check_shared, NULL, "mpi/verify-same-choice-shared-by-workers");
    t_case(forgery_caught, NULL, "mpi/verify-forged-journal-caught");
    t_full_case(part_verdicts_merge, NULL,
                "mpi/verify-part-verdict-merges-with-threaded-part");
    t_full_case(bad_input_one_line, NULL, "mpi/verify-bad-input-one-line");
    t_case(help_has_verify_options, NULL, "mpi/verify-help-lists-its-options");
    t_full_case_alone(lost_worker_recounted_around, NULL,
                      "mpi/verify-stopped-worker-lost-check-complete-exit-3");
    t_skip_cases(NULL);
}
