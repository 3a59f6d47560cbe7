/* app/predict.h: `pnrsim predict`, start times of a running cluster's
 * queued jobs from a snapshot (issue 36 item 4; docs/PREDICT.md).
 *
 * The snapshot (format: docs/PREDICT.md) becomes the simulator's own
 * inputs: an SWF trace whose clock starts at the snapshot's time t0, the
 * running jobs first (submitted at 0, each running for what is left of its
 * time limit, start + limit - t0), then the queued jobs in the snapshot's
 * priority order (highest first; ties by submit time, then job number),
 * submitted 1 us later; the machine's PEs as computer.number. The ordinary
 * run (the configured scheduler, MPL, backfilling...) then simulates
 * forward, and each queued job's simulated start + t0 is its predicted
 * start. Every job is assumed to run to its time limit (what a scheduler's
 * own estimate assumes: the real end is unknown).
 */
#ifndef PNRSIM_APP_PREDICT_H
#define PNRSIM_APP_PREDICT_H

/* The ordinary pnrsim command (main's body): argc/argv as main gets them;
 * returns the exit status. */
typedef int (*predict_run_fn)(int argc, char **argv);

/* `pnrsim predict [-o DIR] [-p FILE] [-r S] SNAPSHOT [OPTION]...` (argv[0] is
 * "predict"; prog the program's name). Reads the snapshot, writes the
 * trace into a temporary directory, runs run(...) with -q, -t TRACE,
 * --set computer.number=PES, -o DIR (a temporary directory unless -o is
 * given) and OPTION..., -r S planning on a grid of S s (running jobs'
 * ends and queued jobs' limits rounded down to multiples of S, limits at
 * least S: Slurm's bf_resolution), and writes the predictions CSV (job,
 * predicted_start, predicted_end, pes, cores) to FILE or standard output.
 * Returns 0; 2 on bad usage or a bad snapshot (a message naming the file
 * and line); the run's status when it failed; 1 when writing failed. */
int predict_main(int argc, char **argv, const char *prog, predict_run_fn run);

#endif
