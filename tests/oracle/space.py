"""Reference model of pnrsim's space sharing (MPL 1): FCFS / SJF / other
static orders, with strict order or not, EASY and conservative backfilling;
MULTIFACTOR and the per-user limits (issue 35 item 5).

Written from docs/SCHEDULING.md and docs/MODEL.md only (issue 23, part 5);
each rule cites the sentence it implements.  Times are exact integers or
"moments" (see Moment).  The model is a plain event loop; it favours
clarity over speed (a pass rebuilds everything).
"""

import functools
import math


@functools.total_ordering
class Moment:
    """A point of the time line: real time t, then `after` (1 = "an
    instant after", an unknown real delta > 0 that outlasts every pass at
    t), then `p` (the p-th scheduling pass at t).

    SCHEDULING.md, Expected ends: "one that has outlived its estimate is
    expected to end an instant after now (... later than now, never at
    now)".  Issue 23 part 1 (the correct rule): "an end computed from a
    start just after now must come after now + e": so `after` is kept by
    an interval (plus()).  SCHEDULING.md, Zero-length jobs: "In a
    conservative profile a zero-length job reserved for a later time holds
    its PEs for that instant only (until just after it). A step 'just
    after' instant t keeps t as its moment: an interval starting there ends
    at t + e, exactly as it will when the job starts at t in the next
    pass": the pass index p is dropped by an interval of e > 0 (completions
    come before the first pass of an instant, MODEL.md, Event kernel)."""

    __slots__ = ("t", "after", "p")

    def __init__(self, t, after=0, p=0):
        self.t, self.after, self.p = t, after, p

    def key(self):
        return (self.t, self.after, self.p)

    def __eq__(self, o):
        return self.key() == o.key()

    def __lt__(self, o):
        return self.key() < o.key()

    def __hash__(self):
        return hash(self.key())

    def plus(self, e):
        """End of an interval of length e starting here."""
        if e > 0:
            return Moment(self.t + e, 0 if KEEP_MOMENT[0] else self.after, 0)
        # a zero-length job holds its PEs for its pass only (SCHEDULING.md,
        # Zero-length jobs: "hold their PEs during the pass that starts them")
        return Moment(self.t, self.after, self.p + 1)

    def __repr__(self):
        return "%s%s%s" % (self.t, "+" if self.after else "",
                           "/p%d" % self.p if self.p else "")


# Not the documented rule: True makes an interval from "an instant after t"
# end at t + e (the moment kept), what issue 23 part 1 says pnrsim does on
# main; only for attributing disagreements (compare.py --attribute).
KEEP_MOMENT = [False]
# Not documented either: True gives a zero-length job started in this pass
# the outlived jobs' expected end (an instant after now) instead of the
# next pass at now; for attributing disagreements only.
MERGE_ZERO = [False]


def order_key(policy):
    """SCHEDULING.md, Queue orders: "Every order is a key, lowest first;
    ties by trace order".  Only the static orders without logarithms are
    modelled (FCFS, BESTFIT, WORSTFIT, SJF, LJF, SAF, LAF)."""
    keys = {
        "FCFS": lambda j: 0,
        "BESTFIT": lambda j: -j.threads,
        "WORSTFIT": lambda j: j.threads,
        "SJF": lambda j: j.estimate(),
        "LJF": lambda j: -j.estimate(),
        "SAF": lambda j: j.threads * j.estimate(),
        "LAF": lambda j: -j.threads * j.estimate(),
    }
    f = keys[policy]
    return lambda j: (f(j), j.id)


class Run:
    """A running job: start (real time and the pass that started it), its
    PEs, and its real end (start + run time: no paging, no messages)."""

    def __init__(self, job, t, p, pes):
        self.job, self.t, self.p, self.pes = job, t, p, pes
        self.end = t + job.run


def lowest_free(free, n):
    """MODEL.md, Scheduler: "PEs in a slot: lowest-numbered free ones"."""
    pes = [i for i, f in enumerate(free) if f][:n]
    assert len(pes) == n
    return pes


