/* pnr/strategy_api.h: public (issue 34): the network RAM strategy, a
 * component of kind PNRSIM_KIND_STRATEGY (netram.strategy), and what a
 * strategy sees of the running PNR layer.
 *
 * The protocol is the report's (techreport §5): a client asks a manager
 * for the network RAM its node's overallocation needs; the manager asks
 * servers one at a time until the need is covered or no server is left,
 * shares the grant fairly between the clients of its round and answers
 * them; at a thread's end the client gives back what its node no longer
 * needs, through a manager, which tells the servers to free it. Every
 * message carries its sender's free RAM (§5.2.6) into the receiver's
 * availability table; some strategies broadcast their managers' tables.
 * A strategy decides the points where the report's four strategies
 * differ (§5.5) and may replace the manager's choice of servers:
 *
 *   coordination  whether a job's threads meet in one round at one
 *                 manager (the report's CENTRAL, MANAGER, BACKBONE) or
 *                 each thread asks alone, at once (CLIENT);
 *   manager()     which node manages a request (and so the set of
 *                 managers), per job or per thread;
 *   broadcast     who hears a manager's table after a round that
 *                 changed network RAM: nobody (CENTRAL, CLIENT), every
 *                 node (MANAGER), the other managers (BACKBONE);
 *   select_server which server a manager asks next, from its view
 *                 (free RAM as heard, with the report's staleness, or the
 *                 truth under netram.global_knowledge); NULL keeps
 *                 netram.server_selection (the report's randomised worst
 *                 fit by default);
 *   server_grant  how much a server lends of an ASK: at most the host's
 *                 default (free RAM above netram.server_threshold), 0 to
 *                 deny; NULL keeps the default;
 *   fault_server  which server holding a node's pages a remote fault goes
 *                 to (§5.4); NULL keeps the host's draw in proportion to
 *                 what each holds;
 *   callbacks     a thread's start and end, a node's overallocation and
 *                 underallocation, each control message's arrival
 *                 (optional: NULL = nothing).
 *
 * What the host does itself, for every strategy: the rounds, the fair
 * share (§5.2.3), the servers' grants (up to free RAM above
 * netram.server_threshold, or less by server_grant), the clients'
 * release (netram.release), the paging (§5.4), reclaims (netram.reclaim). A
 * strategy can besides send control messages of its own through the
 * network model (pnr_host_send), have a node release network RAM
 * (pnr_host_release) and a donor reclaim what it lent (pnr_host_reclaim),
 * both through the protocol's own code paths (see docs/PLUGINS.md).
 *
 * The calls come once per decision (a round's manager, a server to ask or
 * its grant, a thread's start or end) or per control message; on the
 * page-fault path only fault_server, when set (once per remote fault; a
 * strategy that sets it turns batched paging off, every fault going the
 * exact way). Everything here is deterministic given the run's seed when
 * the strategy draws only from the streams it is given (env->choice,
 * pnrsim_ctx_stream).
 *
 * A strategy's answer that breaks its contract (a server_grant out of
 * range, a fault_server that holds nothing of the node, a host call where
 * it is not allowed) is a programming error of the strategy: the run
 * stops with a message naming the strategy on stderr and exit status 2.
 *
 * Nodes are numbered 0 .. nodes-1 (a node is what the report calls a PE:
 * a servent; with computer.cores_per_node > 1, the node of the cores).
 */
#ifndef PNRSIM_PNR_STRATEGY_API_H
#define PNRSIM_PNR_STRATEGY_API_H

#include "core/registry.h"
#include "core/rng.h"

#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The running PNR layer, a job and a manager's view: opaque, read through
 * the functions below, valid for the duration of the call they are given
 * to (the host: for the run). */
typedef struct pnr_host pnr_host;
typedef struct pnr_job pnr_job;
typedef struct pnr_view pnr_view;

/* How a job's threads ask (see manager()). */
typedef enum {
    PNR_COORD_JOB,    /* one allocation round per job at one manager: every
                       * thread sends a request (0 MB when it needs nothing)
                       * and the manager acts when it has them all; one
                       * deallocation round per job likewise (§5.2.1, §5.2.4) */
    PNR_COORD_THREAD  /* each thread that needs network RAM asks alone and
                       * its round starts at once; a thread with nothing to
                       * free sends no notice (the report's CLIENT, §5.5.2) */
} pnr_coordination;

