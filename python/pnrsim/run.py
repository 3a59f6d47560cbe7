"""Loading one pnrsim run directory into pandas DataFrames.

A run directory (``pnrsim -o DIR``) holds config.ini, metrics.json,
jobs.csv and samples.csv, and with ``--schedule`` schedule.csv, pes.csv,
memory.csv and paging.csv (each possibly gzip-compressed: NAME.csv.gz).
``load_run(DIR)`` reads what is there into a :class:`Run`; a file that is
absent gives ``None``. Older runs (jobs.csv without the columns
requested_time, state, reason, slot, pes; no memory.csv/paging.csv) load too.

Also here: the time and PE-range notations shared by every tool of the
package: ``parse_time("100h") == 360000.0`` (units s, m, h, d; a plain
number is seconds) and ``parse_ranges("0-2 5") == [(0, 2), (5, 5)]``
(the interval-set text of jobs.csv's ``pes`` column, as Batsim writes
``allocated_resources``); ``expand_ranges`` gives the set of PEs.
"""
import configparser
import json
import math
import os
import re

import numpy as np
import pandas as pd

# Units of every column of every table (docs/METRICS.md). "-" = a count,
# an index or a ratio without unit; "s" = simulated seconds; "MB" = 2^20
# bytes; "fraction" = 0..1.
UNITS = {
    "jobs": {
        "job": "-", "submit": "s", "start": "s", "end": "s", "threads": "-",
        "wait": "s", "response": "s", "execution": "s", "slowdown": "-",
        "bounded_slowdown": "-", "cpu_demand": "s", "memory_mb": "MB",
        "page_faults": "-", "fault_time": "s", "cores": "-",
        "requested_time": "s", "state": "-", "reason": "-", "slot": "-",
        "pes": "-", "bounded_slowdown_dedicated": "-",
    },
    "samples": {
        "time": "s", "running_jobs": "-", "queued_jobs": "-",
        "placed_jobs": "-", "mpl": "-", "cpu_utilization": "fraction",
        "mem_alloc_mean": "MB", "mem_alloc_sd": "MB", "disk_alloc_mean": "MB",
        "messages_in_flight": "-", "jobs_finished": "-", "page_faults": "-",
    },
    "pes": {
        "time": "s", "first_pe": "-", "last_pe": "-", "mem_alloc_mb": "MB",
        "overalloc_mb": "MB", "netram_lent_mb": "MB", "netram_held_mb": "MB",
        "page_faults": "-", "paging_time": "s", "cpu_busy": "fraction",
    },
    "schedule": {
        "job": "-", "slot": "-", "start": "s", "end": "s", "first_pe": "-",
        "pes": "-", "pcs": "s",
    },
    "memory": {
        "time": "s", "pe": "-", "mem_alloc_mb": "MB", "overalloc_mb": "MB",
        "netram_lent_mb": "MB", "netram_held_mb": "MB",
    },
    "paging": {
        "pe": "-", "start": "s", "end": "s", "page_faults": "-",
        "paging_time": "s",
    },
}

# The columns a table must have (older files have fewer jobs columns) and
# those that must be numbers (empty fields allowed where C1 says so).
_REQUIRED = {
    "jobs": ["job", "submit", "start", "end", "threads"],
    "samples": ["time", "queued_jobs", "mpl", "mem_alloc_mean"],
    "pes": ["time", "first_pe", "last_pe", "mem_alloc_mb", "overalloc_mb",
            "netram_lent_mb", "paging_time"],
    "schedule": ["job", "slot", "start", "end", "first_pe", "pes", "pcs"],
    "memory": ["time", "pe", "mem_alloc_mb", "overalloc_mb",
               "netram_lent_mb", "netram_held_mb"],
    "paging": ["pe", "start", "end", "page_faults", "paging_time"],
}
_TEXT = {"jobs": {"state", "reason", "pes"}}
# Integers >= 0 (indexes into the pictures' arrays), and start <= end.
_INT = {"jobs": ("job", "threads"), "schedule": ("job", "slot", "first_pe", "pes"),
        "memory": ("pe",), "paging": ("pe",), "pes": ("first_pe", "last_pe")}
_ORDER = {"schedule": (("start", "end"),), "paging": (("start", "end"),),
          "pes": (("first_pe", "last_pe"),)}
# config.ini keys the pictures read as numbers.
_NUMERIC_KEYS = (("simulation", "metrics_period"), ("scheduler", "quantum"),
                 ("scheduler", "mpl"), ("computer", "number"), ("computer", "cores_per_node"))


def _show(text):
    """At most 40 printable characters of a bad field, for a message."""
    return "".join(c if " " <= c <= "~" else "?" for c in str(text)[:40])

