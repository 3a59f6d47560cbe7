/* sched/job.h: parallel jobs and their threads (techreport §4.3).
 *
 * A job has one thread per allocated processor, each bound to one PE for
 * the job's whole life. A thread is a process that needs `cpu` seconds of
 * CPU time. While it computes, these clocks of CPU time run:
 *   - the next page fault (§4.1.5), when its PE is overallocated;
 *   - the next neighbour message, every comm_rate CPU seconds (0 = never):
 *     the thread sends to its successor in a one-way ring of the job's
 *     threads, which answers at once; neither waits (§4.3.2);
 *   - the next synchronisation, every sync_rate CPU seconds (0 = never):
 *     the thread declares itself ready and waits; when all threads are
 *     ready, each sends a message to the master (thread 0); when the master
 *     has received all of them, the barrier opens and every thread computes
 *     again (§4.3.3).
 *   - under a memory profile (workload.memory_profile, cl->resize: RAMP or
 *     PHASES; docs/MODEL.md "Memory that changes over time"), the next
 *     change of its allocation, mem_at (sched/job_resize.c applies it).
 * With cl->interval_exp the two intervals are instead exponential with
 * those means: each thread draws its own neighbour intervals; a job draws
 * its synchronisation points once for all its threads (the first thread to
 * pass a point draws the next), so every thread of a job synchronises at
 * the same CPU times, as with fixed intervals. Draws come from the per-PE
 * streams cl->interval_rng, so the fault streams do not shift.
 * When several clocks expire at the same CPU instant they are handled in
 * the order memory change, fault, neighbour, synchronisation. Only CPU
 * time advances the clocks; paging, messages and barriers do not.
 *
 * The scheduler controls threads through job_run (start or resume the
 * job's threads on their PEs) and job_stop (deschedule: computing threads
 * give back their CPU and their hold is interrupted through the process
 * API, returning PROC_STOPPED (core/proc.h); they keep their remaining work;
 * in-flight neighbour and synchronisation messages are killed, to be sent
 * again from the start when the job runs again, §4.4.2). A thread that is
 * paging or waiting when its job is stopped finishes that activity and then
 * waits for the job to run again before computing.
 *
 * One process per job (issue 11): when nothing can distinguish a job's
 * threads (cl->solo_ok: space sharing; no neighbour or synchronisation
 * messages; no network RAM; no thread can page), job_run starts one
 * process for the whole job instead of one per thread. It does for each
 * thread, in thread order, exactly what that thread's process would do at
 * the same instant, so every per-thread and per-PE figure and every tie
 * among same-time events are those of the per-thread processes; only the
 * number of kernel events differs (2 per job instead of 2 per thread).
 * Such a job has no thread_t (j->th is NULL): what its threads share is
 * kept in the job; ask job_thread_mem_freed rather than j->th.
 */
#ifndef PNRSIM_SCHED_JOB_H
#define PNRSIM_SCHED_JOB_H

#include "core/list.h"
#include "core/proc.h"
#include "core/rng.h"
#include "core/stats.h"
#include "core/sync.h"
#include "hw/pe.h"
#include "net/net.h"
#include "sched/job_curve.h"
#include "sched/job_fault.h"
#include "sched/job_profile.h"
#include "sched/policy.h"

#include <stdint.h>

typedef struct job job_t;
typedef struct thread thread_t;
typedef struct cluster cluster_t;

/* Where a page fault is served: a hook the PNR layer can replace. It must
 * either serve the fault and return true after scheduling the thread's
 * wake-up (thread_fault_done), or return false to let the disk serve it. */
typedef bool (*fault_hook)(sim_t *sim, thread_t *th, void *ctx);

/* Hooks the job layer calls into the layers above. Each layer installs
 * its own when it is created on the cluster: the scheduler's by
 * gang_create, PNR's by pnr_create (a test that plays a layer sets them
 * itself). */
