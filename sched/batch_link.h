/* sched/batch_link.h: the record of a batch of faults (batched paging,
 * process.paging = BATCHED; sched/batch.c, docs/BATCHING.md) and the
 * network its remote faults cross (sched/batch_link.c). Shared by
 * batch_link.c and batch.c, which sits above it; a test that builds a
 * batch by hand includes it too. The exact job model (sched/job.c) never
 * sees it: it reaches batched paging only through cl->batching (job.h).
 */
#ifndef PNRSIM_SCHED_BATCH_LINK_H
#define PNRSIM_SCHED_BATCH_LINK_H

#include "sched/job.h"

#include <stdbool.h>

#define BATCH_MAX 64
#define BATCH_LINKS 16   /* links a batch's remote faults may cross */
#define BATCH_SERVERS 8  /* servers a batch's remote faults may go to */
#define BATCH_HOPS 16    /* elements of a remote fault's two routes */
#define BATCH_ELEMS (BATCH_LINKS + BATCH_SERVERS + 2) /* links and switches */
/* Batched pages avoid elements the other batches and the messages load
 * beyond this together: the M/G/1 mean is a poor stand-in for a queue
 * near saturation (whose closed loop of faults bounds the throughput), so
 * there the faults go the exact way and meet the real queue
 * (sched/batch_link.c). */
#define BATCH_LOAD_MAX 0.5

/* The two routes of a batch's remote faults to one server: the elements
 * out and back, in order, each one's time for a page, and the access
 * time after the page is back. With one-sided RDMA (job_hooks.
 * fault_rdma) the first nread elements are the READ's (server to client,
 * which the fault waits for) and the others the WRITE's (client to
 * server, leaving at the same instant; nobody waits for it); with page
 * messages nread = nh: the page out (its first nout elements), then
 * the page in. */
typedef struct batch_route {
    int s;
    int nh, nread, nout;
    net_elem *e[BATCH_HOPS];
    double d[BATCH_HOPS];
    double lat;
    /* The other batches' load does not change while a batch is planned,
     * and the messages' is taken at its start: each hop's mean wait, and
     * whether one element is too loaded, are worked out once
     * (batch_route_of). */
    double w[BATCH_HOPS];
    bool congested;
    int steps;                /* steps planned over these routes */
} batch_route;

/* A batch's registration on one link it crosses (net_vuser). */
typedef struct batch_vuser {
    net_vuser u;
    struct fault_batch *bt;
    net_elem *e;
} batch_vuser;

/* A batch of one thread's consecutive faults. Step k: the fault's service
 * from f[k] (sim time) for svc[k] seconds, by the disk (srv[k] = -1) or
 * by network RAM at server PE srv[k] over routes rt[ri[k]], its h-th
 * crossing starting at hs[k][h], then a CPU burst from CPU time cpu_k
 * (cpu0 for k = 0, else tgt[k-1]) to tgt[k], which ends at f[k+1] (at
 * `end` for the last step); D[k] and fa[k] are the thread's D and fault
 * clock after step k's fault. Steps never overlap: f[k] + svc[k] <=
 * f[k+1]. */
typedef struct fault_batch {
    list_t link;              /* cl->batches, or cl->batch_spare */
    thread_t *th;
    int n;                    /* steps, 1..BATCH_MAX */
    double cpu0, D0, fa0;     /* the thread's cpu_done, D, fault_at at the start */
    double end;               /* sim time the last step ends */
    /* A step's fault: fc seconds on the thread's core (computer.fault_cpu)
     * from f, then its device or remote service; a step with wr set writes
     * a dirty page back first (hw/swap.h), ws seconds on the device from
     * f + fc: before the read when serial (one server: a disk, an SSD of
     * c = 1), else on a second server beside it (ws <= the read). */
    double fc, ws;
    bool serial;
    /* A remote step's CPU under MESSAGES (netram.message_cpu: mc at each
     * end on the thread's core, the send after fc and the receive after
     * the access; sw = 2 message_cpu + server_cpu on the server's node
     * between the page out and the page in; 0 otherwise: sched/batch.c). */
    double mc, sw;
    unsigned char wr[BATCH_MAX];
    double f[BATCH_MAX], svc[BATCH_MAX], D[BATCH_MAX], fa[BATCH_MAX], tgt[BATCH_MAX];
    int srv[BATCH_MAX];
    signed char ri[BATCH_MAX];
    double hs[BATCH_MAX][BATCH_HOPS];
    int nrt;                  /* routes in rt */
    batch_route rt[BATCH_SERVERS];
    int nv;                   /* links registered on (remote faults' routes) */
    batch_vuser v[BATCH_LINKS];
    int nvr;                  /* elements crossed, and the rate added to */
    net_elem *vel[BATCH_ELEMS]; /* each one's vrate (crossings per second) */
    double vr[BATCH_ELEMS], vd[BATCH_ELEMS]; /* and its crossing time */
} fault_batch;

/* The step under way at t, the last to have begun at
 * or before it (a step beginning at t has begun), or -1 before the first. */
int batch_step_at(const fault_batch *bt, double t);

/* The index in bt->rt of the routes of remote faults
 * from client c to server s (svc: the idle service fault_plan gave, page
 * the page size), added and bt registered on their links when new; -1
 * when that would exceed BATCH_SERVERS or BATCH_LINKS. */
int batch_route_of(net_t *net, double page, fault_batch *bt, int c, int s, double svc,
                   bool rdma);
/* Plan step n's remote fault from t over routes r, each
 * crossing after the mean wait behind other batches' and the messages'
 * (bt->hs[n]; with RDMA the READ's and the WRITE's crossings both from t,
 * the service the READ's end plus the access time; with page messages the
 * page out from t + bt->mc, the page in bt->sw after it, the service its
 * end plus the access time plus bt->mc); returns the fault's
 * service, or -1 when an element on the
 * way is loaded beyond BATCH_LOAD_MAX by other batches and messages (at
 * the batch's start). */
double batch_plan_crossings(fault_batch *bt, int n, const batch_route *r, double t);
/* Add the rate at which bt's planned pages cross each
 * element (crossings over the batch's span) to that element's vrate
 * (net.h), once planned; take it back (once) when the batch ends or is
 * cut. */
void batch_vrate_add(fault_batch *bt, double now);
void batch_vrate_drop(fault_batch *bt);

#endif
