/* pnr/select.c: the manager's two policies (techreport §5.2.2, §5.2.3):
 * which server to ask next for the rest of an allocation round's need, and
 * how a grant that covers less than the round asked is shared between its
 * clients. A strategy may choose the servers itself (its ops'
 * select_server, through a view: strategy_host.c); else
 * netram.server_selection's rule below. Both are pure functions of the
 * manager's view (its table, or the truth under global knowledge) and of
 * its random stream; the rounds that use them are in manager.c. Above
 * table.c and strategy_host.c, below the agents.
 */
#include "pnr/select.h"

#include "pnr/strategy_host.h"
#include "pnr/table.h"

#include "core/mem.h"

#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* Water-filling: every asker gets min(ask, level), where the level is
 * raised until the grant is used up. */
void pnr_fair_share(const double *asks, int n, double granted, double *share)
{
    double left = granted;
    int open = 0;
    for (int i = 0; i < n; i++) {
        share[i] = 0;
        if (asks[i] > EPS_MB)
            open++;
    }
    bool done[n > 0 ? n : 1];
    for (int i = 0; i < n; i++)
        done[i] = asks[i] <= EPS_MB;
    /* Invariant: left = granted - sum of shares fixed so far; open = askers
     * not yet fixed, all asking more than any level tried so far. */
    while (open > 0 && left > EPS_MB) {
        double level = left / open;
        bool capped = false;
        for (int i = 0; i < n; i++)
            if (!done[i] && asks[i] <= level) {
                share[i] = asks[i];
                left -= asks[i];
                done[i] = true;
                open--;
                capped = true;
            }
        if (!capped) {
            for (int i = 0; i < n; i++)
                if (!done[i])
                    share[i] = level;
            break;
        }
    }
}

/* Whether server s may be asked in round r: not asked yet and believed to
 * have more than the threshold free; *f gets what it is believed to have. */
/* Server s is not to be asked now: asked already, or (the first pass of
 * rack locality) outside the racks of the round's clients. */
static inline bool skip(const pnr_t *p, const round_t *r, int s)
{
    return r->asked[s] || (r->in_rack && !r->racks[net_rack_of(p->cl->net, s)]);
}

static bool candidate(pnr_t *p, const round_t *r, int s, double *f)
{
    if (skip(p, r, s))
        return false;
    *f = pnr_believed_free(p, r->manager, s);
    return *f > p->threshold + 2 * EPS_MB;
}

/* The lowest-numbered candidate with the most believed free RAM, or -1. */
static int worst_fit(pnr_t *p, const round_t *r)
{
    int chosen = -1;
    double best = 0, f;
    for (int s = 0; s < p->npes; s++)
        if (candidate(p, r, s, &f) && (chosen < 0 || f > best + EPS_MB)) {
            chosen = s;
            best = f;
        }
    return chosen;
}

/* By `netram.server_selection`, over the candidates (above):
 *   RANDOM_WORSTFIT  the most free RAM, ties at random (the report);
 *   WORSTFIT         the most free RAM, ties to the lowest PE number;
 *   BESTFIT          the least free RAM that still covers the remaining
 *                    request (free - threshold >= remaining), ties to the
 *                    lowest PE; when none covers it, WORSTFIT;
 *   RANDOM           a candidate drawn uniformly.
 * Ties are within EPS_MB. The random choices draw from the manager's
 * stream, and only when there is more than one choice. */
static int select_rule(pnr_t *p, round_t *r, double remaining)
{
    double f;
    if (p->strat->select_server) {
        /* The strategy's own choice (pnr/strategy_api.h), once per ASK. */
        pnr_view v = {p, r, remaining};
        p->strat_busy++;
        int s = p->strat->select_server(p->strat_state, &v);
        p->strat_busy--;
        if (s >= 0 && !pnr_view_open(&v, s))
            pnr_strategy_broken(p, "select_server chose node %d, which may not be asked now "
                                   "(asked already, outside the pass or not a node)", s);
        return s < 0 ? -1 : s;
    }
    switch (p->selection) {
    case PNR_SELECT_RANDOM_WORSTFIT: {
        double best = p->threshold + EPS_MB;
        int ties = 0;
        for (int s = 0; s < p->npes; s++) {
            if (skip(p, r, s))
                continue;
            f = pnr_believed_free(p, r->manager, s);
            if (f > best + EPS_MB) {
                best = f;
                ties = 1;
            } else if (ties > 0 && fabs(f - best) <= EPS_MB) {
                ties++;
            }
        }
        if (ties == 0)
            return -1;
        rng_t *rg = rng_set_get(&p->mgr_rng, (size_t)r->manager);
        unsigned long k = ties > 1 ? rng_index(rg, (unsigned long)ties) : 0;
        for (int s = 0; s < p->npes; s++)
            if (!skip(p, r, s) && fabs(pnr_believed_free(p, r->manager, s) - best) <= EPS_MB &&
                k-- == 0)
                return s;
        assert(0 && "a tie vanished");
        return -1;
    }
    case PNR_SELECT_WORSTFIT:
        return worst_fit(p, r);
    case PNR_SELECT_BESTFIT: {
        int chosen = -1;
        double best = 0;
        for (int s = 0; s < p->npes; s++)
            if (candidate(p, r, s, &f) && f - p->threshold >= remaining - EPS_MB &&
                (chosen < 0 || f < best - EPS_MB)) {
                chosen = s;
                best = f;
            }
        return chosen >= 0 ? chosen : worst_fit(p, r);
    }
    case PNR_SELECT_RANDOM: {
        unsigned long n = 0;
        for (int s = 0; s < p->npes; s++)
            n += candidate(p, r, s, &f);
        if (n == 0)
            return -1;
        rng_t *rg = rng_set_get(&p->mgr_rng, (size_t)r->manager);
        unsigned long k = n > 1 ? rng_index(rg, n) : 0;
        for (int s = 0; s < p->npes; s++)
            if (candidate(p, r, s, &f) && k-- == 0)
                return s;
        assert(0 && "a candidate vanished");
        return -1;
    }
    }
    return -1;
}

/* The next server (select_rule); with netram.locality = RACK (issue 15)
 * first among the servers in the racks of the round's clients (every rack
 * that holds one of its requesting threads), then among all the others. */
int pnr_select_server(pnr_t *p, round_t *r, double remaining)
{
    if (p->locality != PNR_LOCALITY_RACK)
        return select_rule(p, r, remaining);
    if (!r->racks) {
        r->racks = xcalloc((size_t)net_rack_count(p->cl->net), 1);
        for (int i = 0; i < r->nreqs; i++)
            if (r->reqs[i])
                r->racks[net_rack_of(p->cl->net, r->reqs[i]->th ? r->reqs[i]->th->pe->id
                                                        : r->reqs[i]->pe)] = 1;
    }
    r->in_rack = true;
    int s = select_rule(p, r, remaining);
    r->in_rack = false;
    return s >= 0 ? s : select_rule(p, r, remaining);
}
