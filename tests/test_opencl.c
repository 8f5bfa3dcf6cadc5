/*
 * test_opencl.c - engine opencl, run for real: nqueens-opencl (NQ_OPENCL,
 * set by make test where the OpenCL back-end is built) on the OpenCL
 * devices of this machine, PoCL's CPU device in CI.
 *
 * With a device (its --version lists one), the engine must count N = 1..16
 * to OEIS's totals and unique counts, share journals with fast both ways
 * (budgeted runs and parts), stop on SIGINT keeping its records, and say
 * each failure (a kernel that does not build, a device that lays the
 * jobs out otherwise, a device out of memory, a device that is not
 * there) in one line; an error where a count was due
 * is a failure.  Without a device those cases are skipped, never passed;
 * the cases that need none (no OpenCL platform at all, the settings'
 * refusals) run wherever the program is built.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness.h"

#if defined(__SANITIZE_ADDRESS__)
/* Add option to the sanitizer's options in variable `name`. */
static void sanitizer_option(const char *name, const char *option)
{
    const char *given = getenv(name);
    char options[1024];
    snprintf(options, sizeof options, "%s%s%s", given ? given : "",
             given && *given ? ":" : "", option);
    setenv(name, options, 1);
}
#endif

/* The program under test.  In the sanitizer build (make asan builds it
 * with AddressSanitizer, as this runner) its children run without
 * AddressSanitizer's alternate signal stacks, and with PoCL's own leaks
 * passed over (tests/data/lsan-pocl.supp): the LLVM inside PoCL's
 * compiler puts its own stack on the thread that builds a program, and
 * AddressSanitizer, finding another than its own at the thread's exit,
 * fails to unmap it and aborts ("unable to unmap", PoCL 3.1, gcc 12). */
static const char *opencl(void)
{
#if defined(__SANITIZE_ADDRESS__)
    static int set;
    char suppressions[600];
    if (!set++) {
        snprintf(suppressions, sizeof suppressions, "suppressions=%s",
                 t_data_path("lsan-pocl.supp"));
        sanitizer_option("ASAN_OPTIONS", "use_sigaltstack=0");
        sanitizer_option("LSAN_OPTIONS", suppressions);
    }
#endif
    return getenv("NQ_OPENCL");
}

/* Whether nqueens-opencl lists an OpenCL device ("  device 0: " in its
 * --version), and in `why` its line saying so or why not. */
static int device_probe(char *why, size_t size)
{
    t_proc p;
    const char *cl = opencl();
    if (t_run_signalled(&p, cl, ARGS(cl, "--version"), 0, 0) != 0) {
        snprintf(why, size, "%s --version did not run", cl);
        return 0;
    }
    const char *line = strstr(p.out, "engine opencl:\n  ");
    line = line ? line + strlen("engine opencl:\n  ") : "no engine opencl";
    int listed = p.exit_code == 0 && !strncmp(line, "device 0: ", 10);
    snprintf(why, size, "%.*s", (int)strcspn(line, "\n"), line);
    t_proc_free(&p);
    return listed;
}

/* device_probe's answer, asked once per case; a case that needs a
 * device and finds none is skipped (0 returned: the case returns). */
static int device_here(void)
{
    static int known = -1;
    static char why[256];
    if (known < 0)
        known = device_probe(why, sizeof why);
    if (!known)
        t_skip("nqueens-opencl --version: %s", why);
    return known;
}

/* A file of this case's own (cases run in processes of their own). */
static const char *scratch(const char *name)
{
    static char path[4][128];
    static int k;
    char *p = path[k++ % 4];
    snprintf(p, sizeof path[0], "/tmp/nq-opencl-%d-%s", (int)getpid(), name);
    return p;
}

/* The count table's row of n as OEIS has it (the time column aside). */
static const char *oeis_row(int n)
{
    static char row[96];
    char total[NQ_U128_DIGITS], unique[NQ_U128_DIGITS];
    snprintf(row, sizeof row, "\n%2d:%13s%13s", n,
             nq_format_u128(t_oeis_total(n), total),
             nq_format_u128(t_oeis_unique(n), unique));
    return row;
}

/* Whether a line is clang's count of a program's errors, "1 error
 * generated.", which PoCL's compiler prints on the process's stderr
 * itself (no build option PoCL takes silences it). */
