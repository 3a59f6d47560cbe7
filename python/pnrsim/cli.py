"""The subcommands ``plot`` and ``evalys`` of ``python3 -m pnrsim``.

    pnrsim-plot [plot] [--from T] [--to T] [--format png|svg|both] [-o DIR]
                [--keep-data] RUNDIR
    pnrsim-plot evalys [--started] [--keep-dropped] [-o FILE] RUNDIR

plot draws gantt, paging, overalloc, memory, queue and utilisation of RUNDIR into DIR
(default RUNDIR/plots), each as PNG and/or SVG; T is a time with an
optional unit (100h, 2d, 384300s, 90m; plain = seconds), and the unit
written (--to's, else --from's) is the time axis's unit. The images are
written under temporary names and renamed when every one is drawn, so
nothing half-written is left. --keep-data also writes DIR/data/axes.json:
for each picture its pixel size, the pixel boxes of its plot area (and
the Gantt chart's switch strip), the window, the time unit, the note
drawn when there was nothing to show, the y label, the series drawn
(memory), the pixel boxes of a heat map's row marks and tick labels,
the pixel heights of the queue plot's y ticks on both axes, and its
titles (which say
"[partial: ...]" for an interrupted run and "[cut by a cap: FILE]" for
a file metrics.json lists as truncated).
evalys writes the jobs in the Batsim/evalys jobs CSV convention
(pnrsim.export) to FILE (default standard output); for an interrupted
run every row's metadata says "partial" and a warning on stderr says so
(another names each file a cap cut); with time-sharing (scheduler.mpl
other than 1, and more than one slot used) a warning says that evalys'
utilisation counts a PE once per job on it; the records a trace window
dropped are left out (a line on stderr counts them) unless
--keep-dropped. evalys and --help never import matplotlib.
Exit status: 0; 2 for bad usage or a bad input; 1 when writing failed
(3 when numpy, pandas or matplotlib is missing: __main__).
"""
import argparse
import json
import os
import stat
import sys
import tempfile

PROG = "pnrsim-plot"


class _Parser(argparse.ArgumentParser):
    def error(self, message):
        self.print_usage(sys.stderr)
        sys.stderr.write("%s: %s\n" % (PROG, message))
        sys.exit(2)


def need(*modules):
    """None when every module imports, else the exit status 3 after a line
    on stderr naming what is missing (the Debian packages to install)."""
    import importlib
    try:
        for m in modules:
            importlib.import_module(m)
    except ImportError as e:
        sys.stderr.write("%s: needs %s (Debian: apt-get install python3-pandas%s, for "
                         "/usr/bin/python3): %s\n"
                         % (PROG, ", ".join(modules),
                            " python3-matplotlib" if "matplotlib" in modules else "", e))
        return 3
    return None


def _time(text):
    """A --from/--to text, checked (parse_time) and kept as written: its
    unit ("2d") is the time axis's unit (plots.asked_unit)."""
    from .run import parse_time
    try:
        parse_time(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e))
    return text


def plot_main(argv):
    """pnrsim-plot [plot]: draw the six pictures of a run; returns the exit status."""
    ap = _Parser(prog=PROG, description="Draw the pictures of one pnrsim run.")
    ap.add_argument("--from", dest="t0", type=_time, metavar="T",
                    help="window start (100h, 2d, 384300s; default 0)")
    ap.add_argument("--to", dest="t1", type=_time, metavar="T",
                    help="window end (default the run's end)")
    ap.add_argument("--format", choices=("png", "svg", "both"), default="both")
    ap.add_argument("-o", "--output", metavar="DIR", help="where (default RUNDIR/plots)")
    ap.add_argument("--keep-data", action="store_true",
                    help="also write DIR/data/axes.json (plot-area boxes, notes)")
    ap.add_argument("rundir", metavar="RUNDIR")
    a = ap.parse_args(argv)
    rc = need("numpy", "pandas", "matplotlib")
    if rc:
        return rc
    from .run import parse_time
    if a.t0 is not None and a.t1 is not None and parse_time(a.t0) >= parse_time(a.t1):
        sys.stderr.write("%s: --from %g --to %g: the window is empty (--from must be below --to)\n"
                         % (PROG, parse_time(a.t0), parse_time(a.t1)))
        return 2
    from .run import RunError, load_run
    try:
        run = load_run(a.rundir)
    except RunError as e:
        sys.stderr.write("%s: %s\n" % (PROG, e))
        return 2
    from . import plots
    try:
        t0, t1, _ = plots.window(run, a.t0, a.t1)
    except ValueError as e:
        sys.stderr.write("%s: %s\n" % (PROG, e))
        return 2
    # The schedule files of a windowed run hold nothing outside their
    # window: a picture there would say "nothing happened" wrongly.
    fw = plots.files_window(run)
    if fw and (t0 < fw[0] or t1 > fw[1]):
        sys.stderr.write("%s: --from/--to %g .. %g s: the schedule files of %s cover only "
                         "%g .. %g s ([output] schedule_from/schedule_to in its config.ini); "
                         "choose a window inside it\n" % (PROG, t0, t1, a.rundir, fw[0], fw[1]))
        return 2
    outdir = a.output or os.path.join(a.rundir, "plots")
    return render_all(run, outdir, a.format, a.t0, a.t1, a.keep_data)


