/* sched/job_types.h: the job model's data (internal to sched/): the
 * cluster, a job, its threads and their messages, with the inline
 * helpers that only read them. The behaviour is in the files above it:
 * a thread's clocks (sched/job_clock.h), the thread process and job
 * control (sched/job.h, the narrative of the model), and the layers over
 * them (batch.c, job_cost.c, job_limit.c, ...). Cut from job.h so that
 * the clocks, which job.c calls, can see the types without job.c.
 */
#ifndef PNRSIM_SCHED_JOB_TYPES_H
#define PNRSIM_SCHED_JOB_TYPES_H

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

/* Time limits (scheduler.time_limit = KILL, sched/job_limit.h) as the job
 * layer sees them: installed in cl->limiting by job_limit_attach
 * (cluster_init, with cl->time_kill); job_run calls clock_run, and job_stop,
 * a job's end and job_destroy call clock_stop while its kill is armed. */
typedef struct job_limiting {
    void (*clock_run)(sim_t *sim, job_t *j);  /* its run clock runs, kill armed */
    void (*clock_stop)(sim_t *sim, job_t *j); /* its run clock stops, kill disarmed */
} job_limiting;

/* Where a thread waits or holds (thread_t.at): what a kill undoes
 * (sched/job_limit.c). */
enum {
    TH_AT_NONE,
    TH_AT_PARKED,  /* on j->resume_q (its job stopped) */
    TH_AT_HOLD,    /* a context switch's hold (nothing held) */
    TH_AT_CPU,     /* asking for, holding or computing on its core */
    TH_AT_FCPU,    /* a fault's software path on its core */
    TH_AT_DISK,    /* a fault on the disk: queued or in service */
    TH_AT_SSD,     /* a fault on the SSD: queued or in service */
    TH_AT_BARRIER, /* waiting at its job's barrier */
    TH_AT_DRAIN    /* in a network-RAM exchange or a batch: ends when back */
};

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
    /* Loop scheduling inside jobs (issue 36, sched/job_loop.h): the
     * schedule (NONE: the report's model, none of the below used), the
     * iterations' demands' CV, CPU s per chunk, iterations per thread in
     * an interval, the demands' streams ("imbalance", PE id; created on
     * first use, only when imbalance > 0) and the chunks taken. */
    sched_loop loop_sched;
    double imbalance, chunk_overhead;
    long loop_n;
    rng_set imb_rng;
    uint64_t loop_chunks;
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
    bool speeds_differ;       /* nodes of different CPU speeds (issue 35):
                               * a solo job's threads need one speed */
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
    /* Time limits (issue 35, sched/job_limit.h): time_kill, a job with a
     * limit (job_t.limit > 0) is killed when its run clock reaches it
     * (set by its creator; cluster_params.time_kill); then no job runs as
     * one process (solo_eligible). Counted: jobs killed, the core-seconds
     * they held (threads x run clock at the kill), the CPU seconds all
     * their threads had done, and the part of that done by threads cut
     * short (cpu_cut: cpu_demand_done + cpu_cut is every thread's CPU
     * once every job has ended). */
    bool time_kill;
    const job_limiting *limiting; /* time_kill: job_limit.c's entry points */
    long jobs_killed;
    double killed_core_seconds, killed_cpu, cpu_cut;
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
    /* CPU-time coordinates: everything below is in CPU seconds done, at
     * the reference speed 1 (the trace's; work, not wall time: speed s
     * does w of them in w / s s, docs/MODEL.md "Nodes of different
     * speeds"). */
    double cpu_done;
    double target;            /* cpu_done at the end of the current burst */
    double fault_at, comm_at, sync_at;
    double mem_at;            /* next change of its memory (profile), or INFINITY */
    double burst_start;       /* sim time the current burst started */
    bool computing;           /* holding the CPU in a burst */
    unsigned char at;         /* where it waits or holds (TH_AT_*, job_limit.h):
                               * what a kill must undo */
    /* The work (sched/job_cost.c) that took its core in a burst, while it
     * waits at the head of the core's queue (its hold suspended, its CPU
     * time credited up to the preemption); NULL otherwise. */
    void *preempted_by;
    double speed;             /* its node's CPU speed (pe->speed): a burst of
                               * w CPU seconds done takes w / speed s */
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
    /* Loop scheduling (j->loop, sched/job_loop.h): its CPU done at the
     * interval's start minus the interval's nominal start; demand taken
     * in the interval (overheads included); the next nominal
     * synchronisation point (drawn where the report's model draws it);
     * the interval's start (sim time) and iterations taken (AWF);
     * STATIC: its block taken. */
    double loop_lag, loop_acc, loop_next, loop_t0;
    long loop_iters;
    bool loop_taken;
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
    struct job_loop *loop;    /* loop scheduling's state (sched/job_loop.h),
                               * NULL under NONE and for no demand */
    waitq_t resume_q;         /* parked threads */
    list_t msgs;              /* in-flight job_msgs, newest first (killed
                               * on job_stop) */
    list_t killed;            /* killed job_msgs to send again, in order */
    uint64_t faults;
    double fault_time;
    double waited_alloc;      /* s threads waited for network RAM */
    double requested;         /* SWF field 9 (requested time), s, -1 unknown:
                               * jobs.csv; time limits read `limit` */
    /* Time limits (sched/job_limit.h; cl->time_kill): the run clock's limit,
     * s (<= 0: none, never killed); the run clock so far, and since when it
     * runs (while `running`); the kill's pending event (kill_armed);
     * killing: killed, its threads ending; lost_core_s, threads x run clock
     * at the kill; lost_cpu, the CPU seconds its threads had done. */
    double limit;
    double run_used, run_since;
    ev_id kill_ev;
    bool kill_armed, killing;
    double lost_core_s, lost_cpu;
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
    /* fair share and limits (issue 35; sched/backfill.c, sched/limits.c) */
    long user, group;         /* SWF fields 12, 13; -1 unknown (job_create) */
    void *acct;               /* the per-user limit account (sched/limits.h),
                               * set at the first pass that sees the job;
                               * NULL without limits */
    unsigned limit_held;      /* SCHED_LIMIT_* bits of every limit that held
                               * it back at a pass while it waited */
    bool order_told;          /* the order's on_submit was called */
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

