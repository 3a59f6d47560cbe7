#!/usr/bin/env python3
"""tools/then-and-now-ini.py: writes the then-and-now study files from one
table, so that the machine values, the node sizes and the phase-2 cost keys
are written once (issue 33 item 4; docs/STUDY-THEN-AND-NOW.md).

  tools/then-and-now-ini.py            # configs/studies/then-and-now.ini
                                       # and then-and-now-r.ini
  tools/then-and-now-ini.py --phase2   # also one then-and-now-cost-KEY.ini
                                       # per new cost key (the keys must
                                       # exist: pnrsim-sweep checks them)
  tools/then-and-now-ini.py --out DIR  # write into DIR instead (the test
                                       # compares with the committed files)

A study has one base, so each configuration carries its machine: the lines
key is simulation.system (a name that changes no result); its plain value
2004-disk is the [set] machine (configs/machines/pnrsim-2004.ini's values),
every other value a [baseline] with the values of
configs/machines/epyc-hdr-2022.ini, read from the preset here, so a key the
preset gains (phase 2) is copied into every today's baseline the next time
this runs; tests/test_study_then_and_now.sh fails when the study and the
presets differ. Deliberate differences from the presets: computer.number
(CORES), computer.cores_per_node (C), computer.ram (224 MB per core), the
memory servers (the pool), netram.transport (varied),
scheduler.node_sharing = SHARED in the *-shared-* baselines.

The sensitivity files hold today's machine at C = 64 in [set] and cross
netram.transport (MESSAGES, RDMA; baselines ssd and pool) with the
parameter under test: R (then-and-now-r.ini) or one cost at half, once and
twice its preset default (then-and-now-cost-KEY.ini, --phase2).
"""
import os
import re
import sys

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(TOP, "configs", "studies")

CORES = 2048            # 32 nodes at C = 64; 2048 / 8 = 256 x 240 / 240
WEAK = 8                # traces/hpc2n-seth-x8.swf: widths x 8 (1920 procs)
MB_PER_CORE = 224       # as the 2004 study: 224 MB per core, all machines
NODE_SIZES = (1, 8, 64)
SERVERS = 16            # pool: 16 servers of 64 x 224 MB = half the RAM
# L0 control, L2 (section 2 of the doc). L3 (8) is out: one run at C = 64
# takes over 500 CPU s on 2048 cores (docs/STUDY-THEN-AND-NOW.md, timings).
LEVELS = ("0.03733333333", "1")
SENS_LEVEL = "1"        # the sensitivity studies: L2, C = 64
# Today's configurations per node size (the run plan's cuts, in the doc):
# at C = 8 every job fills whole nodes (widths x 8), so SHARED = EXCLUSIVE
# and no *-shared-* there; the pool and messages at C = 1 cost most.
KINDS = {1: ("ssd", "rdma"),
         8: ("ssd", "msg", "rdma"),
         64: ("ssd", "msg", "rdma", "pool", "shared-ssd", "shared-rdma")}
# The configurations each cost's sensitivity study runs (the finding the
# cost bears on: F2/F4 swap against network RAM, F3 RDMA against messages).
# Phase 2: the keys as merged (RDMA has one rdma_latency, a READ a round
# trip under rdma_read = ROUND_TRIP; no separate read/write latencies).
COST_KINDS = {"computer.fault_cpu": ("ssd", "rdma"),
              "netram.message_cpu": ("msg", "rdma"),
              "netram.server_cpu": ("msg", "rdma"),
              "netram.rdma_latency": ("rdma", "msg"),
              "computer.ssd_write_latency": ("ssd", "rdma"),
              "computer.ssd_write_bandwidth": ("ssd", "rdma"),
              "process.dirty_fraction": ("ssd", "rdma")}
