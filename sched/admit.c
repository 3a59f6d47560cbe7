/* sched/admit.c: memory-aware admission that counts network RAM
 * (scheduler.mem_aware = GLOBAL); the rule and its bookkeeping are
 * described in admit.h. The scheduler (sched/gang.c) calls admit_available
 * once per placement pass and keeps the figure up to date itself as it
 * places jobs; the rest costs O(threads) per job tried.
 */
#include "sched/admit.h"

#include <assert.h>
#include <math.h>

#define ADMIT_EPS 1e-9

/* Room of PE pe: RAM minus reserved (compute PEs) and lent memory. */
static double room(const admit_view *v, int pe)
{
    const pe_t *p = &v->cl->pes[pe];
    return p->ram_mb - p->lent_mb - (pe < v->ncompute ? v->reserved[pe] : 0);
}

static double lendable(const admit_view *v, double r)
{
    return v->netram && r > v->threshold ? r - v->threshold : 0;
}

double admit_available(const admit_view *v)
{
    if (!v->netram)
        return 0;
    double lend = 0, lack = 0;
    for (int pe = 0; pe < v->cl->npes; pe++) {
        double r = room(v, pe);
        lend += lendable(v, r);
        if (pe < v->ncompute) {
            double u = -r - v->cl->pes[pe].remote_mb;
            if (u > 0)
                lack += u;
        }
    }
    return lend - lack;
}

bool admit_choose(const admit_view *v, job_t *const *taken, const job_t *j, int *pe_ids)
{
    int k = 0;
    for (int pass = 0; pass < 2 && k < j->threads; pass++)
        for (int pe = 0; pe < v->ncompute && k < j->threads; pe++) {
            if (taken && taken[pe])
                continue;
            bool fits = room(v, pe) + ADMIT_EPS >= j->mem_mb;
            if (fits == (pass == 0))
                pe_ids[k++] = pe;
        }
    return k == j->threads;
}

double admit_cost(const admit_view *v, const job_t *j, const int *pe_ids, double *need)
{
    double cost = 0, m = j->mem_mb;
    *need = 0;
    for (int i = 0; i < j->threads; i++) {
        int pe = pe_ids[i];
        assert(pe >= 0 && pe < v->ncompute);
        double r = room(v, pe), rem = v->cl->pes[pe].remote_mb;
        double n = m - (r > 0 ? r : 0);
        if (n > ADMIT_EPS)
            *need += n;
        double before = fmax(0, -r - rem), after = fmax(0, m - r - rem);
        cost += (after - before) + (lendable(v, r) - lendable(v, r - m));
    }
    return cost;
}

double admit_total_lendable(const admit_view *v)
{
    double total = 0;
    for (int pe = 0; pe < v->cl->npes; pe++)
        total += lendable(v, v->cl->pes[pe].ram_mb);
    return total;
}

bool admit_impossible(const admit_view *v, const job_t *j, const double *ram_desc,
                      double total)
{
    if (j->threads > v->ncompute)
        return true;
    double need = 0, cost = 0, m = j->mem_mb;
    for (int k = 0; k < j->threads; k++) {
        double r = ram_desc[k];
        need += fmax(0, m - r);
        cost += fmax(0, m - r) + (lendable(v, r) - lendable(v, r - m));
    }
    return need > ADMIT_EPS && cost > total + ADMIT_EPS;
}
