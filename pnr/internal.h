/* pnr/internal.h: what the files of pnr/ share, private to pnr/ (and to
 * the tests of pnr/, which check the pieces directly): the types only, no
 * code. Nothing outside pnr/ includes it: the public face of the layer is
 * pnr/pnr.h.
 *
 * The layer is driven by message arrivals. Its files are layers too, each
 * calling only files listed before it here (lowest first):
 *   objects.c       protocol-object tracking and piece lists.
 *   check.c         the conservation checker (pnr/check.h), a test hook.
 *   table.c         the availability tables (§5.2, §5.2.6): what a servent
 *                   heard, snapshots, the merge of a broadcast.
 *   strategy_host.c the strategy interface's queries (pnr_host, pnr_job,
 *                   pnr_view) read from the layer; the stop of a run on a
 *                   strategy's broken contract (exit 2).
 *   strategies.c    the report's four strategies (§5.5) as registry
 *                   components, on pnr/strategy_api.h alone (no internal
 *                   header: the layer calls them through p->strat).
 *   frame.c         THE FRAME: builds and posts every message, and on
 *                   arrival lets the receiver hear the load it carries
 *                   (table.c), counts it and hands it to the handler of its
 *                   kind through p->handlers, a table the agents fill at
 *                   creation. It names no agent.
 *   select.c        the manager's policies: which server to ask next
 *                   (§5.2.2), the fair share (§5.2.3).
 *   rounds.c        allocation and deallocation rounds and per-job state,
 *                   shared by the client and the manager.
 *   server.c        THE SERVER AGENT (§5.3): receives ASK, FREE, PAGE_OUT.
 *   broadcast.c     broadcasts (§5.2.6): a manager sends its table;
 *                   receives BROADCAST.
 *   manager.c       THE MANAGER AGENT (§5.2): receives REQUEST, GRANT,
 *                   DEALLOC, ACK.
 *   paging.c        which server a fault goes to (§5.4), the draw the
 *                   exact and the batched paging share (or the
 *                   strategy's fault_server).
 *   client_batch.c  batched paging (process.paging = BATCHED) only: the
 *                   job_hooks fault_plan and fault_count, and the point the
 *                   client calls when a node's pieces change.
 *   reclaim.c       donors taking memory back (netram.reclaim, issue 25):
 *                   the borrowers' pieces cut, their pages sent back, a
 *                   REPLACE request opened; called by the client at a
 *                   thread's start, or by a strategy (pnr_host_reclaim).
 *   client.c        THE CLIENT AGENT (§5.1, §5.4): thread start and end,
 *                   faults, a strategy's release (pnr_host_release);
 *                   receives REPLY and PAGE_IN.
 *   pnr.c           the top (pnr/pnr.h): creates the frame and the agents,
 *                   installs the hooks in the cluster, frees it all.
 *
 * Protocol objects (allocation and deallocation rounds, per-job state,
 * broadcast snapshots) are tracked on p->objs from creation to their end,
 * so a run stopped part way frees them all, and the checker can walk them.
 *
 * Accounting: every MB a server has lent is, at any instant, exactly one
 * of: held by a client (pieces it was told of, or the node's pieces under
 * release EXCESS), in transit in a message (GRANT, REPLY, DEALLOC or FREE),
 * or pending at a manager (granted and not yet shared out, or gathered for
 * freeing). p->held, p->transit and p->pending are those totals. A
 * reclaim (reclaim.c) takes MB back from what clients hold: held and lent
 * drop together at that instant.
 */
#ifndef PNRSIM_PNR_INTERNAL_H
#define PNRSIM_PNR_INTERNAL_H

#include "pnr/strategy.h"
#include "pnr/strategy_api.h"
#include "pnr/types.h"
#include "sched/job.h"

#include "core/list.h"
#include "core/rng.h"

#include <stdbool.h>
#include <stddef.h>

/* MB below which an amount counts as nothing (rounding of shares). */
#define EPS_MB 1e-9

typedef struct piece {
    int server;
    double mb;
} piece_t;

typedef struct pieces { /* a growable list of pieces, one per server */
    piece_t *v;
    int n, cap;
} pieces_t;

/* The kinds of tracked protocol objects. */
typedef enum { POBJ_ROUND, POBJ_JSTATE, POBJ_SNAPSHOT, POBJ_REASK } pobj_kind;

