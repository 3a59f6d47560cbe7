/* sched/multifactor.h: the MULTIFACTOR queue order (issue 35), Slurm's
 * multifactor priority plugin reduced to what an SWF trace carries
 * (docs/SCHEDULING.md "MULTIFACTOR"). A job's priority is
 *
 *   P = w_age A + w_size Z + w_fairshare F + w_wait W,   key = -P
 *
 * (higher first, ties by trace order), every factor in [0, 1]:
 *   A  age: min(now - submit, max_age) / max_age (Slurm's age factor,
 *      PriorityMaxAge);
 *   Z  size: width / the machine's cores (Slurm's job size factor,
 *      PriorityFavorSmall = NO: wide jobs first);
 *   F  fair share: 2^(-U / S) (Slurm's classic formula), with U the
 *      account's share of all accounts' decayed usage now (0 while there
 *      is none) and S = 1 / N its normalized shares, N the accounts
 *      (users, or groups with fairshare_by = group) seen so far, one
 *      share each;
 *   W  wait: w / (w + e), w = now - submit, e = the estimate (below 1 s
 *      counts as 1 s): 1 - 1 / XF with XF Maui's expansion factor
 *      (w + e) / e, so a short job that has waited long for its length
 *      rises (Maui's XFACTOR weight; Slurm has none).
 * Usage: an account is charged, continuously, the cores of its placed
 * jobs (width, from placement to end), and usage decays with the
 * half-life h: dU/dt = r(t) - (ln 2 / h) U, r the cores its jobs hold;
 * h = 0 means no decay. Between the starts and ends that change r it is
 * integrated exactly: U(t + d) = U(t) 2^(-d/h) + r h / ln 2 (1 - 2^(-d/h)).
 *
 * On the public order interface (sched/order.h) with SCHED_ORDER_HOOKS;
 * only its state is made by the host from the run's parameters
 * (sched_mf_create; the ops' create is NULL).
 */
#ifndef PNRSIM_SCHED_MULTIFACTOR_H
#define PNRSIM_SCHED_MULTIFACTOR_H

#include "sched/order.h"

#include <stdbool.h>

typedef struct sched_mf_params {
    double w_age, w_size, w_fairshare, w_wait;   /* >= 0 */
    double max_age;      /* s, > 0: the age that counts as 1 */
    double half_life;    /* s, >= 0: usage decay; 0 = no decay */
    bool by_group;       /* fair share by SWF group (field 13), else user */
    int cores;           /* the machine's cores, >= 1 (Z's denominator) */
} sched_mf_params;

/* The MULTIFACTOR ops (registered by sched_multifactor_register). */
extern const sched_order_ops sched_multifactor_ops;
int sched_multifactor_register(pnrsim_registry *r);
/* A new state for one run with parameters p (copied). */
void *sched_mf_create(const sched_mf_params *p);
/* The factors of job j at now (each NULL-able), as the key combines them. */
void sched_mf_factors(const void *state, const sched_job_info *j, double now, double *age,
                      double *size, double *fairshare, double *wait);
/* Account a's decayed usage at now (core-seconds), a = the user or group
 * number; 0 for an account not seen. And all accounts' together. */
double sched_mf_usage(const void *state, long a, double now);
double sched_mf_usage_total(const void *state, double now);

#endif
