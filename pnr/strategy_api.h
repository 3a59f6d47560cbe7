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
 *   callbacks     a thread's start and end, a node's overallocation and
 *                 underallocation (optional: NULL = nothing).
 *
 * What the host does itself, for every strategy: the rounds, the fair
 * share (§5.2.3), the servers' grants (up to free RAM above
 * netram.server_threshold), the clients' release (netram.release), the
 * paging (§5.4), reclaims (netram.reclaim). A strategy can send control
 * messages of its own through the network model (pnr_host_send), but it
 * cannot yet grant, deny, release or reclaim by itself (see
 * docs/PLUGINS.md "What is missing").
 *
 * The calls come once per decision (a round's manager, a server to ask, a
 * thread's start or end), never per page fault. Everything here is
 * deterministic given the run's seed when the strategy draws only from
 * the streams it is given (env->choice, pnrsim_ctx_stream).
 *
 * Nodes are numbered 0 .. nodes-1 (a node is what the report calls a PE:
 * a servent; with computer.cores_per_node > 1, the node of the cores).
 */
#ifndef PNRSIM_PNR_STRATEGY_API_H
#define PNRSIM_PNR_STRATEGY_API_H

#include "core/registry.h"
#include "core/rng.h"

#include <stdbool.h>

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
} pnr_strategy_ops;

/* ---- the layer (any time during the run) ---- */
int pnr_host_nodes(const pnr_host *h);
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

/* Send a control message of `bytes` from node src to node dst now,
 * through the network model (it queues on links and switches like the
 * protocol's messages, carries src's free RAM into dst's table, §5.2.6,
 * and is counted apart, in the layer's strategy_msgs / strategy_bytes);
 * on its arrival fn(arg, host, src, dst) runs (fn may send again). A
 * message to src itself arrives at once. The size of the protocol's own
 * messages is network.control_msg: pnr_host_control_bytes. */
typedef void (*pnr_arrival_fn)(void *arg, pnr_host *h, int src, int dst);
void pnr_host_send(pnr_host *h, int src, int dst, double bytes, pnr_arrival_fn fn, void *arg);
double pnr_host_control_bytes(const pnr_host *h);

/* ---- a job ---- */
long pnr_job_id(const pnr_job *j);              /* the SWF job number */
int pnr_job_threads(const pnr_job *j);
int pnr_job_thread_node(const pnr_job *j, int thread);   /* 0 .. threads-1 */

/* ---- a manager's view while it chooses a server (select_server) ---- */
pnr_host *pnr_view_host(const pnr_view *v);
int pnr_view_nodes(const pnr_view *v);
int pnr_view_manager(const pnr_view *v);
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

#endif