static int compiler_count_line(const char *line)
{
    unsigned k;
    int end = 0;
    if (sscanf(line, "%u error%n", &k, &end) < 1 || !end)
        return 0;
    line += end;
    line += *line == 's';
    return !strncmp(line, " generated.\n", 12);
}

/* Exit 1, nothing on stdout, and on stderr one line of the program's
 * starting `start` and holding `words`; with `compiled`, after any lines
 * of the OpenCL compiler's count of errors (compiler_count_line). */
static int one_line_error(const t_proc *p, const char *start,
                          const char *words, int compiled)
{
    const char *last = p->err;
    for (const char *nl; (nl = strchr(last, '\n')) && nl[1]; last = nl + 1)
        if (!compiled || !compiler_count_line(last))
            return 0;
    return p->exit_code == 1 && p->out_len == 0 &&
           !strncmp(last, start, strlen(start)) && strstr(last, words) &&
           strchr(last, '\n') == p->err + p->err_len - 1;
}

/* The journal's unit records: how many, and whether each unit of
 * [0, units) is recorded at most once. */
static int records(const char *path, uint64_t units, uint64_t *seen)
{
    size_t len;
    char *text = t_read_file(path, &len), *save = NULL;
    unsigned char *once = calloc(units + 1, 1);
    int ok = text && once;
    *seen = 0;
    for (char *l = ok ? strtok_r(text, "\n", &save) : NULL; l && ok;
         l = strtok_r(NULL, "\n", &save)) {
        unsigned long long u;
        if (sscanf(l, "unit %llu ", &u) != 1)
            continue;
        ok = u < units && !once[u]++;
        ++*seen;
    }
    free(text);
    free(once);
    return ok;
}

/* The units of fast's plan for n (opencl's: the same plan). */
static uint64_t plan_units(int n)
{
    nq_request req = {.size = sizeof(nq_request), .n = n, .engine = "fast"};
    nq_plan *p;
    uint64_t u = 0;
    if (nq_plan_create(&req, &p) == NQ_OK) {
        u = nq_plan_units(p);
        nq_plan_free(p);
    }
    return u;
}

/* A count run by program `prog` (nqueens-opencl or nqueens, NQ_CLI), with
 * up to six more arguments after "count N -e ENGINE --quiet". */
static int run_count(t_proc *p, const char *prog, int n, const char *engine,
                     const char *const *more)
{
    char size[16];
    const char *args[16] = {prog, "count", size, "-e", engine, "--quiet"};
    int k = 6;
    snprintf(size, sizeof size, "%d", n);
    for (; more && *more && k < 15; more++)
        args[k++] = *more;
    args[k] = NULL;
    return t_run_signalled(p, prog, args, 0, 0);
}

/* The program that runs `engine`: nqueens-opencl for opencl, else
 * nqueens (NQ_CLI). */
static const char *program_of(const char *engine)
{
    return strcmp(engine, "opencl") ? getenv("NQ_CLI") : opencl();
}

/* Whether `engine` finishes the journal of n to OEIS's row with every
 * unit recorded once; the journal is removed after. */
static int finishes(const char *engine, const char *journal, int n)
{
    t_proc p;
    uint64_t seen = 0, units = plan_units(n);
    if (run_count(&p, program_of(engine), n, engine,
                  ARGS("--checkpoint", journal)) != 0)
        return 0;
    int finished = p.exit_code == 0 && strstr(p.out, oeis_row(n));
    t_proc_free(&p);
    int whole = records(journal, units, &seen) && seen == units;
    unlink(journal);
    return finished && whole;
}

/* --version lists the devices the program sees, or says why it sees
 * none, and exits 0 either way. */
static void version_lists_devices(void *arg)
{
    (void)arg;
    t_proc p;
    const char *cl = opencl();
    CHECK(t_run_signalled(&p, cl, ARGS(cl, "--version"), 0, 0) == 0);
    int said = p.exit_code == 0 &&
               (strstr(p.out, "\nengine opencl:\n  device 0: ") ||
                strstr(p.out, "\nengine opencl:\n  no OpenCL device ("));
    t_proc_free(&p);
    CHECK(said);
}

