"""Export of a run's jobs to the Batsim/evalys jobs CSV convention.

Batsim writes PREFIX_jobs.csv with one row per job and the columns
job_id, workload_name, profile, submission_time,
requested_number_of_resources, requested_time, success, final_state,
starting_time, execution_time (= finish_time - starting_time),
finish_time, waiting_time (= starting_time - submission_time),
turnaround_time (= finish_time - submission_time), stretch
(= turnaround_time / execution_time), allocated_resources (an interval
set "0-31 64-95 100"), consumed_energy and metadata, in this order: the
order of Batsim's docs/output-jobs.rst, which lists all 17 columns so,
and of its export code (src/export.cpp's job keys); consumed_energy is
left empty (pnrsim has no energy model; Batsim writes -1 without its
energy plugin, and evalys reads either);
evalys' JobSet.from_csv reads it by column name (allocated_resources
through procset's ProcSet.from_str). ``to_evalys`` maps pnrsim's
jobs.csv onto it:

- job_id = job; workload_name = the trace's file name without its
  extension (metrics.json "trace"; "w0" without it); profile empty;
  requested_number_of_resources = threads (empty when jobs.csv has
  none: a record dropped for no_procs, SWF field 5 unknown or 0, or a
  malformed one); requested_time = requested
  time (s; empty when unknown); allocated_resources = pes (the job's last
  placement); consumed_energy empty (pnrsim has no energy model);
- final_state from state: finished -> COMPLETED_SUCCESSFULLY (success 1);
  running at the end of the run -> COMPLETED_KILLED (success 0; the run
  stopping ended it: finish_time = the run's end, like Batsim killing
  the jobs still running when its simulation stops); killed (at its time
  limit, scheduler.time_limit = KILL) -> COMPLETED_WALLTIME_REACHED
  (success 0; finish_time = the kill: Batsim's state for "the job has
  reached its walltime and has been killed", src/jobs.hpp, where
  COMPLETED_KILLED is a kill by the scheduler's decision or the
  simulation's end; metadata "killed:time_limit"); dropped -> REJECTED
  (success 0, no times; metadata "dropped:REASON"); queued (submitted,
  never started) -> SUBMITTED and unsubmitted -> NOT_SUBMITTED (Batsim's
  JobState names; no times): these two and REJECTED have no times, so
  evalys computations over starting/finish times want ``started_only``,
  which keeps the COMPLETED_* rows only;
- metadata = pnrsim's state (and reason) for the rows not finished,
  empty otherwise; for a run interrupted by a signal (metrics.json
  "partial": true, or a "# PARTIAL" line in jobs.csv) every row's
  metadata carries "partial" (after the state, separated by ";":
  "partial", "running;partial"), and ``pnrsim-plot evalys`` says so on
  standard error.

An older jobs.csv (without the state column) lists finished jobs only:
all COMPLETED_SUCCESSFULLY.
"""
import math
import os

import numpy as np
import pandas as pd

COLUMNS = ["job_id", "workload_name", "profile", "submission_time",
           "requested_number_of_resources", "requested_time", "success", "final_state",
           "starting_time", "execution_time", "finish_time", "waiting_time",
           "turnaround_time", "stretch", "allocated_resources", "consumed_energy", "metadata"]

FINAL_STATE = {"finished": "COMPLETED_SUCCESSFULLY", "running": "COMPLETED_KILLED",
               "killed": "COMPLETED_WALLTIME_REACHED",
               "dropped": "REJECTED", "queued": "SUBMITTED", "unsubmitted": "NOT_SUBMITTED"}


def to_evalys(run, started_only=False):
    """A DataFrame with COLUMNS, one row per job of jobs.csv, in job order."""
    j = run.jobs
    if j is None:
        return pd.DataFrame(columns=COLUMNS)
    j = j.sort_values("job", kind="stable").reset_index(drop=True)
    n = len(j)
    state = j["state"].fillna("finished") if "state" in j else pd.Series(["finished"] * n)
    reason = j["reason"].fillna("") if "reason" in j else pd.Series([""] * n)
    trace = run.metrics.get("trace")
    workload = os.path.splitext(os.path.basename(trace))[0] if isinstance(trace, str) and trace \
        else "w0"
    start = j.start.where(state.isin(["finished", "running", "killed"]).to_numpy())
    finish = j.end.where(state.isin(["finished", "killed"]).to_numpy())
    finish = finish.where(~state.eq("running").to_numpy(), run.end_time())
    execution = finish - start
    turnaround = finish - j.submit
    with np.errstate(divide="ignore", invalid="ignore"):
        stretch = (turnaround / execution).where(execution > 0)
    meta = [("" if s == "finished" else s + (":" + r if r else "")) for s, r in zip(state, reason)]
    if run.partial:
        meta = [(m + ";" if m else "") + "partial" for m in meta]
    out = pd.DataFrame({
        "job_id": j.job.astype(np.int64),
        "workload_name": workload,
        "profile": "",
        "submission_time": j.submit,
        # Nullable integers: a dropped record may have no thread count.
        "requested_number_of_resources": j.threads.astype("Int64"),
        "requested_time": j["requested_time"] if "requested_time" in j else math.nan,
        "success": state.eq("finished").astype(int).to_numpy(),
        "final_state": [FINAL_STATE.get(s, "UNKNOWN") for s in state],
        "starting_time": start,
        "execution_time": execution,
        "finish_time": finish,
        "waiting_time": start - j.submit,
        "turnaround_time": turnaround,
        "stretch": stretch,
        "allocated_resources": (j["pes"].fillna("") if "pes" in j else ""),
        "consumed_energy": math.nan,
        "metadata": meta,
    }, columns=COLUMNS)
    if started_only:
        out = out[out.final_state.str.startswith("COMPLETED_")].reset_index(drop=True)
    return out
