/* app/plot.c: pnrsim --plot (see plot.h).
 *
 * pnrsim-plot is looked for beside the executable first (readlink of
 * /proc/self/exe, else the directory of argv[0] when it has a slash), so
 * that build/pnrsim runs build/pnrsim-plot and an installed pnrsim the
 * pnrsim-plot installed with it, whatever PATH says; then on PATH.
 * pnrsim-plot runs the Python companion with the system interpreter
 * (PLOT_PYTHON): that it imports pandas and matplotlib is checked here,
 * before the run. The
 * child is started with posix_spawn with the signal mask and the SIGINT
 * and SIGTERM dispositions of a fresh process (pnrsim blocks both while
 * it writes its results), so Ctrl-C stops the plotting as it would stop
 * pnrsim-plot run by hand.
 */
#define _GNU_SOURCE /* readlink is POSIX; _GNU_SOURCE for environ */
#include "app/plot.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

#define PLOT_PYTHON "/usr/bin/python3"

/* Is dir/name an executable file? Writes the path into out (n bytes). */
static int exec_in(const char *dir, size_t dlen, const char *name, char *out, size_t n)
{
    int len = snprintf(out, n, "%.*s%s%s", (int)dlen, dir, dlen ? "/" : "", name);
    return len > 0 && (size_t)len < n && access(out, X_OK) == 0;
}

/* Look name up on PATH (into out, n bytes). Returns 1 when found. */
static int on_path(const char *name, char *out, size_t n)
{
    const char *p = getenv("PATH");
    if (!p || !*p)
        p = "/usr/local/bin:/usr/bin:/bin";
    for (;;) {
        const char *e = strchr(p, ':');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        if (exec_in(len ? p : ".", len ? len : 1, name, out, n))
            return 1;
        if (!e)
            return 0;
        p = e + 1;
    }
}

/* Can the system interpreter import pandas and matplotlib? (Its output
 * goes nowhere; the environment is pnrsim's, as pnrsim-plot's will be.) */
static int python_ok(void)
{
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&fa, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&fa, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
    char *const args[] = {(char *)PLOT_PYTHON, (char *)"-c",
                          (char *)"import pandas, matplotlib", NULL};
    pid_t pid;
    int rc = posix_spawn(&pid, PLOT_PYTHON, &fa, NULL, args, environ);
    posix_spawn_file_actions_destroy(&fa);
    if (rc != 0)
        return 0;
    int st;
    while (waitpid(pid, &st, 0) < 0)
        if (errno != EINTR)
            return 0;
    return WIFEXITED(st) && WEXITSTATUS(st) == 0;
}

int plot_find(const char *argv0, char *path, size_t n, char *err, size_t errn)
{
    char self[PATH_MAX], tmp[PATH_MAX];
    ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
    if (len > 0)
        self[len] = '\0';
    else if (argv0 && strchr(argv0, '/'))
        snprintf(self, sizeof self, "%s", argv0);
    else
        self[0] = '\0';
    const char *slash = strrchr(self, '/');
    if (!(slash && exec_in(self, (size_t)(slash - self), "pnrsim-plot", path, n)) &&
        !on_path("pnrsim-plot", path, n)) {
        snprintf(err, errn, "--plot: pnrsim-plot is neither beside pnrsim nor on PATH "
                            "(make builds build/pnrsim-plot; make install installs it); "
                            "nothing run");
        return -1;
    }
    (void)tmp;
    if (!python_ok()) {
        snprintf(err, errn, "--plot: " PLOT_PYTHON " cannot import pandas and matplotlib "
                            "(Debian: apt-get install python3-pandas python3-matplotlib, or "
                            "sh tools/deps.sh plot); nothing run");
        return -1;
    }
    return 0;
}

int plot_run(const char *path, const char *outdir, int quiet)
{
    posix_spawnattr_t attr;
    posix_spawn_file_actions_t fa;
    sigset_t none, dfl;
    sigemptyset(&none);
    sigemptyset(&dfl);
    sigaddset(&dfl, SIGINT);
    sigaddset(&dfl, SIGTERM);
    posix_spawnattr_init(&attr);
    posix_spawnattr_setsigmask(&attr, &none);
    posix_spawnattr_setsigdefault(&attr, &dfl);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
    posix_spawn_file_actions_init(&fa);
    if (quiet)
        posix_spawn_file_actions_addopen(&fa, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
    else
        posix_spawn_file_actions_adddup2(&fa, STDERR_FILENO, STDOUT_FILENO);
    char *const args[] = {(char *)path, (char *)"--", (char *)outdir, NULL};
    pid_t pid;
    int rc = posix_spawn(&pid, path, &fa, &attr, args, environ);
    posix_spawn_file_actions_destroy(&fa);
    posix_spawnattr_destroy(&attr);
    if (rc != 0) {
        errno = rc;
        return -1;
    }
    int st;
    while (waitpid(pid, &st, 0) < 0)
        if (errno != EINTR)
            return -1;
    return WIFEXITED(st) ? WEXITSTATUS(st) : WIFSIGNALED(st) ? 128 + WTERMSIG(st) : 1;
}
