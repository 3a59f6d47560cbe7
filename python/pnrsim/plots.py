"""The pictures of one run, as functions a notebook can call.

Each of ``gantt``, ``paging``, ``overalloc``, ``memory`` and ``queue``
takes a :class:`pnrsim.run.Run` and optionally ``ax`` (draw into it; a
new figure with the standard layout otherwise), ``t0``/``t1`` (the
window, seconds or texts such as ``"100h"``; default the whole run) and
``unit`` (the time axis unit: a name s, min, h, d; default the unit
written in t1 or t0, "2d" -> d, else chosen from the window length by
``time_unit``), and returns the main axes (``ax.figure`` is the figure).
Everything is computed per pixel column from event-exact data
(pnrsim.raster), so the pictures are readable at any scale; a picture
with nothing to show carries a centred note saying so.

``render_all`` draws the six into a directory (what ``pnrsim-plot``
does). The figures are 1200 pixels wide at 100 dpi; the plot area of
each is at a fixed place, recorded with ``axes_boxes``.
"""
import colorsys
import math

import matplotlib

matplotlib.use("Agg")
# SVG ids (clip paths, glyphs) hash with a salt, random by default: a fixed
# one makes the same run's SVG byte-identical each time it is drawn.
matplotlib.rcParams["svg.hashsalt"] = "pnrsim"
import matplotlib.colors as mcolors  # noqa: E402
import matplotlib.patches  # noqa: E402,F401
import matplotlib.ticker  # noqa: E402,F401
import matplotlib.transforms  # noqa: E402,F401
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from . import raster  # noqa: E402
from .run import parse_time, time_unit_of  # noqa: E402

DPI = 100
FIG_W = 1200
LEFT, RIGHT, TOP, BOTTOM = 90, 150, 56, 62
PLOT_W = FIG_W - LEFT - RIGHT
MARK_H = 18  # pixels: the first title line of a cut run (_title)
MARK_GUTTER = 10  # pixels between a heat map's axis and its tick labels, for the row marks

UNITS = (("s", 1.0), ("min", 60.0), ("h", 3600.0), ("d", 86400.0))


def unit_named(unit):
    """(name, seconds) of a unit given as a name ("s", "min" or "m", "h",
    "d") or already as a pair; raises ValueError for another name."""
    if isinstance(unit, tuple):
        return unit
    name = "min" if unit == "m" else unit
    for u in UNITS:
        if u[0] == name:
            return u
    raise ValueError('"%s": expected a time unit s, min, h or d' % unit)


def asked_unit(t0=None, t1=None):
    """The unit written in the window asked (--from/--to texts): --to's
    when it has one, else --from's; None when neither names a unit (plain
    seconds or no window asked: time_unit chooses)."""
    name = time_unit_of(t1) or time_unit_of(t0)
    return unit_named(name) if name else None


def span_text(a, b, unit):
    """The window a .. b (seconds) in unit, rounded to what tells them
    apart: as many decimals as a hundredth of the window's length needs
    (none for 400 s in s, one for 59.4 d), trailing zeros dropped:
    "0 .. 59.4 d"."""
    name, div = unit_named(unit)
    length = (b - a) / div
    dec = 0 if length <= 0 else max(0, min(6, int(math.ceil(-math.log10(length / 100.0)))))

    def fmt(v):
        t = "%.*f" % (dec, v)
        return t.rstrip("0").rstrip(".") if "." in t else t
    return "%s .. %s %s" % (fmt(a / div), fmt(b / div), name)


def time_unit(length):
    """(name, seconds) of the time unit for a window `length` s long:
    s below 20 minutes, min below 12 hours, h below 10 days, else d."""
    if length < 1200:
        return UNITS[0]
    if length < 12 * 3600:
        return UNITS[1]
    if length < 10 * 86400:
        return UNITS[2]
    return UNITS[3]


def files_window(run):
    """(from, to) in seconds that the schedule files cover: [output]
    schedule_from and schedule_to of config.ini (0 there = the run's start
    or end), or None when they cover the whole run."""
    out = run.config.get("output", {})
    try:
        a = parse_time(out.get("schedule_from", "0"))
        b = parse_time(out.get("schedule_to", "0"))
    except ValueError:
        return None
    if a == 0 and b == 0:
        return None
    return a, (b or run.end_time())


