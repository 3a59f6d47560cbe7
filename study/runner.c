/* study/runner.c: the built-in runner: pending runs on N local processes.
 *
 * The runner takes the runs that are not done (runs.c), in run order, and
 * keeps up to N pnrsim processes going. Each one is started with fork and
 * exec into its seed-S.part directory, with standard input and output on
 * /dev/null, standard error in seed-S.part/stderr.txt, the default
 * disposition for the signals the runner catches, and a process group of
 * its own (so a Ctrl-C on the terminal reaches the runner only, which then
 * stops its children in an orderly way). On Linux each child asks for
 * SIGTERM when the runner dies (PR_SET_PDEATHSIG), so killing the sweep
 * with SIGKILL does not leave runs going on unseen. When pnrsim exits 0
 * and its metrics.json is complete and not partial, seed-S.part is renamed
 * to seed-S (a previous seed-S, necessarily incomplete, is removed first).
 * Otherwise the run failed: its exit status goes into seed-S.part/
 * exit-status, the reason (the last line pnrsim wrote on stderr) is printed,
 * and the other runs go on.
 *
 * The main loop blocks SIGCHLD, SIGINT, SIGTERM and SIGHUP and waits for
 * them with sigtimedwait, which leaves no window for a lost signal and
 * wakes up regularly to redraw the progress bar. On SIGINT/SIGTERM/SIGHUP
 * it stops launching, sends SIGTERM to the process group of each running
 * pnrsim (SIGKILL after 5 s), waits for all of them and returns
 * "interrupted"; the runs it stopped stay as seed-S.part without an
 * exit-status, i.e. missing, and are run again by the next invocation.
 *
 * A lock (flock on OUT/.lock) keeps two runners off one output directory.
 * The children inherit the lock's file descriptor, so the lock is held
 * until the last run of a sweep has ended, even if the sweep itself was
 * killed.
 *
 * A progress line shows runs done (finished now or before) out of the
 * total, running, failed, elapsed time and an estimate of the time left
 * (eta(): the mean wall time of the runs finished in this invocation, the
 * runs still to go and the parallelism). On a terminal (isatty(stderr)) it
 * is rewritten in place; otherwise it is printed every progress_interval
 * seconds (--progress-interval, default 60, 0 = none), and once more as
 * soon as the first run of this invocation ends (with the first estimate),
 * so a sweep shorter than an interval prints that one line at most.
 *
 * Each run's wall time (fork to wait) is written into its directory as
 * wall-seconds, for results.csv's wall_seconds column (collect.c).
 */
#include "study/sweep.h"

#include "app/util.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define KILL_GRACE_S 5.0

/* A running pnrsim. */
typedef struct slot {
    pid_t pid;       /* 0: free */
    size_t run;
    double start;
} slot;

typedef struct runner {
    const sweep_layout *L;
    const sweep_run_opts *o;
    sweep_run_counts *c;
    slot *slots;
    int running;
    size_t total, pending, finished_here;
    size_t timed;        /* runs that ended here after starting, ... */
    double timed_wall;   /* ... and their wall seconds in all */
    double last_line;    /* when the last progress line was printed (not a tty) */
    bool eta_shown;      /* a line with an estimate was printed (not a tty) */
    double t0;
    bool tty, drawn;
    int lockfd;      /* OUT/.lock, inherited by the children */
} runner;

/* The handler of the signals the runner waits for: they are taken with
 * sigtimedwait, so it only has to exist. */
static void on_signal(int sig)
{
    (void)sig;
}

/* Erase the progress line (before printing a message). */
static void clear_bar(runner *R)
{
    if (R->drawn) {
        fputs("\r\033[K", stderr);
        R->drawn = false;
    }
}

/* The estimate of the wall time left: the runs still to start at the mean
 * wall time of the runs finished in this invocation, plus what the running
 * ones have left of that mean, spread over the processes that will be busy
 * (at most jobs, at most the runs left), and never less than the running
 * run furthest from the mean has left. Negative when nothing has finished
 * yet (no mean to go on). */
static double eta(const runner *R, double now)
{
    if (R->pending <= R->finished_here)
        return 0;
    if (R->timed == 0)
        return -1;
    double mean = R->timed_wall / (double)R->timed;
    size_t queued = R->pending - R->finished_here - (size_t)R->running;
    double work = (double)queued * mean, longest = 0;
    for (int i = 0; i < R->o->jobs; i++)
        if (R->slots[i].pid) {
            double rest = mean - (now - R->slots[i].start);
            if (rest > 0)
                work += rest;
            if (rest > longest)
                longest = rest;
        }
    size_t busy = queued + (size_t)R->running;
    if (busy > (size_t)R->o->jobs)
        busy = (size_t)R->o->jobs;
    double t = busy ? work / (double)busy : 0;
    return t > longest ? t : longest;
}