/* Counts lo..hi in one run, each row OEIS's total and unique count. */
static void counts_oeis(void *arg)
{
    const int *range = arg;
    char from_to[16];
    t_proc p;
    if (!device_here())
        return;
    snprintf(from_to, sizeof from_to, "%d-%d", range[0], range[1]);
    const char *cl = opencl();
    CHECK(t_run_signalled(&p, cl, ARGS(cl, "count", from_to, "-e", "opencl",
                                       "--quiet"), 0, 0) == 0);
    int bad = 0;
    for (int n = range[0]; n <= range[1] && !bad; n++)
        bad = strstr(p.out, oeis_row(n)) ? 0 : n;
    int code = p.exit_code;
    char err[160];
    const char *said = p.err + strspn(p.err, "\n");
    snprintf(err, sizeof err, "%.*s", (int)strcspn(said, "\n"), said);
    t_proc_free(&p);
    CHECKF(code == 0 && !bad, "exit %d, N=%d's row not OEIS's (0: all "
           "are): %s", code, bad, err);
}

/* N = 13 on 4 threads, 20 times, OEIS's row each time: the workers
 * start at once, each taking its device on its first batch, and PoCL's
 * platform, listed by each of them at once, failed 19 runs of 20 ("no
 * OpenCL device: the platforms list none") before it was listed once
 * for the process under a lock. */
static void threads_race(void *arg)
{
    (void)arg;
    t_proc p;
    int right = 0;
    char err[160] = "";
    if (!device_here())
        return;
    for (int run = 0; run < 20; run++) {
        CHECK(run_count(&p, opencl(), 13, "opencl",
                        ARGS("--threads", "4")) == 0);
        if (p.exit_code == 0 && strstr(p.out, oeis_row(13)))
            right++;
        else
            snprintf(err, sizeof err, "%.*s", (int)strcspn(p.err, "\n"),
                     p.err);
        t_proc_free(&p);
    }
    CHECKF(right == 20, "%d of 20 runs right; the last wrong one: %s", right,
           err);
}

/* --devices 0 counts on the device listed first; a device that is not
 * there is one line, exit 1, said before any unit is counted: in a range
 * of small boards, where only the first worker ever takes a batch (the
 * device listed first), as for a journal, which is then not begun. */
static void devices_option(void *arg)
{
    (void)arg;
    t_proc p;
    if (!device_here())
        return;
    CHECK(run_count(&p, opencl(), 12, "opencl",
                    ARGS("--devices", "0")) == 0);
    int counted = p.exit_code == 0 && strstr(p.out, oeis_row(12));
    t_proc_free(&p);
    CHECKF(counted, "--devices 0 did not count N=12");
    CHECK(run_count(&p, opencl(), 12, "opencl",
                    ARGS("--devices", "63")) == 0);
    int said = one_line_error(&p, "nqueens: count 12: ",
                              "no OpenCL device 63: ", 0);
    t_proc_free(&p);
    CHECKF(said, "--devices 63 was not refused in one line");
    CHECK(t_run_signalled(&p, opencl(), ARGS(opencl(), "count", "4-12", "-e",
                          "opencl", "--devices", "0,63"), 0, 0) == 0);
    said = one_line_error(&p, "nqueens: count 4: ", "no OpenCL device 63: ",
                          0);
    t_proc_free(&p);
    CHECKF(said, "--devices 0,63 counted before it was refused");
    char j[64];
    snprintf(j, sizeof j, "/tmp/nq-devices-%d.journal", (int)getpid());
    unlink(j);
    CHECK(run_count(&p, opencl(), 12, "opencl", ARGS("--devices", "0,63",
                    "--checkpoint", j)) == 0);
    said = one_line_error(&p, "nqueens: count 12: ", "no OpenCL device 63: ",
                          0) && access(j, F_OK) != 0;
    t_proc_free(&p);
    unlink(j);
    CHECKF(said, "--devices 0,63 with a journal: not refused before it");
}

/* A journal begun by `first` (a budget of 300 units), finished by
 * `second`: the OEIS row, every unit recorded once. */
static void journal_shared(void *arg)
{
    const char *const *engines = arg;
    const char *j = scratch("shared.journal");
    t_proc p;
    if (!device_here())
        return;
    unlink(j);
    CHECK(run_count(&p, program_of(engines[0]), 13, engines[0],
                    ARGS("--checkpoint", j, "--max-units", "300")) == 0);
    int budgeted = p.exit_code == 1 && strstr(p.err, "300 of");
    t_proc_free(&p);
    uint64_t seen = 0;
    int kept = records(j, plan_units(13), &seen) && seen == 300;
    if (!budgeted || !kept)
        unlink(j);
    CHECKF(budgeted && kept, "%s's budgeted run: %llu records",
           engines[0], (unsigned long long)seen);
    CHECKF(finishes(engines[1], j, 13), "%s did not finish %s's journal to "
           "OEIS's row, each unit once", engines[1], engines[0]);
}