/* Job j's dedicated run time (issue 37; docs/MODEL.md "Dedicated run
 * time"), s: its CPU demand per thread from the trace (j->cpu, in work at
 * the reference speed 1) divided by the slowest speed among the nodes of
 * its threads (j placed: pe_ids set; a thread stays on its PE for the
 * job's life). Under a dynamic loop schedule (process.loop_schedule SS,
 * GSS, FAC, WF or AWF) on nodes of different speeds the threads share the
 * work, so the dedicated run ends when the job's whole demand (threads x
 * j->cpu) is done at the sum of its threads' speeds: threads x j->cpu /
 * sum(speeds), at most the slowest-node figure. No paging, switching,
 * waiting for network RAM, messages, barriers, chunk overheads or loop
 * imbalance: the run alone on a dedicated machine of its nodes' speeds.
 * At speed 1 everywhere it is j->cpu exactly. */
static inline double job_dedicated_time(const job_t *j)
{
    const cluster_t *cl = j->cl;
    double s = cl->pes[cluster_node_id(cl, j->pe_ids[0])].speed;
    if (!cl->speeds_differ)
        return j->cpu / s;
    bool shared = cl->loop_sched != LOOP_NONE && cl->loop_sched != LOOP_STATIC;
    double sum = s;
    for (int i = 1; i < j->threads; i++) {
        double si = cl->pes[cluster_node_id(cl, j->pe_ids[i])].speed;
        sum += si;
        if (si < s)
            s = si;
    }
    return shared ? j->threads * j->cpu / sum : j->cpu / s;
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
