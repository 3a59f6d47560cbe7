/* pnr/reclaim.c: donors taking their memory back (netram.reclaim = SWAP or
 * REPLACE, issue 25; docs/MODEL.md "Donors take memory back"). PNRSim's
 * servers never do (NONE, the default: nothing here runs, unless a
 * strategy reclaims itself: pnr_host_reclaim, pnr/strategy_api.h, which
 * takes back up to the MB it names by the same steps, under NONE by
 * SWAP's rule).
 *
 * When a thread starts on a node s that has lent network RAM and the
 * node's own threads now overallocate it, s takes back
 * x = min(overallocation, what borrowers hold of it) at once: its lent
 * memory drops by x (its own threads get the RAM). It is taken from the
 * borrowers holding most there first (ties to the lowest PE); each
 * borrower b losing y MB has its pieces at s cut by y (under release
 * EXCESS the node's pieces; under ALL the node's pieces first, then its
 * threads' in the order they started), its network RAM shrinks by y, and
 * its pages there go back to it in one transfer of y * 2^20 bytes
 * (pnr_bulk_post: it loads the network, nobody waits). Then:
 *   SWAP     those pages are on b's swap device from now on (b's faults
 *            draw against its smaller network RAM, §5.4's rule);
 *   REPLACE  b's node asks for y MB again through the strategy's
 *            protocol (a REQUEST in a round of its own, reask_t), on swap
 *            until the REPLY (client.c) brings a grant.
 * Memory in transit or pending at a manager (a GRANT, a REPLY on its way,
 * a DEALLOC) is not taken back: only what clients hold.
 *
 * Cost: one pass over the PEs (and the threads of those holding pieces
 * under release ALL) per reclaim; a reclaim happens only when a lender
 * overallocates, and the test for it is O(1) per thread start.
 *
 * In pnr/: above the frame (it posts through it), objects.c, check.c,
 * rounds.c and client_batch.c; below the client, which calls it.
 */
#include "pnr/reclaim.h"

#include "pnr/check.h"
#include "pnr/client_batch.h"
#include "pnr/frame.h"
#include "pnr/objects.h"
#include "pnr/rounds.h"
#include "pnr/strategy_host.h"

#include "core/mem.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

/* The thread a PE user record belongs to. */
static thread_t *user_thread(pe_user *u)
{
    return container_of(u, thread_t, mem_user);
}

/* MB the pieces ps hold at server s. */
static double held_at(const pieces_t *ps, int s)
{
    for (int k = 0; k < ps->n; k++)
        if (ps->v[k].server == s)
            return ps->v[k].mb;
    return 0;
}

/* Cut up to `want` MB from ps's piece at server s (dropping the piece when
 * nothing is left of it, keeping the others' order); returns the MB cut. */
static double cut_piece(pieces_t *ps, int s, double want)
{
    for (int k = 0; k < ps->n; k++) {
        if (ps->v[k].server != s)
            continue;
        double take = ps->v[k].mb < want ? ps->v[k].mb : want;
        ps->v[k].mb -= take;
        if (ps->v[k].mb <= EPS_MB) {
            take += ps->v[k].mb; /* a rounding crumb goes with it */
            memmove(ps->v + k, ps->v + k + 1, (size_t)(ps->n - k - 1) * sizeof *ps->v);
            ps->n--;
        }
        return take;
    }
    return 0;
}

/* MB node b holds at server s: its pieces, and under release ALL its
 * threads' (those whose REPLY has arrived: granted). */
static double node_holds(pnr_t *p, int b, int s)
{
    double mb = held_at(&p->node[b], s);
    if (p->release == PNR_RELEASE_ALL) {
        pe_t *pe = &p->cl->pes[b];
        for (pe_user *x = pe_user_first(pe); x; x = pe_user_next(pe, x)) {
            const creq_t *c = user_thread(x)->pnr;
            if (c && c->granted > EPS_MB)
                mb += held_at(&c->pieces, s);
        }
    }
    return mb;
}

/* Take y MB at server s from node b's pieces (the node's, then under
 * release ALL its threads' in the order they started). */
static void cut_node(pnr_t *p, int b, int s, double y)
{
    double left = y - cut_piece(&p->node[b], s, y);
    if (p->release == PNR_RELEASE_ALL) {
        pe_t *pe = &p->cl->pes[b];
        for (pe_user *x = pe_user_first(pe); x && left > EPS_MB; x = pe_user_next(pe, x)) {
            creq_t *c = user_thread(x)->pnr;
            if (c && c->granted > EPS_MB) {
                double t = cut_piece(&c->pieces, s, left);
                c->granted -= t;
                left -= t;
            }
        }
    }
    assert(left <= 1e-6);
}

/* Borrowers: most held first, ties to the lowest PE. */
static int by_held(const void *a, const void *b)
{
    const struct reclaim_borrower *x = a, *y = b;
    if (x->mb != y->mb)
        return x->mb > y->mb ? -1 : 1;
    return (x->pe > y->pe) - (x->pe < y->pe);
}

/* Free a REPLACE request (the tracker's destructor: untracked already). */
static void reask_destroy(pobj *o)
{
    reask_t *ra = container_of(o, reask_t, link);
    free(ra->c.pieces.v);
    free(ra);
}