/* Tracked allocation: every protocol object embeds a pobj and is on
 * p->objs (core/list.h, newest first) until it is freed (pnr_track /
 * pnr_untrack). */
typedef struct pobj {
    list_t node;
    pobj_kind kind;
    void (*destroy)(struct pobj *o);
} pobj;

typedef struct round round_t;
typedef struct jstate jstate_t;

typedef struct creq { /* the client side of one thread */
    thread_t *th;      /* NULL: a node's request again after a reclaim
                        * (reask_t), for node `pe` */
    int pe;            /* th NULL: the node that asks */
    double ask;        /* MB asked */
    double granted;    /* MB held */
    pieces_t pieces;
    double t_asked;
    round_t *round;    /* its allocation round, while it waits */
} creq_t;

struct round { /* one allocation or deallocation at a manager */
    pobj link;
    bool dealloc;
    jstate_t *js;       /* the job's state while the job lives, else NULL */
    int manager;
    int expected, received;
    creq_t **reqs;      /* alloc: askers (NULL for zero requests), by arrival */
    double *asks;
    int nreqs;
    double total_ask;
    double granted;     /* alloc: MB granted by servers so far */
    pieces_t got;       /* alloc: grants; dealloc: amounts per server */
    pieces_t *incoming; /* dealloc: pieces on their way, by thread */
    unsigned char *asked; /* alloc: servers asked (npes) */
    unsigned char *racks; /* alloc, locality RACK: racks of its clients */
    bool in_rack;         /* select's first pass: only those racks */
    int grant_server;   /* alloc: the GRANT in flight (at most one) ... */
    double grant_mb;    /* ... and the MB it carries */
    int acks_pending;
};

struct jstate { /* per job */
    pobj link;
    int threads, threads_ended;
    round_t *alloc;     /* coordinated strategies: the job's rounds */
    round_t *dealloc;
    int alloc_manager;
    creq_t **creqs;     /* one per thread, freed as threads end */
};

/* netram.reclaim = REPLACE (reclaim.c): a node asking again for what a
 * donor took back. Nothing waits for it; tracked from its REQUEST to its
 * REPLY (client.c), its pieces claimed by the checker meanwhile. */
typedef struct reask {
    pobj link;
    creq_t c;          /* c.th NULL, c.pe the node */
    int manager;       /* where it asked (its notice of excess goes there) */
    bool grow;         /* asked because a thread grew (a memory profile,
                        * client.c), not to replace a reclaim */
} reask_t;

/* Availability tables (§5.2, §5.2.6). Every servent has one: per server,
 * the free MB last heard of and when it was true. Stored so that memory is
 * O(N) plus what differs, not N tables of N entries (N^2: 1.7 GB at 10,000
 * PEs under MANAGER, where broadcasts fill every table): a table is a
 * shared base - the last broadcast snapshot it received, or none (every
 * server at its installed RAM, heard at time -1) - plus a sorted list of
 * the entries where it differs from that base (news it heard directly, or
 * older news the snapshot's sender lacked). The values read are exactly
 * those of full tables; only the storage is shared. */
typedef struct entry {
    double avail;       /* free MB as last heard */
    double stamp;       /* when it was true (-1: never heard) */
} entry_t;

typedef struct snapshot { /* a broadcast table, shared by its messages and
                           * by the tables it is the base of */
    pobj link;
    int refs;
    entry_t *e;         /* npes entries */
} snapshot_t;

typedef struct override {
    int pe;
    entry_t v;
} override_t;

typedef struct table {
    snapshot_t *base;   /* NULL: installed RAM, stamp -1 */
    override_t *o;      /* entries that differ from the base, by pe */
    int n, cap;
} table_t;