# A cost at twice its default must stay in its key's range: dirty_fraction
# is at most 1 (the preset's 1 = every evicted page dirty), so its other
# end is 0 (no write-back, the old model) instead of 2.
COST_HIGH = {"process.dirty_fraction": "0"}
# MESSAGES' costs are comments in the RDMA preset (they have no effect
# there and would be warned about); the msg configurations take them from
# those comment lines ("; message_cpu = X" in its [netram]).
MSG_COSTS = ("netram.message_cpu", "netram.server_cpu")
# Memory that changes over time (issue 33 item 3), the second setting: the
# C = 64 configurations only (the budget, docs/STUDY-THEN-AND-NOW.md).
PHASES_KINDS = ("ssd", "msg", "rdma")
# The measured curves (traces/curves/, docs/SOURCES.md 5) fault 2 to 600
# times as often as the report's R model at a given local fraction, so at a
# reduced scale: C = 64 only, 3 windows of the 100 jobs. (Windows of 25 jobs
# page nothing: their jobs hardly overlap; measured, window 0 and 1.)
CURVES = ("hpcc", "xz", "sort", "metis")
CURVE_JOBS = 100
CURVE_WINDOWS = 3
# At that scale the curves gave too few finished windows for intervals (a
# curve's window faulted up to 1.9 billion times on the SSD, every fault
# exact). The *-c8 files (issue 33, session 13) redo the curve sensitivity
# on a machine of Seth's size, where batched paging runs the SSD's faults:
# the HPC2N log as recorded (1-128 processors) on 256 cores in 32 nodes of
# C = 8 (Seth: 240 processors; 224 MB per core as everywhere), 10 windows,
# L0 and L2, process.paging = BATCHED (the SSD's faults batched, one batch
# per node: docs/BATCHING.md's C8-ssd evidence; RDMA and, at C = 8, the
# messages' CPU costs run exactly, docs/BATCHING.md), the report's R beside.
SETH_CORES = 256
SETH_C = 8
WINDOWS = 10            # the 1,000 jobs from 3,900,000 s: 10 windows of 100
SEEDS = 1
R_10X = "0.0000024"     # 10 x the report's R
R_REPORT = "0.00000024"

# The new cost keys of issue 33 item 1 (other helpers' branches). Phase 2:
# the presets give their defaults; here only the names for --phase2.
COSTS = tuple(COST_KINDS)

STUDY_KEYS = ("computer.number", "computer.ram", "computer.memory_servers",
              "computer.memory_server_ram", "computer.cores_per_node",
              "simulation.system", "netram.transport")


def preset(name):
    """[(section.key, value)] of a machine preset, in file order."""
    out, sec = [], None
    for line in open(os.path.join(TOP, "configs", "machines", name)):
        line = re.sub(r"(^|\s)[;#].*", "", line).strip()
        if not line:
            continue
        m = re.match(r"\[(.*)\]$", line)
        if m:
            sec = m.group(1).strip()
        elif "=" in line:
            k, v = line.split("=", 1)
            out.append((sec + "." + k.strip(), v.strip()))
    return out


NOW = [(k, v) for k, v in preset("epyc-hdr-2022.ini") if k not in STUDY_KEYS]
THEN = [(k, v) for k, v in preset("pnrsim-2004.ini") if k not in STUDY_KEYS]


def commented(name, keys):
    """{section.key: value} of KEYS written as '; key = value' comments in
    preset NAME (the MESSAGES costs of the RDMA preset)."""
    out, sec = {}, None
    for line in open(os.path.join(TOP, "configs", "machines", name)):
        m = re.match(r"\s*\[(.*)\]\s*$", line)
        if m:
            sec = m.group(1).strip()
            continue
        m = re.match(r"\s*;\s*([a-z_]+)\s*=\s*([0-9.eE+-]+)\s*$", line)
        if m and "%s.%s" % (sec, m.group(1)) in keys:
            out["%s.%s" % (sec, m.group(1))] = m.group(2)
    missing = [k for k in keys if k not in out]
    if missing:
        sys.stderr.write("then-and-now-ini: %s: no '; key = value' comment "
                         "for %s\n" % (name, ", ".join(missing)))
        sys.exit(2)
    return out


MSG = commented("epyc-hdr-2022.ini", MSG_COSTS)


def today(c, kind, shared=False, skip=(), cores=CORES):
    """Assignments of a today's configuration: C cores per node, KIND one of
    ssd, msg, rdma, pool; SKIP: keys the file varies; CORES in all."""
    ram = MB_PER_CORE * c
    a = [("computer.number", str(cores)), ("computer.cores_per_node", str(c))]
    if kind == "pool":
        a += [("computer.ram", "%g" % (ram / 2)),
              ("computer.memory_servers", str(SERVERS)),
              ("computer.memory_server_ram", str(MB_PER_CORE * 64))]
    else:
        a.append(("computer.ram", str(ram)))
    if kind == "ssd":
        a.append(("netram.enabled", "no"))
    else:
        a += [("netram.enabled", "yes"), ("netram.strategy", "central")]
    for k, v in NOW:
        if k == "scheduler.node_sharing" and shared:
            v = "SHARED"
        a.append((k, v))
    if kind != "ssd":
        a.append(("netram.transport", "MESSAGES" if kind == "msg" else "RDMA"))
    if kind == "msg":
        a += [(k, MSG[k]) for k in MSG_COSTS]
    return [(k, v) for k, v in a if k not in skip]


