/* tests/plugins/long_names.c: 13 queue orders of 31-character names and
 * one key of a 31-character section and key (what it registered is longer
 * than any fixed buffer of old: nothing may be cut), for --list-components'
 * columns and the record in config.ini and metrics.json. */
#include "core/registry.h"
#include "sched/order.h"

#include <stdio.h>

PNRSIM_PLUGIN_DECLARE;

static double key(void *state, const sched_job_info *j, double now)
{
    (void)state;
    (void)now;
    return (double)j->order;
}
static const sched_order_ops ops = {.key = key};
static char names[13][32];

int pnrsim_plugin_init(pnrsim_registry *r, int api_version)
{
    (void)api_version;
    for (int i = 0; i < 13; i++) {
        snprintf(names[i], sizeof names[i], "LONG_ORDER_NAME_OF_31_CHARS_%03d", i);
        if (pnrsim_register(r, PNRSIM_KIND_PRIORITY, names[i], "a long name", &ops))
            return 1;
    }
    return pnrsim_register_key(r, "a_section_name_of_31_characters", "a_key_name_of_31_characters_xyz",
                               PNRSIM_KEY_DOUBLE, 0, 1, 0.5, "", "a long key") < 0;
}
