/* gen/model.h: drawing jobs from pnrsim-gen's workload model.
 *
 * A generator holds the model's parameters and five random streams (one
 * per field: arrivals, sizes, runtimes, requested times, memory, each
 * GSL's MT19937 seeded from the master seed and the field's name with
 * core/rng.h's rng_stream_seed), so changing one part of the model never
 * changes another's draws. It keeps no jobs: each call draws the next job
 * from the state of the arrival process only, so any number of jobs are
 * streamed in constant memory.
 */
#ifndef PNRSIM_GEN_MODEL_H
#define PNRSIM_GEN_MODEL_H

#include "gen/params.h"

#include <stdint.h>

typedef struct gen_job {
    long submit;      /* s from the start (hour 0 = midnight) */
    long runtime;     /* s, >= 1 */
    long procs;
    long request;     /* requested time, s, >= runtime or the largest mode */
    long mem_kb;      /* per process, KB; -1 without a memory model */
} gen_job;

typedef struct gen_model gen_model;

/* A generator of the model p with the given master seed (p is copied).
 * Returns NULL when out of memory. */
gen_model *gen_model_new(const gen_params *p, uint64_t seed);
/* The next job (submit times never decrease). */
void gen_model_next(gen_model *g, gen_job *j);
/* Memory draws so far outside SWF's [1, 1e12] KB, written at the bound. */
long gen_model_mem_clamped(const gen_model *g);
void gen_model_free(gen_model *g);

#endif
