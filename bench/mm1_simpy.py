#!/usr/bin/python3
"""bench/mm1_simpy.py: the M/M/1 of tests/mm1.h in SimPy 2 (Debian
python3-simpy, SimPy.Simulation), for comparison with bench/bench_mm1.c.

Same model: a source creates customers at Exp(lambda) intervals, lambda 0.9;
each customer requests the server (a Resource of capacity 1, FIFO), holds
it for Exp(mu), mu 1, and releases it. Run with /usr/bin/python3 (the Debian
interpreter that has SimPy 2).

What is counted as an "event": every event notice SimPy's scheduler takes
from its event list and dispatches (one resumption of a process generator),
which is what sim.dispatched counts in the C kernel. SimPy posts a notice
with Simulation._post, which decrements Simulation._sortpr by one each time;
no notice is cancelled in this model and none remains at the end, so
dispatched = -_sortpr, read at no cost to the run. For this model SimPy
dispatches 5 per customer (customer start, request granted, hold end,
release continuation, and the source's hold end) where the C model needs
about 3.9 (no notice for an immediate grant or for continuing after a
release). Because the two do different numbers of events per customer, the
customers/s figure is the like-for-like comparison; arrivals + departures
(2 per customer, how some SimPy figures are quoted) are printed as well.
`--verify` counts dispatches directly by wrapping Simulation.step (slower;
not timed) to check the -_sortpr figure.

Usage: mm1_simpy.py [customers] [--reps R] [--verify]
Output, one line per figure:
  mm1 simpy customers=1000000 dispatched=5000000 events/customer=5.000
  mm1 simpy events reps=1 Mevents/s=0.35 ...
  mm1 simpy customers reps=1 Mcustomers/s=0.070
  mm1 simpy arrdep reps=1 Marrdep/s=0.140
  mm1 simpy check Wq=9.05 theory_Wq=9.00
"""
import random
import sys
import time

from SimPy.Simulation import Process, Resource, Simulation, hold, release, request

LAMBDA = 0.9
MU = 1.0


class Customer(Process):
    def run(self, model):
        arrival = self.sim.now()
        yield request, self, model.server
        if model.created > model.warmup:
            model.wait_sum += self.sim.now() - arrival
            model.wait_n += 1
        yield hold, self, model.svc_rng.expovariate(MU)
        yield release, self, model.server


class Source(Process):
    def run(self, model):
        sim = self.sim
        while model.created < model.customers:
            yield hold, self, model.arr_rng.expovariate(LAMBDA)
            c = Customer(name="c", sim=sim)
            model.created += 1
            sim.activate(c, c.run(model))


class Model:
    def __init__(self, customers, seed):
        self.customers = customers
        self.warmup = customers // 10
        self.created = 0
        self.wait_sum = 0.0
        self.wait_n = 0
        self.arr_rng = random.Random(seed)
        self.svc_rng = random.Random(seed + 1)


def run_once(customers, seed, verify=False):
    sim = Simulation()
    sim.initialize()
    model = Model(customers, seed)
    model.server = Resource(capacity=1, name="server", sim=sim)
    src = Source(name="source", sim=sim)
    sim.activate(src, src.run(model))
    steps = None
    if verify:
        counter = [0]
        orig = sim.step

        def counted_step():
            counter[0] += 1
            return orig()

        sim.step = counted_step
    t0 = time.perf_counter()
    sim.simulate(until=float("inf"))
    t1 = time.perf_counter()
    if verify:
        steps = counter[0]
    dispatched = -sim._sortpr
    wq = model.wait_sum / model.wait_n if model.wait_n else 0.0
    return t1 - t0, dispatched, wq, steps


def main():
    args = sys.argv[1:]
    customers = 1000000
    reps = 1
    verify = False
    i = 0
    while i < len(args):
        a = args[i]
        if a == "--reps":
            reps = int(args[i + 1])
            i += 1
        elif a == "--verify":
            verify = True
        else:
            customers = int(a)
        i += 1
    if verify:
        _, dispatched, _, steps = run_once(min(customers, 20000), 12345, verify=True)
        print("mm1 simpy verify customers=%d sortpr_count=%d step_calls=%d match=%s"
              % (min(customers, 20000), dispatched, steps,
                 "yes" if dispatched == steps else "NO"))
    secs = []
    dispatched = 0
    wq = 0.0
    for _ in range(reps):
        s, dispatched, wq, _ = run_once(customers, 12345)
        secs.append(s)
    secs.sort()
    best = secs[0]
    med = secs[len(secs) // 2]
    print("mm1 simpy customers=%d rho=%.1f dispatched=%d events/customer=%.3f"
          % (customers, LAMBDA / MU, dispatched, dispatched / customers))
    print("mm1 simpy events reps=%d Mevents/s=%.4f median_Mevents/s=%.4f seconds=%.2f"
          % (reps, dispatched / best / 1e6, dispatched / med / 1e6, best))
    print("mm1 simpy customers reps=%d Mcustomers/s=%.5f median_Mcustomers/s=%.5f"
          % (reps, customers / best / 1e6, customers / med / 1e6))
    print("mm1 simpy arrdep reps=%d Marrdep/s=%.4f" % (reps, 2 * customers / best / 1e6))
    print("mm1 simpy check Wq=%.3f theory_Wq=%.3f" % (wq, LAMBDA / (MU * (MU - LAMBDA))))


if __name__ == "__main__":
    main()