def window(run, t0=None, t1=None):
    """(t0, t1, whole) in seconds: the window asked (texts with units
    allowed), default the window of the schedule files ([output]
    schedule_from, schedule_to of config.ini; 0 there = the run's start or
    end), else the whole run (0 .. its end); whole is True when it is the
    whole run. Raises ValueError for an empty window."""
    end = run.end_time()
    out = run.config.get("output", {})

    def cfg(key):
        try:
            v = parse_time(out.get(key, "0"))
        except ValueError:
            return 0.0
        return v

    whole = t0 is None and t1 is None and cfg("schedule_from") == 0 and cfg("schedule_to") == 0
    a = cfg("schedule_from") if t0 is None else parse_time(t0)
    if t1 is not None:
        b = parse_time(t1)
    else:
        b = cfg("schedule_to") or end
        if b <= a:
            raise ValueError("--from %g s is not before the end of the run (%g s): give --to too"
                             % (a, b))
    if b <= a:
        raise ValueError("the window %g .. %g s is empty (--from must be below --to)" % (a, b))
    return a, b, whole


def job_colour(job):
    """RGB (0..1) of a job: a hue from the job number times the golden
    ratio (neighbouring numbers far apart), two saturations and two
    values, never near black, white or grey."""
    h = (job * 0.6180339887498949) % 1.0
    s = 0.55 if job % 2 else 0.85
    v = 0.78 if job % 3 == 0 else 0.95
    return colorsys.hsv_to_rgb(h, s, v)


def _figure(plot_h, extra_top=0):
    """A figure with one plot area plot_h pixels high at the standard place."""
    h = TOP + extra_top + plot_h + BOTTOM
    fig = plt.figure(figsize=(FIG_W / DPI, h / DPI), dpi=DPI)
    ax = fig.add_axes([LEFT / FIG_W, BOTTOM / h, PLOT_W / FIG_W, plot_h / h])
    return fig, ax


def _marks(run, uses=None):
    """The words that say a run's results are cut, "" when they are not:
    "[partial: run interrupted by SIGINT at t=... s]" for a run
    interrupted by a signal (run.partial, the # PARTIAL line's words) and
    "[cut by a cap: FILE, ...]" for the files metrics.json lists as
    truncated, of those a picture is drawn from: the files named in the
    text uses (its title and sources), every cut file when uses is None."""
    out = []
    if getattr(run, "partial", False):
        note = (run.partial_note or "").replace("PARTIAL results: ", "")
        out.append("[partial: %s]" % (note or "run interrupted"))
    cut = [str(e.get("file")) for e in getattr(run, "truncated", []) if e.get("file")]
    if uses is not None:
        cut = [f for f in cut if f.replace(".gz", "") in uses]
    if cut:
        out.append("[cut by a cap: %s]" % ", ".join(cut))
    return " ".join(out)


def _title(run, ax, text, uses="", **kw):
    """Set ax's title; when the run's results are cut (_marks: a signal,
    or a cap that cut a file named in text or uses, the picture's sources)
    the marks make a first line of it (the figure is MARK_H pixels taller
    when the run has any mark, _setup), so that no picture of cut results
    passes for a whole run."""
    m = _marks(run, text + " " + uses)
    ax.set_title(m + "\n" + text if m else text, **kw)


def _note(ax, text):
    """A centred note in the plot area (when there is nothing to show)."""
    ax.text(0.5, 0.5, text, transform=ax.transAxes, ha="center", va="center",
            fontsize=14, color="#333333",
            bbox=dict(boxstyle="round,pad=0.6", fc="white", ec="#888888"))
    ax.pnrsim_note = text


def _where(whole):
    return "in this run" if whole else "in this window"


def _time_axis(ax, t0, t1, unit):
    """The x axis in `unit`, plain numbers (no offset), limited to the window."""
    name, div = unit
    ax.set_xlim(t0 / div, t1 / div)
    ax.set_xlabel("time (%s)" % name)
    ax.ticklabel_format(axis="x", useOffset=False, style="plain")


def _width(ax):
    """The pixel width of an axes (the number of time columns)."""
    fig = ax.figure
    return max(1, int(round(ax.get_position().width * fig.get_figwidth() * fig.dpi)))


def _height(ax):
    fig = ax.figure
    return max(1, int(round(ax.get_position().height * fig.get_figheight() * fig.dpi)))


def _after_end(run, a, b, w):
    """Columns (boolean, width w) that start at or after the run's end:
    step functions (memory, queue) hold nothing there."""
    return a + np.arange(w) * (b - a) / w >= run.end_time()


def _setup(run, ax, t0, t1, unit, plot_h=440, extra_top=0):
    a, b, whole = window(run, t0, t1)
    if unit is None:
        unit = asked_unit(t0, t1) or time_unit(b - a)
    unit = unit_named(unit)
    if ax is None:
        _, ax = _figure(plot_h, extra_top + (MARK_H if _marks(run) else 0))
    return ax, a, b, whole, unit


# ---- Gantt chart -------------------------------------------------------------------


