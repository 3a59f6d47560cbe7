/* pnr/pnr.c: the top of pnr/ and its public face (pnr.h): creation and
 * destruction of the PNR layer. pnr_create opens the frame (frame.c),
 * creates the agents, which fill the frame's handler table (server,
 * broadcasts, manager, client), and installs the client's hooks, exact
 * (client.c) and batched (client_batch.c), in the cluster. See
 * pnr/internal.h for the map of the folder.
 */
#include "pnr/pnr.h"

#include "pnr/broadcast.h"
#include "pnr/client.h"
#include "pnr/client_batch.h"
#include "pnr/frame.h"
#include "pnr/internal.h"
#include "pnr/manager.h"
#include "pnr/objects.h"
#include "pnr/pnr_check.h"
#include "pnr/server.h"
#include "pnr/strategy_host.h"

#include "core/mem.h"

#include <assert.h>
#include <stdlib.h>

const pnr_stats *pnr_get_stats(const pnr_t *p) { return &p->st; }

const char *pnr_kind_name(int kind)
{
    static const char *names[PNR_NKINDS] = {"request", "ask", "grant", "reply", "dealloc",
                                            "free", "ack", "broadcast", "page_out", "page_in"};
    int k = kind - PNR_MSG_REQUEST;
    return k >= 0 && k < PNR_NKINDS ? names[k] : "?";
}

/* The strategy (pnr/strategy_api.h) for this run: its state, then its set
 * of managers. */
static void strategy_create(pnr_t *p, const pnr_params *c)
{
    assert(c->strategy && c->strategy->kind == PNRSIM_KIND_STRATEGY);
    p->strat = c->strategy->ops;
    p->strat_name = c->strategy->name;
    assert(p->strat->manager);
    p->strat_env = (pnr_strategy_env){.nodes = p->npes,
                                      .managers = c->managers,
                                      .global_knowledge = c->global_knowledge,
                                      .ctx = &c->ctx,
                                      .choice = p->choice_rng,
                                      .host = pnr_host_of(p)};
    p->strat_ctx = c->ctx;
    p->strat_env.ctx = &p->strat_ctx;
    p->strat_state = p->strat->create ? p->strat->create(&p->strat_env) : NULL;
    p->managers = xcalloc((size_t)p->npes, sizeof *p->managers);
    p->nmanagers = p->strat->managers ? p->strat->managers(p->strat_state, p->managers) : 0;
    /* A plugin's answers are checked (the built-ins' too): a broken one
     * stops the run before its first event. */
    if (p->nmanagers < 0 || p->nmanagers > p->npes)
        pnr_strategy_broken(p, "managers() returned %d (0 .. %d nodes)", p->nmanagers, p->npes);
    for (int k = 0; k < p->nmanagers; k++)
        if (p->managers[k] < 0 || p->managers[k] >= p->npes)
            pnr_strategy_broken(p, "managers() gave node %d (a node 0 .. %d)", p->managers[k],
                                p->npes - 1);
    if (p->strat->broadcast == PNR_BROADCAST_MANAGERS && p->nmanagers < 1)
        pnr_strategy_broken(p, "broadcast PNR_BROADCAST_MANAGERS needs managers() of at least "
                               "one node");
}

/* ---- creation ---------------------------------------------------------------------- */

static pnr_create_hook create_hook;
static void *create_hook_ctx;

void pnr_set_create_hook(pnr_create_hook fn, void *ctx)
{
    create_hook = fn;
    create_hook_ctx = ctx;
}

