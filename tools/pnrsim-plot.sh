#!/bin/sh
# pnrsim-plot: draw the pictures of one pnrsim run with gnuplot.
#
#   pnrsim-plot [--from T] [--to T] [--format png|svg|both] [-o DIR] [--keep-data] [--] OUTDIR
#
# OUTDIR is a pnrsim output directory. From samples.csv, and from the files
# of --schedule (schedule.csv, pes.csv, schedule.paje) when present, it
# writes into DIR (default OUTDIR/plots), each as PNG and SVG:
#   gantt      the gang matrix: PEs up, time across, one colour per job
#              (the same job always gets the same colour: it is a function
#              of the job number; job numbers written on wide bars, and a
#              key of the jobs when at most 20 are in the window), parallel context switches in black,
#              slot switches as dotted vertical lines (when at most 400 fall
#              in the window); --from/--to choose the window (s; default the
#              whole run)
#   paging     heat map: paging time per PE (s per metrics period)
#   overalloc  heat map: memory overallocated per PE (MB)
#   memory     memory in use per PE and network RAM lent per PE (MB)
#   queue      queue length (jobs) and multiprogramming level (slots)
# --from/--to apply to every plot (T: seconds, a number >= 0; --from must be
# below --to). --keep-data also writes the gnuplot scripts and the data
# they plot into DIR/data (to re-draw a plot by hand, or to check it).
# A plot whose data file is missing (no --schedule) is not drawn and this
# is said. Images are drawn under temporary names and renamed only when
# every plot succeeded: nothing half-written is left.
# The input files are checked before anything is drawn: each CSV file must
# have pnrsim's header, the same number of fields on every line, a number
# in every field a plot uses (an integer >= 0 for job, PE and slot
# numbers) and an end of line after its last line; metrics.json's
# total_time and config.ini's metrics_period, when present, must be
# numbers. A bad file is named with its line, and nothing is drawn.
# No name reaches a gnuplot script: gnuplot runs in the temporary
# directory and the scripts name their data by fixed relative names, so
# any directory name (quotes, newlines, $(...), backquotes) is safe.
# Exit status: 0; 2 for bad usage, a missing directory, a bad input file
# or gnuplot missing; 1 when gnuplot failed.
set -u
prog=pnrsim-plot
usage() {
    echo "usage: $prog [--from T] [--to T] [--format png|svg|both] [-o DIR] [--keep-data] OUTDIR" >&2
    exit 2
}
from="" to="" fmt=both outdir="" dir="" keep=0
while [ $# -gt 0 ]; do
    case $1 in
    --from) [ $# -ge 2 ] || usage; from=$2; shift 2 ;;
    --to) [ $# -ge 2 ] || usage; to=$2; shift 2 ;;
    --format) [ $# -ge 2 ] || usage; fmt=$2; shift 2 ;;
    -o|--output) [ $# -ge 2 ] || usage; outdir=$2; shift 2 ;;
    --keep-data) keep=1; shift ;;
    -h|--help)
        sed -n '2,38p' "$0" | sed 's/^# \{0,1\}//'
        exit 0 ;;
    --) [ $# -eq 2 -a -z "$dir" ] || usage; dir=$2; shift 2 ;;
    -*) echo "$prog: unknown option $1" >&2; usage ;;
    *) [ -z "$dir" ] || { echo "$prog: one output directory only" >&2; usage; }; dir=$1; shift ;;
    esac
done
[ -n "$dir" ] || usage
case $fmt in png|svg|both) ;; *) echo "$prog: --format $fmt: expected png, svg or both" >&2; exit 2 ;; esac
for v in "$from" "$to"; do
    [ -z "$v" ] && continue
    # A plain decimal number (digits, at most one point, optional exponent).
    # Finite: 1e309 is a number to grep but infinity to awk and gnuplot.
    if ! printf '%s\n' "$v" | grep -Eq '^\+?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?$' ||
        ! awk -v v="$v" 'BEGIN { v += 0; exit !(v - v == 0 && v < 1e300) }'; then
        echo "$prog: --from/--to \"$v\": expected a time in seconds (a finite number >= 0, below 1e300)" >&2; exit 2
    fi
