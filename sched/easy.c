/* sched/easy.c: EASY backfilling, the built-in reservation policy EASY
 * (backfill.h states its rules), and NONE, written against the public
 * interface only (sched/reserve.h, sched/profile.h), as a plugin's would
 * be.
 *
 * Jobs start in queue order while they fit; the first that does not (the
 * head) gets a reservation at the shadow time S, the earliest time at
 * which a profile of free cores has room for it (the lowest slot on ties,
 * open slots before new ones), with `extra` cores to spare there. A later
 * job starts now if it fits and ends by S (by the host's wall-time bound),
 * or if it fits outside the reserved slot, or takes at most `extra` cores
 * of it. At MPL 1 under mem_aware the reservation also holds memory: S is
 * the first time the head fits by cores and memory on the machine as
 * expected then, and a later job that does not end by S starts only if the
 * head still fits at S beside it (sched_host_fits_at). Its state is its
 * profiles, kept from pass to pass.
 */
#include "sched/reserve.h"
#include "sched/profile.h"

#include <assert.h>
#include <math.h>
#include <stdlib.h>

static void *easy_create(const pnrsim_ctx *ctx)
{
    (void)ctx;
    sched_profiles *ps = calloc(1, sizeof *ps);
    if (!ps)
        abort();
    return ps;
}

static void easy_destroy(void *state)
{
    sched_profiles_free(state);
    free(state);
}

static void easy_pass(void *state, sched_host *h, sched_job *const *q, size_t n, double now)
{
    sched_profiles *ps = state;
    size_t i = 0;
    /* A job that is not waiting (held by a per-user limit) is skipped:
     * it is not the head and gets no reservation. */
    while (i < n && (!sched_job_waiting(q[i]) || sched_host_place(h, q[i], -1, -1, true)))
        i++;
    if (i == n)
        return;
    sched_job *hd = q[i];
    int hw = sched_job_width(hd);
    int np = sched_host_build_profiles(h, now, sched_host_unopened(h) > 0 ? 1 : 0, 0, ps);
    int r = -1, extra = 0;
    double S = INFINITY;
    for (int k = 0; k < np; k++) {
        const sched_prof *p = &ps->pr[k];
        int s = 0;
        while (p->f[s] < hw)
            s++; /* the last step has every core free */
        if (p->t[s] < S) {
            S = p->t[s];
            r = k;
            extra = p->f[s] - hw;
        }
    }
    assert(r >= 0);
    /* Where reservations hold memory (MPL 1, mem_aware): the reservation
     * holds memory
     * (docs/SCHEDULING.md, "Reservations that hold memory"): S is the
     * first step with the head's cores free at which it also fits by memory
     * on the machine as expected then; a later job that does not end by S
     * starts only if the head still fits at S beside it. memres is false
     * when no step fits so (a job only network RAM can admit): the
     * reservation counts cores only. */
    bool memres = false;
    if (sched_host_mem_reserves(h) && np == 1) {
        const sched_prof *p = &ps->pr[0];
        for (int s = 0; s < p->n && !memres; s++)
            if (p->f[s] >= hw && sched_host_fits_at(h, hd, p->t[s], NULL)) {
                memres = true;
                S = p->t[s];
                extra = p->f[s] - hw;
            }
    }
    sched_host_note_reserved(h, hd, S);
    sched_host_note_head(h, hd, S);
    for (size_t k = i + 1; k < n; k++) {
        sched_job *j = q[k];
        if (!sched_job_waiting(j))
            continue;
        int w = sched_job_width(j);
        bool rnew = r == sched_host_slots(h); /* the reserved slot is not open yet */
        if (now + sched_host_wall(h, sched_job_estimate(j)) <= S) {
            sched_host_place(h, j, -1, -1, rnew);
        } else if (memres) {
            if (sched_host_fits_at(h, hd, S, j) && sched_host_place(h, j, r, -1, rnew))
                extra -= w;
        } else if (!sched_host_place(h, j, -1, r, false) && w <= extra &&
                   sched_host_place(h, j, r, -1, rnew)) {
            extra -= w;
        }
    }
}

static const sched_reserve_ops none_ops = {.on_pass = NULL};
static const sched_reserve_ops easy_ops = {
    .create = easy_create,
    .destroy = easy_destroy,
    .on_pass = easy_pass,
};

int sched_easy_register(pnrsim_registry *r)
{
    int rc = pnrsim_register(r, PNRSIM_KIND_BACKFILL, "NONE",
                             "no backfilling: jobs in queue order", &none_ops);
    if (!rc)
        rc = pnrsim_register(r, PNRSIM_KIND_BACKFILL, "EASY",
                             "EASY: a reservation for the head, later jobs may not delay it",
                             &easy_ops);
    return rc;
}
