/* core/sync.c: wait queues and barriers (see sync.h). */
#include "core/sync.h"

#include <stddef.h>

void waitq_init(waitq_t *q)
{
    q->head = q->tail = NULL;
    q->n = 0;
}

void waitq_wait(sim_t *sim, waitq_t *q, proc_t *p)
{
    (void)sim;
    p->qnext = NULL;
    if (q->tail)
        q->tail->qnext = p;
    else
        q->head = p;
    q->tail = p;
    q->n++;
    p->state = PROC_WAITING;
}

proc_t *waitq_signal(sim_t *sim, waitq_t *q)
{
    proc_t *p = q->head;
    if (!p)
        return NULL;
    q->head = p->qnext;
    if (!q->head)
        q->tail = NULL;
    q->n--;
    p->qnext = NULL;
    proc_wake(sim, p);
    return p;
}

uint32_t waitq_broadcast(sim_t *sim, waitq_t *q)
{
    uint32_t k = 0;
    while (waitq_signal(sim, q))
        k++;
    return k;
}

bool waitq_remove(waitq_t *q, proc_t *p)
{
    proc_t **pp = &q->head, *prev = NULL;
    while (*pp && *pp != p) {
        prev = *pp;
        pp = &(*pp)->qnext;
    }
    if (!*pp)
        return false;
    *pp = p->qnext;
    if (q->tail == p)
        q->tail = prev;
    p->qnext = NULL;
    q->n--;
    return true;
}

void barrier_init(barrier_t *b, uint32_t parties)
{
    b->parties = parties;
    b->arrived = 0;
    waitq_init(&b->q);
}

bool barrier_arrive(barrier_t *b)
{
    b->arrived++;
    return b->arrived >= b->parties;
}

uint32_t barrier_release(sim_t *sim, barrier_t *b)
{
    b->arrived = 0;
    return waitq_broadcast(sim, &b->q);
}