/* Part 1/2 by fast, part 2/2 by opencl, merged: the OEIS row. */
static void parts_merged(void *arg)
{
    (void)arg;
    const char *j1 = scratch("part1"), *j2 = scratch("part2");
    const char *cli = getenv("NQ_CLI");
    t_proc p;
    if (!device_here())
        return;
    unlink(j1), unlink(j2);
    CHECK(run_count(&p, cli, 14, "fast",
                    ARGS("--part", "1/2", "--checkpoint", j1)) == 0);
    int one = p.exit_code == 0;
    t_proc_free(&p);
    CHECK(run_count(&p, opencl(), 14, "opencl",
                    ARGS("--part", "2/2", "--checkpoint", j2)) == 0);
    int two = p.exit_code == 0;
    t_proc_free(&p);
    if (!one || !two)
        unlink(j1), unlink(j2);
    CHECKF(one && two, "part 1 (fast) exit ok %d, part 2 (opencl) %d", one,
           two);
    CHECK(t_run_signalled(&p, cli, ARGS(cli, "merge", j1, j2), 0, 0) == 0);
    int merged = p.exit_code == 0 && strstr(p.out, oeis_row(14));
    t_proc_free(&p);
    unlink(j1), unlink(j2);
    CHECKF(merged, "the parts merged are not OEIS's row");
}

typedef struct {
    const char *journal;
    double at;              /* when the first record was seen */
} first_record;

/* Whether the journal holds a unit record yet (when, noted). */
static int has_record(void *ctx)
{
    first_record *f = ctx;
    char *text = t_read_file(f->journal, NULL);
    int yes = text && strstr(text, "\nunit ");
    free(text);
    if (yes)
        f->at = nq_clock_seconds();
    return yes;
}

/* SIGINT once the journal holds a record (N = 17, some ten seconds under
 * PoCL): exit 130 with the stop's one line, within two seconds (the
 * kernel polls a flag the host sets, and work-items that start after it
 * search nothing), the records kept; fast then finishes the journal to
 * OEIS's row. */
static void sigint_keeps_records(void *arg)
{
    (void)arg;
    first_record f = {scratch("sigint.journal"), 0};
    const char *cl = opencl();
    t_proc p;
    if (!device_here())
        return;
    unlink(f.journal);
    CHECK(t_run_prog_when(&p, cl, ARGS(cl, "count", "17", "-e", "opencl",
                                       "--checkpoint", f.journal, "--quiet"),
                          has_record, &f, SIGINT) == 0);
    double took = nq_clock_seconds() - f.at;
    int stopped = p.exit_code == 130 && strstr(p.err, "stopped by SIGINT") &&
                  strchr(p.err, '\n') == p.err + p.err_len - 1;
    t_proc_free(&p);
    uint64_t seen = 0, units = plan_units(17);
    int kept = records(f.journal, units, &seen) && seen > 0 && seen < units;
    if (!stopped || took >= 2.0 || !kept)
        unlink(f.journal);
    CHECKF(stopped, "no clean stop by SIGINT");
    CHECKF(took < 2.0, "the stop took %.2f s", took);
    CHECKF(kept, "%llu records kept of %llu units", (unsigned long long)seen,
           (unsigned long long)units);
    CHECKF(finishes("fast", f.journal, 17), "fast did not finish the "
           "stopped journal");
}

/* No OpenCL platform at all (the ICD loader pointed at an empty folder of
 * vendors): one line naming CL_PLATFORM_NOT_FOUND_KHR, exit 1, the journal
 * left for fast to finish; --version says so and exits 0. */
static void no_platform(void *arg)
{
    (void)arg;
    const char *vendors = scratch("vendors"), *j = scratch("none.journal");
    const char *cl = opencl();
    t_proc p;
    CHECK(mkdir(vendors, 0700) == 0 &&
          setenv("OCL_ICD_VENDORS", vendors, 1) == 0);
    unlink(j);
    CHECK(run_count(&p, cl, 12, "opencl", ARGS("--checkpoint", j)) == 0);
    int said = one_line_error(&p, "nqueens: count 12: ",
                              "(CL_PLATFORM_NOT_FOUND_KHR: no OpenCL platform "
                              "is installed); 0 of ", 0);
    t_proc_free(&p);
    CHECK(t_run_signalled(&p, cl, ARGS(cl, "--version"), 0, 0) == 0);
    int version = p.exit_code == 0 &&
                  strstr(p.out, "\n  no OpenCL device (CL_PLATFORM_NOT_FOUND");
    t_proc_free(&p);
    unsetenv("OCL_ICD_VENDORS");
    rmdir(vendors);
    int finished = finishes("fast", j, 12);
    CHECKF(said, "no one-line error naming the missing platform");
    CHECKF(version, "--version did not say there is no platform");
    CHECKF(finished, "fast did not finish the journal");
}