_TIME_RE = re.compile(r"^\s*\+?((?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)\s*(s|m|min|h|d)?\s*$")
_TIME_UNIT = {None: 1.0, "s": 1.0, "m": 60.0, "min": 60.0, "h": 3600.0, "d": 86400.0}


class RunError(Exception):
    """A run directory or one of its files cannot be read (message names it)."""


def parse_time(text):
    """Seconds from a time text: a number >= 0 with an optional unit.

    Units: s, m (or min), h, d; no unit = seconds. ``"100h"`` -> 360000.0,
    ``"2d"`` -> 172800.0, ``"384300s"`` -> 384300.0, ``"90m"`` -> 5400.0.
    Raises ValueError naming the text for anything else (negative, not
    finite, an unknown unit).
    """
    if isinstance(text, (int, float)) and not isinstance(text, bool):
        v = float(text)
    else:
        m = _TIME_RE.match(str(text))
        if not m:
            raise ValueError('"%s": expected a time: a number >= 0 with an optional unit '
                             "s, m, h or d (100h, 2d, 384300s, 90m)" % text)
        v = float(m.group(1)) * _TIME_UNIT[m.group(2)]
    if not math.isfinite(v) or v < 0 or v >= 1e300:
        raise ValueError('"%s": expected a finite time >= 0' % text)
    return v


def time_unit_of(text):
    """The unit written in a time text, as the pictures name it: "s",
    "min" (for m or min), "h" or "d"; None for a plain number (no unit
    asked) or anything parse_time refuses. ``time_unit_of("2d") == "d"``,
    ``time_unit_of("90m") == "min"``, ``time_unit_of("100") is None``."""
    if text is None or isinstance(text, (int, float)):
        return None
    m = _TIME_RE.match(str(text))
    if not m or m.group(2) is None:
        return None
    return "min" if m.group(2) in ("m", "min") else m.group(2)


def parse_ranges(text):
    """Inclusive (lo, hi) pairs from an interval-set text, e.g. "0-31 64 70-71".

    Empty or NaN text gives []. Raises ValueError on anything but
    space-separated integers and integer ranges lo-hi with lo <= hi.
    """
    if text is None or (isinstance(text, float) and math.isnan(text)):
        return []
    out = []
    for part in str(text).split():
        a, sep, b = part.partition("-")
        if not a.isdigit() or (sep and not b.isdigit()):
            raise ValueError('"%s": expected PE ranges like "0-31 64 70-71"' % text)
        lo, hi = int(a), int(b) if sep else int(a)
        if hi < lo:
            raise ValueError('"%s": range %s runs backwards' % (text, part))
        out.append((lo, hi))
    return out


def expand_ranges(text):
    """The set of PEs an interval-set text names: "0-2 5" -> {0, 1, 2, 5}."""
    return {p for lo, hi in parse_ranges(text) for p in range(lo, hi + 1)}


def format_ranges(pes):
    """The interval-set text of an iterable of PE numbers: {0,1,2,5} -> "0-2 5"."""
    pes = sorted(set(int(p) for p in pes))
    parts, i = [], 0
    while i < len(pes):
        j = i
        while j + 1 < len(pes) and pes[j + 1] == pes[j] + 1:
            j += 1
        parts.append(str(pes[i]) if i == j else "%d-%d" % (pes[i], pes[j]))
        i = j + 1
    return " ".join(parts)


def _find(directory, name):
    """Path of NAME.csv or NAME.csv.gz in directory, or None."""
    for suffix in (".csv", ".csv.gz"):
        p = os.path.join(directory, name + suffix)
        if os.path.isfile(p):
            return p
    return None