typedef struct job_hooks {
    /* The scheduler's, called with sched_ctx. */
    /* Every thread of the job has finished. */
    void (*on_job_ended)(sim_t *sim, job_t *j, void *ctx);
    /* The memory of a thread of j (j->mem_mb) was just freed on PE pe (the
     * scheduler's memory accounting). */
    void (*on_mem_freed)(sim_t *sim, job_t *j, int pe, void *ctx);
    void *sched_ctx;
    /* PNR's, called with pnr_ctx. */
    /* A thread is about to start for the first time: return true when the
     * thread must wait (e.g. for network RAM) before computing; the waiter
     * then calls thread_proceed. */
    bool (*thread_starting)(sim_t *sim, thread_t *th, void *ctx);
    /* A thread finished its work and freed its memory (with mem_release
     * JOB: called for every thread at its job's end, after the memory of
     * that thread was freed, before on_job_ended). */
    void (*thread_ended)(sim_t *sim, thread_t *th, void *ctx);
    fault_hook fault;
    /* Batched paging (sched/batch.c; NULL: no batches while `fault` is
     * set). fault_plan: where th's fault now would go, drawn exactly as
     * `fault` would draw it (the same draws, in the same order) but with
     * nothing sent or counted: -1 for the disk, or the PE of the server
     * with *svc = the fault's service time on an idle network (page out,
     * page in, access time); -2 when this fault must go the exact way
     * (nothing drawn). Its answers may depend only on th's PE's memory
     * amounts and the draws (a change of those ends the batch).
     * fault_count: count n remote faults of th to `server`, served in a
     * batch (the last begun at last_at), as `fault` and the messages it
     * sends would have counted them. */
    int (*fault_plan)(thread_t *th, void *ctx, double *svc);
    void (*fault_count)(thread_t *th, int server, uint64_t n, double last_at, void *ctx);
    /* A running thread changed its allocation by mb MB (a memory profile,
     * sched/job_resize.c; th->mem_mb is the new amount, already allocated
     * on its PE): the node's network RAM follows. NULL: nothing. */
    void (*mem_resized)(sim_t *sim, thread_t *th, double mb, void *ctx);
    /* Remote faults move pages by one-sided RDMA (netram.transport = RDMA):
     * a READ from the server the thread waits for and a WRITE to it at the
     * same instant, not a page out and then a page in (batch_link.h). */
    bool fault_rdma;
    void *pnr_ctx;
} job_hooks;

/* The batched paging layer (process.paging = BATCHED, sched/batch.c,
 * docs/BATCHING.md) as the thread loop sees it, at its three points:
 * installed in cl->batching by batch_attach (cluster_init, for every
 * cluster); the thread loop asks on_fault only when cl->paging is BATCHED,
 * so an exact run makes no call. A cluster built without cluster_init may
 * leave it NULL: every fault is exact. A batch under way is its PE's too
 * (pe->batch); whatever must end it first calls pe_batch_end (hw/pe.h). */
enum { BATCH_GO_ON = -1, BATCH_FAULT_ENDS = -2, BATCH_FAULT_DEVICE = -3 };
typedef struct job_batching {
    /* At a fault of th: start a batch when batched paging is on and
     * nothing can interfere. Returns how long th must now hold (until the
     * batch's end), or -1 when the caller serves the fault the exact way. */
    double (*on_fault)(sim_t *sim, thread_t *th);
    /* th's batch hold (or a wait it was put in, a grant ending it) returned
     * with signal sig: >= 0, th holds that long more and asks again;
     * BATCH_GO_ON, the caller goes on to the top of its loop;
     * BATCH_FAULT_ENDS, th was cut in a fault's service, which ends now
     * (the caller finishes that fault as an exact one); BATCH_FAULT_DEVICE,
     * th was cut in a fault's software path (computer.fault_cpu), which
     * ends now: the caller serves the rest of that fault the exact way. */
    double (*on_hold_end)(sim_t *sim, thread_t *th, int sig);
    /* th is destroyed with a batch record (th->batch or th->batch_tail):
     * give the records back (no counting). */
    void (*on_destroy)(cluster_t *cl, thread_t *th);
} job_batching;