/* nqueens-opencl verify of a journal that opencl wrote, as JSON (exit
 * status in *code), with no OpenCL platform when `vendors` names an empty
 * folder for the ICD loader; more: the options after the journal. */
static int verify_json(t_proc *p, const char *j, const char *vendors,
                       const char *const *more)
{
    const char *args[12] = {opencl(), "verify", "--json", "-q", "--seed",
                            "5", j};
    int k = 7;
    for (; more && *more && k < 11; more++)
        args[k++] = *more;
    args[k] = NULL;
    if (vendors && setenv("OCL_ICD_VENDORS", vendors, 1) != 0)
        return -1;
    int rc = t_run_signalled(p, opencl(), args, 0, 0);
    unsetenv("OCL_ICD_VENDORS");
    return rc;
}

/* verify recounts an opencl journal on fast, the plan's CPU engine,
 * whatever the header names, so it needs no device (none here: no
 * platform); --engine opencl counts on the device, and a device that
 * fails leaves the units to fast with one line, the check still made. */
static void verify_on_the_cpu(void *arg)
{
    (void)arg;
    const char *j = scratch("verify.journal"), *vendors = scratch("none");
    const char *said = "nqueens: verify: engine opencl failed "
                       "(CL_PLATFORM_NOT_FOUND_KHR";
    t_proc p;
    if (!device_here())
        return;
    unlink(j);
    CHECK(run_count(&p, opencl(), 12, "opencl", ARGS("--checkpoint", j)) ==
          0 && p.exit_code == 0);
    t_proc_free(&p);
    CHECK(mkdir(vendors, 0700) == 0 || errno == EEXIST);
    CHECK(verify_json(&p, j, vendors, NULL) == 0);
    int cpu = p.exit_code == 0 && strstr(p.out, "\"engine\":\"fast\"") &&
              p.err_len == 0;
    t_proc_free(&p);
    CHECK(verify_json(&p, j, NULL, ARGS("--engine", "opencl")) == 0);
    int device = p.exit_code == 0 && strstr(p.out, "\"engine\":\"opencl\"");
    t_proc_free(&p);
    CHECK(verify_json(&p, j, vendors, ARGS("--engine", "opencl")) == 0);
    int fell = p.exit_code == 0 && strstr(p.out, "\"engine\":\"fast\"") &&
               strstr(p.out, "\"fell_back\":true") &&
               !strncmp(p.err, said, strlen(said)) &&
               strstr(p.err, "; recounting the rest on fast\n") ==
               p.err + p.err_len - 30;
    t_proc_free(&p);
    rmdir(vendors);
    unlink(j);
    CHECKF(cpu, "verify of an opencl journal did not recount on fast");
    CHECKF(device, "verify --engine opencl did not recount on opencl");
    CHECKF(fell, "verify --engine opencl without a platform did not fall "
           "back to fast with one line");
}

/* make bench-gpu's script run as the target runs it, the engines named
 * by the environment (NQ_CUDA, NQ_OPENCL, NQ_CLI), from N = 6 to 9. */
static int bench_gpu(t_proc *p, const char *cuda, const char *cl)
{
    if (setenv("NQ_CUDA", cuda, 1) != 0 || setenv("NQ_OPENCL", cl, 1) != 0)
        return -1;
    return t_run_signalled(p, "/bin/sh", ARGS("/bin/sh", "bench/gpu.sh", "6",
                                               "9"), 0, 0);
}

/* bench-gpu on PoCL's CPU device (OPENCL_ANY=1: a check of the script,
 * not a speed): a row for each N with OEIS's total, the opencl column
 * and fast's; without OPENCL_ANY the CPU device is no GPU and the script
 * says so, exit 2. */