def _read_csv(path, table):
    """One pnrsim CSV file as a DataFrame, checked against its table's columns.

    Comment lines (# PARTIAL ...) are skipped. Raises RunError naming the
    file and line of the first problem (a missing column, a field that is
    not a number).
    """
    text = _TEXT.get(table, set())
    if not path.endswith(".gz"):
        try:
            with open(path, "rb") as f:
                f.seek(0, 2)
                if f.tell() > 0:
                    f.seek(-1, 2)
                    if f.read(1) != b"\n":
                        raise RunError("%s: the last line has no end of line: a truncated file?"
                                       % path)
        except OSError as e:
            raise RunError("%s: %s" % (path, e.strerror))
    try:
        df = pd.read_csv(path, comment="#", compression="infer", encoding="latin-1",
                         dtype={c: str for c in text})
    except pd.errors.EmptyDataError:
        raise RunError("%s: empty (expected a header line)" % path)
    except (pd.errors.ParserError, UnicodeDecodeError, OSError, EOFError) as e:
        raise RunError("%s: %s" % (path, str(e).strip()))
    missing = [c for c in _REQUIRED[table] if c not in df.columns]
    if missing:
        raise RunError("%s:1: expected the columns %s in the header, missing %s"
                       % (path, ",".join(_REQUIRED[table]), ",".join(missing)))
    for col in df.columns:
        if col in text or df[col].dtype.kind in "fiu":
            continue
        s = df[col].astype(str).str.strip()
        num = pd.to_numeric(s, errors="coerce")
        bad = num.isna() & (s.str.lower() != "nan") & (s != "")
        if bad.any():
            i = int(np.flatnonzero(bad.to_numpy())[0])
            raise RunError('%s:%d: %s "%s": expected a finite number'
                           % (path, i + 2, col, _show(s.iloc[i])))
        df[col] = num
    # A dropped record's row may leave any field but the job number empty
    # (docs/METRICS.md: submit is empty when unknown, e.g. a record dropped
    # before the first kept job).
    dropped = np.zeros(len(df), dtype=bool)
    if table == "jobs" and "state" in df.columns:
        dropped = (df["state"].astype(str) == "dropped").to_numpy()
    for col in df.columns:
        if col in text or (table == "jobs" and col not in _REQUIRED["jobs"]):
            continue
        v = df[col].to_numpy(dtype=float)
        if table == "jobs" and col in ("start", "end"):
            v = np.where(np.isnan(v), 0.0, v)
        elif table == "jobs" and col != "job":
            v = np.where(dropped & np.isnan(v), 0.0, v)
        bad = ~np.isfinite(v)
        if table == "jobs" and col == "slowdown":
            bad &= ~np.isnan(v)
        if bad.any():
            i = int(np.flatnonzero(bad)[0])
            raise RunError("%s:%d: %s: a field is empty, missing or not finite (expected %d "
                           "comma-separated fields, numbers)" % (path, i + 2, col, len(df.columns)))
        if col in _INT.get(table, ()):
            neg = (v < 0) | (v != np.floor(v))
            if neg.any():
                i = int(np.flatnonzero(neg)[0])
                raise RunError('%s:%d: %s "%s": expected an integer >= 0'
                               % (path, i + 2, col, _show(str(df[col].iloc[i]))))
    for a, b in _ORDER.get(table, ()):
        bad = (df[a] > df[b]).to_numpy()
        if bad.any():
            i = int(np.flatnonzero(bad)[0])
            raise RunError("%s:%d: %s %.10g after %s %.10g"
                           % (path, i + 2, a, df[a].iloc[i], b, df[b].iloc[i]))
    return df


def _partial_line(path):
    """The text of a last "# PARTIAL ..." line of a plain CSV file (without
    "# "), or None (no such line, a .gz file, no file)."""
    if not path or path.endswith(".gz"):
        return None
    try:
        with open(path, "rb") as f:
            f.seek(0, 2)
            size = f.tell()
            f.seek(max(0, size - 4096))
            tail = f.read().decode("latin-1")
    except OSError:
        return None
    lines = tail.rstrip("\n").split("\n")
    last = lines[-1] if lines else ""
    return last[2:].strip() if last.startswith("# PARTIAL") else None


def _read_ini(path):
    """config.ini as {section: {key: value}} (sections and keys lower case)."""
    cp = configparser.ConfigParser(interpolation=None, strict=False,
                                   comment_prefixes=(";", "#"), inline_comment_prefixes=None)
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            cp.read_file(f)
    except configparser.Error as e:
        raise RunError("%s: %s" % (path, str(e).strip().splitlines()[0]))
    return {s.lower(): {k.lower(): v.strip() for k, v in cp.items(s)} for s in cp.sections()}