/* The model's shared parameters and hardware. */
struct cluster {
    int npes;                 /* every PE (node): compute nodes, then memory servers */
    int ncompute;             /* PEs 0 .. ncompute-1 run threads; the rest
                               * (memory servers) only lend RAM; 0 = all */
    int cores_per_node;       /* C (issue 25): core k (a gang column, a
                               * job's pe_ids) is core k % C of node k / C
                               * (cl->pes); 0 or 1 = one core per node */
    pe_t *pes;
    net_t *net;
    net_pool *msg_pool;       /* job messages' pool (job.c, at the first) */
    double mem_access_rate;   /* R, seconds */
    double dirty_fraction;    /* evicted pages written back to the swap
                               * device, [0, 1] (hw/swap.h); 0 = none;
                               * each job's (job_t.dirty_fraction) starts
                               * as this */
    bool dirty_per_thread;    /* process.dirty_fractions set: the rule
                               * counts each thread's evictions
                               * (thread_t.evictions), with its job's
                               * fraction, not the node's */
    double dirty_max;         /* with dirty_per_thread: the largest of the
                               * jobs' fractions (batch.c's refusal reads
                               * it beside dirty_fraction, as config.c) */
    double comm_rate, sync_rate;
    double neighbour_bytes, sync_bytes;
    sched_mem_release mem_release; /* threads free memory at their end or their job's */
    rng_gen rng_gen;          /* generator of every stream of the run */
    rng_set fault_rng;        /* one stream per PE ("fault", PE id) */
    double page_bytes;        /* P (§4.1.5), bytes; 0 = PE_PAGE_BYTES */
    bool interval_exp;        /* comm/sync intervals exponential (else fixed) */
    rng_set interval_rng;     /* one stream per PE ("interval", PE id), when
                               * interval_exp; each created on first use */
    sched_paging paging;      /* EXACT, or BATCHED (docs/BATCHING.md) */
    list_t batches;           /* BATCHED: fault batches under way (batch.c) */
    list_t batch_spare;       /* BATCHED: batch records not in use */
    rng_t *vrng;              /* BATCHED: the network's draws of waits for
                               * batched pages at switches ("net-virtual") */
    list_t batch_tails;       /* BATCHED: records of batches cut in a
                               * remote fault, until it ends (batch.c) */
    const job_batching *batching; /* batched paging's entry points, or NULL */
    mem_profile profile;      /* how threads' memory changes (CONSTANT: never) */
    /* The memory profile's step (sched/job_resize.c, installed by
     * cluster_init unless the profile is CONSTANT; NULL: none): for a thread
     * not yet started, set its first size and clock; for a running one at
     * its clock (cpu_done >= mem_at), change its allocation and draw the
     * next clock. */
    void (*resize)(sim_t *sim, thread_t *th);
    job_hooks hooks;
    struct gang *gang;        /* the scheduler cluster_init made, or NULL */
    bool solo_ok;             /* a job runs alone on its PEs until it ends and
                               * is never stopped (space sharing, MPL 1: set
                               * by gang_create), so a job whose threads
                               * nothing distinguishes may run as one process
                               * (job_run, job.c) */
    /* statistics */
    uint64_t neighbour_msgs, neighbour_replies, sync_msgs;
    uint64_t messages_killed;
    uint64_t batch_faults;    /* faults run inside fault batches (BATCHED) */
    double cpu_demand_done;   /* CPU seconds of finished threads */
    /* Costs on a fault's path (issue 33, sched/job_cost.c): the software
     * path of every fault, s of its core's CPU (computer.fault_cpu; 0 =
     * none; batches plan it); msg_cpu and serve_cpu, the PNR layer's
     * under MESSAGES (set by pnr_create, 0 otherwise; batches plan them,
     * sched/batch.c): a remote fault's CPU at each end of each page
     * message on the faulting core (netram.message_cpu) and the serving
     * node's work per page request (2 message_cpu + netram.server_cpu);
     * cost_cpu[k], CPU seconds spent on each kind
     * of work (COST_FAULT, COST_MESSAGE, COST_SERVER of job_cost.h) so
     * far; the works' records, idle (cost_free) and in use (cost_busy). */
    double fault_cpu;
    double msg_cpu, serve_cpu;
    double cost_cpu[3];
    list_t cost_free, cost_busy;
    long threads_running;     /* started, not finished */
    void *th_pool[32];        /* free thread arrays of 2^c threads, and free */
    void *job_pool[32];       /* jobs with room for 2^c PE ids, for reuse
                               * (job.c; freed by job_destroy_all) */
    list_t jobs;              /* every job alive (created, not destroyed),
                               * newest first, through job_t.alink; set up
                               * by cluster_init (sched/cluster.h) */
    long jobs_alive;
};