static void bench_gpu_table(void *arg)
{
    (void)arg;
    t_proc p;
    char row[64];
    if (!device_here())
        return;
    CHECK(setenv("OPENCL_ANY", "1", 1) == 0);
    CHECK(bench_gpu(&p, "", opencl()) == 0);
    int rows = p.exit_code == 0 && strstr(p.out, "| N | total | opencl (s) | "
                                          "fast, all cores (s) | fast / "
                                          "opencl |\n");
    for (int n = 6; n <= 9 && rows; n++) {
        snprintf(row, sizeof row, "\n| %d | %llu | ", n,
                 (unsigned long long)t_oeis_total(n));
        rows = strstr(p.out, row) != NULL;
    }
    t_proc_free(&p);
    unsetenv("OPENCL_ANY");
    CHECK(bench_gpu(&p, "", opencl()) == 0);
    int refused = p.exit_code == 2 && strstr(p.err, "bench-gpu: no GPU for ");
    t_proc_free(&p);
    CHECKF(rows, "no row with OEIS's total for each N");
    CHECKF(refused, "a CPU device was taken for a GPU");
}

/* bench-gpu against an engine that lists a GPU and counts wrong (a
 * script standing in for it): the script says which N and exits 1. */
static void bench_gpu_wrong_count(void *arg)
{
    (void)arg;
    const char *fake = scratch("fake-gpu.sh");
    FILE *f = fopen(fake, "w");
    t_proc p;
    CHECK(f);
    fputs("#!/bin/sh\n"
          "case $1 in\n"
          "--version) printf 'engine opencl:\\n  device 0: Fake (GPU, "
          "OpenCL C 1.2)\\n' ;;\n"
          "*) echo '{\"n\":'$2',\"total\":7,\"seconds\":0.5}' ;;\n"
          "esac\n", f);
    fclose(f);
    CHECK(chmod(fake, 0700) == 0);
    CHECK(bench_gpu(&p, "", fake) == 0);
    int said = p.exit_code == 1 && strstr(p.err, "bench-gpu: N=6: opencl "
                                          "counted 7\n");
    t_proc_free(&p);
    unlink(fake);
    CHECKF(said, "a wrong total passed");
}

/* A program that does not build (NQ_OPENCL_SOURCE naming one with an
 * undeclared name): one line of the program's with the build log's first
 * error in it. */
static void kernel_does_not_build(void *arg)
{
    (void)arg;
    const char *src = scratch("broken.cl");
    t_proc p;
    if (!device_here())
        return;
    FILE *f = fopen(src, "w");
    CHECK(f);
    fputs("__kernel void nq_count_subunits(__global uint *x)\n"
          "{\n    x[0] = no_such_name_here;\n}\n", f);
    fclose(f);
    CHECK(setenv("NQ_OPENCL_SOURCE", src, 1) == 0);
    CHECK(run_count(&p, opencl(), 12, "opencl", NULL) == 0);
    unlink(src);
    int said = one_line_error(&p, "nqueens: count 12: ", "the OpenCL program "
                              "failed to build for device 0 "
                              "(CL_BUILD_PROGRAM_FAILURE): ", 1) &&
               strstr(p.err, "no_such_name_here");
    char err[300];
    snprintf(err, sizeof err, "%s", p.err);
    t_proc_free(&p);
    CHECKF(said, "not one line with the build log: %s", err);
}

/* The program built into the library (build/gen/opencl_program.cl
 * beside NQ_OBJ), for a case to build a variant of; NULL, the case
 * skipped, where make has not written it. */
static char *built_program(void)
{
    const char *obj = getenv("NQ_OBJ");
    char path[600];
    snprintf(path, sizeof path, "%s/../gen/opencl_program.cl",
             obj ? obj : "build/obj");
    char *program = t_read_file(path, NULL);
    if (!program)
        t_skip("no %s (make test writes it with nqueens-opencl)", path);
    return program;
}

/* A device that lays the jobs out otherwise than the host (the built-in
 * program, build/gen/opencl_program.cl beside NQ_OBJ, built as if the
 * host's pointers were 4 bytes: the job's stop member, and the job, 4
 * bytes shorter) is refused before any count, in one line naming both
 * layouts. */
