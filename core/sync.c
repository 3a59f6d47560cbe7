/* core/sync.c: wait queues and barriers (see sync.h). */
#include "core/sync.h"

#include <assert.h>
#include <stddef.h>

void waitq_init(waitq_t *q)
{
    list_init(&q->head);
    q->n = 0;
}

void waitq_wait(sim_t *sim, waitq_t *q, proc_t *p)
{
    (void)sim;
    assert(!list_linked(&p->qlink));
    list_add_tail(&q->head, &p->qlink);
    q->n++;
    p->state = PROC_WAITING;
}

void waitq_push_head(waitq_t *q, proc_t *p)
{
    assert(!list_linked(&p->qlink));
    list_add_head(&q->head, &p->qlink);
    q->n++;
}

proc_t *waitq_first(const waitq_t *q)
{
    list_t *n = list_first(&q->head);
    return n ? container_of(n, proc_t, qlink) : NULL;
}

proc_t *waitq_pop(waitq_t *q)
{
    list_t *n = list_pop_head(&q->head);
    if (!n)
        return NULL;
    q->n--;
    return container_of(n, proc_t, qlink);
}

proc_t *waitq_signal(sim_t *sim, waitq_t *q)
{
    proc_t *p = waitq_pop(q);
    if (p)
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
    if (!list_linked(&p->qlink))
        return false;
    assert(q->n > 0);
    list_del(&p->qlink);
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
