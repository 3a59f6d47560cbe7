/* pnr/strategy_host.c: what a strategy sees of the running PNR layer
 * (pnr/strategy_api.h's queries): the host side of the strategy
 * interface, the only file that maps its opaque handles onto the layer's
 * internals (pnr_host = pnr_t, pnr_job = job_t, pnr_view = a manager's
 * round being served). Above table.c (believed free RAM), below select.c,
 * which builds the views.
 */
#include "pnr/strategy_host.h"

#include "pnr/table.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

pnr_host *pnr_host_of(pnr_t *p) { return (pnr_host *)p; }
static const pnr_t *P(const pnr_host *h) { return (const pnr_t *)h; }

int pnr_host_nodes(const pnr_host *h) { return P(h)->npes; }
double pnr_host_now(const pnr_host *h) { return P(h)->sim->now; }
double pnr_host_ram_mb(const pnr_host *h, int node) { return P(h)->cl->pes[node].ram_mb; }
double pnr_host_free_mb(const pnr_host *h, int node) { return pe_free_mb(&P(h)->cl->pes[node]); }
double pnr_host_lent_mb(const pnr_host *h, int node) { return P(h)->cl->pes[node].lent_mb; }
double pnr_host_threshold(const pnr_host *h) { return P(h)->threshold; }

double pnr_host_believed_free_mb(const pnr_host *h, int manager, int node)
{
    return pnr_believed_free((pnr_t *)P(h), manager, node);
}

double pnr_host_heard_at(const pnr_host *h, int manager, int node)
{
    const pnr_t *p = P(h);
    if (p->global || node == manager)
        return p->sim->now;
    return pnr_table_get(p, &p->tables[manager], node).stamp;
}

/* The thread a PE user record belongs to. */
static const thread_t *user_thread(const pe_user *u)
{
    return container_of(u, thread_t, mem_user);
}

static double held_at(const pieces_t *ps, int s)
{
    for (int k = 0; k < ps->n; k++)
        if (ps->v[k].server == s)
            return ps->v[k].mb;
    return 0;
}

double pnr_host_held_mb(const pnr_host *h, int node, int server)
{
    const pnr_t *p = P(h);
    double mb = held_at(&p->node[node], server);
    if (p->release == PNR_RELEASE_ALL) {
        const pe_t *pe = &p->cl->pes[node];
        for (pe_user *x = pe_user_first(pe); x; x = pe_user_next(pe, x)) {
            const creq_t *c = user_thread(x)->pnr;
            if (c && c->granted > EPS_MB)
                mb += held_at(&c->pieces, server);
        }
    }
    return mb;
}

void pnr_strategy_broken(const pnr_t *p, const char *fmt, ...)
{
    fprintf(stderr, "pnrsim: netram.strategy %s: ", p->strat_name ? p->strat_name : "?");
    va_list ap;
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputs(" (pnr/strategy_api.h)\n", stderr);
    exit(2);
}

void pnr_strategy_may_act(const pnr_t *p, const char *what)
{
    if (p->strat_busy > 0)
        pnr_strategy_broken(p, "%s called inside fault_server, select_server or server_grant", what);
}

const pnr_job *pnr_job_of(const job_t *j) { return (const pnr_job *)j; }
static const job_t *J(const pnr_job *j) { return (const job_t *)j; }

long pnr_job_id(const pnr_job *j) { return J(j)->id; }
int pnr_job_threads(const pnr_job *j) { return J(j)->threads; }
int pnr_job_thread_node(const pnr_job *j, int thread)
{
    return cluster_node_id(J(j)->cl, J(j)->pe_ids[thread]);
}

pnr_host *pnr_view_host(const pnr_view *v) { return pnr_host_of(v->p); }
int pnr_view_nodes(const pnr_view *v) { return v->p->npes; }
int pnr_view_manager(const pnr_view *v) { return v->r->manager; }
double pnr_view_remaining(const pnr_view *v) { return v->remaining; }
double pnr_view_free_mb(const pnr_view *v, int s)
{
    return pnr_believed_free(v->p, v->r->manager, s);
}
double pnr_view_lent_mb(const pnr_view *v, int s) { return v->p->cl->pes[s].lent_mb; }

bool pnr_view_open(const pnr_view *v, int s)
{
    const pnr_t *p = v->p;
    const round_t *r = v->r;
    return s >= 0 && s < p->npes && !r->asked[s] &&
           !(r->in_rack && !r->racks[net_rack_of(p->cl->net, s)]);
}

bool pnr_view_candidate(const pnr_view *v, int s)
{
    return pnr_view_open(v, s) && pnr_view_free_mb(v, s) > v->p->threshold + 2 * EPS_MB;
}