def render_all(run, outdir, fmt="both", t0=None, t1=None, keep_data=False):
    """Draw every picture of run into outdir (see the module text); returns 0, or 1/2."""
    import matplotlib.pyplot as plt
    from . import plots
    try:
        os.makedirs(outdir, exist_ok=True)
        work = tempfile.mkdtemp(prefix=".plot.", dir=outdir)
    except OSError as e:
        sys.stderr.write("%s: cannot write in %s: %s\n" % (PROG, outdir, e.strerror))
        return 2
    exts = {"png": ["png"], "svg": ["svg"], "both": ["png", "svg"]}[fmt]
    a, b, _ = plots.window(run, t0, t1)
    unit = plots.asked_unit(t0, t1) or plots.time_unit(b - a)
    info, drawn = {}, []
    try:
        for name, fn in plots.PICTURES:
            ax = fn(run, t0=t0, t1=t1, unit=unit)
            fig = ax.figure
            info[name] = {"size": [int(round(fig.get_figwidth() * fig.dpi)),
                                   int(round(fig.get_figheight() * fig.dpi))],
                          "boxes": plots.axes_boxes(ax), "window": [a, b], "unit": unit[0],
                          "note": getattr(ax, "pnrsim_note", None),
                          "rows": getattr(ax, "pnrsim_rows", None),
                          "jobs": getattr(ax, "pnrsim_legend", None),
                          "ylabel": ax.get_ylabel(),
                          "series": getattr(ax, "pnrsim_series", None),
                          "marks": plots.marks_box(ax),
                          "twin": plots.twin_ticks(ax),
                          "titles": [t for t in (x.get_title() for x in fig.axes) if t]}
            for ext in exts:
                fig.savefig(os.path.join(work, name + "." + ext), dpi=plots.DPI,
                            metadata=({"Software": "pnrsim-plot"} if ext == "png" else
                                      {"Date": None}))
                drawn.append(name + "." + ext)
            plt.close(fig)
        if keep_data:
            os.makedirs(os.path.join(outdir, "data"), exist_ok=True)
            with open(os.path.join(work, "axes.json"), "w") as f:
                json.dump(info, f, indent=1)
            os.replace(os.path.join(work, "axes.json"), os.path.join(outdir, "data", "axes.json"))
        for f in drawn:
            os.replace(os.path.join(work, f), os.path.join(outdir, f))
    except OSError as e:
        sys.stderr.write("%s: cannot write %s: %s\n" % (PROG, outdir, e.strerror or e))
        return 1
    finally:
        for f in os.listdir(work):
            os.unlink(os.path.join(work, f))
        os.rmdir(work)
    print("%s: %d images in %s: %s" % (PROG, len(drawn), outdir, " ".join(drawn)))
    return 0


