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
#include "sched/alloc_builtin.h"

#include <stdio.h>
#include <stdlib.h>

/* TRANSITIONAL (issue 34, first step): the names only, with a placeholder
 * table; the layers' registration functions replace these lines. */
static const int placeholder;

static void reg_names(pnrsim_kind k, const char *const *names)
{
    for (int i = 0; names[i]; i++)
        if (pnrsim_register(pnrsim_registry_get(), k, names[i], "built in", &placeholder)) {
            fprintf(stderr, "components: cannot register %s\n", names[i]);
            abort();
        }
}

void components_init(void)
{
    static int done;
    if (done)
        return;
    done = 1;
    static const char *const strategy[] = {"CENTRAL", "CLIENT", "MANAGER", "BACKBONE", NULL};
    static const char *const priority[] = {"FCFS", "BESTFIT", "WORSTFIT", "SJF", "LJF",
                                           "SAF", "LAF", "WFP3", "UNICEP", "F1", NULL};
    static const char *const backfill[] = {"NONE", "EASY", "CONSERVATIVE", NULL};
    static const char *const packing[] = {"FIRSTFIT", "BESTFIT", "WORSTFIT", NULL};
    reg_names(PNRSIM_KIND_STRATEGY, strategy);
    reg_names(PNRSIM_KIND_PRIORITY, priority);
    reg_names(PNRSIM_KIND_BACKFILL, backfill);
    reg_names(PNRSIM_KIND_PACKING, packing);
    /* sched/: the allocation policies (FIRSTFREE) */
    if (sched_allocations_register(pnrsim_registry_get()) != PNRSIM_OK) {
        fprintf(stderr, "components: cannot register the scheduler's allocations\n");
        abort();
    }
}
