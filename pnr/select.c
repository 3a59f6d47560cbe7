/* pnr/select.c: the manager's two policies (techreport §5.2.2, §5.2.3):
 * which server to ask next for the rest of an allocation round's need, and
 * how a grant that covers less than the round asked is shared between its
 * clients. Both are pure functions of the manager's view (its table, or the
 * truth under global knowledge) and of its random stream; the rounds that
 * use them are in manager.c.
 */
#include "pnr/internal.h"

#include <assert.h>
#include <math.h>

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
static bool candidate(pnr_t *p, const round_t *r, int s, double *f)
{
    if (r->asked[s])
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
int pnr_select_server(pnr_t *p, const round_t *r, double remaining)
{
    double f;
    switch (p->selection) {
    case PNR_SELECT_RANDOM_WORSTFIT: {
        double best = p->threshold + EPS_MB;
        int ties = 0;
        for (int s = 0; s < p->npes; s++) {
            if (r->asked[s])
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
            if (!r->asked[s] && fabs(pnr_believed_free(p, r->manager, s) - best) <= EPS_MB &&
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
