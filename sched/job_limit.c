/* sched/job_limit.c: time limits (see job_limit.h): a job's run clock, the
 * event of its limit, and the kill.
 *
 * In sched/: a layer above job.c (reached through cl->limiting, installed
 * by job_limit_attach), whose thread loop marks where each thread waits
 * (thread_t.at) and whose job_thread_ended ends a thread.
 */
#include "sched/job_limit.h"

#include "core/mres.h"

#include <assert.h>

static void limit_reached(sim_t *sim, void *arg)
{
    job_t *j = arg;
    j->kill_armed = false; /* the event was a one-shot: gone */
    j->run_used += sim->now - j->run_since;
    j->run_since = sim->now;
    job_limit_kill(sim, j);
}

static void limit_run(sim_t *sim, job_t *j)
{
    if (!(j->limit > 0) || j->killing || j->ended)
        return;
    assert(!j->kill_armed);
    j->run_since = sim->now;
    double left = j->limit - j->run_used;
    j->kill_ev = ev_once(sim, sim->now + (left > 0 ? left : 0), limit_reached, j);
    /* After the instant's model events (a job ending at its limit ends). */
    ev_at_prio(sim, j->kill_ev, sim->now + (left > 0 ? left : 0), EV_PRIO_ARRIVAL);
    j->kill_armed = true;
}

/* The limit counts as reached at a switch-out when what is left of it is
 * below this share of it: the clock is a sum of slices whose ends the
 * scheduler computes on its own (slot start + quantum), so a slice meant
 * to end exactly at the limit can end an ulp or so before the kill event
 * (docs/SCHEDULING.md "Time limits"). */
#define LIMIT_ROUNDING 1e-9

static void limit_stop(sim_t *sim, job_t *j)
{
    assert(j->kill_armed);
    j->run_used += sim->now - j->run_since;
    j->run_since = sim->now;
    if (!j->ended && j->limit - j->run_used <= LIMIT_ROUNDING * j->limit) {
        /* Reached now, up to rounding: the kill event stays, due at this
         * instant (after its model events), and kills the job where the
         * switch-out leaves it, as it would have a moment earlier. */
        j->run_used = j->limit;
        ev_at_prio(sim, j->kill_ev, sim->now, EV_PRIO_ARRIVAL);
        return;
    }
    ev_cancel(sim, j->kill_ev); /* a one-shot: freed */
    j->kill_armed = false;
}

/* Kill j's in-flight messages (net_kill, counted in messages_killed, as a
 * descheduling counts them) and drop those killed before: a killed job
 * sends nothing again. */
static void msgs_drop(sim_t *sim, job_t *j)
{
    cluster_t *cl = j->cl;
    for (list_t *n; (n = list_first(&j->msgs));) {
        job_msg *m = container_of(n, job_msg, m.link);
        list_del(n);
        net_kill(sim, cl->net, &m->m);
        cl->messages_killed++;
        net_msg_free(cl->net, &m->m);
    }
    for (list_t *n; (n = list_first(&j->killed));) {
        list_del(n);
        net_msg_free(cl->net, &container_of(n, job_msg, m.link)->m);
    }
}

/* Take th off whatever it waits for or holds (th->at), as it stands at the
 * kill, and cancel its process: nothing of it is pending any more. */
static void thread_undo(sim_t *sim, thread_t *th)
{
    proc_t *p = &th->p;
    bool queued = p->state == PROC_WAITING;
    job_t *j = th->job;
    switch (th->at) {
    case TH_AT_PARKED:
        waitq_remove(&j->resume_q, p);
        break;
    case TH_AT_BARRIER:
        waitq_remove(&j->sync.q, p);
        break;
    case TH_AT_CPU:
    case TH_AT_FCPU:
        /* Computing: already given back (job_limit_kill, as job_stop). */
        if (th->core_cpu->holder == p)
            res_release(sim, th->core_cpu, p);
        else
            res_cancel(sim, th->core_cpu, p);
        break;
    case TH_AT_DISK:
        if (th->pe->disk.holder == p)
            res_release(sim, &th->pe->disk, p);
        else
            res_cancel(sim, &th->pe->disk, p);
        break;
    case TH_AT_SSD:
        if (queued)
            mres_cancel(sim, &th->pe->ssd, p);
        else
            mres_release(sim, &th->pe->ssd); /* holding one of its servers */
        break;
    default:
        assert(th->at == TH_AT_HOLD);
        break;
    }
    if (th->at == TH_AT_FCPU || th->at == TH_AT_DISK || th->at == TH_AT_SSD) {
        /* The fault in service or queued ends now, cut (counted as one). */
        th->fault_time += sim->now - th->fault_start;
        pe_fault_end(sim, th->pe, th->fault_start);
        j->faults++;
        j->fault_time += sim->now - th->fault_start;
    }
    proc_cancel(sim, p);
}

void job_limit_attach(cluster_t *cl)
{
    static const job_limiting ops = {.clock_run = limit_run, .clock_stop = limit_stop};
    cl->time_kill = true;
    cl->limiting = &ops;
}

void job_limit_kill(sim_t *sim, job_t *j)
{
    assert(j->started && !j->ended && !j->killing && j->th);
    j->killing = true;
    j->lost_core_s = (double)j->width * j->run_used;
    /* As job_stop: batches end (counted up to now), computing threads'
     * CPU time is credited and their CPU given back; their holds return
     * PROC_STOPPED (a batch's thread then comes back to its loop and ends
     * there, TH_AT_DRAIN). */
    for (int i = 0; i < j->threads; i++) {
        thread_t *th = &j->th[i];
        if (th->batch)
            pe_batch_end(sim, th->pe);
        if (!th->computing)
            continue;
        thread_burst_credit(sim, th);
        th->computing = false;
        res_give_up(sim, th->core_cpu, &th->p);
        th->preempted_by = NULL;
        proc_interrupt(sim, &th->p, PROC_STOPPED);
    }
    double cpu = 0;
    for (int i = 0; i < j->threads; i++)
        cpu += j->th[i].finished && !j->loop ? j->cpu : j->th[i].cpu_done;
    j->lost_cpu = cpu; /* counted when the job has ended (job_thread_ended) */
    msgs_drop(sim, j);
    for (int i = 0; i < j->threads; i++) {
        thread_t *th = &j->th[i];
        if (th->finished || th->at == TH_AT_DRAIN)
            continue;
        assert(th->started);
        thread_undo(sim, th);
        th->at = TH_AT_NONE;
        th->finished = true;
        job_thread_ended(sim, j, i); /* the last one ends the job */
    }
}
