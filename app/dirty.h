/* app/dirty.h: process.dirty_fractions (issue 33 item 1; app/dirty.c): a
 * run's dirty fractions by application number (SWF field 14), read once
 * at its start, looked up at each job's arrival (hw/swap.h, docs/MODEL.md
 * "The swap device writes dirty pages").
 */
#ifndef PNRSIM_APP_DIRTY_H
#define PNRSIM_APP_DIRTY_H

#include "app/config.h"

#include <stdbool.h>
#include <stddef.h>

/* One item APP:F of process.dirty_fractions. */
typedef struct dirty_app {
    double app;               /* application number (SWF field 14) */
    double f;                 /* its fraction, [0, 1] */
} dirty_app;

/* A run's fractions: fixed room, nothing allocated. */
typedef struct dirty_set {
    bool on;                  /* process.dirty_fractions is set */
    double dflt;              /* process.dirty_fraction: the jobs not mapped */
    double max;               /* the largest of them all (dflt included) */
    size_t n;
    dirty_app map[CFG_DIRTY_MAX]; /* by application number */
} dirty_set;

/* Read c's process.dirty_fractions (checked valid) into *s. */
void dirty_set_load(dirty_set *s, const config *c);
/* The fraction of a job of application number app: its item (a binary
 * search), else dirty_fraction. */
double dirty_set_find(const dirty_set *s, double app);

#endif