/* Who receives a manager's table after a round that allocated or freed
 * network RAM (§5.2.6): a message of network.control_msg + 16 bytes per
 * node, from the manager to each target in node order. */
typedef enum {
    PNR_BROADCAST_NONE,      /* nobody */
    PNR_BROADCAST_ALL,       /* every other node */
    PNR_BROADCAST_MANAGERS   /* the other nodes of managers() */
} pnr_broadcast_scope;

/* The protocol's control messages (§5.2, §5.3), as ops->message_arrived
 * names them, with the MB each carries. Page transfers (PAGE_OUT,
 * PAGE_IN, RDMA operations, a reclaim's pages going back) and a
 * strategy's own messages (pnr_host_send: their own callback) are not
 * among them. */
typedef enum {
    PNR_CTRL_REQUEST,   /* client -> manager: MB asked (0: a thread that
                         * needs nothing, under PNR_COORD_JOB) */
    PNR_CTRL_ASK,       /* manager -> server: MB the round still needs */
    PNR_CTRL_GRANT,     /* server -> manager: its answer, MB lent (0:
                         * denied) */
    PNR_CTRL_REPLY,     /* manager -> client: its share, MB granted */
    PNR_CTRL_DEALLOC,   /* client -> manager: release notice, MB given back */
    PNR_CTRL_FREE,      /* manager -> server: MB to free */
    PNR_CTRL_ACK,       /* server -> manager: MB freed */
    PNR_CTRL_BROADCAST  /* manager -> node: its table (0 MB) */
} pnr_ctrl_kind;

/* ops->flags */
#define PNR_STRATEGY_USES_MANAGERS 1u /* reads netram.managers (env->managers):
                                       * the configuration checks 1 <= managers
                                       * <= nodes */

/* What a strategy is created with, once per run (before any event). */
typedef struct pnr_strategy_env {
    int nodes;                /* nodes of the cluster */
    int managers;             /* netram.managers (meaningful with
                               * PNR_STRATEGY_USES_MANAGERS) */
    bool global_knowledge;    /* netram.global_knowledge: views show truth */
    const pnrsim_ctx *ctx;    /* plugin key values, seed: pnrsim_ctx_stream */
    rng_t *choice;            /* the layer's "pnr-choice" stream, which the
                               * report's strategies draw their managers
                               * from (kept so that runs are what they were);
                               * a new strategy draws from a stream of its
                               * own (pnrsim_ctx_stream) */
    pnr_host *host;           /* the layer, for the queries below */
} pnr_strategy_env;

