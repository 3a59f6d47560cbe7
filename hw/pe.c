/* hw/pe.c: processing elements (see pe.h). */
#include "hw/pe.h"

#include "core/mem.h"

#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

double pe_disk_service_time(double seek, double rpm, double transfer)
{
    return pe_disk_access_time(seek, rpm, transfer, PE_PAGE_BYTES, 0.5);
}

double pe_disk_access_time(double seek, double rpm, double transfer, double page_bytes,
                           double revolutions)
{
    assert(rpm > 0 && transfer > 0 && page_bytes > 0);
    assert(revolutions == 0.5 || revolutions == 1.0);
    /* 0.5 * 60 / rpm is written 30 / rpm as before, so the default stays
     * bit-for-bit what it was. */
    double rot = revolutions == 0.5 ? 30.0 / rpm : 60.0 / rpm;
    return seek + rot + page_bytes / (transfer * MBPS_BYTES);
}

void pe_set_disk(pe_t *pe, double seek, double rpm, double transfer, double page_bytes,
                 double revolutions)
{
    pe->disk_service = pe_disk_access_time(seek, rpm, transfer, page_bytes, revolutions);
    pe->write_service = pe->disk_service; /* a disk writes as it reads */
}

double pe_ssd_access_time(double latency, double bandwidth, double page_bytes)
{
    assert(latency > 0 && bandwidth > 0 && page_bytes > 0);
    return latency + page_bytes / (bandwidth * MBPS_BYTES);
}

double pe_ssd_write_time(double latency, double bandwidth, double write_latency,
                         double write_bandwidth, double page_bytes)
{
    return pe_ssd_access_time(write_latency > 0 ? write_latency : latency,
                              write_bandwidth > 0 ? write_bandwidth : bandwidth, page_bytes);
}

void pe_set_ssd(sim_t *sim, pe_t *pe, double latency, double bandwidth, int c,
                double page_bytes)
{
    pe->swap = PE_SWAP_SSD;
    mres_init(sim, &pe->ssd, "ssd", c);
    pe->disk_service = pe_ssd_access_time(latency, bandwidth, page_bytes);
    pe->write_service = pe->disk_service; /* until pe_set_write */
}

double pe_swap_busy_time(const sim_t *sim, const pe_t *pe)
{
    return pe->swap == PE_SWAP_SSD ? mres_busy_time(sim, &pe->ssd)
                                   : res_busy_time(sim, &pe->disk);
}

void pe_init(sim_t *sim, pe_t *pe, int id, const char *base_name, double ram_mb,
             double seek, double rpm, double transfer)
{
    pe->id = id;
    snprintf(pe->name, sizeof pe->name, "%.20s%d", base_name, id);
    res_init(sim, &pe->cpu, "cpu");
    res_init(sim, &pe->disk, "disk");
    pe->ram_mb = ram_mb;
    pe->speed = 1;
    pe->alloc_mb = pe->lent_mb = pe->remote_mb = 0;
    pe->disk_service = pe_disk_service_time(seek, rpm, transfer);
    pe->write_service = pe->disk_service;
    pe->swap_evictions = pe->swap_writes = 0;
    pe->wb = NULL;
    timeavg_init(&pe->mem, sim->now, 0);
    timeavg_init(&pe->disk_use, sim->now, 0);
    timeavg_init(&pe->lent_use, sim->now, 0);
    pe->faults = pe->disk_faults = pe->remote_faults = 0;
    pe->fault_time = 0;
    list_init(&pe->users);
    pe->nusers = 0;
    pe->on_unlend = NULL;
    pe->unlend_ctx = NULL;
    pe->paging = 0;
    pe->obs = NULL;
    pe->touch_map = NULL;
    pe->batch = NULL;
    pe->on_batch_end = NULL;
    pe->batch_steps = pe->batch_skip = pe->batch_backoff = 0;
    pe->swap = PE_SWAP_DISK;
    pe->ncores = 1;
    pe->cpus = NULL;
    pe->users_gen = 0;
    pe->keysums = NULL;
    pe->nkeysums = pe->capkeysums = 0;
}

void pe_set_cores(sim_t *sim, pe_t *pe, int ncores)
{
    assert(ncores >= 1 && pe->ncores == 1 && !pe->cpus);
    pe->ncores = ncores;
    if (ncores == 1)
        return;
    pe->cpus = xcalloc((size_t)ncores - 1, sizeof *pe->cpus);
    for (int c = 1; c < ncores; c++)
        res_init(sim, &pe->cpus[c - 1], "cpu");
}