/* The progress line: on a terminal rewritten in place (every call); else a
 * line every progress_interval s (0: none), the first after one interval,
 * and one as soon as the first run of this invocation has ended, so that
 * the first estimate of the time left is not held back to the next
 * interval (a sweep of runs of two minutes would otherwise show it after
 * three). */
static void draw_bar(runner *R)
{
    if (R->o->quiet)
        return;
    double now = util_now(), el = now - R->t0;
    bool first_eta = !R->tty && !R->eta_shown && R->timed > 0;
    if (!R->tty && (!(R->o->progress_interval > 0) ||
                    (now - R->last_line < R->o->progress_interval && !first_eta)))
        return;
    R->last_line = now;
    size_t done = R->c->skipped + R->finished_here;
    char elapsed[32], left[48], t[32];
    util_hms(elapsed, sizeof elapsed, el);
    double e = eta(R, now);
    if (e >= 0) {
        R->eta_shown = true;
        util_hms(t, sizeof t, e);
        snprintf(left, sizeof left, "about %s left", t);
    } else {
        snprintf(left, sizeof left, "time left not known yet");
    }
    char text[256];
    snprintf(text, sizeof text, "%zu/%zu runs done, %d running, %zu failed, %s elapsed, %s",
             done, R->total, R->running, R->c->failed, elapsed, left);
    if (!R->tty) {
        fprintf(stderr, "pnrsim-sweep: %s\n", text);
        fflush(stderr);
        return;
    }
    const int width = 30;
    int fill = R->total ? (int)((double)done / (double)R->total * width) : 0;
    char bar[64];
    for (int i = 0; i < width; i++)
        bar[i] = i < fill ? '#' : '.';
    bar[width] = '\0';
    fprintf(stderr, "\r[%s] %s\033[K", bar, text);
    fflush(stderr);
    R->drawn = true;
}

/* Report a failed run: print the reason and record the exit status. */
static void fail_run(runner *R, size_t run, const char *status,
                     const char *detail)
{
    char *part = sweep_run_dir(R->L, run, true);
    char *epath = xasprintf("%s/exit-status", part);
    char *line = xasprintf("%s\n", status);
    char err[512];
    if (sweep_is_dir(part))
        util_write_file(epath, line, strlen(line), err, sizeof err);
    char *why = NULL;
    sweep_run_state_of(R->L, run, &why);
    char *label = sweep_run_label(R->L->s, run);
    clear_bar(R);
    fprintf(stderr, "pnrsim-sweep: run failed: %s: %s\n", label,
            detail ? detail : why ? why : status);
    free(label);
    free(why);
    free(line);
    free(epath);
    free(part);
    R->c->failed++;
}

/* In the child, after fork: set up and exec pnrsim, or write errno to
 * errfd and exit 127. Only async-signal-safe calls. */
static void child_exec(char **argv, const char *errpath,
                       const sigset_t *child_mask, pid_t parent, int lockfd,
                       int errfd)
{
    static const int defsig[] = {SIGINT, SIGTERM, SIGHUP, SIGCHLD, SIGPIPE};
    struct sigaction dfl;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    for (size_t i = 0; i < sizeof defsig / sizeof defsig[0]; i++)
        sigaction(defsig[i], &dfl, NULL);
    setpgid(0, 0);
#ifdef __linux__
    /* Die with the sweep, even when it is killed with SIGKILL: orphaned
     * runs would go on writing into .part directories that a resumed sweep
     * runs again. The check of getppid closes the race with a parent that
     * died before prctl. */
    if (prctl(PR_SET_PDEATHSIG, SIGTERM) != 0 || getppid() != parent)
        _exit(127);
#else
    (void)parent;
#endif
    /* Keep the lock: the open file description (and so the flock) lives
     * as long as any run of this sweep does. */
    int fl = fcntl(lockfd, F_GETFD);
    if (fl >= 0)
        fcntl(lockfd, F_SETFD, fl & ~FD_CLOEXEC);
    int fd = open("/dev/null", O_RDWR);
    int efd = open(errpath, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0 || efd < 0 || dup2(fd, 0) < 0 || dup2(fd, 1) < 0 ||
        dup2(efd, 2) < 0)
        goto fail;
    if (fd > 2)
        close(fd);
    if (efd > 2)
        close(efd);
    sigprocmask(SIG_SETMASK, child_mask, NULL);
    execvp(argv[0], argv);
fail:;
    int e = errno;
    ssize_t w = write(errfd, &e, sizeof e);
    (void)w;
    _exit(127);
}

