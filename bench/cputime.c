/* bench/cputime.c: the CPU time (user + system) of one command, for
 * comparing whole programs side by side on a shared machine, where wall
 * time measures the load (bench/run.sh uses it for the Cimba comparison).
 *
 * Usage: cputime COMMAND [ARGS...]
 * Runs COMMAND with its standard output sent to /dev/null (standard error
 * kept), waits for it, and prints its CPU seconds, user + system, as
 * "%.6f\n" (from wait4's rusage: the kernel's per-task run time, not
 * clock-tick samples, for the sum). Exit status: 0 when COMMAND exited 0;
 * 1 when it could not be run, failed or was killed (nothing printed);
 * 2 on bad usage.
 */
#include <fcntl.h>
#include <stdio.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: cputime COMMAND [ARGS...]\n");
        return 2;
    }
    fflush(stdout);
    pid_t pid = fork();
    if (pid < 0) {
        perror("cputime: fork");
        return 1;
    }
    if (pid == 0) {
        int fd = open("/dev/null", O_WRONLY);
        if (fd >= 0) {
            dup2(fd, STDOUT_FILENO);
            close(fd);
        }
        execvp(argv[1], argv + 1);
        fprintf(stderr, "cputime: cannot run %s\n", argv[1]);
        _exit(127);
    }
    int st;
    struct rusage ru;
    if (wait4(pid, &st, 0, &ru) < 0) {
        perror("cputime: wait4");
        return 1;
    }
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
        fprintf(stderr, "cputime: %s failed (status %d)\n", argv[1],
                WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st));
        return 1;
    }
    double s = (double)ru.ru_utime.tv_sec + 1e-6 * (double)ru.ru_utime.tv_usec +
               (double)ru.ru_stime.tv_sec + 1e-6 * (double)ru.ru_stime.tv_usec;
    printf("%.6f\n", s);
    return 0;
}
