/* pnr/strategies.c: the report's four network RAM strategies (techreport
 * §5.5) as components of the registry, written against the public
 * interface only (pnr/strategy_api.h), as a plugin's would be.
 *
 * They differ in who manages a request, whether a job's threads meet in
 * one round, and who hears a manager's table; all four leave the choice
 * of servers to netram.server_selection (select_server NULL) and hear of
 * no thread or node (no callbacks):
 *
 *   CENTRAL   one manager, node 0, for every job; no broadcast (§5.5.1).
 *   CLIENT    each thread's own node, at once, alone; no broadcast
 *             (§5.5.2).
 *   MANAGER   per job, the node of one of its threads, at random (no draw
 *             for a job of one thread); a node's own request: itself;
 *             broadcasts to every node (§5.5.3).
 *   BACKBONE  netram.managers nodes k * nodes / managers (k = 0 ..
 *             managers-1); per job or node's own request one of them at
 *             random (no draw when there is one: then it is CENTRAL);
 *             broadcasts to the other managers (§5.5.4).
 *
 * The random choices draw from the layer's "pnr-choice" stream
 * (env->choice), in the order the rounds open, as before the registry.
 */
#include "pnr/strategy_api.h"

#include <stdlib.h>

/* ---- CENTRAL ---- */

static int central_managers(void *state, int *out)
{
    (void)state;
    out[0] = 0;
    return 1;
}

static int central_manager(void *state, pnr_host *h, const pnr_job *j, int node)
{
    (void)state, (void)h, (void)j, (void)node;
    return 0;
}

static const pnr_strategy_ops central_ops = {
    .coordination = PNR_COORD_JOB,
    .broadcast = PNR_BROADCAST_NONE,
    .managers = central_managers,
    .manager = central_manager,
};

/* ---- CLIENT ---- */

static int client_manager(void *state, pnr_host *h, const pnr_job *j, int node)
{
    (void)state, (void)h, (void)j;
    return node;
}

static const pnr_strategy_ops client_ops = {
    .coordination = PNR_COORD_THREAD,
    .broadcast = PNR_BROADCAST_NONE,
    .manager = client_manager,
};

/* ---- MANAGER and BACKBONE: the state is the choice stream (and the
 * backbone) ---- */

typedef struct chooser {
    rng_t *choice;   /* env->choice: the layer's, not ours to free */
    int n;           /* BACKBONE: managers */
    int *m;          /* their nodes */
} chooser;

static void *chooser_create(const pnr_strategy_env *env)
{
    chooser *c = calloc(1, sizeof *c);
    if (!c)
        abort();
    c->choice = env->choice;
    return c;
}

static void chooser_destroy(void *state)
{
    chooser *c = state;
    free(c->m);
    free(c);
}

/* The node of a random thread of the job (C = 1: its PE). */
static int local_manager(void *state, pnr_host *h, const pnr_job *j, int node)
{
    chooser *c = state;
    (void)h;
    if (!j)
        return node;
    int n = pnr_job_threads(j);
    if (n == 1)
        return pnr_job_thread_node(j, 0);
    return pnr_job_thread_node(j, (int)rng_index(c->choice, (unsigned long)n));
}

static const pnr_strategy_ops manager_ops = {
    .coordination = PNR_COORD_JOB,
    .broadcast = PNR_BROADCAST_ALL,
    .create = chooser_create,
    .destroy = chooser_destroy,
    .manager = local_manager,
};

static void *backbone_create(const pnr_strategy_env *env)
{
    chooser *c = chooser_create(env);
    c->n = env->managers < env->nodes ? env->managers : env->nodes;
    if (c->n < 1)
        c->n = 1;
    c->m = calloc((size_t)c->n, sizeof *c->m);
    if (!c->m)
        abort();
    for (int k = 0; k < c->n; k++)
        c->m[k] = (int)((long)k * env->nodes / c->n);
    return c;
}

static int backbone_managers(void *state, int *out)
{
    chooser *c = state;
    for (int k = 0; k < c->n; k++)
        out[k] = c->m[k];
    return c->n;
}

static int backbone_manager(void *state, pnr_host *h, const pnr_job *j, int node)
{
    chooser *c = state;
    (void)h, (void)j, (void)node;
    if (c->n == 1)
        return c->m[0];
    return c->m[rng_index(c->choice, (unsigned long)c->n)];
}

static const pnr_strategy_ops backbone_ops = {
    .flags = PNR_STRATEGY_USES_MANAGERS,
    .coordination = PNR_COORD_JOB,
    .broadcast = PNR_BROADCAST_MANAGERS,
    .create = backbone_create,
    .destroy = chooser_destroy,
    .managers = backbone_managers,
    .manager = backbone_manager,
};

int pnr_strategy_register(pnrsim_registry *r)
{
    static const struct {
        const char *name, *desc;
        const pnr_strategy_ops *ops;
    } b[] = {
        {"CENTRAL", "one manager (node 0) for every job, no broadcasts (report 5.5.1)",
         &central_ops},
        {"CLIENT", "each thread's own node manages its request at once, no broadcasts (5.5.2)",
         &client_ops},
        {"MANAGER", "a random node of the job manages it, broadcasts to all nodes (5.5.3)",
         &manager_ops},
        {"BACKBONE", "netram.managers managers, one at random per job, broadcasts among "
                     "them (5.5.4)", &backbone_ops},
    };
    for (size_t i = 0; i < sizeof b / sizeof b[0]; i++) {
        int e = pnrsim_register(r, PNRSIM_KIND_STRATEGY, b[i].name, b[i].desc, b[i].ops);
        if (e != PNRSIM_OK)
            return e;
    }
    return PNRSIM_OK;
}
