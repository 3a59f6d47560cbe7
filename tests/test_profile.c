/* tests/test_profile.c: memory that changes over time (issue 33 item 3,
 * workload.memory_profile; sched/job_profile.c, sched/job_resize.c): the
 * points of RAMP and PHASES worked by hand, a growing thread crossing its
 * node's RAM (no fault before the CPU instant its overallocation starts,
 * the report's fault rate after it), a PHASES thread's allocated MB over
 * time and its time average (low x (1 - peak_share) + peak x peak_share),
 * a node of several cores whose shares follow a thread's size, and
 * CONSTANT installing nothing. The network RAM side is
 * tests/test_pnr_profile.c's. */
#include "tests/fixture_job.h"
#include "app/config_notes.h"

#include "sched/job_profile.h"

#include <math.h>

/* ---- the points, by hand ------------------------------------------------------ */

START_TEST(test_points_ramp)
{
    /* s = 0.25, n = 4, ramp_share 0.5, cpu 100: W = 50 CPU s, points at
     * k x 12.5 = 12.5, 25, 37.5, 50; levels 0.25 + 0.75 k / 4 = 0.4375,
     * 0.625, 0.8125, and exactly 1; none after. */
    mem_profile pf = {.kind = MEM_PROFILE_RAMP, .start = 0.25, .steps = 4, .ramp_share = 0.5};
    const double t[] = {0, 12.5, 25, 37.5, 50}, f[] = {0.25, 0.4375, 0.625, 0.8125, 1};
    double frac;
    for (long k = 0; k <= 4; k++) {
        ck_assert_double_eq(job_profile_point(&pf, 100, k, &frac), t[k]);
        ck_assert_double_eq(frac, f[k]);
    }
    ck_assert(isinf(job_profile_point(&pf, 100, 5, &frac)));
    /* ramp_share 1: the last point at exactly the end of the work is kept. */
    pf.ramp_share = 1;
    ck_assert_double_eq(job_profile_point(&pf, 100, 4, &frac), 100);
}
END_TEST

START_TEST(test_points_phases)
{
    /* T = 100, q = 0.25, l = 0.5, cpu 300: start at 0.5; up at
     * (m + 0.75) x 100 = 75, 175, 275; down at (m + 1) x 100 = 100, 200,
     * 300 (at the end: kept); point 7 (375) after the end: none. */
    mem_profile pf = {.kind = MEM_PROFILE_PHASES, .low = 0.5, .peak_share = 0.25, .period = 100};
    const double t[] = {0, 75, 100, 175, 200, 275, 300};
    double frac;
    for (long k = 0; k <= 6; k++) {
        ck_assert_double_eq(job_profile_point(&pf, 300, k, &frac), t[k]);
        ck_assert_double_eq(frac, k % 2 ? 1 : 0.5);
    }
    ck_assert(isinf(job_profile_point(&pf, 300, 7, &frac)));
    /* Always at the peak: no change. */
    pf.peak_share = 1;
    ck_assert_double_eq(job_profile_point(&pf, 300, 0, &frac), 0);
    ck_assert_double_eq(frac, 1);
    ck_assert(isinf(job_profile_point(&pf, 300, 1, &frac)));
    /* CONSTANT: the peak from the start, no other point. */
    mem_profile c = {0};
    ck_assert_double_eq(job_profile_point(&c, 300, 0, &frac), 0);
    ck_assert_double_eq(frac, 1);
    ck_assert(isinf(job_profile_point(&c, 300, 1, &frac)));
}
END_TEST

/* ---- a growing thread crossing its node's RAM -------------------------------- */

typedef struct probe {
    const pe_t *pe;
    double over, alloc;
} probe;

static void probe_cb(sim_t *sim, void *arg)
{
    (void)sim;
    probe *q = arg;
    q->over = pe_overalloc_mb(q->pe);
    q->alloc = q->pe->alloc_mb;
}

/* R = 0.0125 / 4096 s: R x P = 0.0125 CPU s, the mean gap at U = 1. */
#define R_RAMP (0.0125 / 4096.0)