def evalys_main(argv):
    """pnrsim-plot evalys: write a run's jobs as a Batsim/evalys jobs CSV."""
    ap = _Parser(prog=PROG + " evalys",
                 description="Write a run's jobs in the Batsim/evalys jobs CSV convention.")
    ap.add_argument("-o", "--output", metavar="FILE", help="default standard output")
    ap.add_argument("--started", action="store_true",
                    help="only jobs that ran (COMPLETED_SUCCESSFULLY, COMPLETED_KILLED)")
    ap.add_argument("--keep-dropped", action="store_true",
                    help="keep the records a trace window dropped (REJECTED, dropped:window)")
    ap.add_argument("rundir", metavar="RUNDIR")
    a = ap.parse_args(argv)
    rc = need("numpy", "pandas")
    if rc:
        return rc
    from .export import mpl_max, time_sharing_source, to_evalys, window_dropped
    from .run import RunError, load_run
    try:
        run = load_run(a.rundir)
    except RunError as e:
        sys.stderr.write("%s: %s\n" % (PROG, e))
        return 2
    df = to_evalys(run, started_only=a.started, keep_dropped=a.keep_dropped)
    mpl, src = time_sharing_source(run)
    used = mpl_max(run)
    if mpl != 1 and (used is None or used > 1):
        m, n = (mpl if mpl > 0 else used), run.num_pes()
        reach = ("can reach %d x %d = %d of %d PEs" % (m, n, m * n, n) if m
                 else "can count the %d PEs several times over" % n)
        if src == "config":
            what = "scheduler.mpl = %s%s" % (
                mpl if mpl > 0 else "0, unlimited",
                "" if used is None else ", %d slots at most in this run" % used)
        else:
            what = ("scheduler.mpl not in config.ini, at least %d: %s" % (
                mpl, "the run's mpl_max" if src == "mpl_max" else "jobs.csv's slots"))
        sys.stderr.write(
            "%s evalys: warning: %s: time-sharing (%s): up to %s jobs share "
            "a PE, one per gang slot, and evalys counts a PE once per job on it, so its "
            "utilisation %s; each row's metadata has slot=K and time_sharing=%s\n"
            % (PROG, a.rundir, what, m or "any number of",
               reach, mpl if mpl > 0 else "unlimited"))
    left = 0 if a.keep_dropped else window_dropped(run)
    if left:
        sys.stderr.write("%s evalys: %s: %d records outside the trace window (dropped:window) "
                         "left out; --keep-dropped keeps them as REJECTED rows\n"
                         % (PROG, a.rundir, left))
    if run.partial:
        sys.stderr.write("%s evalys: warning: %s: %s; every row's metadata says \"partial\"\n"
                         % (PROG, a.rundir, run.partial_note))
    for e in run.truncated:
        sys.stderr.write("%s evalys: warning: %s: %s was cut by %s (%s %s kept, %s dropped)\n"
                         % (PROG, a.rundir, e.get("file"), e.get("cap"), e.get("rows_kept"),
                            e.get("unit") or "rows", e.get("rows_dropped")))
    if not a.output or a.output == "-":
        df.to_csv(sys.stdout, index=False, float_format="%.15g")
        return 0
    # As pnrsim's own files (app/util.c util_write_file): a symlink is
    # followed (/dev/stdout -> /proc/self/fd/1 -> a file), the temporary
    # beside its target and renamed over the target, never over the link
    # (as root that would replace /dev/stdout; a dangling link is
    # replaced); an existing non-regular file (a device, a FIFO) is written
    # in place; anything else under a temporary name and renamed, so a
    # reader never sees half a file. realpath of a link to a pipe gives a
    # name that does not exist ("pipe:[N]"): the link itself is then used.
    target = a.output
    if os.path.islink(a.output) and os.path.exists(os.path.realpath(a.output)):
        target = os.path.realpath(a.output)
    try:
        st = os.stat(target)
        in_place = not stat.S_ISREG(st.st_mode) and not stat.S_ISDIR(st.st_mode)
    except OSError:
        in_place = False
    if in_place:
        try:
            with open(a.output, "w") as f:
                df.to_csv(f, index=False, float_format="%.15g")
        except OSError as e:
            sys.stderr.write("%s: cannot write %s: %s\n" % (PROG, a.output, e.strerror or e))
            return 1
        return 0
    d = os.path.dirname(target) or "."
    try:
        fd, tmp = tempfile.mkstemp(prefix=".evalys.", dir=d)
    except OSError as e:
        sys.stderr.write("%s: cannot write %s: %s\n" % (PROG, a.output, e.strerror or e))
        return 1
    try:
        with os.fdopen(fd, "w") as f:
            df.to_csv(f, index=False, float_format="%.15g")
            # mkstemp makes 0600; pnrsim's files are 0644 less the umask.
            um = os.umask(0)
            os.umask(um)
            os.fchmod(f.fileno(), 0o644 & ~um)
        os.replace(tmp, target)
    except OSError as e:
        os.unlink(tmp)
        sys.stderr.write("%s: cannot write %s: %s\n" % (PROG, a.output, e.strerror or e))
        return 1
    return 0
