/* examples/plugins/p2c.c: a network RAM strategy that places each request
 * on the less loaded of two randomly chosen servers: the power-of-two-
 * choices slab placement of Infiniswap (Gu et al., "Efficient Memory
 * Disaggregation with Infiniswap", NSDI'17, §4.2: pick two random
 * candidate machines, place the slab on the one with more free memory).
 *
 * As a pnrsim strategy (pnr/strategy_api.h): P2C runs the report's
 * protocol with BACKBONE's managers (netram.managers of them, one drawn at
 * random per job, broadcasts among them; with one manager it is CENTRAL's
 * set-up), but a manager chooses each server to ask by drawing d
 * candidates at random, without replacement, among the servers it may ask
 * (pnr_view_candidate: not asked yet in this round, believed to have more
 * than the threshold free), and asks the one its view shows with the most
 * free RAM (ties: the first drawn). When d or fewer servers may be asked,
 * it takes them all, in node order, without a draw: with d large P2C is
 * the worst fit, ties to the lowest node. If the server grants less than
 * the round needs, the manager draws again among the others (§5.2.2).
 *
 * Key: [plugin.p2c] choices = d (a whole number, 1 .. 8, default 2; d = 1
 * is a uniform random choice).
 * Random streams: its own, "p2c" index 0 (the managers) and index 1 (the
 * candidates), so P2C's draws move no other stream of the run.
 *
 * Build:  cc -shared -fPIC $(pkg-config --cflags pnrsim) p2c.c -o p2c.so
 * Use:    [plugins] load = p2c.so     [netram] strategy = P2C
 */
#include "core/registry.h"
#include "core/rng.h"
#include "pnr/strategy_api.h"

#include <stdlib.h>

#define P2C_MAX_CHOICES 8

static int choices_key = -1;   /* handle of [plugin.p2c] choices */

typedef struct p2c {
    int d;          /* candidates drawn per choice */
    int nodes;
    int nm, *m;     /* the managers (BACKBONE's) */
    int *cand;      /* scratch: the candidates of one choice (nodes) */
    rng_t *pick;    /* managers */
    rng_t *draw;    /* candidates */
} p2c;

static void *p2c_create(const pnr_strategy_env *env)
{
    p2c *s = calloc(1, sizeof *s);
    if (!s)
        abort();
    s->d = (int)pnrsim_ctx_value(env->ctx, choices_key);
    if (s->d < 1)
        s->d = 2;
    s->nodes = env->nodes;
    s->nm = env->managers < env->nodes ? env->managers : env->nodes;
    if (s->nm < 1)
        s->nm = 1;
    s->m = calloc((size_t)s->nm, sizeof *s->m);
    s->cand = calloc((size_t)env->nodes, sizeof *s->cand);
    if (!s->m || !s->cand)
        abort();
    for (int k = 0; k < s->nm; k++)
        s->m[k] = (int)((long)k * env->nodes / s->nm);
    s->pick = pnrsim_ctx_stream(env->ctx, "p2c", 0);
    s->draw = pnrsim_ctx_stream(env->ctx, "p2c", 1);
    return s;
}

static void p2c_destroy(void *state)
{
    p2c *s = state;
    rng_free(s->pick);
    rng_free(s->draw);
    free(s->m);
    free(s->cand);
    free(s);
}

static int p2c_managers(void *state, int *out)
{
    p2c *s = state;
    for (int k = 0; k < s->nm; k++)
        out[k] = s->m[k];
    return s->nm;
}

static int p2c_manager(void *state, pnr_host *h, const pnr_job *j, int node)
{
    p2c *s = state;
    (void)h, (void)j, (void)node;
    return s->nm == 1 ? s->m[0] : s->m[rng_index(s->pick, (unsigned long)s->nm)];
}

/* Draw min(d, n) of the n candidates (a partial Fisher-Yates shuffle of
 * the list in node order: the first k places are the draws, in the order
 * drawn), and ask the one with the most believed free RAM. */
static int p2c_select(void *state, const pnr_view *v)
{
    p2c *s = state;
    int n = 0;
    for (int x = 0; x < pnr_view_nodes(v); x++)
        if (pnr_view_candidate(v, x))
            s->cand[n++] = x;
    if (n == 0)
        return -1;
    int k = s->d < n ? s->d : n;
    if (k < n)
        for (int i = 0; i < k; i++) {
            int r = i + (int)rng_index(s->draw, (unsigned long)(n - i));
            int t = s->cand[i];
            s->cand[i] = s->cand[r];
            s->cand[r] = t;
        }
    int best = s->cand[0];
    double most = pnr_view_free_mb(v, best);
    for (int i = 1; i < k; i++) {
        double f = pnr_view_free_mb(v, s->cand[i]);
        if (f > most) {
            most = f;
            best = s->cand[i];
        }
    }
    return best;
}

static const pnr_strategy_ops p2c_ops = {
    .flags = PNR_STRATEGY_USES_MANAGERS,
    .coordination = PNR_COORD_JOB,
    .broadcast = PNR_BROADCAST_MANAGERS,
    .create = p2c_create,
    .destroy = p2c_destroy,
    .managers = p2c_managers,
    .manager = p2c_manager,
    .select_server = p2c_select,
};

/* The API version this plugin is built against, read by the loader. */
PNRSIM_PLUGIN_DECLARE;

int pnrsim_plugin_init(pnrsim_registry *r, int api_version);
int pnrsim_plugin_init(pnrsim_registry *r, int api_version)
{
    if (api_version != PNRSIM_API_VERSION)
        return -1;
    int h = pnrsim_register_key(r, "p2c", "choices", PNRSIM_KEY_INT, 1, P2C_MAX_CHOICES, 2, "",
                                "servers drawn at random per choice; the most free is asked");
    if (h < 0)
        return h;
    choices_key = h;
    return pnrsim_register(r, PNRSIM_KIND_STRATEGY, "P2C",
                           "Infiniswap's power of two choices: the freer of d random servers "
                           "(NSDI'17)", &p2c_ops);
}