START_TEST(test_ramp_crosses_ram)
{
    /* One PE of 100 MB; one thread of 200 MB (its peak), 100 CPU s, RAMP
     * from 0.25 in 4 steps over the first half: 50 MB, then 87.5 MB at CPU
     * 12.5 s, 125 MB at 25 s, 162.5 MB at 37.5 s, 200 MB at 50 s. The node
     * is overallocated from CPU 25 s on (125 > 100) and not before, so no
     * fault comes before CPU 25 s; nothing else runs, so up to the first
     * fault wall time = CPU time (probes at 24.99 and 25.01 s).
     * From CPU 25 s to 37.5 s: L = min(25 MB, 125 MB) = 25 MB = N = 6400
     * pages, D starts at 0 and grows by a page per fault, so the fault rate
     * is (N - n) / (N R P) (§4.1.5: U = (L - D) / L, mean gap R P / U): a
     * pure birth process of N independent Exp(1 / (N R P)) clocks, so the
     * faults in those 12.5 CPU s are Binomial(N, 1 - e^{-12.5 / (N R P)}),
     * N R P = 80 s: p = 1 - e^{-0.15625} = 0.144654, mean 925.8, SD
     * sqrt(6400 p (1 - p)) = 28.1 (a redraw at a change is memoryless). At
     * CPU 37.5 s L becomes 62.5 MB, at 50 s 100 MB: every fault records
     * its window's L. */
    world w;
    cluster_params p = world_params(1, 100, TOPO_KIND_STAR, BW, 7);
    p.mem_access_rate = R_RAMP;
    p.profile = (mem_profile){.kind = MEM_PROFILE_RAMP, .start = 0.25, .steps = 4,
                              .ramp_share = 0.5};
    world_init_p(&w, &p);
    w.log_faults = true;
    w.release_on_end = true;
    job_t *j = make_job(&w, 1, 1, NULL, 100, 200);
    probe before = {&w.cl.pes[0], -1, -1}, after = before, start = before;
    at(&w, 0, j, ACT_RUN, 0);
    ev_once(&w.sim, 1, probe_cb, &start);
    ev_once(&w.sim, 24.99, probe_cb, &before);
    ev_once(&w.sim, 25.01, probe_cb, &after);
    ev_run(&w.sim, INFINITY);
    ck_assert_int_eq(w.jobs_ended, 1);
    ck_assert_double_eq(start.alloc, 50);
    ck_assert_double_eq(before.alloc, 87.5);
    ck_assert_double_eq(before.over, 0);
    ck_assert_double_eq(after.over, 25);
    ck_assert_uint_gt(w.nfaults, 0);
    long n1 = 0;
    for (size_t i = 0; i < w.nfaults; i++) {
        double c = w.faults[i].cpu, L = w.faults[i].L / MB;
        ck_assert(c >= 25);
        if (c < 37.5) {
            ck_assert_double_eq(L, 25);
            n1++;
        } else if (c < 50) {
            ck_assert_double_eq(L, 62.5);
        } else {
            ck_assert_double_eq(L, 100);
        }
    }
    const double N = 6400, pr = 1 - exp(-12.5 / 80.0);
    ck_assert_msg(fabs((double)n1 - N * pr) < 5 * sqrt(N * pr * (1 - pr)),
                  "%ld faults in CPU [25, 37.5), expected %.1f", n1, N * pr);
    ck_assert_uint_eq(j->faults, w.nfaults);
    world_free(&w);
}
END_TEST

/* ---- a PHASES thread's memory over time ----------------------------------- */

START_TEST(test_phases_time_average)
{
    /* One PE of 1000 MB (never overallocated; no paging, R = 0); one
     * thread of 64 MB, 1200 CPU s, PHASES low 0.5, peak_share 0.25, period
     * 100: 32 MB on CPU [0, 75), 64 MB on [75, 100), 32 on [100, 175) ...,
     * down to 32 MB at its end (1200 s, wall time = CPU time). The PE's
     * time average of allocated MB over [0, 1200] is therefore exactly
     * 32 x 0.75 + 64 x 0.25 = 24 + 16 = 40 MB, and its peak 64 MB. */
    world w;
    cluster_params p = world_params(1, 1000, TOPO_KIND_STAR, BW, 3);
    p.profile = (mem_profile){.kind = MEM_PROFILE_PHASES, .low = 0.5, .peak_share = 0.25,
                              .period = 100};
    world_init_p(&w, &p);
    job_t *j = make_job(&w, 1, 1, NULL, 1200, 64);
    probe q[4];
    const double when[] = {50, 80, 100.5, 1199};
    const double want[] = {32, 64, 32, 64};
    for (int i = 0; i < 4; i++) {
        q[i] = (probe){&w.cl.pes[0], -1, -1};
        ev_once(&w.sim, when[i], probe_cb, &q[i]);
    }
    at(&w, 0, j, ACT_RUN, 0);
    ev_run(&w.sim, INFINITY);
    ck_assert_int_eq(w.jobs_ended, 1);
    ck_assert_double_eq(j->end, 1200);
    for (int i = 0; i < 4; i++)
        ck_assert_double_eq(q[i].alloc, want[i]);
    ck_assert_double_eq(timeavg_mean(&w.cl.pes[0].mem, 1200), 40);
    ck_assert_double_eq(w.cl.pes[0].alloc_mb, 0); /* all given back */
    world_free(&w);
}
END_TEST

/* ---- a node of several cores ----------------------------------------------- */

