/* sched/queue.c: the queue of waiting jobs, by arrival and by width (see
 * queue.h). Split out of sched/gang.c, whose notes on its data structures
 * named it as a part of its own. */
#include "sched/queue.h"

#include "core/mem.h"

#include <assert.h>
#include <stdlib.h>

void jobq_init(jobq_t *q, int npes)
{
    q->npes = npes;
    list_init(&q->fifo);
    q->bucket = xcalloc((size_t)npes + 1, sizeof *q->bucket);
    for (int w = 0; w <= npes; w++)
        list_init(&q->bucket[w]);
    q->bcount = xcalloc((size_t)npes + 1, sizeof *q->bcount);
    q->n = 0;
}

void jobq_destroy(jobq_t *q)
{
    free(q->bucket);
    free(q->bcount);
    q->bucket = NULL;
    q->bcount = NULL;
}

void jobq_push(jobq_t *q, job_t *j)
{
    int w = j->width;
    assert(w >= 1 && w <= q->npes && !j->queued);
    list_add_tail(&q->fifo, &j->qlink);
    list_add_tail(&q->bucket[w], &j->blink);
    q->bcount[w]++;
    q->n++;
    j->queued = true;
}

void jobq_remove(jobq_t *q, job_t *j)
{
    assert(j->queued);
    list_del(&j->qlink);
    list_del(&j->blink);
    q->bcount[j->width]--;
    q->n--;
    j->queued = false;
}

static job_t *fifo_job(const list_t *n) { return container_of(n, job_t, qlink); }
static job_t *bucket_job(const list_t *n) { return container_of(n, job_t, blink); }

job_t *jobq_first(const jobq_t *q)
{
    list_t *n = list_first(&q->fifo);
    return n ? fifo_job(n) : NULL;
}

job_t *jobq_next(const jobq_t *q, const job_t *j)
{
    return j->qlink.next == &q->fifo ? NULL : fifo_job(j->qlink.next);
}

/* The first job of width w, or NULL. */
static job_t *bucket_head(const jobq_t *q, int w)
{
    list_t *n = list_first(&q->bucket[w]);
    return n ? bucket_job(n) : NULL;
}

/* The first job of width w not yet tried in pass pass_no, or NULL. */
static job_t *bucket_untried(const jobq_t *q, int w, long pass_no)
{
    list_for_each(it, &q->bucket[w]) {
        job_t *j = bucket_job(it);
        if (j->tried_pass != pass_no)
            return j;
    }
    return NULL;
}

job_t *jobq_head(const jobq_t *q, sched_order_bucket b)
{
    switch (b) {
    case SCHED_BUCKET_ARRIVAL:
        return jobq_first(q);
    case SCHED_BUCKET_WIDEST:
        for (int w = q->npes; w >= 1; w--)
            if (q->bcount[w])
                return bucket_head(q, w);
        return NULL;
    case SCHED_BUCKET_NARROWEST:
        for (int w = 1; w <= q->npes; w++)
            if (q->bcount[w])
                return bucket_head(q, w);
        return NULL;
    case SCHED_BUCKET_NONE: /* keyed orders go through sched/backfill.c */
        return NULL;
    }
    return NULL;
}

job_t *jobq_first_fitting(const jobq_t *q, sched_order_bucket b, int maxw, long pass_no)
{
    job_t *best = NULL;
    switch (b) {
    case SCHED_BUCKET_ARRIVAL:
        /* The earliest arrival among the buckets' first untried jobs. */
        for (int w = 1; w <= maxw; w++) {
            job_t *j = bucket_untried(q, w, pass_no);
            if (j && (!best || j->order < best->order))
                best = j;
        }
        return best;
    case SCHED_BUCKET_WIDEST:
        for (int w = maxw; w >= 1; w--)
            if ((best = bucket_untried(q, w, pass_no)))
                return best;
        return NULL;
    case SCHED_BUCKET_NARROWEST:
        for (int w = 1; w <= maxw; w++)
            if ((best = bucket_untried(q, w, pass_no)))
                return best;
        return NULL;
    case SCHED_BUCKET_NONE:
        return NULL;
    }
    return NULL;
}

const char *jobq_check(const jobq_t *q)
{
    long n = 0;
    list_for_each(it, &q->fifo) {
        const job_t *j = fifo_job(it);
        if (!j->queued || j->slot != -1)
            return "queued job also placed";
        n++;
    }
    if (n != q->n)
        return "queue length wrong";
    long b = 0;
    for (int w = 1; w <= q->npes; w++) {
        long k = 0;
        list_for_each(it, &q->bucket[w]) {
            const job_t *j = bucket_job(it);
            if (j->width != w || !j->queued)
                return "job in the wrong width bucket";
            k++;
        }
        if (k != q->bcount[w])
            return "bucket count wrong";
        b += k;
    }
    if (b != q->n)
        return "buckets and queue disagree";
    return NULL;
}
