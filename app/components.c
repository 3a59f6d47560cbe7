/* app/components.c: the built-in components, registered once in the
 * process's registry (core/registry.h) before any configuration is read,
 * and the check of a component's ops table against its kind's contract.
 *
 * Each layer registers its own: the queue orders, backfilling policies,
 * packings and allocations of sched/, the network RAM strategies of pnr/.
 * The order of registration is the order of the names in files and
 * listings, and each kind's first component is its configuration default's
 * position in the old enums (FCFS, NONE, FIRSTFIT, CENTRAL), so a
 * configuration's index of a built-in is what it was before the registry.
 *
 * The check (components_missing) is the kind headers' "Required" members:
 * a queue order's key (sched/order.h), an allocation's choose
 * (sched/allocation.h), a packing's better unless SCHED_PACK_FIRST
 * (sched/packing.h), a strategy's manager, and its managers under
 * PNR_BROADCAST_MANAGERS (pnr/strategy_api.h), and the enumerations'
 * ranges; a backfilling policy has no required member (sched/reserve.h).
 * The layers call these members without testing them, so a table missing
 * one must never reach a run.
 */
#include "app/components.h"

#include "core/registry.h"
#include "core/registry_host.h"
#include "pnr/strategy_api.h"
#include "sched/alloc_builtin.h"
#include "sched/allocation.h"
#include "sched/components.h"
#include "sched/order.h"
#include "sched/packing.h"

#include <stdio.h>
#include <stdlib.h>

const char *components_missing(const pnrsim_component *c)
{
    switch (c->kind) {
    case PNRSIM_KIND_PRIORITY: {
        const sched_order_ops *o = c->ops;
        if (!o->key)
            return "its sched_order_ops has no .key (required)";
        if ((int)o->bucket < SCHED_BUCKET_NONE || o->bucket > SCHED_BUCKET_NARROWEST)
            return "its sched_order_ops has a .bucket that is no sched_order_bucket";
        return NULL;
    }
    case PNRSIM_KIND_PACKING: {
        const sched_packing_ops *o = c->ops;
        if (!o->better && !(o->flags & SCHED_PACK_FIRST))
            return "its sched_packing_ops has no .better (required unless SCHED_PACK_FIRST)";
        return NULL;
    }
    case PNRSIM_KIND_ALLOCATION: {
        const sched_alloc_ops *o = c->ops;
        return o->choose ? NULL : "its sched_alloc_ops has no .choose (required)";
    }
    case PNRSIM_KIND_STRATEGY: {
        const pnr_strategy_ops *o = c->ops;
        if (!o->manager)
            return "its pnr_strategy_ops has no .manager (required)";
        if ((int)o->coordination < PNR_COORD_JOB || o->coordination > PNR_COORD_THREAD)
            return "its pnr_strategy_ops has a .coordination that is no pnr_coordination";
        if ((int)o->broadcast < PNR_BROADCAST_NONE || o->broadcast > PNR_BROADCAST_MANAGERS)
            return "its pnr_strategy_ops has a .broadcast that is no pnr_broadcast_scope";
        if (o->broadcast == PNR_BROADCAST_MANAGERS && !o->managers)
            return "its pnr_strategy_ops has .broadcast PNR_BROADCAST_MANAGERS but no .managers "
                   "(required with it)";
        return NULL;
    }
    case PNRSIM_KIND_BACKFILL: /* nothing required: on_pass NULL is NONE's pass */
    default:
        return NULL;
    }
}

/* Stop when a layer's registration failed (code rc) or one of what it
 * registered breaks its kind's contract. */
static void built_in(int rc, const char *what)
{
    if (rc != PNRSIM_OK) {
        const char *why;
        pnrsim_first_error(&why);
        fprintf(stderr, "components: cannot register %s: %s\n", what, why);
        abort();
    }
}

void components_init(void)
{
    static int done;
    if (done)
        return;
    done = 1;
    pnrsim_registry *r = pnrsim_registry_get();
    pnrsim_mark m = pnrsim_mark_get();
    pnrsim_registry_open();
    /* pnr/: the network RAM strategies */
    built_in(pnr_strategy_register(r), "the network RAM strategies");
    /* sched/: the queue orders, backfilling policies and packings */
    built_in(sched_components_register(r), "the scheduler's built-ins");
    /* sched/: the allocation policies (FIRSTFREE) */
    built_in(sched_allocations_register(r), "the scheduler's allocations");
    pnrsim_registry_close();
    for (int k = 0; k < PNRSIM_NKINDS; k++)
        for (int i = m.n[k]; i < pnrsim_count((pnrsim_kind)k); i++) {
            const pnrsim_component *c = pnrsim_at((pnrsim_kind)k, i);
            const char *why = components_missing(c);
            if (why) {
                fprintf(stderr, "components: built-in %s %s: %s\n",
                        pnrsim_kind_name((pnrsim_kind)k), c->name, why);
                abort();
            }
        }
}