def _stretches(run):
    """Arrays (job, slot, start, end, first_pe, pes, pcs) of the gang
    matrix: schedule.csv's rows; without it, jobs.csv's last placements
    (slot, pes ranges) from start to end (or the run's end). Returns
    (arrays, source) or (None, None)."""
    s = run.schedule
    if s is not None:
        return tuple(s[c].to_numpy() for c in ("job", "slot", "start", "end", "first_pe",
                                                "pes", "pcs")), "schedule.csv"
    j = run.jobs
    if j is None or "pes" not in j or "slot" not in j:
        return None, None
    from .run import parse_ranges
    end = run.end_time()
    rows = []
    for job, slot, st, en, pes in zip(j.job, j.slot, j.start, j.end, j.pes):
        if isinstance(pes, str) and not math.isnan(st) and not math.isnan(slot):
            for lo, hi in parse_ranges(pes):
                rows.append((job, slot, st, en if not math.isnan(en) else end, lo, hi - lo + 1, 0.0))
    if not rows:
        return None, None
    a = np.array(rows, dtype=float)
    return (a[:, 0].astype(np.int64), a[:, 1].astype(np.int64), a[:, 2], a[:, 3],
            a[:, 4].astype(np.int64), a[:, 5].astype(np.int64), a[:, 6]), \
        "jobs.csv (last placements; no context switches)"


def gantt_ylabel(groups, mpl):
    """The Gantt chart's y label: what a row is (a PE, or a group of PEs)
    and, at MPL > 1, what its sub-rows are: the gang slots (rows of the
    gang matrix, Ousterhout), one per slot, slot 0 lowest."""
    row = "PE" if groups == 1 else "PE (rows: groups of %d PEs)" % groups
    if mpl <= 1:
        return row
    sub = "sub-rows: gang slots 0-%d, slot 0 lowest" % (mpl - 1)
    return ("PE (%s)" % sub) if groups == 1 else "PE (rows: groups of %d PEs; %s)" % (groups, sub)


