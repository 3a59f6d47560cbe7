"""Turning event-exact tables into pixel arrays (numpy only, no drawing).

Every picture of a run is drawn from arrays with one cell per pixel
column of the time axis (and per PE row), computed exactly from the
events, so a picture looks the same at any scale and draws in the same
time whether the window holds 10 or 400,000 stretches:

- ``gantt_raster``: which job covers most of each (PE, slot, pixel
  column) cell; what is finer than a pixel is aggregated, never dropped
  from the arithmetic;
- ``spread_sum``: amounts spread evenly over intervals (paging time of a
  burst), summed per row and column;
- ``step_max`` / ``step_mean_total``: step functions (a value that holds
  until the next change: memory.csv) as their maximum per row and column,
  and the time average of their sum over rows per column;
- ``group_rows``: rows aggregated when they outnumber the pixel rows.
"""
import numpy as np

IDLE = -1
SWITCH = -2


def _columns(t0, t1, width):
    """Column edges (width + 1 times) and the column length."""
    dt = (t1 - t0) / width
    return t0 + dt * np.arange(width + 1), dt


def gantt_raster(job, slot, start, end, first_pe, npes, pcs, n_pes, mpl, t0, t1, width):
    """The gang matrix as cells (mpl, n_pes, width) of job numbers.

    Inputs are arrays of schedule.csv's columns (one stretch each: job in
    slot `slot` on PEs first_pe .. first_pe + npes - 1, computing from
    start to end after a parallel context switch of pcs s). A cell holds
    the job covering most of its time, IDLE when idle time is more than
    any job's, SWITCH when a context switch at least a column long covers
    most of it. A switch shorter than a column counts as time of the job
    it switches in (the job holds the PE). Returns (cells, switches)
    where switches[c] counts the context switches (jobs switched in,
    pcs > 0) starting in column c.
    """
    edges, dt = _columns(t0, t1, width)
    cells = np.full((mpl, n_pes, width), IDLE, dtype=np.int32)
    switches = np.zeros(width, dtype=np.int64)
    sw = pcs > 0
    if sw.any():
        ts = start[sw] - pcs[sw]
        inwin = (ts >= t0) & (ts < t1)
        col = np.minimum(((ts[inwin] - t0) / dt).astype(np.int64), width - 1)
        # one count per job switched in (a job on non-contiguous PEs has
        # several rows for one switch)
        key = np.unique(np.stack([job[sw][inwin], ts[inwin]]), axis=1) if inwin.any() else None
        if key is not None:
            col = np.minimum(((key[1] - t0) / dt).astype(np.int64), width - 1)
            switches = np.bincount(col, minlength=width).astype(np.int64)
    wide = pcs >= dt
    a = np.where(wide, start, start - pcs)
    # rectangles: the stretches, then the wide switches as SWITCH
    R_id = np.concatenate([job, np.full(int(wide.sum()), SWITCH)])
    R_s = np.concatenate([slot, slot[wide]])
    R_p0 = np.concatenate([first_pe, first_pe[wide]])
    R_p1 = R_p0 + np.concatenate([npes, npes[wide]])
    R_a = np.concatenate([a, start[wide] - pcs[wide]])
    R_b = np.concatenate([end, start[wide]])
    keep = (R_b > t0) & (R_a < t1) & (R_b > R_a) & (R_s >= 0) & (R_s < mpl) & (R_p0 < n_pes)
    R_id, R_s, R_p0, R_p1, R_a, R_b = (x[keep] for x in (R_id, R_s, R_p0, R_p1, R_a, R_b))
    R_p1 = np.minimum(R_p1, n_pes)
    x0 = (np.maximum(R_a, t0) - t0) / dt
    x1 = (np.minimum(R_b, t1) - t0) / dt
    # whole columns covered by one rectangle: ceil(x0) .. floor(x1) - 1
    f0 = np.ceil(x0).astype(np.int64)
    f1 = np.floor(x1).astype(np.int64)
    full = f1 > f0
    for s, p0, p1, c0, c1, j in zip(R_s[full], R_p0[full], R_p1[full], f0[full], f1[full], R_id[full]):
        cells[s, p0:p1, c0:c1] = j
    # partial columns: the left one (floor(x0), when x0 is not on an edge or
    # the rectangle ends in it) and the right one (floor(x1) when x1 is not on an edge)
    cl = np.floor(x0).astype(np.int64)
    left = (x0 > cl) | (f1 <= f0)
    cov_l = np.minimum(x1, cl + 1) - x0
    cr = f1
    right = (x1 > cr) & (cr > cl) & (cr < width)
    cov_r = x1 - cr
    P = {k: np.concatenate([v[left], v[right]]) for k, v in
         (("s", R_s), ("p0", R_p0), ("p1", R_p1), ("id", R_id))}
    P["c"] = np.concatenate([cl[left], cr[right]])
    P["cov"] = np.concatenate([cov_l[left], cov_r[right]])
    ok = (P["c"] >= 0) & (P["c"] < width) & (P["cov"] > 0)
    P = {k: v[ok] for k, v in P.items()}
    if len(P["c"]):
        # one piece per (slot, PEs, column, job): a job's stretches in one column add up
        key = np.stack([P["s"], P["p0"], P["p1"], P["c"], P["id"]])
        uk, inv = np.unique(key, axis=1, return_inverse=True)
        inv = inv.reshape(-1)
        cov = np.bincount(inv, weights=P["cov"])
        s, p0, p1, c, j = uk
        # total covered fraction of each cell (difference along PEs, then cumsum)
        tot = np.zeros((mpl, n_pes + 1, width), dtype=np.float32)
        np.add.at(tot, (s, p0, c), cov)
        np.add.at(tot, (s, p1, c), -cov)
        tot = np.cumsum(tot, axis=1, dtype=np.float32)[:, :n_pes, :]
        best = np.zeros((mpl, n_pes, width), dtype=np.float32)
        order = np.argsort(cov, kind="stable")
        part = np.full((mpl, n_pes, width), IDLE, dtype=np.int32)
        for i in order:  # larger coverage painted last wins
            part[s[i], p0[i]:p1[i], c[i]] = j[i]
            best[s[i], p0[i]:p1[i], c[i]] = cov[i]
        idle = 1.0 - tot
        show = (cells == IDLE) & (part != IDLE) & (best >= idle - 1e-5)
        cells[show] = part[show]
    return cells, switches


