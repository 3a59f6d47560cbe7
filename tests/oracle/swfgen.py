"""Random tie-heavy SWF traces for the oracle comparison (issue 23, part 5).

A trace is a list of Job records and an SWF text.  Everything is drawn from
random.Random(seed), so one seed always gives the same trace.  Times are
small integers so that many events coincide: submit gaps of 0 (bursts),
run times from a short menu including 0 (zero-length jobs), requested times
(SWF field 9) that are missing, exact, too long or too short (jobs that
outlive their estimate), on 4 to 8 PEs.
"""

import random


class Job:
    """One trace job: SWF fields 1, 2, 4, 5, 9 and 12 (user; also written
    as the group, field 13)."""

    def __init__(self, jid, submit, run, threads, req, user=1, mem=-1):
        self.id = jid
        self.submit = submit
        self.run = run
        self.threads = threads
        self.req = req  # SWF field 9 (-1 = unknown)
        self.user = user  # SWF field 12 (issue 35)
        self.mem = mem  # MB per thread (SWF field 7 in KB; -1 = none)

    def moved(self, dt):
        """The same job submitted dt earlier."""
        return Job(self.id, self.submit - dt, self.run, self.threads, self.req,
                   self.user, self.mem)

    def estimate(self):
        """docs/SCHEDULING.md, Estimates: "`workload.estimate = REQUESTED`
        (default): SWF field 9 (requested time) when it is > 0, else the
        job's CPU demand" (the CPU demand is the run time under
        `workload.cpu_demand = RUNTIME`, which every oracle run uses)."""
        return self.req if self.req > 0 else self.run


RUNS = [0, 0, 1, 2, 3, 5, 5, 10, 10, 12, 15, 20, 20, 25, 30, 40]
GAPS = [0, 0, 0, 0, 1, 1, 2, 3, 5, 5, 10, 15]


def ram_of(pes):
    """The RAM of each PE for the memory settings (issue 35 item 3): the
    lower half of 16 MB, the upper half of 64 MB, so that the lowest free
    PEs are the small ones."""
    small = pes - pes // 2
    return [16] * small + [64] * (pes // 2)


def ram_groups(pes):
    """ram_of as computer.ram's groups (node order)."""
    small = pes - pes // 2
    return "%dx16,%dx64" % (small, pes // 2)


def generate(seed, pes=None, njobs=None, zero=True, under=0.25, users=0,
             mem=False):
    """Return (pes, [Job]) drawn from seed.  zero=False: no zero-length
    jobs (a zero run time becomes 1 s); under: the share of jobs whose
    requested time is below their run time; users > 0: each job's user is
    drawn from 1..users from a stream of its own (the other fields are
    those of users = 0), else every job is user 1; mem: memory per thread
    (none, up to 16 MB, or up to 64 MB for jobs no wider than the big PEs,
    so every job can run: ram_of)."""
    r = random.Random(seed)
    ru = random.Random(seed * 7919 + 17)
    if pes is None:
        pes = r.randint(4, 8)
    if njobs is None:
        njobs = r.randint(12, 30)
    jobs = []
    t = 0
    for i in range(njobs):
        if i:  # MODEL.md, Workload: submit times are made relative to
            t += r.choice(GAPS)  # the first kept job, so it is at 0
        run = r.choice(RUNS)
        if run == 0 and not zero:
            run = 1
        # widths: many narrow jobs, some half-machine and full-machine ones
        w = r.choice([1, 1, 1, 2, 2, 3, pes // 2, pes - 1, pes])
        w = max(1, min(pes, w))
        k = r.random()
        if k < 0.2:
            req = -1
        elif k < 0.45:
            req = max(run, 1) if run > 0 else -1
        elif k < 1 - under:
            req = run + r.choice([1, 2, 5, 10, 20])
        else:
            req = max(1, run - r.choice([1, 2, 5, 10]))
            if req >= run and run > 0:
                req = max(1, run // 2)
        m = -1
        if mem:
            k = r.random()
            if k < 0.3:
                m = 0
            elif k < 0.65 or w > pes // 2:
                m = r.choice([4, 8, 12, 16])
            else:
                m = r.choice([20, 32, 48, 64])
        jobs.append(Job(i + 1, t, run, w, req,
                        ru.randint(1, users) if users > 0 else 1, m))
    return pes, jobs


def swf_text(jobs):
    """The jobs as SWF records (18 fields; field 6 = run time, 7 = -1)."""
    lines = []
    for j in jobs:
        f = [j.id, j.submit, 0, j.run, j.threads, j.run,
             j.mem * 1024 if j.mem >= 0 else -1, j.threads,
             j.req, -1, 1, j.user, j.user, 1, 1, 1, -1, -1]
        lines.append(" ".join(str(x) for x in f))
    return "\n".join(lines) + "\n"


def parse_swf(text):
    """Jobs of an SWF text written by swf_text (or by hand, same fields)."""
    jobs = []
    for line in text.splitlines():
        s = line.strip()
        if not s or s.startswith(";"):
            continue
        f = s.split()
        kb = int(float(f[6]))
        jobs.append(Job(int(f[0]), int(float(f[1])), int(float(f[3])),
                        int(float(f[4])), int(float(f[8])),
                        int(float(f[11])) if len(f) > 11 else 1,
                        kb // 1024 if kb >= 0 else -1))
    return jobs