void pe_free(pe_t *pe)
{
    free(pe->cpus);
    pe->cpus = NULL;
    free(pe->keysums);
    pe->keysums = NULL;
    pe->nkeysums = pe->capkeysums = 0;
    pe->ncores = 1;
}

double pe_cpu_busy(const sim_t *sim, const pe_t *pe)
{
    double b = res_busy_time(sim, &pe->cpu);
    for (int c = 1; c < pe->ncores; c++)
        b += res_busy_time(sim, &pe->cpus[c - 1]);
    return b;
}

void pe_set_observer(pe_t *pe, const pe_observer *o)
{
    pe->obs = o;
}

void pe_set_touch_map(pe_t *pe, uint64_t *map)
{
    pe->touch_map = map;
}

void pe_fault_begin(sim_t *sim, pe_t *pe)
{
    pe->faults++;
    pe->paging++;
    if (pe->obs && pe->obs->paging)
        pe->obs->paging(sim, pe, pe->obs->ctx);
}

void pe_fault_end(sim_t *sim, pe_t *pe, double started)
{
    assert(pe->paging > 0);
    pe->fault_time += sim->now - started;
    pe->paging--;
    if (pe->obs && pe->obs->paging)
        pe->obs->paging(sim, pe, pe->obs->ctx);
}

void pe_faults_add(pe_t *pe, uint64_t n, double time)
{
    assert(!pe->obs);
    pe->faults += n;
    pe->fault_time += time;
}

double pe_overalloc_mb(const pe_t *pe)
{
    double over = pe->alloc_mb + pe->lent_mb - pe->ram_mb;
    return over > 0 ? over : 0;
}

double pe_free_mb(const pe_t *pe)
{
    double f = pe->ram_mb - pe->alloc_mb - pe->lent_mb;
    return f > 0 ? f : 0;
}

/* Memory on disk = overallocation not covered by network RAM. */
static void update_use(sim_t *sim, pe_t *pe)
{
    timeavg_set(&pe->mem, sim->now, pe->alloc_mb + pe->lent_mb);
    double on_disk = pe_overalloc_mb(pe) - pe->remote_mb;
    timeavg_set(&pe->disk_use, sim->now, on_disk > 0 ? on_disk : 0);
    timeavg_set(&pe->lent_use, sim->now, pe->lent_mb);
}

static void notify(sim_t *sim, pe_t *pe)
{
    /* Users may not add or remove users from inside their callback. */
    list_for_each_safe(it, &pe->users) {
        pe_user *u = container_of(it, pe_user, link);
        u->on_change(sim, u);
    }
}

/* Add mb to one of the PE's memory amounts, keeping it exact at 0 when
 * everything is given back, then update the time averages and, when
 * `overalloc` and the overallocation moved, tell the users. */
static void change_slow(sim_t *sim, pe_t *pe, double *amount, double mb, bool overalloc);

static inline void change(sim_t *sim, pe_t *pe, double *amount, double mb, bool overalloc)
{
    pe_batch_end(sim, pe);
    if (pe->touch_map) {
        /* Stored only when new: the PEs of one job share a word, and a
         * store to it at every change would make them wait on each other. */
        uint64_t *w = &pe->touch_map[(unsigned)pe->id / 64];
        uint64_t bit = UINT64_C(1) << ((unsigned)pe->id % 64);
        if (!(*w & bit))
            *w |= bit;
    }
    if (mb == 0 && pe->alloc_mb == 0 && pe->lent_mb == 0 && pe->remote_mb == 0) {
        /* Nothing moves (a thread of a job without memory on an empty PE):
         * every amount and the overallocation stay 0, and so do the time
         * averages' values (update_use derives them from the amounts), and
         * a time average at 0 gains exactly 0 over any span, so skipping
         * update_use changes no bit (issue 11). */
        if (pe->obs && pe->obs->mem)
            pe->obs->mem(sim, pe, pe->obs->ctx);
        return;
    }
    change_slow(sim, pe, amount, mb, overalloc);
}

/* change, when something moves. */
static void change_slow(sim_t *sim, pe_t *pe, double *amount, double mb, bool overalloc)
{
    double before = pe_overalloc_mb(pe);
    *amount += mb;
    /* Giving back more than was taken is a caller's bug; what is left of a
     * correct sequence is rounding (< 1e-6 MB, a few bytes). */
    assert(*amount > -1e-6);
    if (*amount < 1e-9)
        *amount = 0;
    update_use(sim, pe);
    if (overalloc && pe_overalloc_mb(pe) != before)
        notify(sim, pe);
    if (pe->obs && pe->obs->mem)
        pe->obs->mem(sim, pe, pe->obs->ctx);
}