enum { MSG_NEIGHBOUR = 1, MSG_NEIGHBOUR_REPLY = 2, MSG_SYNC = 3 };

/* A job's message: a neighbour message, its reply, or a synchronisation
 * message to the master (§4.3.2, §4.3.3). It embeds the network's msg_t
 * and comes from the net's pool of job messages; while allocated, m.link
 * is on its job's list j->msgs (in flight) or j->killed (killed). */
typedef struct job_msg {
    msg_t m;
    job_t *j;
    int kind;                 /* MSG_* */
} job_msg;

struct thread {
    proc_t p;                 /* first member: the thread is a process */
    job_t *job;
    int idx;                  /* 0 .. threads-1; 0 is the master */
    pe_t *pe;                 /* its node (the PE of its core) */
    res_t *core_cpu;          /* its core's CPU on that node */
    pe_user mem_user;         /* overallocation-change callback */
    /* CPU-time coordinates: everything below is in CPU seconds done. */
    double cpu_done;
    double target;            /* cpu_done at the end of the current burst */
    double fault_at, comm_at, sync_at;
    double mem_at;            /* next change of its memory (profile), or INFINITY */
    double burst_start;       /* sim time the current burst started */
    bool computing;           /* holding the CPU in a burst */
    /* The work (sched/job_cost.c) that took its core in a burst, while it
     * waits at the head of the core's queue (its hold suspended, its CPU
     * time credited up to the preemption); NULL otherwise. */
    void *preempted_by;
    bool finished;
    bool started;
    bool mem_freed;           /* its memory was given back to the PE */
    /* page-fault model (§4.1.5), bytes */
    double size_bytes;        /* thread size (now, under a memory profile) */
    double L, D;              /* limit and data paged in since last reset */
    double fault_start;
    long comm_k, sync_k;      /* clocks fired so far */
    long mem_k;               /* memory profile: points passed (0: its start) */
    double mem_mb;            /* MB it has allocated (or will at its start):
                               * j->mem_mb, or its profile's level now;
                               * size_bytes is the same in bytes */
    uint64_t faults;
    double fault_time;
    uint64_t evictions;       /* cl->dirty_per_thread: its evictions at swap
                               * faults (the dirty rule's n, hw/swap.h) */
    double remote_share;      /* share of overallocation in network RAM */
    void *pnr;                /* PNR client state, owned by pnr/ */
    struct fault_batch *batch;/* batched paging: the batch under way, or NULL */
    int batch_how;            /* how the last batch was ended (batch.c) */
    struct fault_batch *batch_tail; /* cut in a remote fault: the batch
                               * record, kept until that fault ends (its
                               * crossings stay visible, batch.c) */
};