static void layout_mismatch(void *arg)
{
    (void)arg;
    const char *src = scratch("narrow.cl");
    t_proc p;
    if (!device_here())
        return;
    char *program = built_program();
    if (!program)
        return;
    FILE *f = fopen(src, "w");
    if (f) {
        fprintf(f, "#undef NQ_HOST_POINTER_BYTES\n"
                   "#define NQ_HOST_POINTER_BYTES 4\n%s", program);
        fclose(f);
    }
    free(program);
    CHECK(f && setenv("NQ_OPENCL_SOURCE", src, 1) == 0);
    CHECK(run_count(&p, opencl(), 12, "opencl", NULL) == 0);
    unlink(src);
    int said = one_line_error(&p, "nqueens: count 12: ", "device 0 lays out "
                              "the jobs otherwise than the host (job ", 0);
    t_proc_free(&p);
    CHECKF(said, "a device with other layouts was not refused in one line");
}

/* A kernel that runs, reports no error and searches nothing (the
 * built-in program with its worker's call never made): a device failure
 * in one line naming the sub-units left unsearched, exit 1, and no zero
 * count in the journal, which fast then finishes to OEIS's count. */
static void kernel_searching_nothing(void *arg)
{
    (void)arg;
    const char *src = scratch("idle.cl");
    const char *j = scratch("idle.journal");
    static const char call[] = "    nq_subunit_worker(jobs, subs, n, njobs";
    t_proc p;
    if (!device_here())
        return;
    char *program = built_program(), *at = NULL;
    if (!program)
        return;
    FILE *f = (at = strstr(program, call)) ? fopen(src, "w") : NULL;
    if (f) {
        fprintf(f, "%.*s    if (n == 0)\n%s", (int)(at - program), program,
                at);
        fclose(f);
    }
    free(program);
    CHECKF(at, "the kernel's call of the worker was not found");
    CHECK(f && setenv("NQ_OPENCL_SOURCE", src, 1) == 0);
    unlink(j);
    CHECK(run_count(&p, opencl(), 12, "opencl", ARGS("--checkpoint", j)) == 0);
    unlink(src);
    int said = one_line_error(&p, "nqueens: count 12: ", "the device searched "
                              "0 of the batch's ", 0);
    t_proc_free(&p);
    unsetenv("NQ_OPENCL_SOURCE");
    CHECKF(said, "a launch that searched nothing was not a device failure");
    CHECKF(finishes("fast", j, 12), "fast did not finish the journal right");
}

/* A device out of memory (NQ_OPENCL_MEMORY leaving the engine 4096
 * bytes, under a batch's buffers): one line saying so, exit 1, the
 * journal left for fast to finish. */
static void out_of_memory(void *arg)
{
    (void)arg;
    const char *j = scratch("oom.journal");
    t_proc p;
    if (!device_here())
        return;
    CHECK(setenv("NQ_OPENCL_MEMORY", "4096", 1) == 0);
    unlink(j);
    CHECK(run_count(&p, opencl(), 12, "opencl", ARGS("--checkpoint", j)) == 0);
    int said = one_line_error(&p, "nqueens: count 12: ", "device 0 out of "
                              "memory (CL_MEM_OBJECT_ALLOCATION_FAILURE): a "
                              "batch needs ", 0) &&
               strstr(p.err, "the engine may hold 4096 (the limit set)");
    t_proc_free(&p);
    int finished = finishes("fast", j, 12);
    CHECKF(said, "no one-line out-of-memory error");
    CHECKF(finished, "fast did not finish the journal");
}

/* The settings' bad values are refused (exit 2, one line) before any
 * count: an unreadable NQ_OPENCL_SOURCE, a NQ_OPENCL_MEMORY that is no
 * number. */
static void settings_refused(void *arg)
{
    (void)arg;
    static const struct {
        const char *name, *value, *words;
    } bad[] = {{"NQ_OPENCL_SOURCE", "/nonexistent/kernel.cl",
                "NQ_OPENCL_SOURCE: cannot read '/nonexistent/kernel.cl': "},
               {"NQ_OPENCL_MEMORY", "lots", "NQ_OPENCL_MEMORY takes a "
                "number of bytes"}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        t_proc p;
        CHECK(setenv(bad[i].name, bad[i].value, 1) == 0);
        CHECK(run_count(&p, opencl(), 12, "opencl", NULL) == 0);
        int refused = p.exit_code == 2 && p.out_len == 0 &&
                      !strncmp(p.err, "nqueens: ", 9) &&
                      strstr(p.err, bad[i].words) &&
                      strchr(p.err, '\n') == p.err + p.err_len - 1;
        t_proc_free(&p);
        unsetenv(bad[i].name);
        CHECKF(refused, "%s=%s not refused in one line", bad[i].name,
               bad[i].value);
    }
}