/* ---- messages --------------------------------------------------------------
 * Every PNR message is a typed struct that embeds the network's msg_t
 * through its header pnr_msg; the kind says which struct it is:
 *   REQUEST    pnr_request_msg    client -> manager: MB asked
 *   ASK        pnr_ask_msg        manager -> server: MB still needed
 *   GRANT      pnr_grant_msg      server -> manager: MB lent
 *   REPLY      pnr_reply_msg      manager -> client: MB granted
 *   DEALLOC    pnr_dealloc_msg    client -> manager: MB given back
 *   FREE       pnr_free_msg       manager -> server: MB to free
 *   ACK        pnr_ack_msg        server -> manager: MB freed
 *   BROADCAST  pnr_broadcast_msg  manager -> servents: a table
 *   PAGE_OUT,
 *   PAGE_IN    pnr_page_msg       client <-> server: a page
 * Under netram.transport = RDMA the pages move as one-sided operations
 * instead (PNR_RDMA_READ, PNR_RDMA_WRITE in pnr/types.h), slots of the
 * same pool with a pnr_page_msg, sent by pnr_rdma_post and handled by no
 * agent of the server.
 * Each kind is built by the agent that sends it, by a constructor of its
 * own (send_ask in manager.c, ...), and handled by the agent that receives
 * it, through the frame's handler table (pnr_handlers below).
 * They come from one net pool of slots of the union pnr_msg_u (the kinds
 * differ by a pointer or two, so one pool wastes little and keeps a slot
 * for any kind ready), allocated once and reused: no malloc per message in
 * steady state. A slot is 224 bytes on x86-64 (msg_t alone is 184). */
typedef struct pnr_msg { /* the PNR layer is the pool's owner (net.h) */
    msg_t m;
    int kind;           /* PNR_MSG_* */
    double load;        /* the sender's free MB when it sent (§5.2.6) */
} pnr_msg;

typedef struct pnr_request_msg {
    pnr_msg h;
    round_t *round;     /* the allocation round it joins */
    creq_t *client;     /* the asker, which waits; NULL: a zero request */
    double mb;          /* MB asked */
} pnr_request_msg;

typedef struct pnr_ask_msg {
    pnr_msg h;
    round_t *round;     /* the allocation round asking */
    double need;        /* MB the round still needs */
} pnr_ask_msg;

typedef struct pnr_grant_msg {
    pnr_msg h;
    round_t *round;     /* the allocation round that asked */
    double lent;        /* MB the server lent (maybe 0) */
} pnr_grant_msg;

typedef struct pnr_dealloc_msg {
    pnr_msg h;
    round_t *round;     /* the deallocation round it joins */
    double mb;          /* MB the client gives back */
    int slot;           /* where its pieces wait (round->incoming) */
} pnr_dealloc_msg;

typedef struct pnr_free_msg {
    pnr_msg h;
    round_t *round;     /* the deallocation round */
    double mb;          /* MB the server is to free */
} pnr_free_msg;

typedef struct pnr_ack_msg {
    pnr_msg h;
    round_t *round;     /* the deallocation round */
    double freed;       /* MB the server freed */
} pnr_ack_msg;

typedef struct pnr_reply_msg {
    pnr_msg h;
    creq_t *client;     /* its pieces are already in client->pieces */
    double mb;          /* MB granted */
} pnr_reply_msg;

typedef struct pnr_broadcast_msg {
    pnr_msg h;
    snapshot_t *snap;   /* one reference, passed to the receiver's table */
} pnr_broadcast_msg;

typedef struct pnr_page_msg {
    pnr_msg h;
    thread_t *th;       /* the faulting thread */
} pnr_page_msg;

typedef struct pnr_strategy_msg { /* PNR_STRATEGY_MSG */
    pnr_msg h;
    pnr_arrival_fn fn;  /* the strategy's callback on arrival ... */
    void *arg;          /* ... and its argument */
} pnr_strategy_msg;

typedef union pnr_msg_u {
    pnr_msg h;
    pnr_request_msg request;
    pnr_ask_msg ask;
    pnr_grant_msg grant;
    pnr_dealloc_msg dealloc;
    pnr_free_msg free;
    pnr_ack_msg ack;
    pnr_reply_msg reply;
    pnr_broadcast_msg broadcast;
    pnr_page_msg page;
    pnr_strategy_msg strategy;
} pnr_msg_u;

/* The frame's handler table (frame.c): one handler per message kind,
 * filled by the agent that receives the kind when pnr_create creates it
 * (pnr_server_init, pnr_manager_init, pnr_broadcast_init,
 * pnr_client_init). Each gets the arrived message after the receiver heard
 * the load it carries; the message goes back to the pool when the handler
 * returns (a handler that answers takes a new one). */