typedef struct pnr_strategy_ops {
    unsigned flags;                    /* PNR_STRATEGY_* */
    pnr_coordination coordination;
    pnr_broadcast_scope broadcast;
    /* Optional: the strategy's state for one run (NULL: none). Called once
     * when the layer is created; `env` and what it points to live for the
     * run. Return NULL only when the strategy needs no state. */
    void *(*create)(const pnr_strategy_env *env);
    /* Optional: free the state create returned (at the run's end). */
    void (*destroy)(void *state);
    /* The set of managers: write the nodes that may manage into out[] (room
     * for env->nodes), in order, and return how many (>= 1). Required when
     * broadcast is PNR_BROADCAST_MANAGERS (those are the targets), else
     * optional (NULL: the set is whatever manager() returns). Called once,
     * after create. */
    int (*managers)(void *state, int *out);
    /* Required: the node that manages a request. Under PNR_COORD_JOB, j is
     * the job and `node` the node of the thread that opens the round: the
     * first of j's threads to start (its allocation round) or to end (its
     * deallocation round); under PNR_COORD_THREAD, `node` is the asking
     * thread's node, called for each thread that asks or frees. j is NULL
     * for a node's own request outside any job's round (a thread's memory
     * grew or shrank under a memory profile, or a REPLACE reclaim asks
     * again), `node` the node. Return a node in 0 .. nodes-1. */
    int (*manager)(void *state, pnr_host *h, const pnr_job *j, int node);
    /* Optional: the next server a manager asks in an allocation round, from
     * its view v (below): a node that pnr_view_candidate accepts, or -1
     * when none is to be asked (the round ends: the manager shares what it
     * got). Called once per ASK; with netram.locality = RACK first for the
     * servers in the round's clients' racks, then again for all. NULL: the
     * rule of netram.server_selection. */
    int (*select_server)(void *state, const pnr_view *v);
    /* Optional notices (NULL: nothing). A thread of j on `node` started and
     * asks `ask_mb` MB (0: nothing); it ended and its node gives back
     * `freed_mb` MB. */
    void (*thread_started)(void *state, pnr_host *h, const pnr_job *j, int thread, int node,
                           double ask_mb);
    void (*thread_ended)(void *state, pnr_host *h, const pnr_job *j, int thread, int node,
                         double freed_mb);
    /* Optional: `node`'s threads now need `mb` MB more than its RAM holds
     * (its overallocation grew: a thread started or grew); `node` holds
     * `mb` MB of network RAM more than its overallocation needs, which it
     * gives back (a thread ended or shrank). */
    void (*overallocated)(void *state, pnr_host *h, int node, double mb);
    void (*underallocated)(void *state, pnr_host *h, int node, double mb);
    /* Optional: a remote fault of a thread on `node` needs the server its
     * page is at. Called after the host's first draw sent the fault to
     * network RAM (u < held / overallocation, §5.4), once per remote fault;
     * return a server for which pnr_host_held_mb(h, node, server) > 0, or
     * -1 for the host's draw in proportion to what each server holds (the
     * second draw is made only then). Any other answer stops the run (exit
     * 2). No pnr_host_release or pnr_host_reclaim from here. NULL: no call,
     * the host's draws exactly as without the interface. */
    int (*fault_server)(void *state, pnr_host *h, int node);
    /* Optional: a control message of `kind` from src to dst, of `bytes`,
     * carrying `mb` MB (see pnr_ctrl_kind), has arrived and the receiver
     * has acted on it (the layer's state shows its effect: after a GRANT,
     * the manager has asked the next server or answered its clients).
     * A message to the sender's own node arrives at once and is reported
     * too. The strategy may call any host function from here. */
    void (*message_arrived)(void *state, pnr_host *h, pnr_ctrl_kind kind, int src, int dst,
                            double bytes, double mb);
    /* Optional: server `server` answers the ASK of `manager`'s round,
     * which still needs `need` MB; the host would lend `dflt` = min(need,
     * its free MB - netram.server_threshold), or 0 when that is <= 0.
     * Return the MB to lend, in [0, dflt] (0: deny; the manager goes on
     * to the next server); anything else (NaN, < 0, > dflt) stops the run
     * (exit 2), no silent clamping. No pnr_host_release or
     * pnr_host_reclaim from here. NULL: dflt. */
    double (*server_grant)(void *state, pnr_host *h, int server, int manager, double need,
                    double dflt);
} pnr_strategy_ops;

/* ---- the layer (any time during the run) ---- */
int pnr_host_nodes(const pnr_host *h);          /* nodes, numbered 0 .. nodes-1 */
double pnr_host_now(const pnr_host *h);         /* simulated s */
double pnr_host_ram_mb(const pnr_host *h, int node);    /* installed (§5.2) */
double pnr_host_free_mb(const pnr_host *h, int node);   /* the truth, now */
double pnr_host_lent_mb(const pnr_host *h, int node);   /* MB the node lends, now */
double pnr_host_threshold(const pnr_host *h);   /* netram.server_threshold, MB */
/* Free MB of `node` as `manager`'s table has it (the report's staleness:
 * what it last heard, from a message or a broadcast), or the truth under
 * netram.global_knowledge or for the manager's own node; and when that
 * was true (-1: never heard: installed RAM). */
double pnr_host_believed_free_mb(const pnr_host *h, int manager, int node);
double pnr_host_heard_at(const pnr_host *h, int manager, int node);
/* MB of network RAM `node` holds at `server` now: what its faults may be
 * sent there for (its pieces, and under netram.release = ALL its threads'
 * grants whose REPLY has arrived; not what is still on its way). */
double pnr_host_held_mb(const pnr_host *h, int node, int server);

