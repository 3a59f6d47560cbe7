#!/usr/bin/env python3
"""tools/scale-widths.py: weak-scale every job of an SWF trace by K.

  tools/scale-widths.py K IN.swf > OUT.swf

Each job's allocated and requested processors (SWF fields 5 and 8) are
multiplied by K; everything else is kept: submit, wait and run times, the
CPU time and the memory, both per processor (fields 6 and 7), so a job does
K times the work in the same time on K times the processors, and the memory
per core, which sets the study's pressure levels, is unchanged. The header
is kept (the archive's acknowledgement); MaxNodes and MaxProcs are
multiplied by K and a Note line says what was done. A field that is -1
(unknown) stays -1. Used by configs/studies/then-and-now.ini
(docs/STUDY-THEN-AND-NOW.md, "Workload"): the HPC2N Seth log (240
processors in 120 dual nodes) on a machine of 240 K cores.
"""
import sys


def main(argv):
    if len(argv) != 3:
        sys.stderr.write(__doc__)
        return 2
    try:
        k = int(argv[1])
    except ValueError:
        k = 0
    if k < 1:
        sys.stderr.write("scale-widths: K must be a positive integer, not %r\n"
                         % argv[1])
        return 2
    out = sys.stdout
    noted = False
    with open(argv[2]) as f:
        for n, line in enumerate(f, 1):
            if line.startswith(";"):
                key = line[1:].split(":", 1)[0].strip()
                if key in ("MaxNodes", "MaxProcs"):
                    v = int(line.split(":", 1)[1])
                    line = "; %s: %d\n" % (key, v * k)
                out.write(line)
                continue
            if not noted:
                out.write("; Note: weak-scaled by tools/scale-widths.py %d: "
                          "fields 5 and 8 (processors) x %d, all else as "
                          "recorded\n" % (k, k))
                noted = True
            f_ = line.split()
            if not f_:
                out.write(line)
                continue
            if len(f_) < 18:
                sys.stderr.write("%s:%d: expected 18 SWF fields, found %d\n"
                                 % (argv[2], n, len(f_)))
                return 2
            for i in (4, 7):
                if f_[i] != "-1":
                    f_[i] = str(int(f_[i]) * k)
            out.write(" ".join(f_) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