pnr_t *pnr_create(sim_t *sim, cluster_t *cl, const pnr_params *c, uint64_t seed)
{
    pnr_t *p = xcalloc(1, sizeof *p);
    p->sim = sim;
    p->cl = cl;
    p->global = c->global_knowledge;
    p->threshold = c->server_threshold;
    p->npes = cl->npes;
    p->control_bytes = c->control_bytes;
    p->release = c->release;
    p->selection = c->selection;
    p->access_latency = c->access_latency;
    p->message_cpu = c->message_cpu;
    p->server_cpu = c->server_cpu;
    if (c->transport == PNR_TRANSPORT_MESSAGES) { /* batches plan them (sched/batch.c) */
        cl->msg_cpu = c->message_cpu;
        cl->serve_cpu = 2 * c->message_cpu + c->server_cpu;
    }
    p->locality = c->locality;
    p->transport = c->transport;
    p->rdma_latency = c->rdma_latency;
    p->rdma_read = c->rdma_read;
    p->reclaim = c->reclaim;
    p->node = xcalloc((size_t)cl->npes, sizeof *p->node);
    p->asking = xcalloc((size_t)cl->npes, sizeof *p->asking);
    p->tables = xcalloc((size_t)p->npes, sizeof *p->tables);
    rng_set_init(&p->mgr_rng, cl->rng_gen, seed, "pnr-manager", (size_t)p->npes);
    rng_set_init(&p->fault_rng, cl->rng_gen, seed, "pnr-fault", (size_t)p->npes);
    pnr_client_batch_init(p);
    p->received = xcalloc((size_t)p->npes * PNR_NKINDS, sizeof *p->received);
    p->claimed = xcalloc((size_t)p->npes, sizeof *p->claimed);
    p->choice_rng = rng_stream_gen(cl->rng_gen, seed, "pnr-choice", 0);
    strategy_create(p, c);
    list_init(&p->objs);
    pnr_frame_init(p);
    pnr_server_init(p);
    pnr_broadcast_init(p);
    pnr_manager_init(p);
    pnr_client_init(p);
    const pnr_handlers *on = &p->handlers; /* every kind has its receiver */
    assert(on->on_request && on->on_ask && on->on_grant && on->on_reply && on->on_dealloc &&
           on->on_free && on->on_ack && on->on_broadcast && on->on_page_out && on->on_page_in &&
           on->on_rdma_read);
    (void)on;
    cl->hooks.thread_starting = pnr_thread_starting;
    cl->hooks.thread_ended = pnr_thread_ended;
    cl->hooks.fault = pnr_fault;
    cl->hooks.fault_plan = pnr_fault_plan;
    cl->hooks.fault_count = pnr_fault_count;
    cl->hooks.mem_resized = pnr_thread_resized;
    cl->hooks.fault_rdma = p->transport == PNR_TRANSPORT_RDMA;
    cl->hooks.pnr_ctx = p;
    if (create_hook)
        create_hook(p, create_hook_ctx);
    return p;
}

void pnr_destroy(sim_t *sim, pnr_t *p)
{
    (void)sim;
    if (!p)
        return;
    job_hooks *h = &p->cl->hooks;
    if (h->pnr_ctx == p) { /* the hooks pnr_create installed */
        h->thread_starting = NULL;
        h->thread_ended = NULL;
        h->fault = NULL;
        h->fault_plan = NULL;
        h->fault_count = NULL;
        h->fault_rdma = false;
        h->pnr_ctx = NULL;
    }
    /* Protocol objects still alive (a run stopped part way). */
    for (list_t *n; (n = list_first(&p->objs));) {
        pobj *o = container_of(n, pobj, node);
        pnr_untrack(o);
        o->destroy(o);
    }
    for (int i = 0; i < p->npes; i++) {
        free(p->node[i].v);
        free(p->tables[i].o); /* bases: freed with the tracked objects */
    }
    rng_set_free(&p->mgr_rng);
    rng_set_free(&p->fault_rng);
    if (p->strat && p->strat->destroy)
        p->strat->destroy(p->strat_state);
    rng_free(p->choice_rng);
    free(p->tables);
    free(p->scratch);
    for (int i = 0; i < p->nspare_asked; i++)
        free(p->spare_asked[i]);
    free(p->spare_asked);
    free(p->node);
    free(p->asking);
    free(p->received);
    free(p->claimed);
    free(p->node_claimed);
    free(p->shadow);
    free(p->managers);
    free(p->rc_b);
    free(p);
}
