/*
 * main.c - the test runner: runs every group, prints each test's outcome
 * and ends with "N passed, N failed, N skipped"; exits 1 if anything
 * failed.
 *
 *   nq-tests [WORD...]   only the tests whose name contains a WORD, less
 *                        those whose name contains a -WORD
 *
 * A WORD or -WORD that names no test at all is an error (exit 1), so a
 * typo cannot pass as an empty, green run, nor a stale exclusion stay.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"

static int passed, failed, skipped, current_failed, current_skipped;
static char first_failure[512], skip_reason[256];

/* The command line's filter words, and which of them matched a test. */
static char *const *filter_words;
static int filter_count;
static unsigned char *filter_hit;
static const char *runner_path = "nq-tests";

const char *t_runner_path(void) { return runner_path; }

/* Kept pure (no runner state) so the runner's own tests can check it.
 * A word "-WORD" leaves out the tests whose name holds WORD (an emulated
 * run skips the long ones); the others select. */
int t_name_selected(const char *name, char *const *filters, int nfilters)
{
    int includes = 0, included = 0;
    for (int i = 0; i < nfilters; i++) {
        if (filters[i][0] == '-' && filters[i][1]) {
            if (strstr(name, filters[i] + 1))
                return 0;
            continue;
        }
        includes++;
        included |= strstr(name, filters[i]) != NULL;
    }
    return included || includes == 0;
}

/* Whether the test `title` runs; notes each word it matches (selecting
 * or leaving out), so a word that matched nothing can be reported at the
 * end. */
static int selected(const char *title)
{
    for (int i = 0; i < filter_count; i++)
        if (filter_words[i][0] == '-' && filter_words[i][1] &&
            strstr(title, filter_words[i] + 1))
            filter_hit[i] = 1;
    if (!t_name_selected(title, filter_words, filter_count))
        return 0;
    for (int i = 0; i < filter_count; i++)
        if (filter_words[i][0] != '-' && strstr(title, filter_words[i]))
            filter_hit[i] = 1;
    return 1;
}

int t_failed(void) { return current_failed; }

void t_fail(const char *file, int line, const char *fmt, ...)
{
    va_list ap;
    if (current_failed++)
        return;
    int k = snprintf(first_failure, sizeof first_failure, "%s:%d: ", file, line);
    va_start(ap, fmt);
    vsnprintf(first_failure + k, sizeof first_failure - (size_t)k, fmt, ap);
    va_end(ap);
}

void t_skip(const char *fmt, ...)
{
    va_list ap;
    current_skipped = 1;
    va_start(ap, fmt);
    vsnprintf(skip_reason, sizeof skip_reason, fmt, ap);
    va_end(ap);
}

/* Why the cases declared now are not run (t_skip_cases); "" when they are. */
static char skip_cases_why[256];

void t_skip_cases(const char *why)
{
    snprintf(skip_cases_why, sizeof skip_cases_why, "%s", why ? why : "");
}

/* What a case's child tells the runner through a pipe: failed or
 * skipped, and the first failure's or the skip's words. */
typedef struct {
    int failed, skipped;
    char text[512];
} case_result;

/* The most a case may run (NQ_TEST_TIMEOUT seconds; default 300, slack
 * for sanitizer builds: the slowest case takes under a minute). */
static unsigned case_limit(void)
{
    const char *s = getenv("NQ_TEST_TIMEOUT");
    long v = s ? strtol(s, NULL, 10) : 0;
    return v > 0 ? (unsigned)v : 300;
}

/* The child: run the case, report, exit (flushing what it printed). */
static void run_child(void (*fn)(void *), void *arg, int fd)
{
    case_result r = {0};
    alarm(case_limit());
    fn(arg);
    r.failed = current_failed, r.skipped = current_skipped;
    snprintf(r.text, sizeof r.text, "%s", current_failed ? first_failure
                                                          : skip_reason);
    ssize_t ignored = write(fd, &r, sizeof r);
    (void)ignored;
    fflush(stdout);
    exit(0);
}

/* How a child ended without reporting: a crash, a hang, an exit. */
static void describe_death(int status, case_result *r)
{
    r->failed = 1;
    if (WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM)
        snprintf(r->text, sizeof r->text, "timed out after %u s (a hang?)",
                 case_limit());
    else if (WIFSIGNALED(status))
        snprintf(r->text, sizeof r->text, "crashed: %s",
                 strsignal(WTERMSIG(status)));
    else
        snprintf(r->text, sizeof r->text, "the case's process exited %d "
                 "without a result", WEXITSTATUS(status));
}

