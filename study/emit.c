/* study/emit.c: job lists and Slurm scripts instead of running.
 *
 * A job list has one POSIX shell command per line, one line per run, in
 * run order. Each command does what the built-in runner does, so runs made
 * by it look the same on disk and `pnrsim-sweep collect` treats them alike:
 *
 *   cd OUT && p=runs/P/seed-S.part f=runs/P/seed-S && rm -rf "$p" &&
 *   mkdir -p "$p" && (PNRSIM -c BASE [-t TRACE] -s S --set K=V... -q
 *   -o runs/P/seed-S.part </dev/null 2>"$p/stderr.txt"; s=$?;
 *   [ $s -eq 0 ] || echo "exit $s" >"$p/exit-status"; exit $s) &&
 *   rm -rf "$f" && mv "$p" "$f"
 *
 * (on one line). Paths are absolute, so the list runs from any directory
 * of any machine that sees the same files at the same paths (a shared
 * file system): `parallel < joblist`, `parallel --sshloginfile HOSTS <
 * joblist`, or `sh joblist`. Only the runs that are not done are listed,
 * unless --all: a study is resumed on a cluster by emitting again.
 *
 * The Slurm script is a job array with one task per line of the job list
 * (written beside it as SCRIPT.jobs); task i runs line i. [slurm] KEY =
 * VALUE lines of the study become "#SBATCH --KEY=VALUE"; array_max = K
 * limits the tasks running at once (--array=1-N%K). Its output goes to
 * OUT/slurm/%A_%a.out unless [slurm] sets output.
 */
#include "study/sweep.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Append the job-list command of run to b. */
static void job_line(const sweep_layout *L, size_t run, const char *pnrsim,
                     sweep_buf *b)
{
    size_t outlen = strlen(L->out);
    char *part_abs = sweep_run_dir(L, run, true);
    char *fin_abs = sweep_run_dir(L, run, false);
    char *part = sweep_shell_quote(part_abs + outlen + 1);
    char *fin = sweep_shell_quote(fin_abs + outlen + 1);
    char *out = sweep_shell_quote(L->out);
    char **argv = sweep_run_argv(L->s, run, pnrsim, part_abs + outlen + 1);
    sweep_buf_printf(b, "cd %s && p=%s f=%s && rm -rf \"$p\" && "
                        "mkdir -p \"$p\" && (", out, part, fin);
    for (char **a = argv; *a; a++) {
        char *q = sweep_shell_quote(*a);
        sweep_buf_printf(b, "%s%s", a == argv ? "" : " ", q);
        free(q);
    }
    sweep_buf_puts(b, " </dev/null 2>\"$p/stderr.txt\"; s=$?; "
                      "[ $s -eq 0 ] || echo \"exit $s\" >\"$p/exit-status\"; "
                      "exit $s) && rm -rf \"$f\" && mv \"$p\" \"$f\"\n");
    sweep_argv_free(argv);
    free(out);
    free(part);
    free(fin);
    free(part_abs);
    free(fin_abs);
}

/* The job list text and its line count. */
static long build_joblist(const sweep_layout *L, const char *pnrsim, bool all,
                          sweep_buf *b)
{
    long n = 0;
    sweep_buf_puts(b, "");
    for (size_t r = 0; r < L->s->nruns; r++) {
        if (!all && sweep_run_state_of(L, r, NULL) == SWEEP_RUN_DONE)
            continue;
        job_line(L, r, pnrsim, b);
        n++;
    }
    return n;
}

long sweep_emit_joblist(const sweep_layout *L, const char *pnrsim, bool all,
                        const char *path, char *err, size_t errlen)
{
    sweep_buf b = {0};
    long n = build_joblist(L, pnrsim, all, &b);
    int rc = util_write_file(path, b.p, b.n, err, errlen);
    sweep_buf_free(&b);
    return rc ? -1 : n;
}

static const study_kv *slurm_opt(const study *s, const char *key)
{
    for (size_t i = 0; i < s->nslurm; i++)
        if (!strcmp(s->slurm[i].key, key))
            return &s->slurm[i];
    return NULL;
}

long sweep_emit_slurm(const sweep_layout *L, const char *pnrsim, bool all,
                      const char *path, char *err, size_t errlen)
{
    const study *s = L->s;
    char *jobs = xasprintf("%s.jobs", path);
    char *jobs_abs = sweep_abspath(jobs, NULL);
    long n = sweep_emit_joblist(L, pnrsim, all, jobs, err, errlen);
    free(jobs);
    if (n < 0) {
        free(jobs_abs);
        return -1;
    }
    char *logdir = xasprintf("%s/slurm", L->out);
    if (!slurm_opt(s, "output") && util_mkdirs(logdir, NULL) != 0) {
        snprintf(err, errlen, "%s: cannot create", logdir);
        free(logdir);
        free(jobs_abs);
        return -1;
    }
    sweep_buf b = {0};
    char *study_abs = sweep_abspath(s->path, NULL);
    sweep_buf_printf(&b,
                     "#!/bin/bash\n"
                     "# Slurm job array for pnrsim study %s (%s),\n"
                     "# written by pnrsim-sweep: %ld run%s, one array task "
                     "each.\n"
                     "#   submit:   sbatch %s\n"
                     "#   then:     pnrsim-sweep collect %s -o %s\n",
                     s->name, study_abs, n, n == 1 ? "" : "s", path,
                     study_abs, L->out);
    free(study_abs);
    if (!slurm_opt(s, "job-name"))
        sweep_buf_printf(&b, "#SBATCH --job-name=%s\n", s->name);
    const study_kv *amax = slurm_opt(s, "array_max");
    if (n > 0)
        sweep_buf_printf(&b, "#SBATCH --array=1-%ld%s%s\n", n,
                         amax ? "%" : "", amax ? amax->value : "");
    else
        sweep_buf_puts(&b, "# nothing to run: every run of the study is "
                           "done\n");
    if (!slurm_opt(s, "output"))
        sweep_buf_printf(&b, "#SBATCH --output=%s/%%A_%%a.out\n", logdir);
    for (size_t i = 0; i < s->nslurm; i++)
        if (strcmp(s->slurm[i].key, "array_max") != 0)
            sweep_buf_printf(&b, "#SBATCH --%s=%s\n", s->slurm[i].key,
                             s->slurm[i].value);
    char *qjobs = sweep_shell_quote(jobs_abs);
    sweep_buf_printf(&b,
                     "set -u\n"
                     "JOBLIST=%s\n"
                     "line=$(sed -n \"${SLURM_ARRAY_TASK_ID}p\" "
                     "\"$JOBLIST\")\n"
                     "if [ -z \"$line\" ]; then\n"
                     "    echo \"no line $SLURM_ARRAY_TASK_ID in $JOBLIST\" "
                     ">&2\n"
                     "    exit 1\n"
                     "fi\n"
                     "exec /bin/sh -c \"$line\"\n",
                     qjobs);
    free(qjobs);
    int rc = util_write_file(path, b.p, b.n, err, errlen);
    if (!rc)
        chmod(path, 0755);
    sweep_buf_free(&b);
    free(logdir);
    free(jobs_abs);
    return rc ? -1 : n;
}