void pnr_reask_free(reask_t *ra)
{
    pnr_untrack(&ra->link);
    reask_destroy(&ra->link);
}

int pnr_node_manager(pnr_t *p, int b)
{
    int m = p->strat->manager(p->strat_state, pnr_host_of(p), NULL, b);
    if (m < 0 || m >= p->npes)
        pnr_strategy_broken(p, "manager() returned %d for node %d's own request (a node 0 .. %d)",
                            m, b, p->npes - 1);
    return m;
}

/* REPLACE (and a thread's growth, client.c): node b asks for mb MB again,
 * in an allocation round of its own at pnr_node_manager's choice. Nothing
 * waits for the answer. */
void pnr_reask(pnr_t *p, int b, double mb, bool grow)
{
    int manager = pnr_node_manager(p, b);
    reask_t *ra = xcalloc(1, sizeof *ra);
    ra->grow = grow;
    ra->c.th = NULL;
    ra->c.pe = b;
    ra->c.ask = mb;
    ra->c.t_asked = p->sim->now;
    ra->manager = manager;
    pnr_track(p, &ra->link, POBJ_REASK, reask_destroy);
    round_t *r = pnr_round_new(p, false, NULL, manager, 1);
    ra->c.round = r;
    if (p->release == PNR_RELEASE_EXCESS)
        p->asking[b] += mb;
    p->st.requests++;
    p->st.asked_mb += mb;
    pnr_request_msg *q = PNR_MSG_NEW(pnr_request_msg, p, PNR_MSG_REQUEST, b, manager,
                                     p->control_bytes);
    q->round = r;
    q->client = &ra->c;
    q->mb = mb;
    pnr_post(p, &q->h);
}

/* Server s takes back min(cap, what borrowers hold at s) (the borrowers,
 * their pieces and pages, by the rule at the top); under REPLACE they ask
 * again. Returns the MB taken back. */
static double take_back(pnr_t *p, pe_t *s, double cap)
{
    /* The borrowers of s and what they hold there. */
    if (p->rc_cap < p->npes) {
        p->rc_cap = p->npes;
        p->rc_b = xrealloc(p->rc_b, (size_t)p->rc_cap * sizeof *p->rc_b);
    }
    int nb = 0;
    double held = 0;
    for (int b = 0; b < p->npes; b++) {
        double mb = b == s->id ? 0 : node_holds(p, b, s->id);
        if (mb > EPS_MB) {
            p->rc_b[nb++] = (struct reclaim_borrower){b, mb};
            held += mb;
        }
    }
    double want = cap < held ? cap : held;
    if (want <= EPS_MB)
        return 0;
    qsort(p->rc_b, (size_t)nb, sizeof *p->rc_b, by_held);
    double page = job_page_bytes(p->cl), x = 0;
    double lent_before = s->lent_mb;
    for (int k = 0; k < nb && want - x > EPS_MB; k++) {
        int b = p->rc_b[k].pe;
        double y = p->rc_b[k].mb < want - x ? p->rc_b[k].mb : want - x;
        pe_t *bp = &p->cl->pes[b];
        pnr_batch_pieces_changed(p->sim, bp); /* the node's pieces change */
        cut_node(p, b, s->id, y);
        pe_remote(p->sim, bp, -y);
        x += y;
        p->st.reclaim_pages += y * MB_BYTES / page;
        pnr_bulk_post(p, s->id, b, y * MB_BYTES);
        if (p->reclaim == PNR_RECLAIM_REPLACE)
            pnr_reask(p, b, y, false);
    }
    p->held -= x;
    pe_lend(p->sim, s, -x);
    p->st.reclaim_events++;
    p->st.reclaim_mb += x;
    if (p->checking && (s->lent_mb < -1e-9 || s->lent_mb > lent_before - x + 1e-9))
        pnr_check_fail(p, "reclaim on PE %d: lent %.9g -> %.9g, took %.9g", s->id, lent_before,
                       s->lent_mb, x);
    return x;
}

void pnr_take_back(pnr_t *p, pe_t *s)
{
    if (p->reclaim == PNR_RECLAIM_NONE || s->lent_mb <= EPS_MB)
        return;
    double over = pe_overalloc_mb(s);
    if (over <= EPS_MB)
        return;
    double x = take_back(p, s, over);
    if (x <= 0)
        return;
    if (p->checking && pe_overalloc_mb(s) > over - x + 1e-9)
        pnr_check_fail(p, "reclaim on PE %d: overallocated %.9g -> %.9g, took %.9g", s->id,
                       over, pe_overalloc_mb(s), x);
    pnr_check(p);
}

double pnr_host_reclaim(pnr_host *h, int server, double mb)
{
    pnr_t *p = (pnr_t *)h;
    pnr_strategy_may_act(p, "pnr_host_reclaim");
    if (server < 0 || server >= p->npes)
        pnr_strategy_broken(p, "pnr_host_reclaim at node %d, not a node", server);
    pe_t *s = &p->cl->pes[server];
    if (!(mb > EPS_MB) || s->lent_mb <= EPS_MB)
        return 0;
    double x = take_back(p, s, mb);
    pnr_check(p);
    return x;
}