def section(name, assigns, comment=None):
    lines = ["", "[%s]" % name]
    if comment:
        lines[1:1] = ["; " + comment]
    lines += ["%s = %s" % kv for kv in assigns]
    return lines


def main_study():
    confs = []  # (name, assigns, comment)
    confs.append(("2004-central",
                  [("netram.enabled", "yes"), ("netram.strategy", "central")],
                  "--- 2004: PNR CENTRAL over messages on the [set] machine ---"))
    what = {"ssd": "no network RAM: every fault to the SSD",
            "msg": "PNR CENTRAL over messages (the report's protocol)",
            "rdma": "PNR CENTRAL, pages by one-sided RDMA",
            "pool": "pool: half the node RAM, %d servers of %d MB (same "
                    "total)" % (SERVERS, MB_PER_CORE * 64),
            "shared-ssd": "the same nodes shared core by core (SHARED)",
            "shared-rdma": "SHARED, PNR over RDMA"}
    for c in NODE_SIZES:
        first = True
        for kind in KINDS[c]:
            com = what[kind]
            if first:
                com = ("--- today, C = %d: %d nodes x %d cores, %d MB per "
                       "node ---\n; " % (c, CORES // c, c, MB_PER_CORE * c)
                       + com)
                first = False
            shared = kind.startswith("shared-")
            confs.append(("now-c%d-%s" % (c, kind),
                          today(c, kind.replace("shared-", ""), shared), com))
    for kind in PHASES_KINDS:
        confs.append(("now-c64-%s-phases" % kind,
                      today(64, kind) + [("workload.memory_profile", "PHASES")],
                      ("memory that changes over time: PHASES (memory_low "
                       "0.35, peak_share 0.1,\n; Peng et al. 2020)"
                       if kind == PHASES_KINDS[0] else None)))
    n = (len(confs) + 1) * len(LEVELS) * WINDOWS * SEEDS
    out = [HEAD.rstrip("\n").replace("@RUNS@", "%d configurations x %d "
                                     "levels x %d windows x %d seed = %d runs"
                                     % (len(confs) + 1, len(LEVELS), WINDOWS,
                                        SEEDS, n))]
    out += ["", "[study]", "name         = then-and-now",
            "base         = ../default.ini",
            "trace        = ../../traces/hpc2n-seth-x%d.swf" % WEAK,
            "replications = %d" % SEEDS, "windows      = %d" % WINDOWS,
            "seed_base    = 1",
            "metrics      = " + METRICS]
    out += ["", "[set]", "workload.submit_min = 3900000",
            "workload.max_jobs   = 100",
            "; R: 10 x the report's (no measured R for any machine: docs/SOURCES.md);",
            "; the report's R and the measured curves (traces/curves/) are the",
            "; sensitivity files then-and-now-r.ini and then-and-now-curve.ini.",
            "process.mem_access_rate = " + R_10X,
            "netram.enabled      = no",
            "; The 2004 machine: configs/machines/pnrsim-2004.ini's values,",
            "; %d PEs of %d MB." % (CORES, MB_PER_CORE),
            "computer.number     = %d" % CORES,
            "computer.ram        = %d" % MB_PER_CORE]
    out += ["%s = %s" % kv for kv in THEN if kv[0] != "process.mem_access_rate"]
    out += ["", "[vary]",
            "; L0 control (nothing pages), L2 (the trace's memory)",
            "workload.memory_scale = " + ", ".join(LEVELS),
            "; memory that changes over time: the *-phases baselines (C = 64)",
            "simulation.system     = 2004-disk"]
    for name, a, com in confs:
        out += section("baseline " + name, a, com)
    out += ["", "[plot response-time]", "metric = response_time_mean",
            "x      = workload.memory_scale", "lines  = simulation.system",
            "logx   = yes"]
    return "\n".join(out) + "\n"


HEAD = """\
; configs/studies/then-and-now.ini: does network RAM still pay today?
; Written by tools/then-and-now-ini.py: edit the generator, not this file.
; Issue 33 item 4 (the study redone; docs/STUDY-THEN-AND-NOW.md has the
; design, the run plan and the results).
;
;   nice build/pnrsim-sweep -j 2 configs/studies/then-and-now.ini
;   tools/then-and-now-tables.py out/studies/then-and-now
;
; Workload: traces/hpc2n-seth-x8.swf, the HPC2N Seth log (240 processors in
; 120 dual nodes) weak-scaled by 8 (tools/scale-widths.py: every job's
; processors x 8, its times and memory per processor as recorded), from
; its 3,900,000 s mark (every job has a memory figure), 10 windows of 100
; jobs (the 1,000 jobs from the mark), on configs/default.ini's scenario
; (gang scheduling, MPL 2, 60 s quanta).
;
; Machines, all 2048 cores (the trace's 1920 fit; its widest job, 1024, is
; half the machine as 128 was of 240):
;   2004:      2048 one-CPU PEs of 224 MB, disk, 100 Mb/s star: the values
;              of configs/machines/pnrsim-2004.ini ([set]);
;   now-cC-*:  C = 1, 8, 64 cores per node (2048, 256, 32 nodes), 224 MB per
;              core, NVMe SSD, HDR, whole-node allocation: the values of
;              configs/machines/epyc-hdr-2022.ini; *-shared-*: SHARED.
; Deliberate differences from the presets: computer.number, .cores_per_node,
; .ram (224 MB per core), the memory servers (the pool: half the node RAM
; and 16 servers of 14,336 MB, the same total at every C),
; netram.transport (varied), process.mem_access_rate, and
; scheduler.node_sharing = SHARED in the *-shared-* baselines;
; tests/test_study_then_and_now.sh fails when any other key drifts.
;
; Pressure levels (workload.memory_scale; section 2 of the doc): 0.0373 L0
; (control: nothing pages), 1 L2 (the trace's memory, 224 MB per core).
; L3 (8, 28 MB per core) is out: over 500 CPU s a run at C = 64 here.
; @RUNS@.
"""

METRICS = ("response_time_mean, bounded_slowdown_mean,\n"
           "               bounded_slowdown_dedicated_mean, wait_time_mean,\n"
           "               total_time, jobs_finished, cpu_utilization, "
           "idle_core_seconds,\n"
           "               page_faults_per_pe, page_fault_time_per_pe,\n"
           "               page_faults_disk, page_faults_remote, "
           "comm_busy_time,\n"
           "               pnr_requests, pnr_satisfied, pnr_partial, "
           "pnr_denied")


def sens_study(name, key, values, kinds, extra_baselines=(), note="",
               windows=WINDOWS // 2, jobs=100, extra_set=(), c=64,
               cores=CORES, weak=WEAK, levels=None):
    """Today's machine at C cores per node and CORES cores, level SENS_LEVEL
    (or [vary] LEVELS): the configurations KINDS (simulation.system; the
    first is the [set] machine) x the parameter KEY ([vary]), on the HPC2N
    log weak-scaled by WEAK (1: as recorded)."""
    trace = ("hpc2n-seth-x%d.swf" % weak if weak != 1
             else "hpc2n-seth-first3171.swf")
    out = ["; configs/studies/%s.ini: written by tools/then-and-now-ini.py;"
           % name,
           "; edit the generator, not this file. Sensitivity of the",
           "; then-and-now findings (docs/STUDY-THEN-AND-NOW.md) to %s," % key,
           "; today's machine at C = %d (%d nodes), workload.memory_scale = %s."
           % (c, cores // c, ", ".join(levels) if levels else SENS_LEVEL)]
    if note:
        out += ["; " + l for l in note.split("\n")]
    w = windows
    nconf = (len(kinds) * (len(values) + len(extra_baselines))
             * (len(levels) if levels else 1))
    out += ["; %d configurations x %d windows x %d seed = %d runs."
            % (nconf, w, SEEDS, nconf * w * SEEDS)]
    out += ["", "[study]", "name         = " + name,
            "base         = ../default.ini",
            "trace        = ../../traces/" + trace,
            "replications = %d" % SEEDS, "windows      = %d" % w,
            "seed_base    = 1", "metrics      = " + METRICS]
    out += ["", "[set]", "workload.submit_min = 3900000",
            "workload.max_jobs   = %d" % jobs]
    if not levels:
        out.append("workload.memory_scale = " + SENS_LEVEL)
    out += ["%s = %s" % kv for kv in extra_set]
    if key not in ("process.mem_access_rate", "process.fault_curve"):
        out.append("process.mem_access_rate = " + R_10X)
    first = kinds[0]
    out += ["%s = %s" % kv for kv in today(c, first, skip=(key,), cores=cores)]
    out += ["", "[vary]", "simulation.system = " + first,
            "%s = %s" % (key, ", ".join(values))]
    if levels:
        out.append("workload.memory_scale = " + ", ".join(levels))
    own = dict(today(c, first, skip=(key,), cores=cores))
    what = {"ssd": "no network RAM: every fault to the SSD",
            "msg": "PNR CENTRAL over messages", "rdma": "PNR CENTRAL over RDMA",
            "pool": "pool over RDMA: half the node RAM, %d servers" % SERVERS}
    for kind in kinds[1:]:
        theirs = today(c, kind, skip=(key,), cores=cores)
        # only what differs; an ssd baseline keeps the [set] machine's
        # transport and strategy (no effect with network RAM off: warned)
        diff = [(k, v) for k, v in theirs if own.get(k) != v]
        out += section("baseline " + kind,
                       diff + [("lines", "simulation.system")], what[kind])
    for bname, assigns in extra_baselines:
        out += section("baseline " + bname, assigns)
        out.append("lines = " + key)
    return "\n".join(out) + "\n"


def main(argv):
    phase2 = "--phase2" in argv[1:]
    outdir = OUT
    if "--out" in argv[1:]:
        i = argv.index("--out")
        if i + 1 >= len(argv):
            sys.stderr.write("then-and-now-ini: --out needs a directory\n")
            return 2
        outdir = argv[i + 1]
    files = {"then-and-now.ini": main_study(),
             "then-and-now-r.ini": sens_study(
                 "then-and-now-r", "process.mem_access_rate",
                 (R_REPORT, R_10X), ("rdma", "ssd", "msg"),
                 note="R: the report's (2.4e-7 s) and 10 x (2.4e-6 s). No pool:\n"
                      "at the report's R one pool run would take ~500 CPU s.\n"
                      "The measured curves: then-and-now-curve.ini."),
             "then-and-now-curve.ini": sens_study(
                 "then-and-now-curve", "process.fault_curve",
                 ["../../traces/curves/%s.curve" % c for c in CURVES],
                 ("rdma", "ssd", "msg"), windows=CURVE_WINDOWS,
                 jobs=CURVE_JOBS,
                 extra_set=[("process.fault_model", "CURVE")],
                 note="Faults from the measured LRU miss curves (traces/curves/,\n"
                      "docs/SOURCES.md 5), one program for every job. They fault\n"
                      "2 to 600 times as often as the report's R model, so at a\n"
                      "reduced scale: C = 64 only, windows of %d jobs, %d windows."
                      % (CURVE_JOBS, CURVE_WINDOWS))}
    seth = dict(c=SETH_C, cores=SETH_CORES, weak=1, windows=WINDOWS,
                levels=LEVELS)
    files["then-and-now-curve-c8.ini"] = sens_study(
        "then-and-now-curve-c8", "process.fault_curve",
        ["../../traces/curves/%s.curve" % c for c in CURVES],
        ("rdma", "ssd"),
        extra_set=[("process.fault_model", "CURVE"),
                   ("process.paging", "BATCHED")],
        note="Faults from the measured LRU miss curves, one program for every\n"
             "job, on a machine of Seth's size (the log as recorded on %d\n"
             "cores, C = %d), where the SSD's faults run batched; L0 (nothing\n"
             "pages) beside L2 for what paging costs. No msg: under a curve\n"
             "one window over messages ran over 35 CPU minutes (session 13),\n"
             "batched or not at C = 8 (docs/BATCHING.md: no events saved).\n"
             "The report's model on the same machine, msg included:\n"
             "then-and-now-r-c8.ini." % (SETH_CORES, SETH_C),
        **seth)
    files["then-and-now-r-c8.ini"] = sens_study(
        "then-and-now-r-c8", "process.mem_access_rate",
        (R_REPORT, R_10X), ("rdma", "ssd", "msg"),
        extra_set=[("process.paging", "BATCHED")],
        note="The report's model (R: the report's 2.4e-7 s and 10 x) on the\n"
             "machine of then-and-now-curve-c8.ini, to set the curves beside.",
        **seth)
    if phase2:
        now = dict(NOW)
        now.update(MSG)
        for key in COSTS:
            if key not in now:
                sys.stderr.write("then-and-now-ini: %s is not in "
                                 "epyc-hdr-2022.ini yet\n" % key)
                return 2
            d = float(now[key])
            vals = ("%.6g" % (d / 2), now[key],
                    COST_HIGH.get(key, "%.6g" % (d * 2)))
            short = key.split(".", 1)[1].replace("_", "-")
            files["then-and-now-cost-%s.ini" % short] = sens_study(
                "then-and-now-cost-" + short, key, vals, COST_KINDS[key],
                note="half, once and twice the preset's %s%s" % (
                    now[key], " (twice is out of range: 0 instead)"
                    if key in COST_HIGH else ""))
    for name, text in files.items():
        with open(os.path.join(outdir, name), "w") as f:
            f.write(text)
        print("wrote " + os.path.join(outdir, name))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
