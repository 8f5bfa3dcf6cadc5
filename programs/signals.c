/*
 * signals.c - stopping: SIGINT and SIGTERM ask a count to stop, and while
 * nothing watches for that, end the program at once with one line.
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"

static volatile sig_atomic_t stop_requested, stop_signal, stop_waits;
/* When the first stop came (CLOCK_MONOTONIC), to tell one stop sent
 * twice from a second one. */
static struct timespec first_stop;
static volatile sig_atomic_t stops_seen; /* signals caught */
/* A repeat within this many seconds is the same stop delivered twice: a
 * launcher that signals its job's process group and forwards the signal
 * itself (Slurm's requeue under `timeout --foreground`, which the
 * Slurm recipe runs) sends SIGTERM twice within microseconds, and ending
 * at once then lost the closing run line 7 times in 10.  A person's
 * second Ctrl-C comes later. */
#define SAME_STOP_SECONDS 0.25
static char stop_what[128]; /* "count 20": who the hard stop's line names */
/* The hard stop's words, translated before any signal can come (gettext
 * is no function for a signal handler), English until the locale is. */
static const char *volatile stopped_int = "stopped by SIGINT\n";
static const char *volatile stopped_term = "stopped by SIGTERM\n";

/* Written with write(2) alone: it runs inside a signal handler. */
static void say(const char *s)
{
    ssize_t ignored = write(2, s, strlen(s));
    (void)ignored;
}

/* A stop the work in progress cannot wait for (it never looks at the
 * flag): one line, and the shell's status for the signal.  Nothing is
 * lost that a flag could have kept: such work keeps no journal. */
static void stop_now(int sig)
{
    if (cli_progress_shown)
        say("\r\033[K");
    say(cli_program);
    say(": ");
    if (stop_what[0]) { /* none before a command is named */
        say(stop_what);
        say(" ");
    }
    say(sig == SIGINT ? stopped_int : stopped_term);
    _exit(128 + sig);
}

/* clock_gettime is async-signal-safe (POSIX), as is all here. */
static double since_first_stop(void)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)(now.tv_sec - first_stop.tv_sec) +
           (double)(now.tv_nsec - first_stop.tv_nsec) * 1e-9;
}

static void on_signal(int sig)
{
    if (stops_seen) { /* signalled before: the same stop, or an end */
        if (since_first_stop() < SAME_STOP_SECONDS)
            return;
        stop_now(sig);
    }
    stops_seen = 1;
    clock_gettime(CLOCK_MONOTONIC, &first_stop);
    stop_signal = sig;
    if (!stop_waits)
        stop_now(sig);
    __atomic_store_n(&stop_requested, 1, __ATOMIC_RELAXED);
}

/* A signal ignored when the program started stays ignored: a shell
 * script's background job (SIGINT ignored) or nohup asked for that. */
static void catch_unless_ignored(int sig, const struct sigaction *sa)
{
    struct sigaction old;
    if (sigaction(sig, NULL, &old) == 0 && old.sa_handler == SIG_IGN)
        return;
    sigaction(sig, sa, NULL);
}

/* SIGINT and SIGTERM ask the run to stop: units running give up and are
 * redone on resume.  A second one, past SAME_STOP_SECONDS, ends the
 * process at once, which the journal survives as it survives a crash.
 * Installed before any work, so that no moment of a count (its estimate,
 * its plan, its journal) dies without a word. */
volatile sig_atomic_t *cli_catch_stop_signals(const char *what)
{
    struct sigaction sa;
    snprintf(stop_what, sizeof stop_what, "%s", what);
    stopped_int = _("stopped by SIGINT\n");
    stopped_term = _("stopped by SIGTERM\n");
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sa.sa_flags = 0;
    sigemptyset(&sa.sa_mask);
    catch_unless_ignored(SIGINT, &sa);
    catch_unless_ignored(SIGTERM, &sa);
    return &stop_requested;
}

/* The handlers from main's first line, naming the command as typed
 * ("count 20"; a command names itself again once parsed), so that a
 * signal before any work still ends the program with its line and
 * status.  Then SIGINT and SIGTERM are unblocked: a mask is inherited
 * across exec, so a launcher that blocked them for itself would leave
 * Ctrl-C pending for the whole run, and a stop sent before the program
 * could catch it, held there, is answered now. */
void cli_catch_from_start(int argc, char **argv)
{
    char what[128];
    int word = argc > 2 && argv[2][0] != '-';
    sigset_t stops;
    snprintf(what, sizeof what, "%s%s%s", argc > 1 ? argv[1] : "",
             word ? " " : "", word ? argv[2] : "");
    cli_catch_stop_signals(what);
    sigemptyset(&stops);
    sigaddset(&stops, SIGINT);
    sigaddset(&stops, SIGTERM);
    sigprocmask(SIG_UNBLOCK, &stops, NULL);
}

void cli_stop_waits(int waits)
{
    stop_waits = waits;
    if (!waits && stop_requested) /* asked while the flag was watched */
        stop_now(stop_signal);
}

int cli_stopped_by(void)
{
    return stop_signal;
}

int cli_report_stopped(void)
{
    int sig = stop_signal;
    return cli_error(128 + sig, "%s%sstopped by %s", stop_what,
                     stop_what[0] ? " " : "",
                     sig == SIGINT ? "SIGINT" : "SIGTERM");
}