typedef struct pnr_handlers {
    void (*on_request)(pnr_t *p, const pnr_request_msg *m);     /* manager */
    void (*on_ask)(pnr_t *p, const pnr_ask_msg *m);             /* server */
    void (*on_grant)(pnr_t *p, const pnr_grant_msg *m);         /* manager */
    void (*on_reply)(pnr_t *p, const pnr_reply_msg *m);         /* client */
    void (*on_dealloc)(pnr_t *p, const pnr_dealloc_msg *m);     /* manager */
    void (*on_free)(pnr_t *p, const pnr_free_msg *m);           /* server */
    void (*on_ack)(pnr_t *p, const pnr_ack_msg *m);             /* manager */
    void (*on_broadcast)(pnr_t *p, const pnr_broadcast_msg *m); /* broadcast */
    void (*on_page_out)(pnr_t *p, const pnr_page_msg *m);       /* server */
    void (*on_page_in)(pnr_t *p, const pnr_page_msg *m);        /* client */
    /* netram.transport = RDMA: the RDMA READ a faulting thread waits for
     * has arrived (an operation, not a message: see pnr_rdma_post). */
    void (*on_rdma_read)(pnr_t *p, const pnr_page_msg *m);      /* client */
} pnr_handlers;

#define PNR_PLAN_SLOTS 1024 /* pnr_t.plan: a power of 2 */

struct pnr {
    sim_t *sim;
    net_pool *pool;      /* slots of pnr_msg_u */
    cluster_t *cl;
    pnr_handlers handlers; /* by kind: the agent that receives it */
    const pnr_strategy_ops *strat; /* the strategy (pnr/strategy_api.h) ... */
    void *strat_state;   /* ... its state for this run ... */
    pnr_strategy_env strat_env; /* ... and what it was created with */
    const char *strat_name; /* its component name (for the errors) */
    int strat_busy;      /* > 0 inside fault_server, select_server or
                          * server_grant: no pnr_host_release / reclaim then */
    pnrsim_ctx strat_ctx; /* (its ctx, a copy that lives with the layer) */
    bool global;
    double threshold;
    int npes;
    int nmanagers;       /* the strategy's set of managers (its ops'
                          * managers(); 0 when it has none) ... */
    int *managers;       /* ... their PEs, in order (BACKBONE's broadcasts) */
    double control_bytes;
    pnr_release release;
    pnr_selection selection;
    double access_latency; /* s a remote fault waits after its page arrived */
    double message_cpu;    /* MESSAGES: s of CPU per page message at each end */
    double server_cpu;     /* MESSAGES: s of the server node's CPU per request */
    pnr_transport transport; /* pages by messages or one-sided RDMA */
    double rdma_latency;   /* RDMA: s per operation, NIC to NIC */
    pnr_rdma_read_mode rdma_read; /* RDMA: a READ one way or a round trip */
    pnr_reclaim reclaim;   /* donors take memory back (reclaim.c) */
    struct reclaim_borrower { int pe; double mb; } *rc_b; /* reclaim.c's */
    int rc_cap;            /* scratch: borrowers and what they hold there */
    pnr_locality locality; /* servers in the clients' racks first */
    pieces_t *node;      /* release EXCESS: per PE, the network RAM the node
                          * holds (grants join it when they arrive) */
    double *asking;      /* release EXCESS: per PE, MB its clients asked for
                          * and have not been answered yet */
    table_t *tables;     /* per PE (see table_t) */
    override_t *scratch; /* a spare override list for merges */
    int scratch_cap;
    unsigned char **spare_asked; /* `asked` arrays (npes each) of finished
                                  * rounds, reused by new ones */
    int nspare_asked, spare_asked_cap;
    rng_set mgr_rng;     /* per PE: server selection draws */
    rng_set fault_rng;   /* per PE: network or disk, which piece */
    /* Batched paging (client_batch.c): remote services pnr_fault_plan
     * worked out, by (client PE, server PE), direct-mapped (routes and
     * their times never change during a run, so an entry stays valid;
     * c = -1: empty). */
    struct plan_entry {
        int c, s;
        double out, svc;    /* page out on an idle route; whole service */
    } plan[PNR_PLAN_SLOTS];
    rng_t *choice_rng;   /* which manager a job uses */
    list_t objs;         /* tracked protocol objects (pobj.node) */
    pnr_stats st;
    double held, transit, pending;
    bool checking;
    const char *check_failure;
    char check_msg[200];
    uint64_t *received;  /* test hook: per PE and kind, messages received */
    double *claimed;     /* check(): per server, MB accounted for */
    double *node_claimed; /* checking: per node, MB its pieces hold */
    entry_t *shadow;     /* checking: full N x N tables kept the plain way,
                          * to compare the shared ones with */
};

#endif