/* Send a control message of `bytes` from node src to node dst now,
 * through the network model (it queues on links and switches like the
 * protocol's messages, carries src's free RAM into dst's table, §5.2.6,
 * and is counted apart, in the layer's strategy_msgs / strategy_bytes);
 * on its arrival fn(arg, host, src, dst) runs (fn may send again; NULL:
 * nothing runs). A node out of range or bytes outside [0, 1e12] stop the
 * run (exit 2, the strategy named). A
 * message to src itself arrives at once. The size of the protocol's own
 * messages is network.control_msg: pnr_host_control_bytes. */
typedef void (*pnr_arrival_fn)(void *arg, pnr_host *h, int src, int dst);
void pnr_host_send(pnr_host *h, int src, int dst, double bytes, pnr_arrival_fn fn, void *arg);
double pnr_host_control_bytes(const pnr_host *h);

/* `node` gives back up to `mb` MB of the network RAM it holds, now,
 * through the deallocation protocol (§5.2.4): a DEALLOC notice in a round
 * of its own to manager(j NULL, node), which sends each server concerned
 * a FREE and ends with their ACKs (the servers' lent MB drop as the FREEs
 * arrive). The pieces go in the order of the report's release (§5.1.3):
 * the servers the node's own table shows most loaded first, a piece split
 * where `mb` ends; under netram.release = ALL the node's own pieces first,
 * then its threads' (those whose REPLY arrived) in the order they started.
 * Its faults draw against the smaller network RAM at once; the node does
 * not ask again by itself (its next thread start or growth asks for what
 * is uncovered). No underallocated notice. Returns the MB given back (0:
 * it held nothing, or mb <= 0). Not from fault_server, select_server or
 * server_grant (exit 2). */
double pnr_host_release(pnr_host *h, int node, double mb);
/* Donor `server` takes back up to `mb` MB of what it lent, now, by the
 * netram.reclaim machinery (docs/MODEL.md "Donors take memory back"): from
 * what borrowers hold there (not what is in transit or pending), most held
 * first, ties to the lowest node; each borrower's pieces there are cut,
 * its pages there go back to it in one transfer, and the server's lent MB
 * drop at once. Then by netram.reclaim: REPLACE, each borrower asks again
 * for what it lost (a REQUEST in a round of its own); SWAP and NONE (the
 * strategy decides the reclaim, not the configuration), they page to
 * their swap devices from now on. Counted in the layer's reclaim_*
 * statistics. Returns the MB taken back. Not from fault_server,
 * select_server or server_grant (exit 2). */
double pnr_host_reclaim(pnr_host *h, int server, double mb);

/* ---- a job ---- */
long pnr_job_id(const pnr_job *j);              /* the SWF job number */
int pnr_job_threads(const pnr_job *j);          /* its threads (>= 1) */
int pnr_job_thread_node(const pnr_job *j, int thread);   /* 0 .. threads-1 */

/* ---- a manager's view while it chooses a server (select_server) ---- */
pnr_host *pnr_view_host(const pnr_view *v);     /* the layer, for the queries above */
int pnr_view_nodes(const pnr_view *v);          /* = pnr_host_nodes */
int pnr_view_manager(const pnr_view *v);        /* the node whose round this is */
double pnr_view_remaining(const pnr_view *v);   /* MB the round still needs */
/* Whether node s may be asked now: not asked yet in this round, inside
 * the racks of the pass (netram.locality = RACK), and believed to have
 * more than the threshold free. */
bool pnr_view_candidate(const pnr_view *v, int s);
/* Free MB of s as the manager believes (pnr_host_believed_free_mb). */
double pnr_view_free_mb(const pnr_view *v, int s);
/* MB s has lent, by the servers' count: the truth (the report's tables
 * carry free RAM only; a strategy that keeps to its information uses
 * pnr_view_free_mb). */
double pnr_view_lent_mb(const pnr_view *v, int s);

/* ---- for the host (app/components.c) ---- */
/* Register the report's four strategies, CENTRAL, CLIENT, MANAGER and
 * BACKBONE, in that order (pnr/strategies.c). Returns PNRSIM_OK or the
 * first pnrsim_register error. */
int pnr_strategy_register(pnrsim_registry *r);

#ifdef __cplusplus
}
#endif

#endif