/* Each case in a child process of its own, so that a crash or a hang
 * fails that case by name and the rest still run; its state (a kernel
 * chosen, a signal handler) does not leak into the next either. */
static void run_case(void (*fn)(void *), void *arg, case_result *r)
{
    int fds[2], status = 0;
    memset(r, 0, sizeof *r);
    fflush(stdout);
    pid_t pid = pipe(fds) == 0 ? fork() : -1;
    if (pid == 0) {
        close(fds[0]);
        run_child(fn, arg, fds[1]);
    }
    if (pid < 0) {
        snprintf(r->text, sizeof r->text, "cannot fork: %s", strerror(errno));
        r->failed = 1;
        return;
    }
    close(fds[1]);
    ssize_t got = read(fds[0], r, sizeof *r);
    close(fds[0]);
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    if (got != (ssize_t)sizeof *r ||
        !(WIFEXITED(status) && WEXITSTATUS(status) == 0))
        describe_death(status, r);
}

int t_quick(void)
{
    const char *q = getenv("NQ_QUICK");
    return q && *q && strcmp(q, "0");
}

static void run_titled(void (*fn)(void *), void *arg, int full,
                       const char *title)
{
    if (!selected(title))
        return; /* not run, not counted */
    if (skip_cases_why[0]) { /* its group cannot run here */
        skipped++;
        printf("skip %s (%s)\n", title, skip_cases_why);
        fflush(stdout);
        return;
    }
    if (full && t_quick()) { /* make check: said, and counted, as skipped */
        skipped++;
        printf("skip %s (the full tier's: make test)\n", title);
        return;
    }
    case_result r;
    double t0 = nq_clock_seconds();
    run_case(fn, arg, &r);
    double took = nq_clock_seconds() - t0;
    char time[32] = "";
    if (took >= 0.2) /* where the suite's time goes */
        snprintf(time, sizeof time, " (%.1f s)", took);
    if (r.failed) {
        failed++;
        printf("FAIL %s%s\n     %s\n", title, time, r.text);
    } else if (r.skipped) {
        skipped++;
        printf("skip %s (%s)\n", title, r.text);
    } else {
        passed++;
        printf("ok   %s%s\n", title, time);
    }
    fflush(stdout);
}

/* A case titled by its printf-style name and arguments. */
static void run_named(void (*fn)(void *), void *arg, int full,
                      const char *name, va_list ap)
{
    char title[256];
    vsnprintf(title, sizeof title, name, ap);
    run_titled(fn, arg, full, title);
}

void t_case(void (*fn)(void *), void *arg, const char *name, ...)
{
    va_list ap;
    va_start(ap, name);
    run_named(fn, arg, 0, name, ap);
    va_end(ap);
}

void t_full_case(void (*fn)(void *), void *arg, const char *name, ...)
{
    va_list ap;
    va_start(ap, name);
    run_named(fn, arg, 1, name, ap);
    va_end(ap);
}

/* The path of benchmark program `name`, or NULL (the case skipped) when
 * the tests run without NQ_BENCH_DIR. */
const char *t_bench_program(const char *name)
{
    static char path[512];
    const char *dir = getenv("NQ_BENCH_DIR");
    if (!dir) {
        t_skip("NQ_BENCH_DIR is not set (make test sets it)");
        return NULL;
    }
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return path;
}

const char *t_data_path(const char *name)
{
    static char path[1024];
    const char *dir = getenv("NQ_DATA");
    snprintf(path, sizeof path, "%s/%s", dir ? dir : "tests/data", name);
    return path;
}

char *t_read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 4096, n = 0, got;
    char *buf = malloc(cap);
    while (buf && (got = fread(buf + n, 1, cap - n - 1, f)) > 0) {
        n += got;
        if (n + 1 == cap) {
            char *nb = realloc(buf, cap *= 2);
            if (!nb)
                free(buf);
            buf = nb;
        }
    }
    fclose(f);
    if (buf) {
        buf[n] = '\0';
        if (len)
            *len = n;
    }
    return buf;
}

/* ---- known answers ---- */

#define T_MAXN 64
int t_oeis_max;
static nq_u128 oeis_total[T_MAXN], oeis_unique[T_MAXN], tree_nodes[T_MAXN];

nq_u128 t_oeis_total(int n) { return oeis_total[n]; }
nq_u128 t_oeis_unique(int n) { return oeis_unique[n]; }
nq_u128 t_tree_nodes(int n) { return n < T_MAXN ? tree_nodes[n] : 0; }

