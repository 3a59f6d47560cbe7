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
- metadata = ";"-separated notes: pnrsim's state (and reason) for the
  rows not finished ("dropped:no_procs", "running"); with time-sharing
  (scheduler.mpl in config.ini other than 1: gang scheduling, issue 37)
  "slot=K" for a job that was placed (jobs.csv's slot: the 0-based gang
  slot it was in at the end, or ended in) and on every row
  "time_sharing=M", M = scheduler.mpl, how many jobs may share a PE (one
  per slot; "unlimited" for mpl = 0; a run directory without config.ini:
  metrics.json's mpl_max, the most slots in use at once, else 1 + jobs.csv's
  highest slot, a lower bound said on standard error): evalys counts each job's
  allocated_resources as busy from its start to its finish, so with
  M > 1 its utilisation counts a PE once per job on it and can reach
  about M x PEs (a PE is time-shared, each job running 1/M of the time
  or less); for a run interrupted by a signal (metrics.json "partial":
  true, or a "# PARTIAL" line in jobs.csv) every row's metadata ends in
  "partial" ("partial", "running;partial", "slot=0;time_sharing=2;partial"),
  and ``pnrsim-plot evalys`` says so on standard error. A run of MPL 1
  has the metadata it had before issue 37.
- the records a trace window left out (state dropped, reason window:
  workload.window, workload.busiest, submit_min / submit_max; they
  precede or follow the jobs the run simulated) are left out unless
  ``keep_dropped`` (then REJECTED rows with metadata "dropped:window");
  ``window_dropped(run)`` counts them. Every other dropped record is a
  REJECTED row as before.

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


def _outside_window(j):
    """Rows of jobs.csv j (a boolean Series) that a trace window dropped."""
    if "state" not in j or "reason" not in j:
        return pd.Series([False] * len(j), index=j.index)
    return j["state"].eq("dropped") & j["reason"].eq("window")


def window_dropped(run):
    """How many records of run's jobs.csv a trace window dropped (state
    dropped, reason window): the rows to_evalys leaves out by default."""
    return 0 if run.jobs is None else int(_outside_window(run.jobs).sum())


def mpl_max(run):
    """metrics.json's mpl_max (the most slots in use at once) as an int, or
    None when it is missing or not a finite number (a boolean is not)."""
    u = run.metrics.get("mpl_max")
    if isinstance(u, (int, float)) and not isinstance(u, bool) and math.isfinite(u):
        return int(u)
    return None


def time_sharing_source(run):
    """(M, source): how many jobs may share a PE in run, one per gang slot
    (0 = unlimited), and where M comes from: "config" (config.ini's
    scheduler.mpl); without it, "mpl_max" (metrics.json's highest number
    of slots in use at once, a lower bound of the MPL the run had), else
    "slots" (1 + jobs.csv's highest slot), else (1, "default")."""
    m = run.setting("scheduler", "mpl", None)
    if isinstance(m, float) and math.isfinite(m) and m >= 0:
        return int(m), "config"
    u = mpl_max(run)
    if u is not None and u >= 1:
        return u, "mpl_max"
    j = run.jobs
    if j is not None and "slot" in j:
        k = pd.to_numeric(j["slot"], errors="coerce").max()
        if pd.notna(k) and k >= 0:
            return int(k) + 1, "slots"
    return 1, "default"


def time_sharing(run):
    """M of time_sharing_source: scheduler.mpl of run (config.ini), or
    without config.ini the most slots the run used."""
    return time_sharing_source(run)[0]


def to_evalys(run, started_only=False, keep_dropped=False):
    """A DataFrame with COLUMNS, one row per job of jobs.csv, in job order
    (without the records a trace window dropped unless keep_dropped)."""
    j = run.jobs
    if j is None:
        return pd.DataFrame(columns=COLUMNS)
    if not keep_dropped:
        j = j[~_outside_window(j)]
    j = j.sort_values("job", kind="stable").reset_index(drop=True)
    n = len(j)
    state = j["state"].fillna("finished") if "state" in j else pd.Series(["finished"] * n)
    reason = j["reason"].fillna("") if "reason" in j else pd.Series([""] * n)
    mpl = time_sharing(run)
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
    if mpl != 1:
        note = "time_sharing=%s" % (mpl if mpl > 0 else "unlimited")
        slot = j["slot"] if "slot" in j else pd.Series([math.nan] * n)
        meta = [";".join(x for x in (m, "" if pd.isna(k) else "slot=%d" % int(k), note) if x)
                for m, k in zip(meta, slot)]
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