/* examples/count_opencl.c, a C program linked with libnqueens-opencl.a:
 * engine opencl through the library's table, N = 12 to OEIS's numbers,
 * with and without a device list. */
static void library_program(void *arg)
{
    const char *example = getenv("NQ_OPENCL_EXAMPLE"), *devices = arg;
    char want[64], total[NQ_U128_DIGITS], unique[NQ_U128_DIGITS];
    t_proc p;
    if (!device_here())
        return;
    snprintf(want, sizeof want, "12 %s %s\n", nq_format_u128(t_oeis_total(12),
             total), nq_format_u128(t_oeis_unique(12), unique));
    CHECK(t_run_signalled(&p, example, devices ? ARGS(example, "12", devices)
                          : ARGS(example, "12"), 0, 0) == 0);
    int counted = p.exit_code == 0 && !strcmp(p.out, want);
    char err[200];
    snprintf(err, sizeof err, "%.*s", (int)strcspn(p.err, "\n"), p.err);
    t_proc_free(&p);
    CHECKF(counted, "count_opencl 12: %s", err);
}

void tests_opencl(void)
{
    static const int quick[] = {1, 14}, n15[] = {15, 15}, n16[] = {16, 16};
    static const char *const fast_then_opencl[] = {"fast", "opencl"};
    static const char *const opencl_then_fast[] = {"opencl", "fast"};
    const char *built = getenv("NQ_OPENCL"); /* not opencl(): no case's */
    t_skip_cases(built ? NULL : "no nqueens-opencl (make test builds it "
                 "where the OpenCL headers and ICD loader are)");
    t_case(version_lists_devices, NULL, "opencl/version-lists-the-devices");
    t_case(counts_oeis, (void *)quick, "opencl/N=1..14/counts-oeis-total-"
           "and-unique");
    t_full_case(counts_oeis, (void *)n15, "opencl/N=15/counts-oeis");
    t_full_case(counts_oeis, (void *)n16, "opencl/N=16/counts-oeis");
    t_full_case(threads_race, NULL, "opencl/N=13/threads-4-twenty-runs-each-"
                "counts-oeis");
    t_case(devices_option, NULL, "opencl/devices-0-counts-devices-63-refused-"
           "before-counting");
    t_case(verify_on_the_cpu, NULL, "opencl/verify-of-an-opencl-journal-"
           "recounts-on-fast-and-a-failing-device-falls-back");
    t_case(journal_shared, (void *)fast_then_opencl, "opencl/N=13/journal-"
           "of-fast-finished-by-opencl");
    t_case(journal_shared, (void *)opencl_then_fast, "opencl/N=13/journal-"
           "of-opencl-finished-by-fast");
    t_case(parts_merged, NULL, "opencl/N=14/part-by-fast-part-by-opencl-"
           "merged");
    t_full_case_alone(sigint_keeps_records, NULL, "opencl/N=17/sigint-stops-"
                      "within-2s-records-kept-fast-finishes");
    t_case(no_platform, NULL, "opencl/no-platform-one-line-error-fast-"
           "finishes");
    t_case(kernel_does_not_build, NULL, "opencl/kernel-not-building-one-"
           "line-with-its-log");
    t_case(layout_mismatch, NULL, "opencl/device-laying-out-jobs-otherwise-"
           "refused");
    t_case(kernel_searching_nothing, NULL, "opencl/kernel-searching-nothing-"
           "is-a-device-failure-not-zero-counts");
    t_case(out_of_memory, NULL, "opencl/device-out-of-memory-one-line-"
           "fast-finishes");
    t_case(settings_refused, NULL, "opencl/bad-settings-refused");
    t_case(bench_gpu_table, NULL, "opencl/bench-gpu-on-pocl-rows-with-oeis-"
           "totals-cpu-device-no-gpu");
    t_case(bench_gpu_wrong_count, NULL, "opencl/bench-gpu-wrong-total-from-"
           "an-engine-exits-1");
    t_skip_cases(built && getenv("NQ_OPENCL_EXAMPLE") ? NULL
                 : "no count-opencl (make test builds it with "
                   "nqueens-opencl)");
    t_case(library_program, NULL, "opencl/library-program-counts");
    t_case(library_program, "0", "opencl/library-program-with-devices-0-"
           "counts");
    t_skip_cases(NULL);
}