/* Lines "n<TAB>a[<TAB>b]"; '#' lines are comments. */
static int load_table(const char *name, nq_u128 *a, nq_u128 *b)
{
    char *text = t_read_file(t_data_path(name), NULL), *save = NULL;
    int max = 0;
    if (!text)
        return -1;
    for (char *line = strtok_r(text, "\n", &save); line;
         line = strtok_r(NULL, "\n", &save)) {
        char *f[3] = {0}, *s2 = NULL;
        if (line[0] == '#')
            continue;
        f[0] = strtok_r(line, "\t", &s2);
        f[1] = strtok_r(NULL, "\t", &s2);
        f[2] = strtok_r(NULL, "\t", &s2);
        int n = f[0] ? atoi(f[0]) : 0;
        if (n < 1 || n >= T_MAXN || !f[1] || nq_parse_u128(f[1], &a[n]) ||
            (b && (!f[2] || nq_parse_u128(f[2], &b[n])))) {
            free(text);
            return -1;
        }
        max = n > max ? n : max;
    }
    free(text);
    return max;
}

/* ---- running the CLI ---- */

static char *slurp_fd(int fd, size_t *len)
{
    FILE *f = fdopen(fd, "rb");
    char *buf = NULL;
    size_t cap = 0, n = 0, got;
    if (!f)
        return NULL;
    rewind(f);
    do {
        if (n + 4097 > cap) {
            cap = cap ? cap * 2 : 8192;
            char *nb = realloc(buf, cap);
            if (!nb)
                break;
            buf = nb;
        }
        got = fread(buf + n, 1, cap - n - 1, f);
        n += got;
    } while (got > 0);
    fclose(f);
    if (buf)
        buf[n] = '\0';
    *len = n;
    return buf;
}

static int temp_fd(void)
{
    char name[] = "/tmp/nq-test-XXXXXX";
    int fd = mkstemp(name);
    if (fd >= 0)
        unlink(name);
    return fd;
}

/* Start prog (or the CLI) with args, output to temporary files. */
static pid_t started; /* the program t_run_* runs now (t_run_pid) */

pid_t t_run_pid(void) { return started; }

static pid_t start(const char *prog, const char *const *args, int out, int err)
{
    const char *cli = getenv("NQ_CLI");
    const char *argv[64];
    int n = 0;
    if (!prog && !cli)
        return -1;
    if (!prog)
        argv[n++] = cli;
    while (*args && n < 63)
        argv[n++] = *args++;
    argv[n] = NULL;
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        int devnull = open("/dev/null", O_RDONLY);
        dup2(devnull, 0);
        dup2(out, 1);
        dup2(err, 2);
        alarm(120); /* survives exec: a hung program is killed by SIGALRM */
        if (prog)
            execvp(prog, (char *const *)argv);
        else
            execv(cli, (char *const *)argv);
        _exit(127);
    }
    started = pid;
    return pid;
}

static int finish(t_proc *p, pid_t pid, int out, int err)
{
    int status;
    if (waitpid(pid, &status, 0) < 0)
        return -1;
    p->exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    p->out = slurp_fd(out, &p->out_len);
    p->err = slurp_fd(err, &p->err_len);
    return p->out && p->err ? 0 : -1;
}

int t_run_signalled(t_proc *p, const char *prog, const char *const *args,
                    double seconds, int sig)
{
    int out = temp_fd(), err = temp_fd();
    memset(p, 0, sizeof *p);
    pid_t pid = out >= 0 && err >= 0 ? start(prog, args, out, err) : -1;
    if (pid < 0)
        return -1;
    if (seconds > 0) {
        struct timespec ts = {(time_t)seconds,
                              (long)((seconds - (double)(time_t)seconds) * 1e9)};
        nanosleep(&ts, NULL);
        kill(pid, sig);
    }
    return finish(p, pid, out, err);
}

int t_run_pending(t_proc *p, const char *const *args, int sig)
{
    int out = temp_fd(), err = temp_fd();
    sigset_t one, was;
    memset(p, 0, sizeof *p);
    sigemptyset(&one);
    sigaddset(&one, sig);
    sigprocmask(SIG_BLOCK, &one, &was); /* the child is born with it */
    pid_t pid = out >= 0 && err >= 0 ? start(NULL, args, out, err) : -1;
    if (pid > 0)
        kill(pid, sig);
    sigprocmask(SIG_SETMASK, &was, NULL);
    return pid > 0 ? finish(p, pid, out, err) : -1;
}