START_TEST(test_shares_follow_the_size)
{
    /* One node of 2 cores and 100 MB; job 1 (row 0): two threads of 80 MB
     * (CONSTANT would overallocate 60 MB from the start); under RAMP from
     * 0.5 in 1 step over the first half of 10 CPU s, each is 40 MB until
     * CPU 5 s (80 MB, no overallocation), then 80 MB: overallocation 60 MB
     * and each thread's L = 60 x 80 / 160 = 30 MB (its share, MODEL.md
     * "Nodes of several cores"): the user sizes followed the change. */
    world w;
    cluster_params p = world_params(1, 100, TOPO_KIND_STAR, BW, 5);
    p.cores_per_node = 2;
    p.mem_access_rate = 1e-3;
    p.profile = (mem_profile){.kind = MEM_PROFILE_RAMP, .start = 0.5, .steps = 1,
                              .ramp_share = 0.5};
    world_init_p(&w, &p);
    w.log_faults = true;
    job_t *j = make_job(&w, 1, 2, (const int[]){0, 1}, 10, 80);
    j->row = 0;
    at(&w, 0, j, ACT_RUN, 0);
    ev_run(&w.sim, INFINITY);
    ck_assert_int_eq(w.jobs_ended, 1);
    ck_assert_uint_gt(w.nfaults, 0);
    for (size_t i = 0; i < w.nfaults; i++) {
        ck_assert(w.faults[i].cpu >= 5);
        ck_assert_double_eq(w.faults[i].L, 30 * MB);
    }
    world_free(&w);
}
END_TEST

START_TEST(test_constant_installs_nothing)
{
    /* CONSTANT (the default): no step, no clock; a thread allocates its
     * whole size at its start (the report, §4.3.1). */
    world w;
    cluster_params p = world_params(1, 100, TOPO_KIND_STAR, BW, 5);
    world_init_p(&w, &p);
    ck_assert_ptr_null(w.cl.resize);
    job_t *j = make_job(&w, 1, 1, NULL, 10, 30);
    probe q = {&w.cl.pes[0], -1, -1};
    ev_once(&w.sim, 1, probe_cb, &q);
    at(&w, 0, j, ACT_RUN, 0);
    ev_run(&w.sim, INFINITY);
    ck_assert_double_eq(q.alloc, 30);
    world_free(&w);
}
END_TEST

START_TEST(test_keys)
{
    /* Out of range: refused with the key named (exit 2 in pnrsim). */
    config c;
    char err[CFG_ERR_MAX];
    config_defaults(&c);
    const char *bad[] = {"workload.memory_steps=0", "workload.ramp_share=0",
                         "workload.memory_start=1.5", "workload.memory_low=-0.1",
                         "workload.peak_share=0", "workload.memory_period=0",
                         "workload.memory_profile=SAWTOOTH", NULL};
    for (int i = 0; bad[i]; i++) {
        ck_assert_msg(config_set(&c, bad[i], err) != 0, "%s accepted", bad[i]);
        ck_assert_msg(strstr(err, strchr(bad[i], '.') + 1) != NULL || strstr(err, "memory"),
                      "%s: %s", bad[i], err);
    }
    /* A RAMP key under PHASES, a PHASES key under CONSTANT: no effect,
     * each noted with the profile in use. */
    config_defaults(&c);
    ck_assert_int_eq(config_set(&c, "workload.memory_low=0.2", err), 0);
    cfg_note notes[8];
    ck_assert_uint_eq(config_ignored(&c, notes, 8), 1);
    ck_assert_str_eq(notes[0].key, "workload.memory_low");
    ck_assert_msg(strstr(notes[0].what, "not PHASES") && strstr(notes[0].what, "= CONSTANT"),
                  "%s", notes[0].what);
    ck_assert_int_eq(config_set(&c, "workload.memory_profile=PHASES", err), 0);
    ck_assert_int_eq(config_set(&c, "workload.memory_steps=3", err), 0);
    ck_assert_uint_eq(config_ignored(&c, notes, 8), 1);
    ck_assert_str_eq(notes[0].key, "workload.memory_steps");
    ck_assert_msg(strstr(notes[0].what, "not RAMP"), "%s", notes[0].what);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("profile");
    TCase *tc = tcase_create("profile");
    tcase_add_test(tc, test_points_ramp);
    tcase_add_test(tc, test_points_phases);
    tcase_add_test(tc, test_ramp_crosses_ram);
    tcase_add_test(tc, test_phases_time_average);
    tcase_add_test(tc, test_shares_follow_the_size);
    tcase_add_test(tc, test_constant_installs_nothing);
    tcase_add_test(tc, test_keys);
    suite_add_tcase(s, tc);
    return s;
}

TEST_MAIN()
