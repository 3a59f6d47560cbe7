/* tests/fuzz/fuzz_study.c: libFuzzer harness for the study-file reader of
 * pnrsim-sweep (study_load). The input is a study file, written into a
 * scratch tree where the relative paths of the bundled study resolve
 * (../default.ini and ../../traces/hpc2n-seth-first3171.swf exist, tiny).
 * Properties: no crash; an error is one line starting with the file name
 * and leaves the study empty; a loaded study is consistent: npoints is the
 * product of the value counts (plus baselines), nruns = npoints x
 * replications, no varied key has a value twice, baselines and pins index
 * what exists, seeds are in 1..INT32_MAX, point directory names are
 * distinct (checked up to 512 points). Seeds: the studies of configs/studies/. */
#include "study/study.h"
#include "study/sweep.h"
#include "tests/fuzz/fuzz.h"

#include <stdint.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char top[512], dir[600], file[700];

static void remove_tree(void)
{
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", top);
    if (system(cmd) != 0)
        fprintf(stderr, "fuzz_study: could not remove %s\n", dir);
}

static void setup(void)
{
    if (dir[0])
        return;
    snprintf(top, sizeof top, "%s/pnrsim-fuzz-%ld-study", fuzz_tmpdir(), (long)getpid());
    snprintf(dir, sizeof dir, "%s/a/b", top);
    char p[800];
    FUZZ_CHECK(mkdir(top, 0700) == 0 || sweep_is_dir(top), "%s", top);
    atexit(remove_tree);
    snprintf(p, sizeof p, "%s/a", top);
    mkdir(p, 0700);
    mkdir(dir, 0700);
    snprintf(p, sizeof p, "%s/traces", top);
    mkdir(p, 0700);
    snprintf(p, sizeof p, "%s/a/default.ini", top);
    static const char ini[] = "[computer]\nnumber = 4\n";
    fuzz_write(p, ini, sizeof ini - 1);
    snprintf(p, sizeof p, "%s/traces/hpc2n-seth-first3171.swf", top);
    static const char swf[] = "1 0 -1 10 1 10 -1 -1 -1 -1 1 -1 -1 -1 -1 -1 -1 -1\n";
    fuzz_write(p, swf, sizeof swf - 1);
    snprintf(file, sizeof file, "%s/study.ini", dir);
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    setup();
    fuzz_write(file, data, size);
    study s;
    char err[STUDY_ERR_MAX] = "";
    int rc = study_load(&s, file, err);
    FUZZ_CHECK(rc == 0 || rc == -1, "study_load returned %d", rc);
    if (rc != 0) {
        fuzz_check_message(err);
        FUZZ_CHECK(strncmp(err, file, strlen(file)) == 0,
                   "message does not name the file: %s", err);
        study_free(&s);
        return 0;
    }
    FUZZ_CHECK(s.replications >= 1, "replications %ld", s.replications);
    size_t points = 1;
    bool overflow = false;
    for (size_t i = 0; i < s.nvary; i++) {
        const study_param *p = &s.vary[i];
        FUZZ_CHECK(p->nvalues >= 1, "%s: no values", p->key);
        if (points > SIZE_MAX / p->nvalues)
            overflow = true;
        else
            points *= p->nvalues;
        /* No value twice (sorted copy: linear after the sort). */
        char **v = malloc(p->nvalues * sizeof *v);
        memcpy(v, p->values, p->nvalues * sizeof *v);
        qsort(v, p->nvalues, sizeof *v, cmp_str);
        for (size_t k = 1; k < p->nvalues; k++)
            FUZZ_CHECK(strcmp(v[k - 1], v[k]) != 0, "%s: value %s twice", p->key, v[k]);
        free(v);
        if (p->baseline)
            for (size_t k = 0; k < p->nvalues; k++)
                FUZZ_CHECK(p->baseline[k] >= -1 && p->baseline[k] < (long)s.nbaselines,
                           "%s: baseline index %ld", p->key, p->baseline[k]);
    }
    if (!overflow) {
        FUZZ_CHECK(s.npoints == points, "npoints %zu, product %zu", s.npoints, points);
        /* Runs per point: every trace window ([study] windows) x seed. */
        FUZZ_CHECK(s.nrep == (size_t)(s.windows > 0 ? s.windows : 1) *
                                 (size_t)s.replications,
                   "nrep %zu, windows %ld, replications %ld", s.nrep,
                   s.windows, s.replications);
        FUZZ_CHECK(s.nruns == s.npoints * s.nrep, "nruns %zu", s.nruns);
        for (size_t r = 0; r < s.nruns && r < 64; r++) {
            long w = study_run_window(&s, r);
            FUZZ_CHECK(study_run_point(&s, r) < s.npoints, "run %zu point", r);
            FUZZ_CHECK(s.windows > 0 ? w >= 0 && w < s.windows : w == -1,
                       "run %zu window %ld", r, w);
        }
    }
    for (size_t i = 0; i < s.nplots; i++)
        for (size_t k = 0; k < s.nvary; k++) {
            long pin = s.plots[i].pin[k];
            FUZZ_CHECK(pin >= -1 && pin < (long)s.vary[k].nvalues, "pin %ld", pin);
        }
    for (long r = 0; r < s.replications && r < 4; r++) {
        long seed = study_seed(&s, (size_t)r);
        FUZZ_CHECK(seed >= 1 && seed <= INT32_MAX, "seed %ld", seed);
    }
    if (s.npoints <= 512) {
        char **names = malloc(s.npoints * sizeof *names);
        for (size_t p = 0; p < s.npoints; p++)
            names[p] = study_point_dirname(&s, p);
        qsort(names, s.npoints, sizeof *names, cmp_str);
        for (size_t p = 1; p < s.npoints; p++)
            FUZZ_CHECK(strcmp(names[p - 1], names[p]) != 0, "point %s twice", names[p]);
        for (size_t p = 0; p < s.npoints; p++)
            free(names[p]);
        free(names);
    }
    study_free(&s);
    return 0;
}