done
if [ -n "$from" ] && [ -n "$to" ] && awk -v f="$from" -v t="$to" 'BEGIN { exit !(f + 0 >= t + 0) }'; then
    echo "$prog: --from $from --to $to: the window is empty (--from must be below --to)" >&2; exit 2
fi
if ! command -v gnuplot >/dev/null 2>&1; then
    echo "$prog: gnuplot is not installed (Debian: apt-get install gnuplot-nox); nothing drawn" >&2
    exit 2
fi
if [ ! -f "$dir/samples.csv" ]; then
    echo "$prog: $dir: no samples.csv here: not a pnrsim output directory" >&2
    exit 2
fi
# A relative name gets ./ in front: awk would take "x=y/samples.csv" for
# an assignment, and mkdir or mktemp "-x" for an option.
case $dir in /*) ;; *) dir=./$dir ;; esac
case $outdir in /*|'') ;; *) outdir=./$outdir ;; esac
[ -n "$outdir" ] || outdir=$dir/plots

# ---- the input files, checked before anything is written -------------------------
# checkcsv FILE HEADER NUMCOLS INTCOLS [A B]: FILE has the header HEADER,
# as many fields as it on every line (lines starting with # are comments),
# a finite number in each of the columns NUMCOLS (space-separated column
# numbers), an integer >= 0 in each of INTCOLS, column A at most column B
# (a start before its end), and ends with an end of line; otherwise a
# message naming the file and line, and exit 2.
checkcsv() {
    if [ -s "$1" ] && [ "$(tail -c 1 "$1" | od -An -c | tr -d ' ')" != '\n' ]; then
        echo "$prog: $1: the last line has no end of line: a truncated file?" >&2; exit 2
    fi
    msg=$(F=$1 H=$2 N=$3 I=$4 A=${5:-0} B=${6:-0} awk -F, '
        function show(x) { x = substr(x, 1, 40); gsub(/[^ -~]/, "?", x); return x }
        function bad(m) { if (!err) printf "%s:%d: %s\n", ENVIRON["F"], NR, m; err = 1; exit }
        BEGIN { nh = split(ENVIRON["H"], h, ","); split(ENVIRON["N"], nc, " "); split(ENVIRON["I"], ic, " ")
                for (i in ic) isint[ic[i]] = 1 }
        NR == 1 { if ($0 != ENVIRON["H"]) bad("expected the header \"" ENVIRON["H"] "\", found \"" show($0) "\""); next }
        /^#/ { next }
        {
            if (NF != nh) bad("expected " nh " comma-separated fields, found " NF)
            for (k in nc) {
                i = nc[k] + 0; v = $i
                if (v !~ /^[-+]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?$/ || (v + 0) - (v + 0) != 0)
                    bad(h[i] " \"" show(v) "\": expected a finite number")
                if ((i in isint) && (v + 0 < 0 || v + 0 != int(v + 0)))
                    bad(h[i] " \"" show(v) "\": expected an integer >= 0")
            }
            a = ENVIRON["A"] + 0; b = ENVIRON["B"] + 0
            if (a && $a + 0 > $b + 0) bad(h[a] " " $a " after " h[b] " " $b)
        }
        END { if (!err && NR == 0) printf "%s: empty (expected the header \"%s\")\n", ENVIRON["F"], ENVIRON["H"] }' "$1")
    [ -z "$msg" ] || { printf '%s: %s\n' "$prog" "$msg" >&2; exit 2; }
}
# num FILE WHAT VALUE: VALUE is a finite number >= 0, or exit 2 naming it.
num() {
    if ! printf '%s\n' "$3" | grep -Eq '^\+?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?$' ||
        ! awk -v v="$3" 'BEGIN { v += 0; exit !(v - v == 0) }'; then
        printf '%s: %s: %s "%s": expected a finite number >= 0\n' "$prog" "$1" "$2" "$3" >&2; exit 2
    fi
}
checkcsv "$dir/samples.csv" time,running_jobs,queued_jobs,placed_jobs,mpl,cpu_utilization,mem_alloc_mean,mem_alloc_sd,disk_alloc_mean,messages_in_flight,jobs_finished,page_faults "1 3 5 7" "3 5"
[ ! -f "$dir/schedule.csv" ] || checkcsv "$dir/schedule.csv" job,slot,start,end,first_pe,pes,pcs "1 2 3 4 5 6 7" "1 2 5 6" 3 4
[ ! -f "$dir/pes.csv" ] || checkcsv "$dir/pes.csv" time,first_pe,last_pe,mem_alloc_mb,overalloc_mb,netram_lent_mb,netram_held_mb,page_faults,paging_time,cpu_busy "1 2 3 5 6 9" "2 3" 2 3
if [ -f "$dir/schedule.paje" ]; then
    # Slot switches (event 10 of type SW): their time is used.
    msg=$(F=$dir/schedule.paje awk '$1 == 10 && $3 == "SW" && ($2 !~ /^[-+]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?$/ || ($2 + 0) - ($2 + 0) != 0) {
        printf "%s:%d: a slot switch at time \"%s\": expected a finite number\n", ENVIRON["F"], NR, substr($2, 1, 40); exit }' "$dir/schedule.paje")
    [ -z "$msg" ] || { printf '%s: %s\n' "$prog" "$msg" >&2; exit 2; }
fi
# The run's end (total_time of metrics.json) and the metrics period
# (config.ini), checked here too.
span=$(awk -F'[:,]' '$1 ~ /"total_time"/ { gsub(/[ \t]/, "", $2); print $2; exit }' "$dir/metrics.json" 2>/dev/null)
[ -z "$span" ] || num "$dir/metrics.json" total_time "$span"
period=$(awk -F= '/^\[/ { sec = $0 } sec == "[simulation]" && $1 ~ /^[ \t]*metrics_period[ \t]*$/ { gsub(/[ \t]/, "", $2); print $2; exit }' "$dir/config.ini" 2>/dev/null)
[ -z "$period" ] || num "$dir/config.ini" "[simulation] metrics_period" "$period"
mkdir -p "$outdir" || { echo "$prog: cannot create $outdir" >&2; exit 2; }
work=$(mktemp -d "$outdir/.plot.XXXXXX") || { echo "$prog: cannot write in $outdir" >&2; exit 2; }
trap 'rm -rf "$work"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# Terminals: pngcairo when gnuplot has it, png otherwise.
if echo 'set terminal pngcairo' | gnuplot >/dev/null 2>&1; then png='pngcairo size 1200,700 font ",11"'
else png='png size 1200,700'; fi
svg='svg size 1200,700 dynamic font ",11"'
terms=""
case $fmt in png) terms=png ;; svg) terms=svg ;; both) terms="png svg" ;; esac

# draw NAME: run the gnuplot script NAME.gp once per format, in the
# temporary directory (the scripts name their files relative to it).
drawn=""
draw() {
    for t in $terms; do
        if [ $t = png ]; then term=$png; else term=$svg; fi
        { echo "set terminal $term"; echo "set output '$1.$t'"; cat "$work/$1.gp"; } > "$work/$1.$t.gp"
        if ! (cd "$work" && exec gnuplot "$1.$t.gp") 2> "$work/err"; then
            echo "$prog: gnuplot failed on $1:" >&2
            cat "$work/err" >&2
            exit 1
        fi
        drawn="$drawn $1.$t"
    done
}

# Seconds or hours on the time axis of whole-run plots.
# The run's end: total_time of metrics.json (the last sample otherwise);
# plots against time span the whole run, 0 to its end.
[ -n "$span" ] || span=$(awk -F, 'NR > 1 && !/^#/ { t = $1 } END { print t + 0 }' "$dir/samples.csv")
if awk -v s="$span" 'BEGIN { exit !(s > 36000) }'; then tdiv=3600 tunit=h; else tdiv=1 tunit=s; fi

# ---- Gantt chart ---------------------------------------------------------------
if [ -f "$dir/schedule.csv" ]; then
    # Rows clipped to the window; colour from the job number (golden-ratio
    # hues, two lightness levels), so it is the same in every picture.
    W=$work awk -F, -v from="$from" -v to="$to" '
        function hsv(h, s, v,   i, f, p, q, t, r, g, b) {
            i = int(h * 6); f = h * 6 - i; p = v * (1 - s); q = v * (1 - f * s); t = v * (1 - (1 - f) * s)
            i = i % 6
            if (i == 0) { r = v; g = t; b = p } else if (i == 1) { r = q; g = v; b = p }
            else if (i == 2) { r = p; g = v; b = t } else if (i == 3) { r = p; g = q; b = v }
            else if (i == 4) { r = t; g = p; b = v } else { r = v; g = p; b = q }
            return int(r * 255) * 65536 + int(g * 255) * 256 + int(b * 255)
        }
        NR == 1 || /^#/ { next }
        {
            s = $3 - $7; e = $4
            if (from != "" && e < from + 0) next
            if (to != "" && s > to + 0) next
            cs = $3; if (from != "" && cs < from + 0) cs = from + 0
            ce = e; if (to != "" && ce > to + 0) ce = to + 0
            h = ($1 * 0.6180339887) % 1
            col = hsv(h, ($1 % 2) ? 0.55 : 0.85, ($1 % 3 == 0) ? 0.75 : 0.95)
            if (ce > cs) print cs, ce, $5 - 0.5, $5 + $6 - 0.5, col, $1 > (ENVIRON["W"] "/jobs.dat")
            if ($7 > 0) {
                ps = s; pe = $3
                if (from != "" && ps < from + 0) ps = from + 0
                if (to != "" && pe > to + 0) pe = to + 0
                if (pe > ps) print ps, pe, $5 - 0.5, $5 + $6 - 0.5 > (ENVIRON["W"] "/pcs.dat")
            }
            if (lo == "" || cs < lo) lo = cs
            if (ce > hi) hi = ce
        }
        END { printf "%s %s\n", (lo == "" ? 0 : lo), hi + 0 > (ENVIRON["W"] "/range") }
    ' "$dir/schedule.csv"
    touch "$work/jobs.dat" "$work/pcs.dat"
    read lo hi < "$work/range"
    lo=$(awk -v v="$lo" 'BEGIN { printf "%.10g", v }'); hi=$(awk -v v="$hi" 'BEGIN { printf "%.10g", v }')
    [ -n "$from" ] && lo=$from
    [ -n "$to" ] && hi=$to
    # Context switches are drawn at least 0.3% of the window wide, so that
    # switches of a few milliseconds show on a window of minutes.
    awk -v lo="$lo" -v hi="$hi" '{ w = (hi - lo) * 0.003; if ($2 - $1 < w) $1 = $2 - w; print }' \
        "$work/pcs.dat" > "$work/pcs2.dat" && mv "$work/pcs2.dat" "$work/pcs.dat"
    npes=$(awk -F, 'NR > 1 && !/^#/ && $3 + 0 > m { m = $3 + 0 } END { print m + 1 }' "${dir}/pes.csv" 2>/dev/null)
    [ -n "$npes" ] && [ "$npes" -gt 1 ] 2>/dev/null || npes=$(awk -F, 'NR > 1 && !/^#/ && $5 + $6 > m { m = $5 + $6 } END { print m + 0 }' "$dir/schedule.csv")
    : > "$work/switch.dat"
    nsw=0
    if [ -f "$dir/schedule.paje" ]; then
        awk -v lo="$lo" -v hi="$hi" '$1 == 10 && $3 == "SW" && $2 >= lo + 0 && $2 <= hi + 0 { print $2 }' \
            "$dir/schedule.paje" > "$work/switch.dat"
        nsw=$(wc -l < "$work/switch.dat")
    fi
    swnote=""
    if [ "$nsw" -gt 400 ]; then swnote=" ($nsw slot switches not drawn: narrow the window)"; : > "$work/switch.dat"; fi
    njobs=$(awk '{ print $6 }' "$work/jobs.dat" | sort -u | wc -l)
    # Which colour is which job: the job number written on every bar at least
    # 4% of the window wide and tall enough (>= 1/40 of the PEs); and when
    # at most 20 jobs are in the window, a key entry per job (in job order).
    awk -v lo="$lo" -v hi="$hi" -v n="$npes" '$2 - $1 >= (hi - lo) * 0.04 && $4 - $3 >= n / 40 { print ($1 + $2) / 2, ($3 + $4) / 2, $6 }' \
        "$work/jobs.dat" > "$work/labels.dat"
    keys="" jobkey="title \"job running (colour = job, number on wide bars)\"" keypos="outside top center horizontal box"
    if [ "$njobs" -le 20 ]; then
        jobkey=notitle keypos="outside right top vertical box"
        keys=$(sort -k6,6n -u "$work/jobs.dat" | awk '{ printf ", keyentry with boxes fs solid lc rgb \"#%06x\" title \"job %d\"", $5, $6 }')
    fi
    cat > "$work/gantt.gp" <<EOF
set title "Gang matrix: $njobs jobs on $npes PEs, t = $lo .. $hi s$swnote" noenhanced
set xlabel "time (s)"
set ylabel "PE"
set xrange [$lo:$hi]
set yrange [-0.5:$npes - 0.5]
set key $keypos
set style fill solid 1.0 noborder
set grid xtics lc rgb "#dddddd"
set format x "%.10g"
plot "jobs.dat" using ((\$1+\$2)/2):((\$3+\$4)/2):1:2:3:4:5 with boxxyerror lc rgb variable $jobkey$keys, \
     "labels.dat" using 1:2:(sprintf("%d", \$3)) with labels font ",9" notitle, \
     "pcs.dat" using ((\$1+\$2)/2):((\$3+\$4)/2):1:2:3:4 with boxxyerror lc rgb "black" title "context switch (>= 0.3% of window)", \
     "switch.dat" using 1:(-0.5):(0):($npes) with vectors nohead dt 3 lc rgb "#444444" title "slot switch"
EOF
    # Empty data files make gnuplot stop; give them one point outside the view.
    for f in jobs pcs; do [ -s "$work/$f.dat" ] || echo "-1e300 -1e300 -1 -1 0 0" > "$work/$f.dat"; done
    [ -s "$work/labels.dat" ] || echo "-1e300 -1e300 0" > "$work/labels.dat"
    [ -s "$work/switch.dat" ] || echo "-1e300" > "$work/switch.dat"
    draw gantt
else
    echo "$prog: $dir has no schedule.csv (run pnrsim with --schedule): no Gantt chart" >&2
fi

# The window, in the whole-run plots' time unit (whole run when no sample
# is at or before its end or it starts after the run's end: the plot would
# be empty; a sample's values hold until the next one).
xr="set autoscale xfix"
awk -v s="$span" 'BEGIN { exit !(s > 0) }' && xr="set xrange [0:$(awk -v s="$span" -v d=$tdiv 'BEGIN { printf "%.10g", s / d }')]"
inwin=$(awk -F, -v t="$to" 'NR > 1 && !/^#/ && (t == "" || $1 <= t + 0) { n++ } END { print n + 0 }' "$dir/samples.csv")
if [ -n "$from$to" ] && { [ "$inwin" -lt 1 ] || awk -v f="$from" -v s="$span" 'BEGIN { exit !(f != "" && f + 0 >= s + 0) }'; }; then
    echo "$prog: no sample at or before --to, or --from after the run's end ($span s): plots against time show the whole run" >&2
elif [ -n "$from$to" ]; then
    xr="set xrange [$(awk -v v="$from" -v d=$tdiv 'BEGIN { if (v != "") print v / d; else print "*" }'):$(awk -v v="$to" -v d=$tdiv 'BEGIN { if (v != "") print v / d; else print "*" }')]"
fi

# ---- heat maps ------------------------------------------------------------------
# pes.csv has a row per sample, but the sampler jumps over idle stretches
# (docs/METRICS.md, samples.csv), so its times are not evenly spaced. Each
# row is drawn as a rectangle at its true span: figures over the period
# (paging time) cover (t - metrics_period, t]; an idle stretch before it is
# white (nothing paged). Instantaneous figures (overallocation) hold over an
# idle stretch (nothing changed), so that stretch takes the previous value.
# Equal neighbouring cells of a PE row are merged and zero cells are not
# drawn (white background = 0), which keeps the SVG small.
# heatdat COLUMN HOLD > FILE: rows "xc yc xlo xhi ylo yhi value" (time in tunit).
heatdat() {
    awk -F, -v c="$1" -v hold="$2" -v P="$period" -v d="$tdiv" '
        function emit(k) {
            if (v[k] != 0 && e[k] > s[k])
                printf "%.10g %.10g %.10g %.10g %.10g %.10g %.10g\n", (s[k] + e[k]) / 2 / d, (ylo[k] + yhi[k]) / 2,
                    s[k] / d, e[k] / d, ylo[k], yhi[k], v[k]
        }
        # add(k, from, to, value): extend the open cell of row k or start a new one.
        function add(k, a, b, x) {
            if ((k in v) && v[k] == x && e[k] == a) { e[k] = b; return }
            if (k in v) emit(k)
            s[k] = a; e[k] = b; v[k] = x
        }
        NR == 1 || /^#/ { next }
        {
            t = $1 + 0; k = $2; ylo[k] = $2 - 0.5; yhi[k] = $3 + 0.5
            a = t - P; if ((k in last) && a < last[k]) a = last[k]; if (a < 0) a = 0
            if (hold && (k in last) && a > last[k]) add(k, last[k], a, v[k])
            add(k, a, t, $c + 0); last[k] = t
        }
        END { for (k in v) emit(k) }
    ' "$dir/pes.csv"
}
if [ -f "$dir/pes.csv" ] && [ "$(wc -l < "$dir/pes.csv")" -gt 1 ]; then
    # The period from the run's config.ini; the first sample's time otherwise.
    [ -n "$period" ] || period=$(awk -F, 'NR == 2 { print $1; exit }' "$dir/pes.csv")
    group=$(awk -F, 'NR == 2 { print $3 - $2 + 1; exit }' "$dir/pes.csv")
    hn=$(awk -F, 'NR > 1 && !/^#/ && $3 + 0 >= m { m = $3 + 1 } END { print m + 0 }' "$dir/pes.csv")
    pes_label="PE"
    [ "$group" -gt 1 ] && pes_label="PE (rows of $group PEs, means)"
    heat() { # NAME COLUMN HOLD TITLE CBLABEL
        heatdat $2 $3 > "$work/$1.dat"
        # No non-zero cell: one zero cell outside the view (gnuplot stops on
        # an empty file) and a fixed colour range.
        cbr="set cbrange [0:*]"
        [ -s "$work/$1.dat" ] || { echo "-1e300 -1e300 -1e300 -1e300 -1 -1 0" > "$work/$1.dat"; cbr="set cbrange [0:1]"; }
        cat > "$work/$1.gp" <<EOF
set title "$4" noenhanced
set xlabel "time ($tunit)"
set ylabel "$pes_label"
set cblabel "$5" noenhanced
set palette defined (0 "white", 1 "#fdd49e", 2 "#fc8d59", 3 "#d7301f", 4 "#7f0000")
$cbr
set key off
set tics out
set style fill solid 1.0 noborder
set yrange [-0.5:$hn - 0.5]
$xr
plot "$1.dat" using 1:2:3:4:5:6:7 with boxxyerror lc palette title "$5"
EOF
        draw "$1"
    }
    heat paging 9 0 "Paging: time threads spent servicing page faults, per PE and metrics period" "paging time per PE (s per period)"
    heat overalloc 5 1 "Memory overallocation per PE (memory on disk or in network RAM), at each sample" "overallocated memory (MB)"
else
    echo "$prog: $dir has no pes.csv samples (run pnrsim with --schedule): no heat maps" >&2
fi

# ---- against time ---------------------------------------------------------------
# samples.csv: time,running,queued,placed,mpl,cpu,mem_alloc_mean,...
if [ -f "$dir/pes.csv" ]; then
    awk -F, -v OFS=, 'NR > 1 && !/^#/ { s[$1] += $6 * ($3 - $2 + 1); n[$1] += $3 - $2 + 1; if (!($1 in seen)) { seen[$1] = 1; order[++k] = $1 } }
             END { for (i = 1; i <= k; i++) print order[i], s[order[i]] / n[order[i]] }' "$dir/pes.csv" > "$work/lent.dat"
fi
[ -s "$work/lent.dat" ] || awk -F, -v OFS=, 'NR > 1 && !/^#/ { print $1, 0 }' "$dir/samples.csv" > "$work/lent.dat"
[ -s "$work/lent.dat" ] || echo "0,0" > "$work/lent.dat"
# samples.csv has a row only when something changed, and a value holds
# until the next row: drawn as steps, with the last row carried to the
# run's end (so a run with a single sample still shows a line).
# carry FILE > OUT: FILE's data rows and a copy of the last at the run's end.
# With a window, a row is also added at --from and at --to holding the
# value of the row before (the picture is the same; gnuplot needs a point
# in the window to scale the y axis).
carry() {
    awk -F, -v OFS=, -v end="$span" -v from="$from" -v to="$to" '
        function at(x,   n, i, f, s) { n = split(last, f, ","); s = x; for (i = 2; i <= n; i++) s = s "," f[i]; print s }
        function cross(x) { if (x != "" && last != "" && t < x + 0 && $1 + 0 > x + 0) at(x) }
        NR > 1 && !/^#/ { cross(from); cross(to); print; last = $0; t = $1 + 0 }
        END { if (last != "" && end + 0 > t) { $0 = end ","; cross(from); cross(to); at(end) } }' "$1"
}
carry "$dir/samples.csv" > "$work/samples.dat"
{ echo time,lent; cat "$work/lent.dat"; } > "$work/lent0.dat"; carry "$work/lent0.dat" > "$work/lent.dat"
if [ "$(wc -l < "$dir/samples.csv")" -gt 1 ]; then
    cat > "$work/memory.gp" <<EOF
set title "Memory in use and network RAM lent (means over PEs, held between samples)"
set xlabel "time ($tunit)"
set ylabel "MB per PE"
$xr
set key outside top center horizontal box
set grid
set datafile separator ","
plot "samples.dat" using (\$1 / $tdiv):7 with steps lw 2 lc rgb "#1f77b4" title "memory in use", \
     "lent.dat" using (\$1 / $tdiv):2 with steps lw 2 lc rgb "#d62728" title "network RAM lent"
EOF
    draw memory
    cat > "$work/queue.gp" <<EOF
set title "Queue length and multiprogramming level (held between samples)"
set xlabel "time ($tunit)"
set ylabel "queued jobs"
$xr
set y2label "MPL (slots in use)"
set ytics nomirror
set y2tics
set yrange [0:*]
set y2range [0:*]
set key outside top center horizontal box
set grid
set datafile separator ","
plot "samples.dat" using (\$1 / $tdiv):3 with steps lw 2 lc rgb "#2ca02c" title "queue length", \
     "samples.dat" using (\$1 / $tdiv):5 axes x1y2 with steps lw 2 dt 2 lc rgb "#9467bd" title "MPL"
EOF
    draw queue
else
    echo "$prog: $dir/samples.csv has no samples (the run was shorter than metrics_period): no plots against time" >&2
fi

if [ $keep = 1 ]; then
    # The scripts name their data relative to their directory: run them
    # there (cd DIR/data && gnuplot gantt.png.gp).
    mkdir -p "$outdir/data" && for f in "$work"/*.dat "$work"/*.gp; do
        [ -f "$f" ] || continue
        cp "$f" "$outdir/data/" || exit 1
    done || { echo "$prog: cannot write $outdir/data" >&2; exit 1; }
fi
# Every plot drawn: move them into place.
for f in $drawn; do
    mv -f "$work/$f" "$outdir/$f" || { echo "$prog: cannot write $outdir/$f" >&2; exit 1; }
done
n=$(echo $drawn | wc -w)
echo "$prog: $n images in $outdir:$drawn"
