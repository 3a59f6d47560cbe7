/* hw/swap.c: the swap device's writes (see swap.h). */
#include "hw/swap.h"

#include "core/mem.h"

#include <assert.h>
#include <math.h>
#include <stdlib.h>

/* One write in flight, or spare: its process, its node and the seconds
 * its write holds the device (write_service, or what is left of a write
 * begun in a batch). */
typedef struct pe_writer {
    proc_t p; /* first: the body gets it */
    pe_t *pe;
    double left;
} pe_writer;

/* A node's writers: every one it made (all, n of them) and the spare ones
 * (a stack of nspare over the same room). */
struct pe_writers {
    pe_writer **all, **spare;
    int n, nspare, cap;
};

void pe_set_write(pe_t *pe, double write_service)
{
    assert(write_service > 0);
    pe->write_service = write_service;
}

bool swap_eviction_dirty(uint64_t n, double f)
{
    assert(f >= 0 && f <= 1 && n >= 1);
    /* floor(n f) > floor((n - 1) f): the n-th eviction takes the count of
     * dirty ones to floor(n f). Each product is one rounding, so f = 1/k
     * (0.5, 0.25, 0.1 ...) marks exactly every k-th within doubles. */
    return floor((double)n * f) > floor((double)(n - 1) * f);
}

bool pe_evict_dirty(pe_t *pe, double f)
{
    return swap_eviction_dirty(++pe->swap_evictions, f);
}

/* A writer's life: it is woken holding the device (granted at once by
 * pe_swap_write, or later, FIFO), writes, gives the device back and goes
 * spare; woken again, it writes again. */
static void writer_body(sim_t *sim, proc_t *p)
{
    pe_writer *w = (pe_writer *)p;
    pe_t *pe = w->pe;
    PROC_BEGIN(p);
    for (;;) {
        PROC_HOLD(sim, p, w->left);
        if (pe->swap == PE_SWAP_SSD)
            mres_release(sim, &pe->ssd);
        else
            res_release(sim, &pe->disk, p);
        pe->wb->spare[pe->wb->nspare++] = w;
        PROC_YIELD(p); /* spare until the next write */
    }
    PROC_END(sim, p);
}

/* A spare writer of pe's, made when there is none. */
static pe_writer *writer_get(sim_t *sim, pe_t *pe)
{
    struct pe_writers *ws = pe->wb;
    if (!ws)
        ws = pe->wb = xcalloc(1, sizeof *ws);
    if (ws->nspare > 0)
        return ws->spare[--ws->nspare];
    if (ws->n == ws->cap) {
        ws->cap = ws->cap ? 2 * ws->cap : 4;
        ws->all = xrealloc(ws->all, (size_t)ws->cap * sizeof *ws->all);
        ws->spare = xrealloc(ws->spare, (size_t)ws->cap * sizeof *ws->spare);
    }
    pe_writer *w = xcalloc(1, sizeof *w);
    proc_init(sim, &w->p, writer_body);
    w->pe = pe;
    ws->all[ws->n++] = w;
    return w;
}

void pe_swap_write(sim_t *sim, pe_t *pe)
{
    assert(pe->write_service > 0);
    pe_writer *w = writer_get(sim, pe);
    w->left = pe->write_service;
    pe->swap_writes++;
    bool now = pe->swap == PE_SWAP_SSD ? mres_request(sim, &pe->ssd, &w->p)
                                       : res_request(sim, &pe->disk, &w->p);
    if (now)
        proc_wake(sim, &w->p); /* its write starts at this instant */
    /* else queued: the grant wakes it */
}

void pe_swap_write_since(sim_t *sim, pe_t *pe, double since)
{
    assert(pe->write_service > 0 && since <= sim->now);
    pe_writer *w = writer_get(sim, pe);
    w->left = since + pe->write_service - sim->now;
    assert(w->left > 0);
    pe->swap_writes++;
    if (pe->swap == PE_SWAP_SSD)
        mres_take_since(sim, &pe->ssd, since);
    else
        res_take_since(sim, &pe->disk, &w->p, since);
    proc_wake(sim, &w->p); /* holds what is left of its write */
}

void pe_swap_fault_own(sim_t *sim, pe_t *pe, double dirty_fraction, uint64_t *own)
{
    pe->disk_faults++;
    pe_batch_end(sim, pe);
    if (!(dirty_fraction > 0))
        return;
    bool dirty;
    if (own) {
        pe->swap_evictions++;
        dirty = swap_eviction_dirty(++*own, dirty_fraction);
    } else {
        dirty = pe_evict_dirty(pe, dirty_fraction);
    }
    if (dirty)
        pe_swap_write(sim, pe);
}

void pe_swap_fault(sim_t *sim, pe_t *pe, double dirty_fraction)
{
    pe_swap_fault_own(sim, pe, dirty_fraction, NULL);
}

void pe_swap_free(sim_t *sim, pe_t *pe)
{
    struct pe_writers *ws = pe->wb;
    if (!ws)
        return;
    for (int i = 0; i < ws->n; i++) {
        proc_destroy(sim, &ws->all[i]->p);
        free(ws->all[i]);
    }
    free(ws->all);
    free(ws->spare);
    free(ws);
    pe->wb = NULL;
}