def group_rows(cells, groups):
    """Cells (mpl, n, width) with PEs taken `groups` at a time: the most
    frequent value of each group's cells (ties: the first PE's)."""
    m, n, w = cells.shape
    if groups <= 1:
        return cells
    ng = -(-n // groups)
    pad = np.full((m, ng * groups - n, w), IDLE, dtype=cells.dtype)
    c = np.concatenate([cells, pad], axis=1).reshape(m, ng, groups, w)
    counts = np.zeros((m, ng, groups, w), dtype=np.int32)
    for k in range(groups):
        counts[:, :, k, :] = (c == c[:, :, k:k + 1, :]).sum(axis=2)
    counts[c == IDLE] = 0  # idle only where every PE of the group is idle
    pick = counts.argmax(axis=2)
    out = np.take_along_axis(c, pick[:, :, None, :], axis=2)[:, :, 0, :]
    return out


def spread_sum(row, start, end, amount, n_rows, t0, t1, width):
    """(n_rows, width): each amount spread evenly over [start, end] of its
    row and summed per column (an interval of length 0 puts it all in the
    column of its start)."""
    edges, dt = _columns(t0, t1, width)
    out = np.zeros((n_rows, width))
    point = end <= start
    if point.any():
        t = start[point]
        w = (t >= t0) & (t < t1)
        c = np.minimum(((t[w] - t0) / dt).astype(np.int64), width - 1)
        np.add.at(out, (row[point][w], c), amount[point][w])
    iv = ~point & (end > t0) & (start < t1)
    if iv.any():
        r, s, e = row[iv], start[iv], end[iv]
        rate = amount[iv] / (e - s)
        for k in np.unique(r):
            m = r == k
            out[k] += np.diff(_ramp(s[m], rate[m], edges) - _ramp(e[m], rate[m], edges))
    return out


def _ramp(at, rate, x):
    """sum_i rate_i * max(0, x - at_i) at each x (at, rate: arrays)."""
    o = np.argsort(at, kind="stable")
    at, rate = at[o], rate[o]
    cr = np.concatenate([[0.0], np.cumsum(rate)])
    ca = np.concatenate([[0.0], np.cumsum(rate * at)])
    k = np.searchsorted(at, x, side="left")
    return x * cr[k] - ca[k]


def step_max(row, time, value, n_rows, t0, t1, width):
    """(n_rows, width): the maximum over each column of each row's step
    function (value holds from its time to the row's next change; the
    last change at one instant is the state after it; 0 before the first)."""
    edges, dt = _columns(t0, t1, width)
    out = np.zeros((n_rows, width))
    if len(time) == 0:
        return out
    o = np.lexsort((np.arange(len(time)), time, row))
    row, time, value = row[o], time[o], value[o]
    # several rows at one instant: only the last is a state that held
    last = np.concatenate([(row[1:] != row[:-1]) | (time[1:] != time[:-1]), [True]])
    row, time, value = row[last], time[last], value[last]
    bounds = np.searchsorted(row, np.arange(n_rows + 1))
    for k in range(n_rows):
        a, b = bounds[k], bounds[k + 1]
        if a == b:
            continue
        t, v = time[a:b], value[a:b]
        i = np.searchsorted(t, edges[:-1], side="right") - 1
        out[k] = np.where(i >= 0, v[np.maximum(i, 0)], 0.0)
        w = (t >= t0) & (t < t1)
        c = np.minimum(((t[w] - t0) / dt).astype(np.int64), width - 1)
        np.maximum.at(out[k], c, v[w])
    return out


def step_mean_total(row, time, value, t0, t1, width):
    """(width,): the time average over each column of the sum over rows of
    each row's step function (as in step_max)."""
    edges, dt = _columns(t0, t1, width)
    if len(time) == 0:
        return np.zeros(width)
    o = np.lexsort((np.arange(len(time)), time, row))
    row, time, value = row[o], time[o], value[o]
    prev = np.concatenate([[0.0], value[:-1]])
    first = np.concatenate([[True], row[1:] != row[:-1]])
    delta = value - np.where(first, 0.0, prev)
    integral = _ramp(time, delta, edges)
    return np.diff(integral) / dt