/* Start run in a free slot; false when it failed to start (reported). */
static bool launch(runner *R, size_t run, const sigset_t *child_mask)
{
    const sweep_layout *L = R->L;
    char *part = sweep_run_dir(L, run, true);
    char *errpath = xasprintf("%s/stderr.txt", part);
    char **argv = NULL;
    bool ok = false;
    char why[700];
    why[0] = '\0';
    if (sweep_rmtree(part) != 0 || util_mkdirs(part, NULL) != 0) {
        snprintf(why, sizeof why, "%s: %s", part, strerror(errno));
        goto out;
    }
    argv = sweep_run_argv(L->s, run, R->o->pnrsim, part);
    /* A close-on-exec pipe tells whether exec worked: it is closed without
     * data on success, and receives errno on failure. */
    int pfd[2];
    if (pipe(pfd) != 0) {
        snprintf(why, sizeof why, "pipe: %s", strerror(errno));
        goto out;
    }
    if (fcntl(pfd[0], F_SETFD, FD_CLOEXEC) != 0 ||
        fcntl(pfd[1], F_SETFD, FD_CLOEXEC) != 0) {
        snprintf(why, sizeof why, "pipe: %s", strerror(errno));
        close(pfd[0]);
        close(pfd[1]);
        goto out;
    }
    pid_t parent = getpid();
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0)
        child_exec(argv, errpath, child_mask, parent, R->lockfd, pfd[1]);
    int fe = errno;
    close(pfd[1]);
    if (pid < 0) {
        close(pfd[0]);
        snprintf(why, sizeof why, "cannot start %s: fork: %s", argv[0],
                 strerror(fe));
        goto out;
    }
    int e = 0;
    ssize_t got;
    do
        got = read(pfd[0], &e, sizeof e);
    while (got < 0 && errno == EINTR);
    close(pfd[0]);
    if (got == (ssize_t)sizeof e) {
        int st;
        waitpid(pid, &st, 0);
        snprintf(why, sizeof why, "cannot start %s: %s", argv[0],
                 strerror(e));
        goto out;
    }
    for (int i = 0; i < R->o->jobs; i++)
        if (!R->slots[i].pid) {
            R->slots[i] = (slot){pid, run, util_now()};
            break;
        }
    R->running++;
    ok = true;
out:
    if (!ok) {
        R->c->ran++;
        R->finished_here++;
        fail_run(R, run, "not started", why);
    }
    sweep_argv_free(argv);
    free(errpath);
    free(part);
    return ok;
}

/* A child ended with wait status st. */
static void finish(runner *R, slot *sl, int st, bool stopping)
{
    size_t run = sl->run;
    sl->pid = 0;
    R->running--;
    double wall = util_now() - sl->start;
    if (!stopping) {
        R->timed++;
        R->timed_wall += wall;
    }
    char *part = sweep_run_dir(R->L, run, true);
    char *fin = sweep_run_dir(R->L, run, false);
    /* The run's wall time, for results.csv's wall_seconds (collect.c);
     * written before the rename, so a finished run has it. */
    {
        char *wpath = xasprintf("%s/wall-seconds", part);
        char line[64], werr[256];
        int n = snprintf(line, sizeof line, "%.3f\n", wall);
        if (!stopping && sweep_is_dir(part))
            util_write_file(wpath, line, (size_t)n, werr, sizeof werr);
        free(wpath);
    }
    char status[64];
    char *detail = NULL;
    bool success = false;
    if (WIFEXITED(st) && WEXITSTATUS(st) == 0) {
        snprintf(status, sizeof status, "exit 0");
        char *mpath = xasprintf("%s/metrics.json", part);
        sweep_metrics ms;
        char err[600];
        if (sweep_metrics_read(mpath, &ms, err, sizeof err) != 0)
            detail = xstrdup(err);
        else if (ms.partial)
            detail = xasprintf("%s: a partial result", mpath);
        else if (sweep_rmtree(fin) != 0 || rename(part, fin) != 0)
            detail = xasprintf("%s -> %s: %s", part, fin,
                                     strerror(errno));
        else
            success = true;
        sweep_metrics_free(&ms);
        free(mpath);
    } else if (WIFEXITED(st)) {
        snprintf(status, sizeof status, "exit %d", WEXITSTATUS(st));
    } else {
        snprintf(status, sizeof status, "killed by signal %d",
                 WIFSIGNALED(st) ? WTERMSIG(st) : 0);
    }
    /* A run we stopped (whatever it did on the way out, e.g. a partial
     * metrics.json) stays missing, to be run again; it is no failure. */
    if (success || !stopping) {
        R->c->ran++;
        R->finished_here++;
        if (!success)
            fail_run(R, run, status, detail);
    }
    free(detail);
    free(part);
    free(fin);
}

