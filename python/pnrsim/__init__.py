"""pnrsim's Python companion: load runs, draw their pictures, export them.

Importable with PYTHONPATH=<pnrsim>/python under the system interpreter
(/usr/bin/python3 with Debian's python3-pandas and python3-matplotlib):

    from pnrsim import load_run, plots, to_evalys
    run = load_run("out/demo")              # DataFrames: run.jobs, run.schedule, ...
    ax = plots.gantt(run, t0="100h", t1="110h")
    to_evalys(run).to_csv("jobs-evalys.csv", index=False)

Command line: ``/usr/bin/python3 -m pnrsim plot|study|evalys|validate|--version``
(build/pnrsim-plot is a wrapper around it). Modules: run (loading, time
and PE-range texts), raster (event-exact pixel arrays), plots (the
pictures), util_plot (busy cores over time, one of the pictures), export
(Batsim/evalys jobs CSV), cli (the subcommands); study (a study's tables
and plots), study_dist (its per-job distributions and fairness); validate (simulated against logged start
times, docs/VALIDATION.md).
"""
import os

__all__ = ["Run", "RunError", "load_run", "parse_time", "parse_ranges", "expand_ranges",
           "format_ranges", "to_evalys", "__version__"]

# Passed by the pnrsim-plot wrapper (the Makefile's VERSION_STR).
__version__ = os.environ.get("PNRSIM_VERSION", "unknown")


def to_evalys(run, started_only=False):
    """The jobs of a run in the Batsim/evalys jobs CSV convention (see pnrsim.export)."""
    from .export import to_evalys as f
    return f(run, started_only=started_only)


def __getattr__(name):
    """The names of pnrsim.run, imported on first use: importing the
    package (e.g. for pnrsim.study, which reports a missing pandas itself)
    needs neither numpy nor pandas."""
    if name in ("Run", "RunError", "load_run", "parse_time", "parse_ranges", "expand_ranges",
                "format_ranges"):
        from . import run
        return getattr(run, name)
    raise AttributeError("module 'pnrsim' has no attribute %r" % name)