/* Whether the running program catches SIGINT or SIGTERM yet
 * (/proc/PID/status, SigCgt): until then it is still being loaded, and
 * a signal would end it before any code of its own ran. */
int t_catches_signals(pid_t pid)
{
    char path[64], line[256];
    unsigned long long caught = 0;
    snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
    FILE *f = fopen(path, "r");
    while (f && fgets(line, sizeof line, f))
        if (sscanf(line, "SigCgt: %llx", &caught) == 1)
            break;
    if (f)
        fclose(f);
    return (caught >> (SIGINT - 1) & 1) || (caught >> (SIGTERM - 1) & 1);
}

int t_run_when(t_proc *p, const char *const *args, int (*ready)(void *),
               void *ctx, int sig)
{
    return t_run_prog_when(p, NULL, args, ready, ctx, sig);
}

int t_run_prog_when(t_proc *p, const char *prog, const char *const *args,
                    int (*ready)(void *), void *ctx, int sig)
{
    int out = temp_fd(), err = temp_fd(), status;
    memset(p, 0, sizeof *p);
    pid_t pid = out >= 0 && err >= 0 ? start(prog, args, out, err) : -1;
    if (pid < 0)
        return -1;
    struct timespec ts = {0, 2000000};
    while (waitpid(pid, &status, WNOHANG) == 0) {
        if (ready(ctx)) {
            kill(pid, sig);
            break;
        }
        nanosleep(&ts, NULL);
    }
    if (kill(pid, 0) != 0 && errno == ESRCH) { /* reaped already */
        p->exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
        p->out = slurp_fd(out, &p->out_len);
        p->err = slurp_fd(err, &p->err_len);
        return p->out && p->err ? 0 : -1;
    }
    return finish(p, pid, out, err);
}

int t_run_cli(t_proc *p, const char *const *args)
{
    return t_run_signalled(p, NULL, args, 0, 0);
}

void t_proc_free(t_proc *p)
{
    free(p->out);
    free(p->err);
}

/* Every group, in order: the harness's own tests first, then the library
 * from its core outwards, then the command line. */
static void run_groups(void)
{
    tests_runner();
    tests_core();
    tests_engines();
    tests_solutions();
    tests_units();
    tests_plans();
    tests_kernels();
    tests_bench();
    tests_request();
    tests_api();
    tests_estimate();
    tests_gpu();
    tests_opencl();
    tests_wasm();
    tests_journal();
    tests_forgery();
    tests_record_rows();
    tests_signals();
    tests_mpi();
    tests_cli();
    tests_tree();
    tests_compare();
    tests_formats();
    tests_find();
    tests_complete();
    tests_json();
    tests_completion();
    tests_manpage();
    tests_trace_html();
    tests_lesson();
    tests_progress();
    tests_layers();
}

/* Say which filter words named no test; 1 if any, which fails the run. */
static int report_unmatched(void)
{
    int unmatched = 0;
    fflush(stdout);
    for (int i = 0; i < filter_count; i++)
        if (!filter_hit[i]) {
            fprintf(stderr, "no test matches '%s'\n", filter_words[i]);
            unmatched = 1;
        }
    return unmatched;
}

int main(int argc, char **argv)
{
    /* NQ_SELF: how to run this runner again where argv[0] alone cannot
     * (under an emulator) */
    runner_path = getenv("NQ_SELF") ? getenv("NQ_SELF")
                  : argv[0] ? argv[0] : runner_path;
    filter_words = argv + 1;
    filter_count = argc > 1 ? argc - 1 : 0;
    filter_hit = calloc((size_t)filter_count + 1, 1);
    if (!filter_hit) {
        printf("out of memory\n0 passed, 1 failed, 0 skipped\n");
        return 1;
    }
    t_oeis_max = load_table("oeis.tsv", oeis_total, oeis_unique);
    if (t_oeis_max < 16 || load_table("tree-nodes.tsv", tree_nodes, NULL) < 0) {
        printf("cannot read the known answers in %s\n", t_data_path(""));
        printf("0 passed, 1 failed, 0 skipped\n");
        return 1;
    }
    run_groups();
    int unmatched = report_unmatched();
    printf("%d passed, %d failed, %d skipped\n", passed, failed, skipped);
    free(filter_hit);
    return failed || unmatched ? 1 : 0;
}
