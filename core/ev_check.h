/* core/ev_check.h: the event kernel's test hook, fenced off from core/ev.h
 * so that nothing outside tests/ reaches it. */
#ifndef PNRSIM_CORE_EV_CHECK_H
#define PNRSIM_CORE_EV_CHECK_H

#include "core/ev.h"

#include <stdint.h>

/* Set the next sequence number (to exercise renumbering when the
 * sequence counter wraps). */
void ev_test_set_seq(sim_t *sim, uint32_t seq);

#endif
