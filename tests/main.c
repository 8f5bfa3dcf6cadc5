/*
 * main.c - the test runner: runs every group, prints each test's outcome
 * and ends with "N passed, N failed, N skipped"; exits 1 if anything
 * failed.
 *
 *   nq-tests [WORD...]   only the tests whose name contains a WORD, less
 *                        those whose name contains a -WORD
 *
 * NQ_JOBS=N runs N cases at once (default: one per core; 1, one after
 * another); the listing is in the order the cases are declared whatever N.
 *
 * A WORD or -WORD that names no test at all is an error (exit 1), so a
 * typo cannot pass as an empty, green run, nor a stale exclusion stay.
 */
#define _GNU_SOURCE /* sched_getaffinity, vasprintf */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
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
 * skipped, how long it ran, and the first failure's or the skip's words. */
typedef struct {
    int failed, skipped;
    double took;
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

/* ---- the cases, side by side ----
 *
 * Each case runs in a child process of its own, so that a crash or a
 * hang fails that case by name and the rest still run; its state (a
 * kernel chosen, a signal handler, an environment variable) does not
 * leak into the next either.  Up to `jobs` children run at once
 * (NQ_JOBS, else one per core this process may run on): a case is
 * started as it is declared, once a place is free, the child's stdout
 * and stderr go to files of its own, and its lines (what it printed,
 * then its outcome) are printed once every case declared before it has
 * been, so the listing reads as a serial run's.  The child forks when
 * the case is declared, so it sees the group's state as it stands then,
 * as it would in a serial run; what it may not share with a case beside
 * it is a file of a fixed name: t_case_dir() is its own folder. */
typedef struct {
    char *title;
    int done;       /* its outcome known: ready to print */
    pid_t pid;      /* while it runs */
    int result_fd, out_fd, err_fd;
    double t0;
    char *out, *err; /* what it printed, once done */
    char *line;      /* its outcome, once done */
} slot;

static slot *slots;
static size_t slot_count, slot_cap, printed_upto;
static int running, jobs = 1;
static char scratch_root[64]; /* the cases' folders: /tmp/nq-tests-XXXXXX */
static size_t child_index;    /* in a case's child: its slot */
static char case_dir[128];    /* in a case's child: its folder, once made */

static int temp_fd(void);

/* In a case's child: say the result and exit (flushing what it printed). */
static void child_report(case_result *r, double t0, int fd)
{
    r->took = nq_clock_seconds() - t0;
    ssize_t ignored = write(fd, r, sizeof *r);
    (void)ignored;
    fflush(stdout);
    fflush(stderr);
    exit(0);
}

static int child_result_fd = -1;
static double child_t0;

/* The child: run the case, report, exit. */
static void run_child(void (*fn)(void *), void *arg, int fd)
{
    case_result r = {0};
    child_result_fd = fd;
    child_t0 = nq_clock_seconds();
    alarm(case_limit());
    fn(arg);
    r.failed = current_failed, r.skipped = current_skipped;
    snprintf(r.text, sizeof r.text, "%s", current_failed ? first_failure
                                                          : skip_reason);
    child_report(&r, child_t0, fd);
}

const char *t_case_dir(void)
{
    if (case_dir[0])
        return case_dir;
    char path[sizeof case_dir];
    snprintf(path, sizeof path, "%s/%zu", scratch_root, child_index);
    if (child_result_fd < 0 || !scratch_root[0] || mkdir(path, 0700) != 0) {
        /* no folder: the case cannot go on, and fails by name */
        case_result r = {.failed = 1};
        snprintf(r.text, sizeof r.text, "no folder of its own (%s): %s",
                 child_result_fd < 0 ? "not in a case" : path,
                 strerror(errno));
        if (child_result_fd < 0) {
            fprintf(stderr, "t_case_dir: %s\n", r.text);
            exit(1);
        }
        child_report(&r, child_t0, child_result_fd);
    }
    memcpy(case_dir, path, sizeof case_dir);
    return case_dir;
}

const char *t_file(const char *name)
{
    static char path[32][400];
    static int k;
    char *p = path[k++ % 32];
    snprintf(p, sizeof path[0], "%s/%s", t_case_dir(), name);
    return p;
}

/* Remove a case's folder and all in it, without crossing into a file
 * system mounted there (a case's tmpfs left by a crash); folders it made
 * read-only are made writable first. */
static int open_up(const char *path, const struct stat *st, int type,
                   struct FTW *ftw)
{
    (void)ftw;
    if (type == FTW_D && (st->st_mode & 0700) != 0700)
        chmod(path, st->st_mode | 0700);
    return 0;
}

static int remove_one(const char *path, const struct stat *st, int type,
                      struct FTW *ftw)
{
    (void)st, (void)ftw;
    if (type == FTW_DP || type == FTW_DNR)
        rmdir(path);
    else
        unlink(path);
    return 0;
}

static void remove_tree(const char *path)
{
    struct stat st;
    if (lstat(path, &st) != 0)
        return;
    nftw(path, open_up, 16, FTW_PHYS | FTW_MOUNT);
    nftw(path, remove_one, 16, FTW_PHYS | FTW_MOUNT | FTW_DEPTH);
}

/* How many cases run at once: NQ_JOBS, else the cores this process may
 * run on (a taskset's or a container's cpuset, not the machine's);
 * -1 if NQ_JOBS is not a whole number from 1 to 256. */
static int job_count(void)
{
    const char *s = getenv("NQ_JOBS");
    if (s && *s) {
        char *end;
        long v = strtol(s, &end, 10);
        return *end || v < 1 || v > 256 ? -1 : (int)v;
    }
    nq_request every_core = NQ_REQUEST_INIT; /* threads 0: the library's
                                                  count of those cores */
    return nq_request_threads(&every_core);
}

/* All of what fd (a case's output file) holds, from its start. */
static char *read_all(int fd)
{
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    ssize_t got;
    if (!buf || lseek(fd, 0, SEEK_SET) < 0) {
        free(buf);
        return NULL;
    }
    while ((got = read(fd, buf + n, cap - n - 1)) > 0) {
        n += (size_t)got;
        if (n + 1 == cap) {
            char *nb = realloc(buf, cap *= 2);
            if (!nb)
                break;
            buf = nb;
        }
    }
    buf[n] = '\0';
    return buf;
}

/* Print the lines of every case whose turn has come: done, and every
 * case declared before it printed. */
static void print_ready(void)
{
    while (printed_upto < slot_count && slots[printed_upto].done) {
        slot *s = &slots[printed_upto++];
        if (s->out)
            fputs(s->out, stdout);
        if (s->err && *s->err) {
            fflush(stdout);
            fputs(s->err, stderr);
            fflush(stderr);
        }
        fputs(s->line, stdout);
        fflush(stdout);
        free(s->title), free(s->out), free(s->err), free(s->line);
        s->title = s->out = s->err = s->line = NULL;
    }
}

static char *line_of(const char *fmt, ...)
    __attribute__((format(printf, 1, 2)));
static char *line_of(const char *fmt, ...)
{
    va_list ap;
    char *line = NULL;
    va_start(ap, fmt);
    if (vasprintf(&line, fmt, ap) < 0)
        line = NULL;
    va_end(ap);
    return line ? line : strdup("(out of memory)\n");
}

/* A case's outcome: counted, and its line made. */
static void settle(slot *s, const case_result *r, double took)
{
    char time[32] = "";
    if (took >= 0.2) /* where the suite's time goes */
        snprintf(time, sizeof time, " (%.1f s)", took);
    if (r->failed) {
        failed++;
        s->line = line_of("FAIL %s%s\n     %s\n", s->title, time, r->text);
    } else if (r->skipped) {
        skipped++;
        s->line = line_of("skip %s (%s)\n", s->title, r->text);
    } else {
        passed++;
        s->line = line_of("ok   %s%s\n", s->title, time);
    }
    s->done = 1;
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

static void close_fd(int *fd)
{
    if (*fd >= 0)
        close(*fd);
    *fd = -1;
}

/* A case's child has ended (status): read back what it said and printed,
 * remove its folder. */
static void collect(slot *s, int status)
{
    case_result r;
    memset(&r, 0, sizeof r);
    double took = nq_clock_seconds() - s->t0;
    /* it wrote before it exited; a child of its own may hold the pipe */
    fcntl(s->result_fd, F_SETFL, O_NONBLOCK);
    ssize_t got = read(s->result_fd, &r, sizeof r);
    if (got != (ssize_t)sizeof r ||
        !(WIFEXITED(status) && WEXITSTATUS(status) == 0)) {
        memset(&r, 0, sizeof r);
        describe_death(status, &r);
    } else {
        took = r.took;
        r.text[sizeof r.text - 1] = '\0';
    }
    s->out = read_all(s->out_fd);
    s->err = read_all(s->err_fd);
    close_fd(&s->result_fd), close_fd(&s->out_fd), close_fd(&s->err_fd);
    if (scratch_root[0]) {
        char dir[sizeof case_dir];
        snprintf(dir, sizeof dir, "%s/%zu", scratch_root, (size_t)(s - slots));
        remove_tree(dir);
    }
    running--;
    s->pid = 0;
    settle(s, &r, took);
}

/* Wait for one running case to end, and collect it. */
static void reap_one(void)
{
    int status;
    pid_t pid;
    while ((pid = waitpid(-1, &status, 0)) < 0 && errno == EINTR)
        ;
    if (pid < 0) { /* no children left: the running ones are lost */
        for (size_t i = printed_upto; i < slot_count; i++)
            if (slots[i].pid > 0)
                collect(&slots[i], 0xff00); /* "exited 255" */
        return;
    }
    for (size_t i = printed_upto; i < slot_count; i++)
        if (slots[i].pid == pid) {
            collect(&slots[i], status);
            return;
        }
    /* not a case's: some group's program, already done with */
}

static void wait_all(void)
{
    while (running > 0)
        reap_one();
    print_ready();
}

/* A new case, last in the listing. */
static slot *new_slot(const char *title)
{
    if (slot_count == slot_cap) {
        size_t cap = slot_cap ? slot_cap * 2 : 256;
        slot *ns = realloc(slots, cap * sizeof *ns);
        if (!ns) { /* let the running ones end, print, and stop */
            wait_all();
            printf("out of memory\n%d passed, %d failed, %d skipped\n",
                   passed, failed + 1, skipped);
            exit(1);
        }
        slots = ns, slot_cap = cap;
    }
    slot *s = &slots[slot_count++];
    memset(s, 0, sizeof *s);
    s->title = strdup(title);
    s->result_fd = s->out_fd = s->err_fd = -1;
    return s;
}

/* Start the case in a child of its own. */
static void start_case(slot *s, void (*fn)(void *), void *arg)
{
    int fds[2] = {-1, -1};
    if (!scratch_root[0]) {
        snprintf(scratch_root, sizeof scratch_root, "/tmp/nq-tests-XXXXXX");
        if (!mkdtemp(scratch_root))
            scratch_root[0] = '\0'; /* a case asking for a folder fails */
    }
    s->out_fd = temp_fd(), s->err_fd = temp_fd();
    fflush(stdout);
    fflush(stderr);
    pid_t pid = s->out_fd >= 0 && s->err_fd >= 0 && pipe(fds) == 0 ? fork()
                                                                   : -1;
    if (pid == 0) {
        close(fds[0]);
        for (size_t i = printed_upto; i < slot_count; i++)
            if (slots[i].pid > 0) { /* the other running cases' */
                close(slots[i].result_fd);
                close(slots[i].out_fd);
                close(slots[i].err_fd);
            }
        dup2(s->out_fd, 1);
        dup2(s->err_fd, 2);
        close(s->out_fd);
        close(s->err_fd);
        setvbuf(stdout, NULL, _IOLBF, 0); /* kept line by line if it dies */
        child_index = (size_t)(s - slots);
        run_child(fn, arg, fds[1]);
    }
    if (pid < 0) {
        case_result r = {.failed = 1};
        snprintf(r.text, sizeof r.text, "cannot start the case: %s",
                 strerror(errno));
        close_fd(&fds[0]), close_fd(&fds[1]);
        close_fd(&s->out_fd), close_fd(&s->err_fd);
        settle(s, &r, 0);
        return;
    }
    close(fds[1]);
    s->result_fd = fds[0];
    s->pid = pid;
    s->t0 = nq_clock_seconds();
    running++;
}

int t_quick(void)
{
    const char *q = getenv("NQ_QUICK");
    return q && *q && strcmp(q, "0");
}

/* How a case was declared. */
enum { CASE_FULL = 1, CASE_ALONE = 2 };

static void run_titled(void (*fn)(void *), void *arg, int how,
                       const char *title)
{
    if (!selected(title))
        return; /* not run, not counted */
    slot *s = new_slot(title);
    case_result r = {.skipped = 1};
    if (skip_cases_why[0]) /* its group cannot run here */
        snprintf(r.text, sizeof r.text, "%s", skip_cases_why);
    else if ((how & CASE_FULL) && t_quick()) /* make check: said, counted */
        snprintf(r.text, sizeof r.text, "the full tier's: make test");
    else {
        /* a case that times itself runs with no other beside it */
        while (running >= ((how & CASE_ALONE) ? 1 : jobs))
            reap_one();
        start_case(s, fn, arg);
        if (how & CASE_ALONE)
            while (running > 0)
                reap_one();
        print_ready();
        return;
    }
    settle(s, &r, 0);
    print_ready();
}

/* A case titled by its printf-style name and arguments. */
static void run_named(void (*fn)(void *), void *arg, int how,
                      const char *name, va_list ap)
{
    char title[256];
    vsnprintf(title, sizeof title, name, ap);
    run_titled(fn, arg, how, title);
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
    run_named(fn, arg, CASE_FULL, name, ap);
    va_end(ap);
}

void t_case_alone(void (*fn)(void *), void *arg, const char *name, ...)
{
    va_list ap;
    va_start(ap, name);
    run_named(fn, arg, CASE_ALONE, name, ap);
    va_end(ap);
}

void t_full_case_alone(void (*fn)(void *), void *arg, const char *name, ...)
{
    va_list ap;
    va_start(ap, name);
    run_named(fn, arg, CASE_FULL | CASE_ALONE, name, ap);
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
    tests_pieces();
    tests_kernels();
    tests_bench();
    tests_schedule();
    tests_request();
    tests_api();
    tests_edges();
    tests_estimate();
    tests_gpu();
    tests_opencl();
    tests_wasm();
    tests_npm();
    tests_journal();
    tests_merge();
    tests_forgery();
    tests_underreport();
    tests_verify_parts();
    tests_record_rows();
    tests_signals();
    tests_mpi();
    tests_mpi_verify();
    tests_cli();
    tests_tree();
    tests_i18n();
    tests_compare();
    tests_formats();
    tests_find();
    tests_complete();
    tests_json();
    tests_completion();
    tests_manpage();
    tests_trace_html();
    tests_lesson();
    tests_series();
    tests_python();
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
    /* The programs' English is what the suite reads: a developer's
     * LANG=ja_JP.UTF-8 must not change it (test_i18n.c names its own
     * locale in each case). */
    unsetenv("LANGUAGE");
    unsetenv("LC_ALL");
    setenv("LC_MESSAGES", "C", 1);
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
    jobs = job_count();
    if (jobs < 0) {
        fprintf(stderr, "NQ_JOBS='%s': not a whole number from 1 to 256\n",
                getenv("NQ_JOBS"));
        printf("0 passed, 1 failed, 0 skipped\n");
        return 1;
    }
    run_groups();
    wait_all();
    if (scratch_root[0])
        remove_tree(scratch_root);
    int unmatched = report_unmatched();
    printf("%d passed, %d failed, %d skipped\n", passed, failed, skipped);
    free(filter_hit);
    return failed || unmatched ? 1 : 0;
}