def simulate(npes, jobs, policy="FCFS", backfill="NONE", strict=True,
             keep_moment=False, merge_zero=False, depth=0, mf=None,
             max_running=0, max_cores=0, mem=False):
    """Run the model; return ({job id: (start, end)}, [stretch rows]).
    keep_moment, merge_zero: see KEEP_MOMENT, MERGE_ZERO. depth: conservative's
    reservations (scheduler.reservations), 0 = all. mf: policy MULTIFACTOR's
    weights (a dict: w_age, w_size, w_fs, w_wait, max_age, half_life);
    max_running, max_cores: the per-user limits (0 = none; issue 35). mem:
    mem_aware LOCAL on the PEs of swfgen.ram_of(npes), reservations holding
    memory (EASY and CONSERVATIVE, depth 0; issue 35)."""
    KEEP_MOMENT[0] = keep_moment
    MERGE_ZERO[0] = merge_zero
    try:
        ram = None
        if mem:
            import swfgen
            ram = swfgen.ram_of(npes)
        return _simulate(npes, jobs, policy, backfill, strict, depth, mf,
                         max_running, max_cores, ram)
    finally:
        KEEP_MOMENT[0] = False
        MERGE_ZERO[0] = False


def usage(runs, user, now, h):
    """SCHEDULING.md, MULTIFACTOR: "an account is charged the width of each
    placed job ... for every second from placement to end", decaying "with
    half-life h: dU/dt = r(t) - (ln 2 / h)·U"; "h = 0 means no decay".
    Written here as the sum over the account's jobs of the integral of the
    decayed charge, w * integral of 2^(-(now - x)/h) dx over [start,
    min(end, now)] (not the host's step-by-step update)."""
    u = 0.0
    for (uid, w, t0, t1) in runs:
        if user is not None and uid != user:
            continue
        b = min(t1, now)
        if b <= t0:
            continue
        if h == 0:
            u += w * (b - t0)
        else:
            c = h / math.log(2)
            u += w * c * (2.0 ** (-(now - b) / h) - 2.0 ** (-(now - t0) / h))
    return u


def mf_key(mf, npes, runs, users_seen, now):
    """SCHEDULING.md, MULTIFACTOR: P = weight_age·A + weight_size·Z +
    weight_fairshare·F + weight_wait·X, key -P, ties by trace order; A =
    min(w, max_age) / max_age, Z = width / cores, F = 2^(-U/S) with U the
    account's share of all accounts' decayed usage now (F = 1 while nobody
    has usage) and S = 1/N, N the accounts seen so far, X = w / (w + e),
    e below 1 s counting as 1 s."""
    tot = usage(runs, None, now, mf["half_life"])
    n = len(users_seen)

    def key(j):
        w = now - j.submit
        if not w > 0:
            w = 0
        a = min(w, mf["max_age"]) / mf["max_age"]
        z = min(j.threads / npes, 1)
        f = 1.0
        if tot > 0 and n > 0:
            f = 2.0 ** (-(usage(runs, j.user, now, mf["half_life"]) / tot) * n)
        e = max(j.estimate(), 1)
        x = w / (w + e)
        p = (mf["w_age"] * a + mf["w_size"] * z + mf["w_fs"] * f +
             mf["w_wait"] * x)
        return (-p, j.id)
    return key


