/* tests/fixture_components.h: the scheduler's built-in components by name
 * for the tests (issue 34: the PRIO_* / PACK_* / BF_* enums are gone; a
 * test names a component as a configuration does). The macros keep the
 * old spellings readable in the tests: PRIO_SJF is the ops table of the
 * registry's "SJF" (looked up after components_init). */
#ifndef PNRSIM_TESTS_FIXTURE_COMPONENTS_H
#define PNRSIM_TESTS_FIXTURE_COMPONENTS_H

#include "app/components.h"
#include "core/registry.h"
#include "sched/order.h"
#include "sched/packing.h"
#include "sched/reserve.h"

#include <stdio.h>
#include <stdlib.h>

static inline const pnrsim_component *t_component(pnrsim_kind k, const char *name)
{
    components_init();
    const pnrsim_component *c = pnrsim_find(k, name);
    if (!c) {
        fprintf(stderr, "no component %s of kind %d\n", name, (int)k);
        abort();
    }
    return c;
}
static inline const sched_order_ops *t_order(const char *name)
{
    return t_component(PNRSIM_KIND_PRIORITY, name)->ops;
}
static inline const sched_packing_ops *t_packing(const char *name)
{
    return t_component(PNRSIM_KIND_PACKING, name)->ops;
}
static inline const sched_reserve_ops *t_backfill(const char *name)
{
    return t_component(PNRSIM_KIND_BACKFILL, name)->ops;
}
/* A component's index in its kind: what a struct config holds. */
static inline int t_index(pnrsim_kind k, const char *name) { return t_component(k, name)->index; }

/* The ops of the component of kind k with index i (a config's value). */
static inline const void *t_ops_at(pnrsim_kind k, int i)
{
    components_init();
    const pnrsim_component *c = pnrsim_at(k, i);
    if (!c)
        abort();
    return c->ops;
}
/* The index of the component whose ops are `ops` (for messages), or -1. */
static inline int t_ops_index(pnrsim_kind k, const void *ops)
{
    for (int i = 0; i < pnrsim_count(k); i++)
        if (pnrsim_at(k, i)->ops == ops)
            return i;
    return -1;
}

typedef const sched_order_ops *sched_priority;
typedef const sched_packing_ops *sched_packing;
typedef const sched_reserve_ops *sched_backfill;

#define PRIO_FCFS t_order("FCFS")
#define PRIO_BESTFIT t_order("BESTFIT")
#define PRIO_WORSTFIT t_order("WORSTFIT")
#define PRIO_SJF t_order("SJF")
#define PRIO_LJF t_order("LJF")
#define PRIO_SAF t_order("SAF")
#define PRIO_LAF t_order("LAF")
#define PRIO_WFP3 t_order("WFP3")
#define PRIO_UNICEP t_order("UNICEP")
#define PRIO_F1 t_order("F1")
#define PACK_FIRSTFIT t_packing("FIRSTFIT")
#define PACK_BESTFIT t_packing("BESTFIT")
#define PACK_WORSTFIT t_packing("WORSTFIT")
#define BF_NONE t_backfill("NONE")
#define BF_EASY t_backfill("EASY")
#define BF_CONSERVATIVE t_backfill("CONSERVATIVE")

#endif