void pe_alloc(sim_t *sim, pe_t *pe, double mb)
{
    change(sim, pe, &pe->alloc_mb, mb, true);
}

void pe_lend(sim_t *sim, pe_t *pe, double mb)
{
    change(sim, pe, &pe->lent_mb, mb, true);
    if (mb < 0 && pe->on_unlend)
        pe->on_unlend(sim, pe, pe->unlend_ctx);
}

void pe_remote(sim_t *sim, pe_t *pe, double mb)
{
    change(sim, pe, &pe->remote_mb, mb, false);
}

#define KEYSUM_EXACT 9007199254740992.0 /* 2^53: whole doubles below add exactly */

/* A whole number below 2^53 (sums of such stay exact while below 2^53). */
static bool keysum_whole(double x)
{
    return x >= 0 && x < KEYSUM_EXACT && floor(x) == x;
}

/* key's entry on pe, or NULL (a handful of keys: a linear look). */
static pe_keysum *keysum_find(const pe_t *pe, int key)
{
    for (int i = 0; i < pe->nkeysums; i++)
        if (pe->keysums[i].key == key)
            return &pe->keysums[i];
    return NULL;
}

void pe_add_user(pe_t *pe, pe_user *u, pe_user_fn on_change)
{
    u->on_change = on_change;
    list_add_tail(&pe->users, &u->link);
    pe->nusers++;
    pe->users_gen++;
    if (pe->ncores == 1)
        return;
    pe_keysum *e = keysum_find(pe, u->key);
    if (!e) {
        if (pe->nkeysums == pe->capkeysums) {
            pe->capkeysums = pe->capkeysums ? 2 * pe->capkeysums : 4;
            pe->keysums = xrealloc(pe->keysums, (size_t)pe->capkeysums * sizeof *pe->keysums);
        }
        e = &pe->keysums[pe->nkeysums++];
        *e = (pe_keysum){.key = u->key, .walk_gen = pe->users_gen - 1};
    }
    e->n++;
    if (keysum_whole(u->size))
        e->sum += u->size;
    else
        e->nonint++;
    if (e->sum >= KEYSUM_EXACT)
        e->big = true;
}

void pe_remove_user(pe_t *pe, pe_user *u)
{
    assert(pe->nusers > 0 && list_linked(&u->link));
    list_del(&u->link);
    pe->nusers--;
    pe->users_gen++;
    if (pe->ncores == 1)
        return;
    pe_keysum *e = keysum_find(pe, u->key);
    assert(e && e->n > 0);
    e->n--;
    if (keysum_whole(u->size))
        e->sum -= u->size;
    else
        e->nonint--;
    assert(e->nonint >= 0 && e->nonint <= e->n);
    if (e->n == 0)
        *e = pe->keysums[--pe->nkeysums]; /* the last one in its place */
}

void pe_user_resize(pe_t *pe, pe_user *u, double size)
{
    assert(list_linked(&u->link));
    if (pe->ncores == 1) {
        u->size = size;
        return;
    }
    pe_keysum *e = keysum_find(pe, u->key);
    assert(e && e->n > 0);
    if (keysum_whole(u->size))
        e->sum -= u->size;
    else
        e->nonint--;
    u->size = size;
    if (keysum_whole(size))
        e->sum += size;
    else
        e->nonint++;
    if (e->sum >= KEYSUM_EXACT)
        e->big = true;
    pe->users_gen++; /* a walked sum is stale */
}

double pe_key_size(pe_t *pe, int key)
{
    assert(pe->ncores > 1);
    pe_keysum *e = keysum_find(pe, key);
    if (!e)
        return 0;
    if (e->nonint == 0 && !e->big)
        return e->sum;
    if (e->walk_gen != pe->users_gen) {
        e->walk = 0;
        for (const list_t *n = pe->users.next; n != &pe->users; n = n->next) {
            const pe_user *o = container_of(n, pe_user, link);
            if (o->key == key)
                e->walk += o->size;
        }
        e->walk_gen = pe->users_gen;
    }
    return e->walk;
}

/* The user whose link is n, or NULL when n is the head (past an end). */
static pe_user *user_at(const pe_t *pe, const list_t *n)
{
    return n == &pe->users ? NULL : container_of(n, pe_user, link);
}

pe_user *pe_user_first(const pe_t *pe) { return user_at(pe, pe->users.next); }
pe_user *pe_user_next(const pe_t *pe, const pe_user *u) { return user_at(pe, u->link.next); }
pe_user *pe_user_last(const pe_t *pe) { return user_at(pe, pe->users.prev); }
pe_user *pe_user_prev(const pe_t *pe, const pe_user *u) { return user_at(pe, u->link.prev); }
