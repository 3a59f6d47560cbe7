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
 * OUT/slurm/%A_%a.out unless [slurm] sets output, and its job name is the
 * study's unless [slurm] sets job-name. The study file refuses the keys
 * that would fight the generated lines (array, wrap), single letters and
 * repeated keys (study/sections.c).
 *
 * Quoting: a value or path with a character outside [A-Za-z0-9_./,:=+@%-]
 * is written in double quotes on an #SBATCH line, with '\' before '"' and
 * '\' (sbatch reads #SBATCH lines so: quotes group, a backslash escapes
 * the next character, an unquoted '#' starts a comment); in the commands,
 * in single quotes (sweep_shell_quote). A job list has one command per
 * line, so a name with a line break or another control character (the
 * output directory, pnrsim, the study's files) is refused before anything
 * is written (sweep_emit_check); comments of the script show such
 * characters as '?'.
 */
#include "study/sweep.h"

#include <stdbool.h>
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

/* s on an #SBATCH line: as is when every character is plain, else in
 * double quotes with '"' and '\\' escaped by a backslash. */
static void slurm_value(sweep_buf *b, const char *s)
{
    bool plain = *s != '\0';
    for (const char *p = s; *p && plain; p++)
        plain = strchr("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                       "0123456789_./,:=+@%-", *p) != NULL;
    if (plain) {
        sweep_buf_puts(b, s);
        return;
    }
    sweep_buf_puts(b, "\"");
    for (const char *p = s; *p; p++) {
        if (*p == '"' || *p == '\\')
            sweep_buf_puts(b, "\\");
        sweep_buf_add(b, p, 1);
    }
    sweep_buf_puts(b, "\"");
}

/* s in a comment line of the script: control characters as '?'. */
static void comment_text(sweep_buf *b, const char *s)
{
    for (const char *p = s; *p; p++)
        sweep_buf_add(b, (unsigned char)*p < 0x20 || *p == 0x7f ? "?" : p, 1);
}

/* The first control character in s, or NULL. */
static const char *ctrl_in(const char *s)
{
    for (const char *p = s; *p; p++)
        if ((unsigned char)*p < 0x20 || *p == 0x7f)
            return p;
    return NULL;
}

int sweep_emit_check(const sweep_layout *L, const char *pnrsim,
                     const char *file, char *err, size_t errlen)
{
    const study *s = L->s;
    const char *what[] = {"-o directory", "pnrsim", "output file",
                          "study file", "base", "trace"};
    const char *name[] = {L->out, pnrsim, file, s->path, s->base, s->trace};
    for (size_t i = 0; i < sizeof name / sizeof *name; i++) {
        if (!name[i] || !ctrl_in(name[i]))
            continue;
        sweep_buf b = {0};
        comment_text(&b, name[i]);
        snprintf(err, errlen, "%s '%s': a line break or control character in "
                              "the name (shown as ?): a job list has one "
                              "command per line; rename it", what[i], b.p);
        sweep_buf_free(&b);
        return -1;
    }
    return 0;
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
    char *qpath = sweep_shell_quote(path), *qstudy = sweep_shell_quote(study_abs);
    char *qout = sweep_shell_quote(L->out);
    sweep_buf_printf(&b, "#!/bin/bash\n# Slurm job array for pnrsim study %s (",
                     s->name);
    comment_text(&b, study_abs);
    sweep_buf_printf(&b, "),\n# written by pnrsim-sweep: %ld run%s, one array "
                         "task each.\n#   submit:   sbatch ",
                     n, n == 1 ? "" : "s");
    comment_text(&b, qpath);
    sweep_buf_puts(&b, "\n#   then:     pnrsim-sweep collect ");
    comment_text(&b, qstudy);
    sweep_buf_puts(&b, " -o ");
    comment_text(&b, qout);
    sweep_buf_puts(&b, "\n");
    free(qpath);
    free(qstudy);
    free(qout);
    free(study_abs);
    if (!slurm_opt(s, "job-name")) {
        sweep_buf_puts(&b, "#SBATCH --job-name=");
        slurm_value(&b, s->name);
        sweep_buf_puts(&b, "\n");
    }
    const study_kv *amax = slurm_opt(s, "array_max");
    if (n > 0)
        sweep_buf_printf(&b, "#SBATCH --array=1-%ld%s%s\n", n,
                         amax ? "%" : "", amax ? amax->value : "");
    else
        sweep_buf_puts(&b, "# nothing to run: every run of the study is "
                           "done\n");
    if (!slurm_opt(s, "output")) {
        char *log = xasprintf("%s/%%A_%%a.out", logdir);
        sweep_buf_puts(&b, "#SBATCH --output=");
        slurm_value(&b, log);
        sweep_buf_puts(&b, "\n");
        free(log);
    }
    for (size_t i = 0; i < s->nslurm; i++)
        if (strcmp(s->slurm[i].key, "array_max") != 0) {
            sweep_buf_printf(&b, "#SBATCH --%s=", s->slurm[i].key);
            slurm_value(&b, s->slurm[i].value);
            sweep_buf_puts(&b, "\n");
        }
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
