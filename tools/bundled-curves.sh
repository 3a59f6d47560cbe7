#!/bin/sh
# tools/bundled-curves.sh [NAME...]: remake the bundled fault curves,
# traces/curves/NAME.curve (issue 33 item 2; docs/SOURCES.md, "Measured
# fault curves"), with tools/fault-curve. NAME is one of
#   hpcc   the HPC Challenge benchmark (Debian hpcc 1.5.0, reference BLAS,
#          Open MPI singleton), one process, N = 400 (hpccinf.txt below)
#   xz     xz -9 compressing 128 KiB of generated text
#   sort   GNU sort --parallel=1 on 40,000 random 16-digit hex lines
#   metis  gpmetis (METIS 5) cutting a 300 x 300 grid graph into 8 parts
# (default: all four). The inputs are generated here with fixed seeds
# (python3's random.Random), so a rerun reads the same bytes. Each
# valgrind run takes a few minutes on a free core. Installs what it needs
# (tools/deps.sh curves: valgrind, hpcc, metis). Writes only under
# traces/curves/ (and a temporary directory).
set -e
top=$(cd "$(dirname "$0")/.." && pwd)
sh "$top/tools/deps.sh" curves
make -C "$top" --no-print-directory build/pnrsim-fault-curve
out=$top/traces/curves
mkdir -p "$out"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/bundled-curves.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
/usr/bin/python3 - <<'EOF'
import random
r = random.Random(33)
# text: 12-word lines from a 5000-word vocabulary with Zipf weights 1/rank
vocab = ["".join(r.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(r.randint(2, 10)))
         for _ in range(5000)]
w = [1.0 / (i + 1) for i in range(len(vocab))]
out, n = [], 0
while n < 1 << 17:
    line = " ".join(r.choices(vocab, w, k=12)) + "\n"
    out.append(line)
    n += len(line)
open("text128k.txt", "w").write("".join(out)[: 1 << 17])
r = random.Random(34)
open("hex40k.txt", "w").write("".join("%016x\n" % r.getrandbits(64) for _ in range(40000)))
# a k x k grid graph in METIS format: "n m", then each vertex's neighbours (1-based)
k = 300
lines, m = [], 0
for i in range(k):
    for j in range(k):
        nb = [a * k + b + 1 for a, b in ((i - 1, j), (i + 1, j), (i, j - 1), (i, j + 1))
              if 0 <= a < k and 0 <= b < k]
        m += len(nb)
        lines.append(" ".join(map(str, nb)))
open("grid300.graph", "w").write("%d %d\n" % (k * k, m // 2) + "\n".join(lines) + "\n")
EOF
# hpccinf.txt: Debian's example (/usr/share/doc/hpcc/examples/_hpccinf.txt)
# with N = 400 and a 1 x 1 process grid; every other line as shipped.
sed -e 's/^1000         Ns/400          Ns/' -e 's/^2            Ps/1            Ps/' \
    -e 's/^2            Qs/1            Qs/' /usr/share/doc/hpcc/examples/_hpccinf.txt > hpccinf.txt
# Open MPI as root, singleton (no mpirun), no hwloc topology warnings
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# one locale for every program (set here: valgrind does not follow an exec
# of env(1) into the program)
export LC_ALL=C.UTF-8
FC="$top/tools/fault-curve --native-runs 5"
for name in ${*:-hpcc xz sort metis}; do
    case $name in
    hpcc)  $FC --name hpcc --input "HPC Challenge 1.5.0, hpccinf.txt: Debian's example with N = 400, NB = 80, P = Q = 1 (one process, every test)" \
               -o "$out/hpcc.curve" -- /usr/bin/hpcc ;;
    xz)    $FC --name xz --input "xz -9 -c of 131072 bytes of generated text (12-word lines, 5000-word vocabulary, Zipf 1/rank, seed 33)" \
               -o "$out/xz.curve" -- /usr/bin/xz -9 -c text128k.txt ;;
    sort)  $FC --name sort --input "40000 random 16-digit hex lines (680000 bytes, seed 34), C.UTF-8 locale" \
               -o "$out/sort.curve" -- /usr/bin/sort --parallel=1 hex40k.txt ;;
    metis) $FC --name gpmetis --input "300 x 300 grid graph (90000 vertices, 179400 edges) cut into 8 parts" \
               -o "$out/metis.curve" -- /usr/bin/gpmetis grid300.graph 8 ;;
    *) echo "bundled-curves.sh: unknown curve '$name' (hpcc, xz, sort, metis)" >&2; exit 2 ;;
    esac
    echo "bundled-curves.sh: wrote $out/$name.curve" >&2
done
