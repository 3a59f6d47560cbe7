/* sched/backfills.c: what a reservation policy sees (sched/reserve.h), on
 * the backfilling host of sched/backfill.c; the built-in backfilling
 * policies NONE, EASY and CONSERVATIVE as components; and the
 * registration of the scheduler's built-ins (sched/components.h). */
#include "sched/components.h"
#include "sched/bf_host.h"
#include "sched/reserve.h"

int sched_host_cores(const sched_host *h) { return h->npes; }
int sched_host_slots(const sched_host *h) { return gang_slots(h->g); }
int sched_host_mpl(const sched_host *h) { return gang_get_params(h->g)->mpl; }
int sched_host_slot_free(const sched_host *h, int s) { return gang_slot_nfree(h->g, s); }

bool sched_host_place(sched_host *h, sched_job *j, int only, int not, bool allow_new)
{
    return gang_place_where(h->g, (job_t *)(void *)j, only, not, allow_new);
}

int sched_host_profiles(sched_host *h, double now) { return bf_profiles(h, now); }

int sched_host_profile(const sched_host *h, int k, const double **t, const int **f)
{
    *t = h->pr[k].t;
    *f = h->pr[k].f;
    return h->pr[k].n;
}

/* The built-ins' passes: the host is their state (they are the host's
 * own modes, backfill.h). */
static void easy_pass(void *st, sched_host *h, sched_job *const *q, size_t n, double now)
{
    (void)st, (void)q;
    bf_easy(h, h->g, n, now);
}

static void cons_pass(void *st, sched_host *h, sched_job *const *q, size_t n, double now)
{
    (void)st, (void)q;
    bf_conservative(h, h->g, n, now);
}

static const sched_reserve_ops none_ops = {.on_pass = NULL};
static const sched_reserve_ops easy_ops = {.on_pass = easy_pass};
static const sched_reserve_ops cons_ops = {.on_pass = cons_pass};

int sched_backfills_register(pnrsim_registry *r)
{
    int rc = pnrsim_register(r, PNRSIM_KIND_BACKFILL, "NONE",
                             "no backfilling: jobs in queue order", &none_ops);
    if (!rc)
        rc = pnrsim_register(r, PNRSIM_KIND_BACKFILL, "EASY",
                             "EASY: a reservation for the head, later jobs may not delay it",
                             &easy_ops);
    if (!rc)
        rc = pnrsim_register(r, PNRSIM_KIND_BACKFILL, "CONSERVATIVE",
                             "conservative: a reservation for every queued job", &cons_ops);
    return rc;
}

int sched_components_register(pnrsim_registry *r)
{
    int rc = sched_orders_register(r);
    if (!rc)
        rc = sched_backfills_register(r);
    if (!rc)
        rc = sched_packings_register(r);
    return rc;
}
