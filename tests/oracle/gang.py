"""Reference model of pnrsim's gang scheduler (techreport §4.4.2,
docs/MODEL.md "Scheduler"): the matrix of slots, MPL, quantum, PCS,
packing, alternative scheduling, moves back home, slot unification and
pcs_first_start; placement by FCFS (strict order or not), no backfilling.

Written from the report, docs/MODEL.md, docs/METRICS.md and issue 23
(parts 1 and 2 give the correct rules where pnrsim was wrong), without
reading pnrsim's scheduler code.  Every rule cites its sentence.  Times are
exact (integers in the oracle's traces).  No paging and no messages, so a
job computes exactly while it runs and its CPU demand is its run time.
"""
from space import runs_of  # schedule.csv rows: one per run of consecutive PEs


class Slot:
    """A time slot: which job holds each PE (None = idle)."""

    def __init__(self, npes):
        self.pes = [None] * npes

    def jobs(self):
        """Jobs of the slot by lowest PE (MODEL.md: "jobs by lowest PE")."""
        seen, out = set(), []
        for j in self.pes:
            if j is not None and j.id not in seen:
                seen.add(j.id)
                out.append(j)
        return out

    def nfree(self):
        return sum(1 for j in self.pes if j is None)

    def empty(self):
        return all(j is None for j in self.pes)


class GJob:
    """A job's state in the matrix."""

    def __init__(self, job):
        self.id = job.id
        self.job = job
        self.threads = job.threads
        self.left = job.run       # CPU seconds still to do
        self.pes = None
        self.slot = None
        self.home = None          # original slot of a moved job
        self.can_return = False
        self.ran = False          # has run before (a resume costs a PCS)
        self.first = None         # first start (jobs.csv start)
        self.resume = None        # when it computes again (None: stopped)
        self.st = None            # open stretch: (slot index, start, pcs)
        self.seq = None           # order of its end event among equal ends
        self.move_idx = None      # (index_at_move) index when moved in