struct job {
    long id;                  /* SWF job number */
    long order;               /* position in the trace (ties) */
    double submit, start, end;
    int threads;
    int width;                /* cores it holds in its slot (job_create:
                               * threads; whole nodes under node_sharing
                               * EXCLUSIVE, set by gang_submit) */
    double cpu;               /* CPU demand per thread, s */
    double mem_mb;            /* memory per thread, MB */
    int *pe_ids;              /* core of each thread (a gang column; the
                               * node is cluster_node_of) */
    thread_t *th;
    int finished_threads;
    bool running;             /* scheduled in the current slot */
    double resume_at;         /* threads compute from this time (PCS) */
    bool started;
    bool ended;
    bool released, destroy_scheduled;
    bool solo;                /* its threads run as the one process `proc`,
                               * with no thread_t (th NULL): their state is
                               * the job's, the four fields below (job.c) */
    proc_t proc;
    double solo_hold;         /* the hold the threads are in */
    double solo_done;         /* CPU seconds each thread has done */
    bool solo_computing;      /* the threads hold their PEs' CPUs */
    int solo_freed;           /* threads 0 .. solo_freed-1 freed their memory */
    cluster_t *cl;
    barrier_t sync;           /* threads ready to synchronise */
    int sync_received;        /* sync messages the master has */
    long sync_drawn;          /* interval_exp: index of the drawn sync point */
    double sync_point;        /* interval_exp: CPU time of that point */
    waitq_t resume_q;         /* parked threads */
    list_t msgs;              /* in-flight job_msgs, newest first (killed
                               * on job_stop) */
    list_t killed;            /* killed job_msgs to send again, in order */
    uint64_t faults;
    double fault_time;
    double waited_alloc;      /* s threads waited for network RAM */
    double requested;         /* SWF field 9 (requested time), s, -1 unknown:
                               * carried for jobs.csv, no model uses it */
    const fault_curve *curve; /* fault_model = CURVE: its measured curve
                               * (job_curve.h; set by its creator, owned by
                               * app/curve.c); NULL = the report model */
    double dirty_fraction;    /* its evicted pages' dirty fraction under
                               * cl->dirty_per_thread (job_create:
                               * cl->dirty_fraction; its creator sets its
                               * application's, process.dirty_fractions) */
    /* scheduler bookkeeping, owned by sched/gang.c */
    int slot, home_slot;
    int last_slot;            /* index of the slot it ended in (gang.c, at
                               * its end; gang_job_slot), -1 before */
    int row;                  /* the slot id it was placed in (gang.c writes
                               * it at placement; moves by alternative
                               * scheduling keep it): the threads of a node
                               * with the same row share its overallocation
                               * (several cores per node, MODEL.md) */
    list_t qlink;             /* the queue's FIFO by arrival (sched/queue.h) */
    list_t blink;             /* the queue's bucket of its width */
    list_t alink;             /* on the cluster's list of live jobs */
    bool queued;
    bool impossible;          /* never placeable: set aside at submission
                               * (gang.c; gang_impossible) */
    long tried_pass;          /* scheduler pass that last failed to place it */
    /* estimates and backfilling (sched/priority.c, sched/backfill.c) */
    double estimate;          /* expected run time, s (job_create: cpu) */
    double prio_key;          /* priority key of the current pass */
    double bf_first_res;      /* first reservation / shadow time, -1 none */
    double bf_end;            /* expected end used by the pass (MPL 1: start + estimate) */
    long bf_epoch;            /* MPL > 1: slot epoch in which bf_end was bounded, 0 none */
    double bf_head_res;       /* reservation when it first was the head (the first
                               * job in queue order not started by a pass), -1 none */
    void *pnr;                /* PNR job state, owned by pnr/ */
};

/* The PEs that run threads: cl->ncompute, or every PE when it is 0. */
static inline int cluster_compute_pes(const cluster_t *cl)
{
    return cl->ncompute > 0 ? cl->ncompute : cl->npes;
}

/* Cores per node C (>= 1). */
static inline int cluster_cpn(const cluster_t *cl)
{
    return cl->cores_per_node > 1 ? cl->cores_per_node : 1;
}

/* The cores that run threads (the gang matrix's columns): compute nodes x C. */
static inline int cluster_cores(const cluster_t *cl)
{
    return cluster_compute_pes(cl) * cluster_cpn(cl);
}