def _simulate(npes, jobs, policy, backfill, strict, depth=0, mf=None,
              max_running=0, max_cores=0, ram=None):
    static_key = order_key(policy) if policy != "MULTIFACTOR" else None
    free = [True] * npes
    running = []
    queue = []
    result = {}
    pending = sorted(jobs, key=lambda j: (j.submit, j.id))
    ai = 0
    runs = []          # (user, width, start, end) of every started job
    users_seen = set()
    now_box = [0]

    def key(j):
        return static_key(j) if static_key else keyfn[0](j)
    keyfn = [None]

    def held(job, extra=()):
        """SCHEDULING.md, Per-user limits: a queued job is held while its
        user has running >= max_running_per_user, or cores + its width >
        max_cores_per_user; "placed" is "in a gang slot" (at MPL 1:
        started). extra: jobs this pass has decided to start but not
        started yet (the conservative model starts them at the end)."""
        mine = [r.job for r in running if r.job.user == job.user]
        mine += [x for x in extra if x.user == job.user]
        if max_running > 0 and len(mine) >= max_running:
            return True
        if max_cores > 0 and sum(x.threads for x in mine) + job.threads > max_cores:
            return True
        return False

    def placement(job, kept):
        """MODEL.md, mem_aware: "a job is placed only where every PE it
        would use has RAM - memory of placed jobs' threads not yet freed -
        lent >= its thread size"; with one core per node at MPL 1 a free
        PE holds no thread and nothing is lent (LOCAL), so its room is its
        RAM; "PEs in a slot: lowest-numbered free ones" (with room).
        kept: the PEs held. The PEs, or None when too few."""
        m = max(job.mem, 0)
        pes = [i for i in range(npes) if i not in kept and ram[i] >= m]
        return pes[:job.threads] if len(pes) >= job.threads else None

    def held_now():
        return set(i for i in range(npes) if not free[i])

    def start(job, now, p):
        if ram is not None:
            pes = placement(job, held_now())
            assert pes is not None
            for i in pes:
                free[i] = False
            running.append(Run(job, now, p, pes))
            queue.remove(job)
            return
        pes = lowest_free(free, job.threads)
        for i in pes:
            free[i] = False
        running.append(Run(job, now, p, pes))
        queue.remove(job)

    def expected_end(r, now, p):
        """SCHEDULING.md, Expected ends: "A running job is expected to end
        at start + estimate; one that has outlived its estimate is expected
        to end an instant after now"."""
        e = Moment(r.t, 0, r.p).plus(r.job.estimate())
        if MERGE_ZERO[0] and e.t == now and e.after == 0 and e.p > p:
            e = Moment(now, 0, 0)   # emulation only, see MERGE_ZERO
        if e <= Moment(now, 0, p):
            # Reading: a job still running at start + estimate (== now,
            # after the completions of now) has outlived it too.
            return Moment(now, 1, 0)
        return e

    def pass_none(now, p):
        # SCHEDULING.md, Queue orders: "strict_order = yes starts jobs in
        # order until the first that does not fit ...; no tries every
        # queued job once, in order."
        # Per-user limits: "A held job is skipped by every pass: it blocks
        # no later job, with strict_order = yes too".
        for job in sorted(queue, key=key):
            if held(job):
                continue
            if job.threads <= sum(free):
                start(job, now, p)
            elif strict:
                break

    def pass_easy(now, p):
        # SCHEDULING.md, EASY: "Start jobs in queue order while they fit."
        order = sorted(queue, key=key)
        i = 0
        # Per-user limits: "Under EASY it is never the head".
        while i < len(order) and (held(order[i]) or
                                  order[i].threads <= sum(free)):
            if not held(order[i]):
                start(order[i], now, p)
            i += 1
        if i == len(order):
            return
        head = order[i]
        # "its shadow time S is the earliest expected end at which the PEs
        # free by then reach the head's threads (running jobs released in
        # order of expected end, equal ends together); extra = PEs free at
        # S - the head's threads."
        ends = sorted((expected_end(r, now, p), r.job.threads) for r in running)
        avail = sum(free)
        shadow = None
        k = 0
        while k < len(ends):
            m = ends[k][0]
            while k < len(ends) and ends[k][0] == m:
                avail += ends[k][1]
                k += 1
            if avail >= head.threads:
                shadow = m
                break
        assert shadow is not None
        extra = avail - head.threads
        # "Every later job, in queue order, that fits in the PEs free now:
        # if now + e <= S it starts (extra unchanged); otherwise, if its
        # threads <= extra, it starts and extra -= its threads; otherwise
        # it waits."
        for job in order[i + 1:]:
            if job.threads > sum(free) or held(job):
                continue
            if Moment(now, 0, p).plus(job.estimate()) <= shadow:
                start(job, now, p)
            elif job.threads <= extra:
                start(job, now, p)
                extra -= job.threads

    held_by_limit = held

    def pass_conservative(now, p):
        # SCHEDULING.md, Conservative: "A profile of free PEs over time is
        # built from the running jobs' expected ends; every queued job in
        # queue order gets the earliest start >= now at which it fits for
        # its whole estimate, and that space is reserved in the profile;
        # jobs whose start is now start."  (The early stop and the kept
        # passes are stated to give the same schedule; not modelled.)
        nowm = Moment(now, 0, p)
        # profile: list of (moment, delta of free PEs)
        deltas = [(expected_end(r, now, p), r.job.threads) for r in running]

        def free_at(m):
            return sum(free) + sum(d for (x, d) in deltas if x <= m)

        starters = []
        # SCHEDULING.md, Reservation depth: "reservations = N gives
        # reservations to the first N queued jobs, in queue order, that
        # cannot start at a pass ... A later job starts only where it fits
        # for its whole estimate in the profile that holds those N
        # reservations (and the jobs started by the pass); otherwise it
        # gets no reservation"; "N counts the jobs that hold reservations".
        held = 0
        for job in sorted(queue, key=key):
            # Per-user limits: "under CONSERVATIVE ... it gets no
            # reservation while held" (the jobs this pass starts count).
            if held_by_limit(job, starters):
                continue
            e = job.estimate()
            full = depth > 0 and held >= depth
            cands = sorted(set([nowm] + [x for (x, _) in deltas if x > nowm]))
            if full:
                cands = [nowm]
            for c in cands:
                end = c.plus(e)
                if MERGE_ZERO[0] and e == 0 and c == nowm:
                    end = Moment(now, 1, 0)   # emulation only
                # fits at c and at every step inside [c, end)
                pts = [c] + [x for (x, _) in deltas if c < x < end]
                if all(free_at(x) >= job.threads for x in pts):
                    break
            else:
                if full:
                    continue   # no reservation left, and it cannot start now
                raise AssertionError("no start found")
            if c != nowm:
                held += 1
            deltas.append((c, -job.threads))
            deltas.append((end, job.threads))
            if c == nowm:
                starters.append(job)
        for job in starters:
            start(job, now, p)

    def fits_now(job):
        return placement(job, held_now()) is not None

    def kept_at(m):
        """SCHEDULING.md, Reservations that hold memory: "a running job
        whose expected end is after t keeps its cores and its threads'
        memory at t"."""
        out = set()
        for r in running:
            if expected_end(r, now_p[0], now_p[1]) > m:
                out.update(r.pes)
        return out

    now_p = [0, 0]

    def pass_easy_mem(now, p):
        # SCHEDULING.md, Reservations that hold memory, EASY: "The head's
        # shadow time S is the first step of the profile with its cores
        # free at which the allocation also places it on the machine as
        # expected then. A later job that ends by S starts as before ...;
        # one that would still run at S starts only if the allocation still
        # places the head at S with it on the cores the allocation gives it
        # now".
        now_p[:] = [now, p]
        order = sorted(queue, key=key)
        i = 0
        while i < len(order) and fits_now(order[i]):
            start(order[i], now, p)
            i += 1
        if i == len(order):
            return
        head = order[i]
        ends = sorted(set(expected_end(r, now, p) for r in running))
        shadow = None
        for m in ends:
            count = sum(free) + sum(r.job.threads for r in running
                                    if expected_end(r, now, p) <= m)
            if count >= head.threads and placement(head, kept_at(m)) is not None:
                shadow = m
                break
        assert shadow is not None
        for job in order[i + 1:]:
            if not fits_now(job):
                continue
            endm = Moment(now, 0, p).plus(job.estimate())
            if endm <= shadow:
                start(job, now, p)
                continue
            cores = placement(job, held_now())
            if placement(head, kept_at(shadow) | set(cores)) is not None:
                start(job, now, p)

    def pass_conservative_mem(now, p):
        # SCHEDULING.md, Reservations that hold memory, CONSERVATIVE: "Every
        # job, in queue order, gets the first step at which it fits by
        # cores for its whole estimate (the profile, as before) and fits
        # the plan: the allocation places it at that step on the machine as
        # expected then, and every reservation of the plan that starts
        # later still fits at its start beside it (the allocation run again
        # for each, in the order the passes will place them: start, then
        # queue order); the reservations then take the cores they get
        # beside it. A job whose reservation is now starts".  The machine
        # as expected at t: "a running job whose expected end is after t
        # keeps its cores ..., and so does every reservation of the pass
        # that has started by t and not ended".
        now_p[:] = [now, p]
        nowm = Moment(now, 0, p)
        f0 = sum(free)
        deltas = [(expected_end(r, now, p), r.job.threads) for r in running]

        def free_at(m):
            return f0 + sum(d for (x, d) in deltas if x <= m)

        plan = []   # [start, index, end, job, pes]
        for job in sorted(queue, key=key):
            e = job.estimate()
            cands = sorted(set([nowm] + [x for (x, _) in deltas if x > nowm]))
            for c in cands:
                end = c.plus(e)
                pts = [c] + [x for (x, _) in deltas if c < x < end]
                if not all(free_at(x) >= job.threads for x in pts):
                    continue
                if c == nowm:
                    cores = placement(job, held_now())
                else:
                    k = kept_at(c)
                    for en in plan:
                        if en[0] <= c < en[2]:
                            k.update(en[4])
                    cores = placement(job, k)
                if cores is None:
                    continue
                tent = {}
                ok = True
                for en in sorted((x for x in plan if x[0] > c),
                                 key=lambda x: (x[0], x[1])):
                    k = kept_at(en[0])
                    for o in plan:
                        if o is not en and (o[0], o[1]) < (en[0], en[1]) and o[2] > en[0]:
                            k.update(tent.get(o[1], o[4]))
                    if c < en[0] < end:
                        k.update(cores)
                    got = placement(en[3], k)
                    if got is None:
                        ok = False
                        break
                    tent[en[1]] = got
                if not ok:
                    continue
                for en in plan:
                    if en[1] in tent:
                        en[4] = tent[en[1]]
                deltas.append((c, -job.threads))
                deltas.append((end, job.threads))
                if c == nowm:
                    start(job, now, p)
                else:
                    plan.append([c, len(plan), end, job, cores])
                break
            else:
                raise AssertionError("no start found")

    if ram is not None:
        pass_easy = pass_easy_mem
        pass_conservative = pass_conservative_mem
    passes = {"NONE": pass_none, "EASY": pass_easy,
              "CONSERVATIVE": pass_conservative}
    one_pass = passes[backfill]

    def do_pass(now, p):
        # MULTIFACTOR: "Priorities are evaluated at every placement pass",
        # with the usage of now (keys taken once per pass).
        if static_key is None:
            keyfn[0] = mf_key(mf, npes, runs_now(now), users_seen, now)
        # Per-user limits: "when a pass ends with more held jobs than it
        # started with, it is run again at the same instant".
        while True:
            h0 = sum(1 for j in queue if held(j))
            one_pass(now, p)
            if not (max_running or max_cores):
                return
            if sum(1 for j in queue if held(j)) == h0:
                return
            if static_key is None:   # usage moved by the starts: none yet
                keyfn[0] = mf_key(mf, npes, runs_now(now), users_seen, now)

    def runs_now(now):
        out = [(u, w, t0, t1) for (u, w, t0, t1) in runs]
        out += [(r.job.user, r.job.threads, r.t, now) for r in running]
        return out

    def finish_ends(now):
        done = [r for r in running if r.end == now]
        for r in done:
            running.remove(r)
            for i in r.pes:
                free[i] = True
            result[r.job.id] = (r.t, r.end, r.pes)
            runs.append((r.job.user, r.job.threads, r.t, r.end))
        return bool(done)

    while ai < len(pending) or running:
        cands = [r.end for r in running]
        if ai < len(pending):
            cands.append(pending[ai].submit)
        now = min(cands)
        # MODEL.md, Event kernel: "completions come before arrivals at the
        # same instant, and the scheduler runs once after every other event
        # of that instant"; "Jobs that arrive at the same instant enter the
        # queue in trace order".
        finish_ends(now)
        while ai < len(pending) and pending[ai].submit == now:
            queue.append(pending[ai])
            users_seen.add(pending[ai].user)
            ai += 1
        p = 0
        do_pass(now, p)
        # "Events created by the scheduler's pass at the same instant (a
        # zero-length job's end) run after it, and may trigger one more
        # pass."
        while finish_ends(now):
            p += 1
            do_pass(now, p)
    # Per-user limits: "A job wider than max_cores_per_user can never
    # start: it stays queued" (and is in neither result).
    assert all(max_cores > 0 and j.threads > max_cores for j in queue)
    rows = []
    for jid, (t0, t1, pes) in sorted(result.items()):
        if t1 > t0:
            for first, n in runs_of(pes):
                rows.append((jid, 0, t0, t1, first, n, 0))
    return {k: (v[0], v[1]) for k, v in result.items()}, rows


def runs_of(pes):
    """Runs of consecutive PEs: METRICS.md, schedule.csv: "A job on
    non-contiguous PEs gets one row per run of consecutive PEs"; "a
    stretch stopped before its context switch was over (end <= start) has
    no row" (so zero-length jobs have none)."""
    out = []
    for i in sorted(pes):
        if out and out[-1][0] + out[-1][1] == i:
            out[-1][1] += 1
        else:
            out.append([i, 1])
    return [(a, b) for a, b in out]