def gantt(run, ax=None, t0=None, t1=None, unit=None):
    """The gang matrix: PEs up (each PE row split into one sub-row per
    slot, slot 0 lowest), time across, a colour per job (job_colour),
    idle white; context switches black where at least a pixel wide, and
    counted per pixel column in a grey strip above the chart. Each pixel
    shows the job covering most of its time (raster.gantt_raster)."""
    data, source = _stretches(run)
    n = run.num_pes()
    mpl = max(1, int(data[1].max()) + 1) if data is not None and len(data[1]) else 1
    groups = max(1, -(-n * mpl // 1000))
    ng = -(-n // groups)
    per = max(1, 1000 // (ng * mpl))
    ax, a, b, whole, unit = _setup(run, ax, t0, t1, unit, plot_h=max(240, ng * mpl * per),
                                   extra_top=40)
    fig = ax.figure
    w = _width(ax)
    name, div = unit
    pos = ax.get_position()
    strip_h = 22 / (fig.get_figheight() * fig.dpi)
    sax = fig.add_axes([pos.x0, pos.y1 + 6 / (fig.get_figheight() * fig.dpi), pos.width, strip_h])
    ax.pnrsim_strip = sax
    sax.set_yticks([])
    sax.set_xticks([])
    _time_axis(ax, a, b, unit)
    ax.set_ylabel(gantt_ylabel(groups, mpl))
    if data is None:
        ax.set_ylim(-0.5, n - 0.5)
        _note(ax, "no schedule.csv (run pnrsim with --schedule): no Gantt chart")
        sax.set_xlim(0, 1)
        return ax
    cells, switches = raster.gantt_raster(*data, n_pes=n, mpl=mpl, t0=a, t1=b, width=w)
    cells = raster.group_rows(cells, groups)
    ids = np.unique(cells)
    jobs = ids[ids >= 0]
    table = np.ones((len(ids), 3))
    for k, j in enumerate(ids):
        if j == raster.SWITCH:
            table[k] = (0, 0, 0)
        elif j >= 0:
            table[k] = job_colour(int(j))
    idx = np.searchsorted(ids, cells)
    # rows: group g, slot s -> image row g * mpl + s (origin lower)
    img = table[idx].transpose(1, 0, 2, 3).reshape(ng * mpl, w, 3)
    ax.imshow(img, origin="lower", aspect="auto", interpolation="nearest",
              extent=(a / div, b / div, -0.5, ng * groups - 0.5))
    ax.set_ylim(-0.5, ng * groups - 0.5)
    dens = switches.astype(float)[None, :]
    top = max(1.0, dens.max())
    sax.imshow(dens, aspect="auto", interpolation="nearest", cmap="Greys", vmin=0, vmax=top,
               extent=(a / div, b / div, 0, 1))
    sax.set_xlim(a / div, b / div)
    _title(run, sax, "Gang matrix: %d jobs shown on %d PEs, MPL %d, %s (%s)"
                  % (len(jobs), n, mpl, span_text(a, b, unit), source),
                  fontsize=11, pad=4)
    sax.set_ylabel("switches", rotation=0, ha="right", va="center", fontsize=8)
    sax.text(1.01, 0.5, "max %d per\npixel column" % int(top), transform=sax.transAxes,
             fontsize=7, va="center")
    ax.pnrsim_jobs = len(jobs)
    if len(jobs) == 0:
        _note(ax, "no job ran %s" % _where(whole))
    elif len(jobs) <= 20:
        ax.pnrsim_legend = [int(j) for j in jobs]
        handles = [matplotlib.patches.Patch(color=job_colour(int(j)), label="job %d" % j)
                   for j in jobs]
        if (ids == raster.SWITCH).any():
            handles.append(matplotlib.patches.Patch(color="black", label="context switch"))
        ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8,
                  frameon=False)
    return ax


# ---- heat maps --------------------------------------------------------------------


def _heat_rows(n):
    """(groups, pixel rows per group row) for n node rows in at most 600 pixels."""
    g = max(1, -(-n // 600))
    ng = -(-n // g)
    return g, max(1, min(8, 600 // ng))


def _group_nodes(arr, g, how):
    if g == 1:
        return arr
    n, w = arr.shape
    ng = -(-n // g)
    pad = np.zeros((ng * g - n, w))
    a = np.concatenate([arr, pad]).reshape(ng, g, w)
    return a.max(axis=1) if how == "max" else a.sum(axis=1) / g


def _pes_rows(run, events=False):
    """pes.csv as (row index, time, previous sample time, frame) or None.

    A row's figures over time (page_faults, paging_time, cpu_busy) are over
    the span since the sampler's previous sample (app/run.c sample()),
    which is the previous row of the same PE: every sample writes a row
    per PE, and after an idle stretch the sampler skips periods (a long
    computation without events), so that span can be many periods. The
    first row of a PE starts at 0 (the sampler starts at the run's start)
    or, when the files cover a window ([output] schedule_from > 0), at
    max(from, time - metrics_period): the sample before the window is not
    in the file, and that one row is drawn over at most one period.

    events=True (page_faults, paging_time: counted when a fault ends, a
    model event): a row is over at most the last period. The sampler only
    skips periods without a model event, up to the last multiple before
    the next one, so a skip's fault ends all lie in its last period (a
    continuous figure such as cpu_busy covers the whole span)."""
    p = run.pes
    if p is None or not len(p):
        return None
    p = p.sort_values(["first_pe", "time"], kind="stable")
    row = p.first_pe.rank(method="dense").to_numpy().astype(np.int64) - 1
    t = p.time.to_numpy()
    first = np.concatenate([[True], row[1:] != row[:-1]])
    prev = np.concatenate([[0.0], t[:-1]])
    win = files_window(run)
    if win is not None and win[0] > 0:
        period = run.setting("simulation", "metrics_period")
        lo = t - (period if isinstance(period, float) else 0.0)
        start = np.maximum(lo, win[0])
    else:
        start = np.zeros(len(t))
    prev = np.where(first, np.minimum(start, t), prev)
    if events:
        period = run.setting("simulation", "metrics_period")
        if isinstance(period, float):
            prev = np.maximum(prev, t - period)
    return row, t, prev, p


def _heat(run, ax, t0, t1, unit, what):
    g, per = _heat_rows(run.num_nodes())
    ax, a, b, whole, unit = _setup(run, ax, t0, t1, unit,
                                   plot_h=max(240, per * -(-run.num_nodes() // g)))
    name, div = unit
    w = _width(ax)
    n = run.num_nodes()
    src = None
    if what == "paging":
        if run.paging is not None:
            p = run.paging
            arr = raster.spread_sum(p.pe.to_numpy().astype(np.int64), p.start.to_numpy(),
                                    p.end.to_numpy(), p.paging_time.to_numpy(), n, a, b, w)
            src = "paging.csv"
        elif (pr := _pes_rows(run, events=True)) is not None:
            row, t, prev, p = pr
            n = int(row.max()) + 1
            arr = raster.spread_sum(row, prev, t, p.paging_time.to_numpy(), n, a, b, w)
            src = "pes.csv (sampled)"
        arr = None if src is None else arr / ((b - a) / w)
        title = "Paging: thread-seconds of page-fault service per second, per PE"
        label = "paging load (s/s)"
        cmap = "YlOrRd"
    else:
        if run.memory is not None:
            m = run.memory
            arr = raster.step_max(m.pe.to_numpy().astype(np.int64), m.time.to_numpy(),
                                  m.overalloc_mb.to_numpy(), n, a, b, w)
            src = "memory.csv"
        elif (pr := _pes_rows(run)) is not None:
            row, t, prev, p = pr
            n = int(row.max()) + 1
            arr = raster.step_max(row, t, p.overalloc_mb.to_numpy(), n, a, b, w)
            src = "pes.csv (sampled)"
        title = "Memory overallocated per PE (on disk or in network RAM): maximum per pixel"
        label = "overallocated memory (MB)"
        cmap = "PuRd"
    _time_axis(ax, a, b, unit)
    _title(run, ax, "%s (%s)" % (title, src or "no data"), fontsize=11)
    if src is None:
        ax.set_ylim(-0.5, n - 0.5)
        ax.set_ylabel("PE")
        _note(ax, "no memory.csv, paging.csv or pes.csv (run pnrsim with --schedule)")
        return ax
    arr[:, _after_end(run, a, b, w)] = 0
    g = _heat_rows(n)[0]
    arr = _group_nodes(arr, g, "max" if what != "paging" else "mean")
    ax.set_ylabel("PE" + (" (groups of %d: %s)" % (g, "mean" if what == "paging" else "max")
                          if g > 1 else ""))
    ax.pnrsim_rows = [arr.shape[0], g]
    pos = arr[arr > 0]
    cm = mcolors.LinearSegmentedColormap.from_list(
        what, plt.get_cmap(cmap)(np.linspace(0.3, 1.0, 256)))
    cm.set_bad("white")
    if len(pos) == 0:
        ax.set_ylim(-0.5, arr.shape[0] * g - 0.5)
        _note(ax, "no %s %s" % ("paging" if what == "paging" else "memory overallocated",
                                _where(whole)))
        return ax
    hi = float(pos.max())
    norm = (mcolors.LogNorm(vmin=max(float(pos.min()), hi / 1000), vmax=hi)
            if hi > float(pos.min()) * 10 else mcolors.Normalize(vmin=0, vmax=hi))
    im = ax.imshow(np.ma.masked_less_equal(arr, 0), origin="lower", aspect="auto",
                   interpolation="nearest", cmap=cm, norm=norm,
                   extent=(a / div, b / div, -0.5, arr.shape[0] * g - 0.5))
    # Rows with anything in them are marked just left of the plot area, so
    # that a PE that paged for a few pixels still shows at any width (only
    # when they are few: a quarter of the rows at most).
    # They sit in a gutter between the axis and its tick labels (the labels
    # pushed MARK_GUTTER pixels further out), never on the labels.
    busy = np.flatnonzero((arr > 0).any(axis=1))
    marked = len(busy) <= arr.shape[0] // 4
    busy = busy if marked else busy[:0]
    if marked and len(busy):
        ax.tick_params(axis="y", pad=3.5 + MARK_GUTTER * 72.0 / DPI)
    shift = matplotlib.transforms.ScaledTranslation(-(MARK_GUTTER / 2.0 + 4) / DPI, 0,
                                                    ax.figure.dpi_scale_trans)
    ax.pnrsim_marks = ax.plot(
        np.zeros(len(busy)), busy * g + (g - 1) / 2.0, linestyle="none", marker=">",
        markersize=5, color=cm(0.85), clip_on=False,
        transform=matplotlib.transforms.blended_transform_factory(ax.transAxes, ax.transData)
        + shift)[0]
    ax.set_ylim(-0.5, arr.shape[0] * g - 0.5)
    nbusy = int((arr > 0).any(axis=1).sum())
    ax.text(1.0, -0.075, "%d of %d %s with %s%s"
            % (nbusy, arr.shape[0], "PEs" if g == 1 else "rows of %d PEs" % g,
               "paging" if what == "paging" else "overallocation",
               " (marked at the left)" if marked else ""),
            transform=ax.transAxes, ha="right", va="top", fontsize=8)
    fig = ax.figure
    p = ax.get_position()
    cax = fig.add_axes([p.x1 + 12 / (fig.get_figwidth() * fig.dpi), p.y0,
                        14 / (fig.get_figwidth() * fig.dpi), p.height])
    cb = fig.colorbar(im, cax=cax)
    cb.set_label(label)
    # plain tick labels: the default log ones go through mathtext, whose
    # parser (pyparsing) warns under python3 -W error
    cb.ax.yaxis.set_major_formatter(matplotlib.ticker.FormatStrFormatter("%g"))
    cb.ax.yaxis.set_minor_formatter(matplotlib.ticker.NullFormatter())
    return ax


def paging(run, ax=None, t0=None, t1=None, unit=None):
    """Heat map of paging per PE: thread-seconds of page-fault service per
    second in each pixel column (paging.csv's bursts spread over their
    span; pes.csv's sampled figures without it). White = no paging."""
    return _heat(run, ax, t0, t1, unit, "paging")


def overalloc(run, ax=None, t0=None, t1=None, unit=None):
    """Heat map of memory overallocated per PE: the maximum in each pixel
    column (memory.csv's changes; pes.csv's samples without it)."""
    return _heat(run, ax, t0, t1, unit, "overalloc")


# ---- against time -----------------------------------------------------------------


def netram_on(run):
    """Whether the run had network RAM: config.ini's [netram] enabled
    (yes/no as pnrsim writes it); without that key (an older run, no
    config.ini), whether memory.csv or pes.csv lent any."""
    v = run.config.get("netram", {}).get("enabled")
    if v is not None:
        return v.strip().lower() in ("yes", "true", "on", "1")
    for df in (run.memory, run.pes):
        if df is not None and "netram_lent_mb" in df and (df.netram_lent_mb > 0).any():
            return True
    return False


def ram_capacity(run):
    """RAM per PE in MB (config.ini's [computer] ram), None when unknown."""
    v = run.setting("computer", "ram")
    return v if isinstance(v, float) and v > 0 else None


def memory(run, ax=None, t0=None, t1=None, unit=None):
    """Memory in use (and, when the run had network RAM, network RAM lent)
    per PE against time: the mean over PEs (filled, time average per pixel
    column) and the largest PE's (line, maximum per pixel column), from
    memory.csv (pes.csv's samples, else samples.csv's mean, without it);
    the RAM of a PE ([computer] ram) as a horizontal line: what is above
    it is overallocated (on disk or in network RAM)."""
    ax, a, b, whole, unit = _setup(run, ax, t0, t1, unit)
    name, div = unit
    w = _width(ax)
    x = (a + (np.arange(w) + 0.5) * (b - a) / w) / div
    n = run.num_nodes()
    series, src = [], None
    netram = netram_on(run)
    cols = [("mem_alloc_mb", "memory in use", "#1f77b4")]
    if netram:
        cols.append(("netram_lent_mb", "network RAM lent", "#d62728"))
    if run.memory is not None or _pes_rows(run) is not None:
        if run.memory is not None:
            m = run.memory
            row, t, src = m.pe.to_numpy().astype(np.int64), m.time.to_numpy(), "memory.csv"
        else:
            row, t, _, m = _pes_rows(run)
            n, src = int(row.max()) + 1, "pes.csv (sampled)"
        for col, label, colour in cols:
            v = m[col].to_numpy()
            mean = raster.step_mean_total(row, t, v, a, b, w) / n
            mx = raster.step_max(row, t, v, n, a, b, w).max(axis=0)
            mean[_after_end(run, a, b, w)] = 0
            mx[_after_end(run, a, b, w)] = 0
            series.append((label, colour, mean, mx))
    elif run.samples is not None and len(run.samples):
        s = run.samples
        src = "samples.csv (sampled)"
        mean = raster.step_mean_total(np.zeros(len(s), dtype=np.int64), s.time.to_numpy(),
                                      s.mem_alloc_mean.to_numpy(), a, b, w)
        mean[_after_end(run, a, b, w)] = 0
        series.append(("memory in use", "#1f77b4", mean, None))
    _time_axis(ax, a, b, unit)
    ax.set_ylabel("MB per PE")
    what = ("Memory in use and network RAM lent per PE" if netram else
            "Memory in use per PE (network RAM off)")
    _title(run, ax, "%s: mean over PEs (dark), largest PE (light, line) (%s)"
           % (what, src or "no data"), fontsize=11, pad=22)
    ax.pnrsim_series = [label for label, _, _, _ in series]
    top = 0.0
    for label, colour, mean, mx in series:
        if mx is not None:
            ax.fill_between(x, 0, mx, step="mid", color=colour, alpha=0.15, lw=0)
            ax.step(x, mx, where="mid", color=colour, lw=1, label=label + " (largest PE)")
            top = max(top, float(mx.max()))
        ax.fill_between(x, 0, mean, step="mid", color=colour, alpha=0.5, lw=0,
                        label=label + " (mean over PEs)")
        top = max(top, float(mean.max()))
    ram = ram_capacity(run)
    if ram is not None and top > 0:
        ax.axhline(ram, color="#222222", lw=1.2, ls="--",
                   label="RAM of a PE (%g MB): above it, overallocated" % ram)
        ax.pnrsim_series.append("RAM")
        top = max(top, ram)
    ax.set_ylim(0, top * 1.08 if top > 0 else 1)
    ax.grid(True, color="#dddddd")
    if top <= 0:
        _note(ax, "no memory in use %s" % _where(whole) if src else
              "no memory data (memory.csv, pes.csv or samples.csv)")
    else:
        ax.legend(loc="lower left", bbox_to_anchor=(0.0, 1.0), ncol=4, fontsize=8,
                  frameon=False)
    return ax


def queue_events(run):
    """(times, queue lengths after each) from jobs.csv: +1 at a submit,
    -1 at a start (a job never started stays queued to the run's end;
    dropped and unsubmitted jobs are never queued)."""
    j = run.jobs
    if j is None or not len(j):
        return np.zeros(0), np.zeros(0)
    ok = np.ones(len(j), dtype=bool)
    if "state" in j:
        ok = ~j.state.isin(["dropped", "unsubmitted"]).to_numpy()
    sub = j.submit.to_numpy()[ok]
    st = j.start.to_numpy()[ok]
    st = st[~np.isnan(st)]
    t = np.concatenate([sub, st])
    d = np.concatenate([np.ones(len(sub)), -np.ones(len(st))])
    o = np.lexsort((d, t))  # at one instant: starts (-1) before submits
    return t[o], np.cumsum(d[o])


def mpl_columns(run, t0, t1, width):
    """Slots in use per pixel column: 1 + the largest slot index of a
    schedule.csv stretch within one round (quantum x mpl) of the column;
    None without schedule.csv."""
    s = run.schedule
    if s is None:
        return None
    q = run.setting("scheduler", "quantum", 60.0)
    m = run.setting("scheduler", "mpl", 2.0)
    h = (q if isinstance(q, float) else 60.0) * (m if isinstance(m, float) else 2.0)
    dt = (t1 - t0) / width
    out = np.zeros(width)
    slot = s.slot.to_numpy()
    for k in range(int(slot.max()) + 1 if len(slot) else 0):
        sel = slot == k
        c0 = np.clip(np.floor((s.start.to_numpy()[sel] - s.pcs.to_numpy()[sel] - h - t0) / dt),
                     0, width).astype(np.int64)
        c1 = np.clip(np.ceil((s.end.to_numpy()[sel] + h - t0) / dt), 0, width).astype(np.int64)
        diff = np.zeros(width + 1)
        np.add.at(diff, c0, 1)
        np.add.at(diff, c1, -1)
        out[np.cumsum(diff)[:width] > 0] = k + 1
    return out


def _nice_step(top, k):
    """The smallest integer step 1, 2, 5, 10, 20, ... with k steps >= top."""
    step = 1
    while step * k < top:
        step = step * 5 // 2 if str(step)[0] == "2" else step * 2
    return step


def twin_scales(top1, top2, most=8):
    """(step1, step2, top): ticks for two y axes sharing their gridlines,
    the left from 0 to top1, the right from 0 to top (>= top2): step1 the
    smallest of 1, 2, 2.5, 5 x 10^n (n >= 0) giving the left axis at most
    `most` steps, step2 the smallest integer of 1, 2, 5 x 10^n for which
    the right axis in the same proportion (top = top1 x step2 / step1)
    reaches top2. Each tick of one axis is then at the height of one of
    the other's, and both zeros at the bottom."""
    s1, k = 1.0, 0
    while top1 / s1 > most:
        k += 1
        s1 = (1.0, 2.0, 2.5, 5.0)[k % 4] * 10.0 ** (k // 4)
    s2 = _nice_step(top2 * s1 / top1, 1)
    return s1, s2, top1 * s2 / s1


def queue(run, ax=None, t0=None, t1=None, unit=None):
    """Queue length (jobs submitted, not started: jobs.csv, event-exact;
    filled = time average per pixel column, line = maximum) and the
    multiprogramming level (slots in use, from schedule.csv; samples.csv's
    mpl without it) against time."""
    ax, a, b, whole, unit = _setup(run, ax, t0, t1, unit)
    name, div = unit
    w = _width(ax)
    x = (a + (np.arange(w) + 0.5) * (b - a) / w) / div
    t, qlen = queue_events(run)
    zero = np.zeros(len(t), dtype=np.int64)
    mean = raster.step_mean_total(zero, t, qlen, a, b, w) if len(t) else np.zeros(w)
    mx = raster.step_max(zero, t, qlen, 1, a, b, w)[0] if len(t) else np.zeros(w)
    mean[_after_end(run, a, b, w)] = 0
    mx[_after_end(run, a, b, w)] = 0
    _time_axis(ax, a, b, unit)
    ax.fill_between(x, 0, mx, step="mid", color="#2ca02c", alpha=0.2, lw=0)
    ax.step(x, mx, where="mid", color="#1b6e1b", lw=1, label="queue length (max per pixel)")
    ax.fill_between(x, 0, mean, step="mid", color="#2ca02c", alpha=0.6, lw=0,
                    label="queue length (time average)")
    ax.set_ylabel("queued jobs")
    ax.grid(True, color="#dddddd")
    ax2 = ax.twinx()
    ax.pnrsim_twin = ax2
    mpl = mpl_columns(run, a, b, w)
    src = "schedule.csv"
    if mpl is None and run.samples is not None and len(run.samples):
        s = run.samples
        mpl = raster.step_max(np.zeros(len(s), dtype=np.int64), s.time.to_numpy(),
                              s.mpl.to_numpy(), 1, a, b, w)[0]
        src = "samples.csv, sampled"
        mpl[_after_end(run, a, b, w)] = 0
    # Both y axes have the same number of steps from 0 (twin_scales), so
    # that their zeros and every gridline line up.
    top1 = max(1.0, float(mx.max()) * 1.08)
    s1, s2, top2 = twin_scales(top1, max(1.0, float(mpl.max())) * 1.05 if mpl is not None else 1.0)
    ax.set_ylim(0, top1)
    ax.set_yticks(np.arange(0, top1 + 1e-9, s1))
    ax2.set_ylim(0, top2)
    ax2.set_yticks(np.arange(0, top2 + 1e-9, s2))
    ax.yaxis.set_major_formatter(matplotlib.ticker.FormatStrFormatter("%g"))
    ax2.yaxis.set_major_formatter(matplotlib.ticker.FormatStrFormatter("%g"))
    if mpl is not None:
        # a light band under the line: the time-shared stretches show at a
        # glance (the line itself lies on the gridlines at whole slots)
        ax2.fill_between(x, 0, mpl, step="mid", color="#9467bd", alpha=0.08, lw=0)
        ax2.step(x, mpl, where="mid", color="#9467bd", lw=1.5, ls="--", label="MPL (%s)" % src)
        ax2.set_ylabel("MPL (slots in use)")
    _title(run, ax, "Queue length (jobs.csv, event-exact) and multiprogramming level",
                 uses=src or "", fontsize=11, pad=22)
    h1, l1 = ax.get_legend_handles_labels()
    h2, l2 = ax2.get_legend_handles_labels()
    ax.legend(h1 + h2, l1 + l2, loc="lower left", bbox_to_anchor=(0.0, 1.0), ncol=3,
              fontsize=8, frameon=False)
    if float(mx.max()) <= 0 and (mpl is None or float(mpl.max()) <= 0):
        _note(ax, "no job queued or running %s" % _where(whole))
    elif float(mx.max()) <= 0:
        ax.text(0.5, 0.92, "no job waited in the queue %s" % _where(whole),
                transform=ax.transAxes, ha="center", fontsize=11, color="#333333")
    return ax


PICTURES = (("gantt", gantt), ("paging", paging), ("overalloc", overalloc),
            ("memory", memory), ("queue", queue))

# Busy cores over time (issue 37 item 4), in a module of its own.
from .util_plot import utilisation  # noqa: E402
PICTURES += (("utilisation", utilisation),)


def marks_box(ax):
    """Pixel boxes (image coordinates, y down) of a heat map's row marks
    and of its y tick labels: {"marks": [x0, y0, x1, y1], "labels": [...]}
    (None when there are no marks)."""
    line = getattr(ax, "pnrsim_marks", None)
    if line is None or not len(line.get_xdata()):
        return None
    fig = ax.figure
    fig.canvas.draw()
    r = fig.canvas.get_renderer()
    h = fig.get_figheight() * fig.dpi
    pts = line.get_transform().transform(np.column_stack([line.get_xdata(), line.get_ydata()]))
    half = line.get_markersize() * fig.dpi / 72.0 / 2.0
    boxes = [t.get_window_extent(r) for t in ax.get_yticklabels() if t.get_text()]
    lab = [min(b.x0 for b in boxes), h - max(b.y1 for b in boxes),
           max(b.x1 for b in boxes), h - min(b.y0 for b in boxes)] if boxes else None
    return {"marks": [float(pts[:, 0].min() - half), float(h - pts[:, 1].max() - half),
                      float(pts[:, 0].max() + half), float(h - pts[:, 1].min() + half)],
            "labels": [float(v) for v in lab] if lab else None}


def twin_ticks(ax):
    """The queue plot's y ticks as pixel heights on both axes:
    {"left": [...], "right": [...]} (those inside the axis), None without
    a twin axis."""
    ax2 = getattr(ax, "pnrsim_twin", None)
    if ax2 is None:
        return None
    ax.figure.canvas.draw()

    def px(a):
        lo, hi = a.get_ylim()
        return [float(a.transData.transform((0, t))[1]) for t in a.get_yticks()
                if lo - 1e-9 <= t <= hi + 1e-9]
    return {"left": px(ax), "right": px(ax2)}


def axes_boxes(ax):
    """{name: [x0, y0, x1, y1]} pixel boxes (image coordinates: y down)
    of an axes and its companions (strip, colour bar) in its figure."""
    fig = ax.figure
    fig.canvas.draw()
    h = fig.get_figheight() * fig.dpi
    out = {}
    for name, a in (("plot", ax), ("strip", getattr(ax, "pnrsim_strip", None))):
        if a is not None:
            bb = a.get_window_extent()
            out[name] = [int(round(bb.x0)), int(round(h - bb.y1)), int(round(bb.x1)),
                         int(round(h - bb.y0))]
    return out