def simulate(npes, jobs, mpl=1, alternative=True, packing="FIRSTFIT",
             quantum=10, pcs=1, pcs_first_start=False, strict=True,
             debug=False, return_rule="placed", index_at_move=False,
             zero_no_pcs=False):
    """Run the model; return ({job id: (start, end)}, [stretch rows]).
    zero_no_pcs (not documented): a zero-length job's first start costs
    no PCS even with pcs_first_start (pnrsim on main, issue 23 part 2).
    index_at_move (not documented either): a job moved in at a switch
    reports the current slot's index at its move (before the slot it
    emptied is removed), as pnrsim on main does by starting it there.
    return_rule "free_now" is NOT the documented rule: it lets a moved job
    come home whenever its PEs are free when its slot comes round (what
    issue 23 part 2 says pnrsim does on main), for attributing
    disagreements to that bug (compare.py --attribute)."""
    slots = []
    st = {"cur": None, "timer": None, "seq": 0}
    queue = []
    result = {}
    rows = []
    pending = sorted(jobs, key=lambda j: (j.submit, j.id))
    ai = 0

    def idx(s):
        return slots.index(s)

    def run_in_current(j, now, fresh):
        """The job gets the CPU of its PEs in the current slot.  MODEL.md:
        "A job that has run before resumes `pcs` seconds after it is
        switched in"; "A job's first start costs no PCS by default";
        "`scheduler.pcs_first_start = yes` charges it too (the job
        allocates its memory at once and computes `pcs` seconds later)"."""
        charge = pcs if (j.ran or pcs_first_start) else 0
        if zero_no_pcs and not j.ran and j.left == 0:
            charge = 0      # emulation of pnrsim on main only
        if j.first is None:
            j.first = now   # METRICS.md: the first row starts at jobs.csv
            #                 start (plus pcs with pcs_first_start)
        j.ran = True
        j.resume = now + charge
        si = j.move_idx if j.move_idx is not None else idx(j.slot)
        j.move_idx = None
        j.st = (si, now + charge, charge)
        st["seq"] += 1
        j.seq = (j.resume, st["seq"])

    def stop(j, now):
        """Deschedule: credit the CPU time done, close its stretch
        (METRICS.md: "one row per stretch ... from the scheduler running
        it to stopping it (slot switch) or its end"; "a stretch stopped
        before its context switch was over (end <= start) has no row")."""
        if j.resume is None:
            return
        j.left -= max(0, now - j.resume)
        close(j, now)
        j.resume = None

    def close(j, now):
        si, t0, c = j.st
        if now > t0:
            for first, n in runs_of(j.pes):
                rows.append((j.id, si, t0, now, first, n, c))
        j.st = None

    def remove_slot(s):
        """Techreport §4.4.2: "the empty time slot is destroyed and the
        relocated job permanently stays at its new assigned slot".  Issue
        23 part 2 (reading written down): a slot emptied during an
        alternative-scheduling pass is removed at once, so a job whose home
        it was has no home left (it is no longer a moved job; if it is
        moved again, the slot it leaves becomes its home)."""
        assert s.empty()
        slots.remove(s)
        for s2 in slots:
            for j in s2.jobs():
                if j.home is s:
                    j.home = None
                    j.can_return = False

    def move(j, dst):
        for i in j.pes:
            assert j.slot.pes[i] is j and dst.pes[i] is None
            j.slot.pes[i] = None
            dst.pes[i] = j
        src = j.slot
        j.slot = dst
        return src

    def alternative_scheduling(now, on_move=None):
        """MODEL.md: "at every job end and slot switch, jobs of other slots
        whose PEs are all idle in the current slot move into it (visiting
        slots in ring order from the current one, jobs by lowest PE). A
        moved job remembers its original slot"; "A slot emptied by moves is
        removed (the moved jobs stay)".  Returns the jobs moved in."""
        cur = st["cur"]
        if not alternative or cur is None:
            return []
        moved = []
        k = idx(cur)
        ring = [slots[(k + d) % len(slots)] for d in range(1, len(slots))]
        for s in ring:
            if s not in slots:
                continue
            for j in s.jobs():
                if all(cur.pes[i] is None for i in j.pes):
                    src = move(j, cur)
                    if j.home is None:
                        j.home = src
                        j.can_return = True
                    moved.append(j)
                    if on_move:
                        on_move(j)
                    if src.empty():
                        remove_slot(src)
        return moved

    def switch_to(nxt, now):
        """Make slot nxt current.  Issue 23 part 2: stops before starts;
        "jobs moved in first, then the slot's own".  METRICS.md: "a job
        moved by alternative scheduling while running keeps its stretch":
        a job of the outgoing slot that moves into nxt (its PEs idle
        there) goes on computing, with no stop and no PCS."""
        cur = st["cur"]
        was_running = [j for j in (cur.jobs() if cur in slots else [])
                       if j.resume is not None]
        st["cur"] = nxt
        # MODEL.md: "When a job's home slot comes round, moving it back
        # happens before alternative scheduling fills that slot"; "it moves
        # back if its PEs there are still free, otherwise it stays for
        # good"; "a job placed on those PEs, even one still waiting for its
        # turn, keeps the moved job from returning" (can_return is cleared
        # at such a placement, see place()).
        moved_in = []       # by alternative scheduling, in move order
        if alternative:
            for s in list(slots):
                if s is nxt or s not in slots:
                    continue
                for j in s.jobs():
                    if j.home is nxt:
                        ok = (j.can_return or return_rule == "free_now") \
                            and all(nxt.pes[i] is None for i in j.pes)
                        j.home = None
                        j.can_return = False
                        if ok:
                            # MODEL.md, start order at a switch: "then the
                            # slot's own jobs (moved back included) by
                            # lowest PE": a job moved back is not one of
                            # the jobs moved in that start first.
                            src = move(j, nxt)
                            if src.empty():
                                remove_slot(src)
        def note(j):
            if index_at_move:
                j.move_idx = idx(nxt)
        moved_in += alternative_scheduling(now, note)
        for j in was_running:
            if j.slot is not nxt:
                stop(j, now)
        own = [j for j in nxt.jobs() if j not in moved_in]
        for j in moved_in + own:
            if j.resume is None:
                run_in_current(j, now, False)
        # MODEL.md: "The quantum timer starts when a second slot appears
        # and restarts at every switch".
        st["timer"] = now + quantum if len(slots) >= 2 else None

    def job_end(j, now):
        """A job ends (its last CPU second done): leaves the matrix; then
        alternative scheduling (techreport §4.4.2: "Whenever a process
        terminates or the scheduler progresses to the next time slot, the
        unification algorithm is invoked"); MODEL.md: "When the current
        slot empties, the next one is switched in at once"."""
        close(j, now)
        j.resume = None
        result[j.id] = (j.first, now)
        cur = j.slot
        assert cur is st["cur"]
        for i in j.pes:
            cur.pes[i] = None
        if cur.empty():
            k = idx(cur)
            slots.remove(cur)
            for s2 in slots:
                for x in s2.jobs():
                    if x.home is cur:
                        x.home = None
                        x.can_return = False
            st["cur"] = None
            if slots:
                switch_to(slots[k % len(slots)], now)
            else:
                st["timer"] = None
        else:
            # The moved job's stretch begins at its move, before the slot
            # it emptied is removed: its schedule.csv `slot` is the index
            # the current slot had then (METRICS.md: "the slot's index ...
            # when the stretch began"; reading found by comparison).
            alternative_scheduling(
                now, lambda x: run_in_current(x, now, False))
            if len(slots) < 2:
                st["timer"] = None

    def choose_slot(j):
        """Techreport §2.1.2 Packing: "FIRSTFIT - packs new job in the
        first time slot found with adequate PE's available. BESTFIT - ...
        the time slot with the least amount of adequate PE's available.
        WORSTFIT - ... the time slot with the most PE's available."
        MODEL.md: "Packing ties go to the earliest slot; new slots are
        appended."  Reading: a new slot (below the MPL) only when no
        existing slot has room."""
        fits = [s for s in slots if s.nfree() >= j.threads]
        if fits:
            if packing == "FIRSTFIT":
                return fits[0]
            if packing == "BESTFIT":
                return min(fits, key=lambda s: (s.nfree(), idx(s)))
            return min(fits, key=lambda s: (-s.nfree(), idx(s)))
        if mpl == 0 or len(slots) < mpl:
            s = Slot(npes)
            slots.append(s)
            return s
        return None

    def place(j, s, now):
        pes = [i for i, x in enumerate(s.pes) if x is None][:j.threads]
        j.pes = pes
        j.slot = s
        for i in pes:
            s.pes[i] = j
        for s2 in slots:
            for x in s2.jobs():
                if x.home is s and set(x.pes) & set(pes):
                    # MODEL.md: it "stays for good": from this placement
                    # on it belongs to the slot it is in and is no longer
                    # a moved job, as when its home slot is removed; if
                    # alternative scheduling moves it again, the slot it
                    # leaves becomes its home (reading written down in
                    # MODEL.md after oracle seed 2802008).  The free_now
                    # emulation keeps the old home (pnrsim on 9e70cb8).
                    x.can_return = False
                    if return_rule != "free_now":
                        x.home = None
        if st["cur"] is None:
            st["cur"] = s
        if s is st["cur"]:
            run_in_current(j, now, True)
        if len(slots) >= 2 and st["timer"] is None:
            st["timer"] = now + quantum

    def placement_pass(now):
        """MODEL.md, Placement pass: "the scheduler places queued jobs at
        every instant where free room may have appeared"; strict_order:
        "a job that cannot be placed blocks the ones behind it; `no` lets
        later jobs that fit go first"."""
        for j in list(queue):
            s = choose_slot(j)
            if s is None:
                if strict:
                    break
                continue
            queue.remove(j)
            place(j, s, now)

    def ends_at(now):
        cur = st["cur"]
        if cur is None:
            return []
        out = [j for j in cur.jobs()
               if j.resume is not None and j.resume + j.left == now]
        return sorted(out, key=lambda j: j.seq)

    def next_time():
        c = []
        if ai < len(pending):
            c.append(pending[ai].submit)
        if st["timer"] is not None:
            c.append(st["timer"])
        cur = st["cur"]
        if cur is not None:
            for j in cur.jobs():
                if j.resume is not None:
                    c.append(j.resume + j.left)
        return min(c) if c else None

    def drain(now):
        """Every job of the current slot whose work is done at now ends
        (in the order its run began: the order of the end events)."""
        while True:
            e = ends_at(now)
            if not e:
                return
            job_end(e[0], now)

    def show(now, what):
        if not debug:
            return
        cells = []
        for s in slots:
            c = "".join("." if j is None else chr(48 + j.id % 75)
                        for j in s.pes)
            mark = "*" if s is st["cur"] else " "
            cells.append(mark + c)
        print("t=%-5s %-10s %s  q=%s" % (now, what, " ".join(cells),
                                          [j.id for j in queue]))

    gj = {j.id: GJob(j) for j in jobs}
    while True:
        now = next_time()
        if now is None:
            break
        show(now, "before")
        # MODEL.md, Event kernel: model events (completions) first, then
        # arrivals in trace order, then the quantum end ("A quantum end is
        # a scheduler event (class after model events)"), then one pass
        # ("the pass is the last scheduler event of the instant").
        drain(now)
        while ai < len(pending) and pending[ai].submit == now:
            queue.append(gj[pending[ai].id])
            ai += 1
        if st["timer"] == now:
            if len(slots) >= 2:
                k = idx(st["cur"])
                switch_to(slots[(k + 1) % len(slots)], now)
            else:
                st["timer"] = None
            # a job switched in with no work left (zero-length, placed in
            # a waiting slot) ends at once: a model event, before the pass
            drain(now)
        placement_pass(now)
        # "Events created by the scheduler's pass at the same instant (a
        # zero-length job's end) run after it, and may trigger one more
        # pass."
        while ends_at(now):
            drain(now)
            placement_pass(now)
        show(now, "after")
    assert not queue, "jobs never placed"
    return result, rows