/* The node (PE) of core k. */
static inline int cluster_node_id(const cluster_t *cl, int core)
{
    return cl->cores_per_node > 1 ? core / cl->cores_per_node : core;
}

/* The CPU of core k: core k mod C of its node (the node's `cpu` when C = 1). */
static inline res_t *cluster_core_cpu(cluster_t *cl, int core)
{
    if (cl->cores_per_node > 1)
        return pe_cpu(&cl->pes[core / cl->cores_per_node], core % cl->cores_per_node);
    return &cl->pes[core].cpu;
}

/* Batched paging: th is about to ask for its core's CPU; a batch under
 * way on that core (on its node, by another thread of the core) ends
 * first. On a one-core PE every thread's core is the PE's CPU, so any
 * batch on the PE ends; on a node of several cores a batch on another
 * core goes on (its CPU is not asked for). */
static inline void job_batch_cpu_end(sim_t *sim, thread_t *th)
{
    thread_t *b = th->pe->batch;
    if (b && b->core_cpu == th->core_cpu)
        pe_batch_end(sim, th->pe);
}

/* Create a job (not yet placed). threads >= 1. */
job_t *job_create(cluster_t *cl, long id, long order, double submit, int threads,
                  double cpu, double mem_mb);
/* Free the job now (its messages are dropped). */
void job_destroy(sim_t *sim, job_t *j);
/* Free every job alive on cl (job_destroy), and the thread arrays kept
 * for reuse. */
void job_destroy_all(sim_t *sim, cluster_t *cl);
/* The jobs alive on cl, newest first: the first, and the one after j;
 * NULL past the end. */
job_t *job_first(const cluster_t *cl);
job_t *job_next(const cluster_t *cl, const job_t *j);
/* The job's owner is done with it (it ended, or never started): it is
 * freed, through an event, once none of its messages is in flight. */
void job_release(sim_t *sim, job_t *j);
/* Bind thread i to core pe_id (before the first job_run). */
void job_bind(job_t *j, int i, int pe_id);
/* True when the memory of thread i of j has been given back to its PE
 * (false before the job started). */
bool job_thread_mem_freed(const job_t *j, int i);
/* Start (first call) or resume the job's threads; their bursts begin or
 * continue after `delay` seconds (the context-switch cost; on a first start
 * the threads allocate their memory at once and compute `delay` later). */
void job_run(sim_t *sim, job_t *j, double delay);
/* Deschedule the job (see above). */
void job_stop(sim_t *sim, job_t *j);
/* The PNR layer's answer arrived: the thread may compute. */
static inline void thread_proceed(sim_t *sim, thread_t *th) { proc_wake(sim, &th->p); }
/* A fault served elsewhere (hook) is complete: the thread continues. */
static inline void thread_fault_done(sim_t *sim, thread_t *th) { proc_wake(sim, &th->p); }
/* Recompute the fault clock after the PE's overallocation changed. */
void thread_mem_changed(sim_t *sim, thread_t *th);
/* Credit the CPU time of th's burst under way up to now (never beyond its
 * end; nothing while it is preempted); the burst continues from now. */
void thread_burst_credit(sim_t *sim, thread_t *th);
/* The thread whose process p is (a thread_body), or NULL (another
 * process: a job's, a work's of job_cost.c). */
thread_t *job_thread_of(proc_t *p);
/* The dirty fraction of th's evictions (hw/swap.h): its job's when
 * cl->dirty_per_thread, else the cluster's. */
static inline double thread_dirty(const thread_t *th)
{
    const job_t *j = th->job;
    return j->cl->dirty_per_thread ? j->dirty_fraction : j->cl->dirty_fraction;
}
/* The page size P of cl in bytes (cl->page_bytes, or PE_PAGE_BYTES when 0). */
static inline double job_page_bytes(const cluster_t *cl)
{
    return cl->page_bytes > 0 ? cl->page_bytes : PE_PAGE_BYTES;
}

#endif
