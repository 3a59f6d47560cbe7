"""pnrsim.util_plot: a run's utilisation over time (issue 37 item 4).

``utilisation(run)`` draws the cores busy against time: stacked, one band
per gang slot, the cores that the jobs of that slot hold while they are
scheduled (schedule.csv's stretches, event-exact: a stretch of ``pes``
cores from ``start`` to ``end``, after its context switch; without
schedule.csv, jobs.csv's last placements from start to end as the Gantt
chart does), so the top of the stack is the whole machine's busy cores;
and, when pes.csv is there, a line with the cores computing (pes.csv's
``cpu_busy``, each node's busy cores, x the nodes of the row, sampled:
over the span since the previous sample, many periods after the sampler
skipped an idle stretch). Each pixel column shows the time average over the column, so the
area under each curve is its exact time integral, whatever the width: the
integral of the stack is sum(pes x (end - start)) over the stretches, and
of the line sum(cpu_busy x nodes x span) over pes.csv, which is
metrics.json's ``cpu_busy_total`` up to the last sample.

Reading (docs/METRICS.md "Utilisation over time"): a stretch counts its
cores as busy for all of its length, paging and message waits included
(the core is held by the gang slot, no other job can use it), and its
parallel context switch ([start - pcs, start]) as not busy. So without
paging or message CPU costs the stack's integral equals metrics.json's
``cpu_busy_total`` (the seconds cores computed; tests/test_utilisation.sh
checks it within 1e-6 relative); with paging the stack lies above the
pes.csv line by the cores held while paging.

``busy_cores(run, t0, t1, width)`` gives the numbers drawn; the picture is
registered in ``pnrsim.plots.PICTURES`` as ``utilisation``.
"""
import numpy as np

from . import raster


def _plots():
    from . import plots
    return plots


def held_seconds(run):
    """sum over the stretches (schedule.csv, else jobs.csv's last
    placements) of cores x (end - start): the core-seconds the gang slots
    held; None when the run has neither."""
    arrs, _ = _plots()._stretches(run)
    if arrs is None:
        return None
    _, _, start, end, _, npes, _ = arrs
    return float(np.sum(npes.astype(float) * np.clip(end - start, 0.0, None)))


def busy_cores(run, t0, t1, width):
    """Mean busy cores per column of [t0, t1] cut into width columns:
    a dict with ``slots`` (n_slots, width): cores held by each gang slot's
    stretches; ``total`` (width,): their sum; ``computing`` (width,) or
    None: cores computing from pes.csv; ``source`` (the stretches' file);
    ``dt`` the column length (s). Column means x dt summed over the
    columns give the integrals over [t0, t1]."""
    dt = (t1 - t0) / width
    arrs, src = _plots()._stretches(run)
    slots = np.zeros((1, width))
    if arrs is not None and len(arrs[0]):
        _, slot, start, end, _, npes, _ = arrs
        slot = slot.astype(np.int64)
        keep = end > start
        amount = npes.astype(float) * (end - start)
        n = int(slot.max()) + 1
        slots = raster.spread_sum(slot[keep], start[keep], end[keep], amount[keep], n,
                                  t0, t1, width) / dt
    computing = None
    pr = _plots()._pes_rows(run)
    if pr is not None and "cpu_busy" in pr[3]:
        row, t, prev, p = pr
        # cpu_busy is the mean over the row's nodes of each node's busy
        # cores (summed over its cores: 0..C, docs/METRICS.md), so the
        # row's busy cores are cpu_busy x its nodes.
        nodes = p.last_pe.to_numpy() - p.first_pe.to_numpy() + 1
        amount = p.cpu_busy.to_numpy(dtype=float) * nodes * np.clip(t - prev, 0.0, None)
        zero = np.zeros(len(t), dtype=np.int64)
        computing = raster.spread_sum(zero, prev, t, amount, 1, t0, t1, width)[0] / dt
        # No sample covers the columns after the last one (pes.csv has no
        # row at the run's end): nothing is drawn there.
        covered = t0 + (np.arange(width) + 0.5) * dt <= float(t.max())
        computing = np.where(covered, computing, np.nan)
    return {"slots": slots, "total": slots.sum(axis=0), "computing": computing,
            "source": src, "dt": dt}


def utilisation(run, ax=None, t0=None, t1=None, unit=None):
    """Busy cores against time: one stacked band per gang slot (cores held
    by its scheduled jobs, schedule.csv), the machine's total on top, and
    the cores computing (pes.csv, sampled) as a line. Returns the axes."""
    P = _plots()
    ax, a, b, whole, unit = P._setup(run, ax, t0, t1, unit, plot_h=300)
    name, div = unit
    w = P._width(ax)
    x = (a + (np.arange(w) + 0.5) * (b - a) / w) / div
    d = busy_cores(run, a, b, w)
    ncores = run.num_pes()
    P._time_axis(ax, a, b, unit)
    uses = " ".join(s for s in (d["source"], "pes.csv" if d["computing"] is not None
                                else "") if s)
    P._title(run, ax, "Busy cores of the machine (%d cores), stacked per gang slot (%s)"
             % (ncores, d["source"] or "no schedule"), uses=uses, fontsize=11, pad=22)
    if d["source"] is None:
        P._note(ax, "no schedule.csv or placements in jobs.csv (run pnrsim with --schedule)")
        ax.set_ylim(0, max(1, ncores))
        return ax
    slots = d["slots"]
    cmap = P.plt.get_cmap("tab10")
    base = np.zeros(w)
    for k in range(slots.shape[0]):
        top = base + slots[k]
        ax.fill_between(x, base, top, step="mid", color=cmap(k % 10), alpha=0.75, lw=0,
                        label="slot %d" % k)
        base = top
    ax.step(x, d["total"], where="mid", color="#333333", lw=0.8,
            label="all slots (held, time average per pixel)")
    if d["computing"] is not None:
        ax.step(x, d["computing"], where="mid", color="#d62728", lw=1.0, ls="--",
                label="computing (pes.csv, sampled)")
    ax.axhline(ncores, color="#888888", lw=0.8, ls=":")
    ax.set_ylim(0, max(1.0, float(ncores)) * 1.05)
    ax.set_ylabel("busy cores")
    ax.grid(True, color="#dddddd")
    ax.set_axisbelow(True)
    ax.legend(loc="lower left", bbox_to_anchor=(0.0, 1.0), ncol=6, fontsize=8,
              frameon=False)
    if float(d["total"].max()) <= 0:
        ax.text(0.5, 0.5, "no core busy %s" % P._where(whole), transform=ax.transAxes,
                ha="center", fontsize=11, color="#333333")
    return ax