class Run:
    """One pnrsim run: its tables and settings.

    Attributes: ``directory``; DataFrames ``jobs``, ``samples``, ``pes``,
    ``schedule``, ``memory``, ``paging`` (None when the file is absent;
    columns as in docs/METRICS.md, numbers as floats, empty fields NaN);
    ``metrics`` (dict from metrics.json, {} when absent); ``partial``
    (True for a run interrupted by a signal: metrics.json "partial", or
    the "# PARTIAL" line ending jobs.csv or samples.csv) and
    ``partial_note`` (that line's text without "# ", or None);
    ``truncated`` (metrics.json "truncated": the files a cap cut, [] when
    none); ``config``
    ({section: {key: value}} from config.ini, {} when absent); ``units``
    ({table: {column: unit}}: "s" seconds, "MB", "fraction", "-" none).
    """

    def __init__(self, directory):
        self.directory = directory
        self.units = UNITS
        self.paths = {}
        for table in ("jobs", "samples", "pes", "schedule", "memory", "paging"):
            p = _find(directory, table)
            self.paths[table] = p
            setattr(self, table, _read_csv(p, table) if p else None)
        self.metrics = {}
        mp = os.path.join(directory, "metrics.json")
        if os.path.isfile(mp):
            try:
                with open(mp, encoding="utf-8") as f:
                    self.metrics = json.load(f)
            except (ValueError, OSError) as e:
                raise RunError("%s: %s" % (mp, e))
            if not isinstance(self.metrics, dict):
                raise RunError("%s: expected a JSON object" % mp)
        cp = os.path.join(directory, "config.ini")
        self.config = _read_ini(cp) if os.path.isfile(cp) else {}
        # An interrupted run (docs/METRICS.md): metrics.json "partial":
        # true, and a last "# PARTIAL results: ..." line in jobs.csv and
        # samples.csv (the reader above skips it; it is kept here).
        self.partial_note = None
        for table in ("jobs", "samples"):
            note = _partial_line(self.paths[table])
            if note:
                self.partial_note = note
                break
        self.partial = self.metrics.get("partial") is True or self.partial_note is not None
        if self.partial and not self.partial_note:
            self.partial_note = "PARTIAL results: run interrupted"
        # Files cut by a cap (metrics.json "truncated": one entry per file).
        t = self.metrics.get("truncated", [])
        self.truncated = [e for e in t if isinstance(e, dict)] if isinstance(t, list) else []
        for sec, key in _NUMERIC_KEYS:
            v = self.config.get(sec, {}).get(key)
            if v is None:
                continue
            try:
                ok = math.isfinite(float(v)) and float(v) >= 0
            except ValueError:
                ok = False
            if not ok:
                raise RunError('%s: [%s] %s "%s": expected a finite number >= 0'
                               % (cp, sec, key, _show(v)))

    def setting(self, section, key, default=None):
        """A config.ini value as a float when it is a number, else its text."""
        v = self.config.get(section, {}).get(key)
        if v is None:
            return default
        try:
            return float(v)
        except ValueError:
            return v

    def end_time(self):
        """The run's end (metrics.json total_time; else the latest time in any table)."""
        t = self.metrics.get("total_time")
        if isinstance(t, (int, float)) and math.isfinite(t) and t > 0:
            return float(t)
        best = 0.0
        for df, cols in ((self.jobs, ("end", "start", "submit")), (self.samples, ("time",)),
                         (self.schedule, ("end",)), (self.memory, ("time",)),
                         (self.paging, ("end",)), (self.pes, ("time",))):
            if df is None:
                continue
            for c in cols:
                if c in df and df[c].notna().any():
                    best = max(best, float(df[c].max()))
        return best

    def num_pes(self):
        """Columns of the gang matrix: PEs (cores when cores_per_node > 1):
        computer.number, which counts cores (configs/reference.ini)."""
        n = self.setting("computer", "number")
        if isinstance(n, float) and n >= 1:
            return int(n)
        m = 0
        if self.schedule is not None and len(self.schedule):
            m = int((self.schedule.first_pe + self.schedule.pes).max())
        # Without config.ini or schedule.csv: the highest PE in jobs.csv's
        # placements ("0-31 64-95 100"), a lower bound.
        if self.jobs is not None and "pes" in self.jobs:
            for v in self.jobs["pes"].dropna():
                for r in str(v).split():
                    hi = r.rpartition("-")[2]
                    if hi.isdigit():
                        m = max(m, int(hi) + 1)
        return max(m, 1)

    def num_nodes(self):
        """Nodes (rows of memory.csv, paging.csv and pes.csv): computer.number
        cores / cores_per_node."""
        n = self.setting("computer", "number")
        c = self.setting("computer", "cores_per_node", 1.0)
        if isinstance(n, float) and n >= 1:
            return max(int(n) // int(c if isinstance(c, float) and c >= 1 else 1), 1)
        m = 0
        for df, col in ((self.memory, "pe"), (self.paging, "pe"), (self.pes, "last_pe")):
            if df is not None and len(df):
                m = max(m, int(df[col].max()) + 1)
        return max(m, 1)


def load_run(directory):
    """Load a pnrsim output directory; raises RunError when it is not one.

    A directory needs at least jobs.csv or samples.csv (or their .gz).
    """
    if not os.path.isdir(directory):
        raise RunError("%s: %s" % (directory, "not a directory: expected a pnrsim output "
                                   "directory" if os.path.exists(directory) else "no such directory"))
    if not (_find(directory, "jobs") or _find(directory, "samples")):
        raise RunError("%s: no jobs.csv or samples.csv here: not a pnrsim output directory"
                       % directory)
    return Run(directory)
