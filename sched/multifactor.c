/* sched/multifactor.c: the MULTIFACTOR queue order (see multifactor.h). */
#include "sched/multifactor.h"

#include "core/mem.h"
#include "sched/idmap.h"

#include <math.h>
#include <stdlib.h>

/* Decayed usage as of time t with rate r (cores held). */
typedef struct mf_use {
    double u, r, t;
} mf_use;

typedef struct mf {
    sched_mf_params p;
    double lambda;       /* ln 2 / half_life; 0: no decay */
    sched_idmap ids;
    mf_use *acct;        /* by index of ids */
    size_t cap;
    mf_use total;
} mf;

void *sched_mf_create(const sched_mf_params *p)
{
    mf *m = xcalloc(1, sizeof *m);
    m->p = *p;
    m->lambda = p->half_life > 0 ? log(2.0) / p->half_life : 0;
    sched_idmap_init(&m->ids);
    return m;
}

static void mf_destroy(void *state)
{
    mf *m = state;
    if (!m)
        return;
    sched_idmap_free(&m->ids);
    free(m->acct);
    free(m);
}

/* u's usage at now >= u->t. */
static double use_at(const mf *m, const mf_use *u, double now)
{
    double d = now - u->t;
    if (!(d > 0))
        return u->u;
    if (m->lambda == 0)
        return u->u + u->r * d;
    double k = exp2(-d / m->p.half_life);
    return u->u * k + u->r * (1 - k) / m->lambda;
}

/* Bring u to now and add dr to its rate. */
static void use_move(const mf *m, mf_use *u, double now, double dr)
{
    u->u = use_at(m, u, now);
    u->t = now;
    u->r += dr;
    if (u->r < 0.5)
        u->r = 0; /* whole cores: no drift */
}

static long acct_of(const mf *m, const sched_job_info *j) { return m->p.by_group ? j->group : j->user; }

static void mf_submit(void *state, const sched_job_info *j, double now)
{
    mf *m = state;
    size_t n = m->ids.n;
    int ix = sched_idmap_add(&m->ids, acct_of(m, j));
    if (m->ids.n > n) {
        if (m->ids.n > m->cap) {
            m->cap = m->cap ? 2 * m->cap : 16;
            m->acct = xrealloc(m->acct, m->cap * sizeof *m->acct);
        }
        m->acct[ix] = (mf_use){.u = 0, .r = 0, .t = now};
    }
}

static void mf_charge(mf *m, const sched_job_info *j, double now, double dr)
{
    int ix = sched_idmap_find(&m->ids, acct_of(m, j));
    if (ix < 0) { /* not told of its arrival (a direct caller): now */
        mf_submit(m, j, now);
        ix = sched_idmap_find(&m->ids, acct_of(m, j));
    }
    use_move(m, &m->acct[ix], now, dr);
    use_move(m, &m->total, now, dr);
}

static void mf_start(void *state, const sched_job_info *j, double now)
{
    mf_charge(state, j, now, j->width);
}

static void mf_end(void *state, const sched_job_info *j, double now)
{
    mf_charge(state, j, now, -j->width);
}

double sched_mf_usage(const void *state, long a, double now)
{
    const mf *m = state;
    int ix = sched_idmap_find(&m->ids, a);
    return ix < 0 ? 0 : use_at(m, &m->acct[ix], now);
}

double sched_mf_usage_total(const void *state, double now)
{
    const mf *m = state;
    return use_at(m, &m->total, now);
}

void sched_mf_factors(const void *state, const sched_job_info *j, double now, double *age,
                      double *size, double *fairshare, double *wait)
{
    const mf *m = state;
    double w = now - j->submit;
    if (!(w > 0))
        w = 0;
    if (age)
        *age = (w < m->p.max_age ? w : m->p.max_age) / m->p.max_age;
    if (size) {
        double z = (double)j->width / m->p.cores;
        *size = z < 1 ? z : 1;
    }
    if (fairshare) {
        double tot = use_at(m, &m->total, now), f = 1;
        if (tot > 0 && m->ids.n > 0) {
            double u = sched_mf_usage(m, acct_of(m, j), now) / tot;
            f = exp2(-u * (double)m->ids.n); /* U / S, S = 1 / N */
        }
        *fairshare = f;
    }
    if (wait) {
        double e = j->estimate < 1 ? 1 : j->estimate;
        *wait = w / (w + e);
    }
}

static double mf_key(void *state, const sched_job_info *j, double now)
{
    const mf *m = state;
    double a, z, f, x;
    sched_mf_factors(m, j, now, &a, &z, &f, &x);
    return -(m->p.w_age * a + m->p.w_size * z + m->p.w_fairshare * f + m->p.w_wait * x);
}

const sched_order_ops sched_multifactor_ops = {
    .create = NULL, /* the host: sched_mf_create */
    .destroy = mf_destroy,
    .key = mf_key,
    .flags = SCHED_ORDER_TIME_DEPENDENT | SCHED_ORDER_HOOKS,
    .bucket = SCHED_BUCKET_NONE,
    .on_submit = mf_submit,
    .on_start = mf_start,
    .on_end = mf_end,
};

int sched_multifactor_register(pnrsim_registry *r)
{
    return pnrsim_register(r, PNRSIM_KIND_PRIORITY, "MULTIFACTOR",
                           "Slurm-like multifactor: weighted age, size, fair share "
                           "(decayed usage) and wait (docs/SCHEDULING.md)",
                           &sched_multifactor_ops);
}