int sweep_run(const sweep_layout *L, const sweep_run_opts *o,
              sweep_run_counts *c)
{
    memset(c, 0, sizeof *c);
    const study *s = L->s;
    char *lockpath = xasprintf("%s/.lock", L->out);
    int lockfd = open(lockpath, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (lockfd < 0 || flock(lockfd, LOCK_EX | LOCK_NB) != 0) {
        fprintf(stderr, "pnrsim-sweep: %s: %s\n", lockpath,
                errno == EWOULDBLOCK
                    ? "another pnrsim-sweep is running on this directory"
                    : strerror(errno));
        if (lockfd >= 0)
            close(lockfd);
        free(lockpath);
        return -1;
    }
    free(lockpath);

    size_t *todo = xmalloc((s->nruns + 1) * sizeof *todo);
    size_t ntodo = 0;
    for (size_t r = 0; r < s->nruns; r++) {
        if (sweep_run_state_of(L, r, NULL) == SWEEP_RUN_DONE)
            c->skipped++;
        else
            todo[ntodo++] = r;
    }

    runner R = {L, o, c, xmalloc((size_t)o->jobs * sizeof(slot)), 0,
                s->nruns, ntodo, 0, 0, 0, util_now(), false, util_now(),
                isatty(STDERR_FILENO) && !o->quiet, false, lockfd};
    memset(R.slots, 0, (size_t)o->jobs * sizeof(slot));

    /* Catch SIGCHLD, SIGINT, SIGTERM and (unless ignored, as under nohup)
     * SIGHUP with a handler that does nothing: they stay blocked and are
     * taken by sigtimedwait below, but an inherited SIG_IGN (a background
     * job of a script) must not make them vanish. */
    static const int sigs[] = {SIGCHLD, SIGINT, SIGTERM, SIGHUP};
    struct sigaction sa, old_sa[4];
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigset_t waitset, oldmask;
    sigemptyset(&waitset);
    for (int i = 0; i < 4; i++) {
        sigaction(sigs[i], NULL, &old_sa[i]);
        if (sigs[i] == SIGHUP && old_sa[i].sa_handler == SIG_IGN)
            continue;
        sigaction(sigs[i], &sa, NULL);
        sigaddset(&waitset, sigs[i]);
    }
    sigprocmask(SIG_BLOCK, &waitset, &oldmask);
    sigset_t child_mask;
    sigemptyset(&child_mask);

    bool stopping = false, killed = false;
    double stop_time = 0;
    size_t next = 0;
    for (;;) {
        while (!stopping && R.running < o->jobs && next < ntodo)
            launch(&R, todo[next++], &child_mask);
        if (R.running == 0 && (stopping || next >= ntodo))
            break;
        draw_bar(&R);
        /* Wake up for the next redraw (4 a second on a terminal) or the
         * next progress line (at least once a second). */
        double wake = R.tty ? 0.25 : 1;
        if (!R.tty && o->progress_interval > 0 && o->progress_interval < wake)
            wake = o->progress_interval;
        struct timespec to = {(time_t)wake, (long)((wake - (double)(time_t)wake) * 1e9)};
        int sig = sigtimedwait(&waitset, NULL, &to);
        if (sig == SIGINT || sig == SIGTERM || sig == SIGHUP) {
            if (!stopping) {
                stopping = true;
                stop_time = util_now();
                c->interrupted = true;
                clear_bar(&R);
                fprintf(stderr, "pnrsim-sweep: %s: stopping %d running "
                                "run%s\n",
                        sig == SIGINT ? "interrupt" : "terminated",
                        R.running, R.running == 1 ? "" : "s");
                for (int i = 0; i < o->jobs; i++)
                    if (R.slots[i].pid)
                        kill(-R.slots[i].pid, SIGTERM);
            }
        }
        if (stopping && !killed && util_now() - stop_time > KILL_GRACE_S) {
            killed = true;
            for (int i = 0; i < o->jobs; i++)
                if (R.slots[i].pid)
                    kill(-R.slots[i].pid, SIGKILL);
        }
        int st;
        pid_t pid;
        while ((pid = waitpid(-1, &st, WNOHANG)) > 0) {
            for (int i = 0; i < o->jobs; i++)
                if (R.slots[i].pid == pid) {
                    finish(&R, &R.slots[i], st, stopping);
                    break;
                }
        }
    }
    /* A signal that came after the last wait is still pending: take it
     * here rather than die of it when the mask is restored. */
    struct timespec zero = {0, 0};
    int late;
    while ((late = sigtimedwait(&waitset, NULL, &zero)) > 0)
        if (late != SIGCHLD)
            c->interrupted = true;
    if (R.tty && !o->quiet) {
        draw_bar(&R);
        fputs("\n", stderr);
        R.drawn = false;
    }
    sigprocmask(SIG_SETMASK, &oldmask, NULL);
    for (int i = 0; i < 4; i++)
        sigaction(sigs[i], &old_sa[i], NULL);
    free(R.slots);
    free(todo);
    close(lockfd);
    return 0;
}
