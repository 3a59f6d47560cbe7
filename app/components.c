/* app/components.c: the built-in components, registered once in the
 * process's registry (core/registry.h) before any configuration is read.
 *
 * Each layer registers its own: the queue orders, backfilling policies,
 * packings and allocations of sched/, the network RAM strategies of pnr/.
 * The order of registration is the order of the names in files and
 * listings, and each kind's first component is its configuration default's
 * position in the old enums (FCFS, NONE, FIRSTFIT, CENTRAL), so a
 * configuration's index of a built-in is what it was before the registry.
 */
#include "app/components.h"

#include "core/registry.h"
#include "pnr/strategy_api.h"
#include "sched/alloc_builtin.h"
#include "sched/components.h"

#include <stdio.h>
#include <stdlib.h>

void components_init(void)
{
    static int done;
    if (done)
        return;
    done = 1;
    /* pnr/: the network RAM strategies */
    if (pnr_strategy_register(pnrsim_registry_get()) != PNRSIM_OK) {
        fprintf(stderr, "components: cannot register the network RAM strategies\n");
        abort();
    }
    /* sched/: the queue orders, backfilling policies and packings */
    if (sched_components_register(pnrsim_registry_get()) != PNRSIM_OK) {
        fprintf(stderr, "components: cannot register the scheduler's built-ins\n");
        abort();
    }
    /* sched/: the allocation policies (FIRSTFREE) */
    if (sched_allocations_register(pnrsim_registry_get()) != PNRSIM_OK) {
        fprintf(stderr, "components: cannot register the scheduler's allocations\n");
        abort();
    }
}
