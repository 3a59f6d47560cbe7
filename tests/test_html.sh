#!/bin/sh
# tests/test_html.sh BUILD: the index.html pnrsim-sweep writes in a study
# directory, read as a reader would.
#
# A 2 x 3 study (2 replications, a [plot] with lines, a value with '<' and
# '&' in the study's comment) on the ten-job LANL CM-5 sample:
#   - index.html is well-formed XML (xmllint) and HTML (xmllint --html: no
#     message but the HTML5 <details>/<summary>, which libxml2 2.9's HTML
#     parser does not know); plots, then the summary, then the study file
#     folded in <details>; it lists
#     every point: one <tr class="point"> per point with its values, the
#     finished-run count and "mean [lo, hi]" cells; units in the headers,
#     the headline metrics first and the others folded (issue 37 item 5);
#     the study file's text is there, escaped;
#   - it refers only to files beside it (no http:, https: or //) and every
#     image it refers to exists;
#   - headless Chromium (Debian chromium; tools/deps.sh html installs it)
#     loads it from disk, takes a screenshot (a PNG), reports no console
#     error, and a copy of the page with a small script that writes each
#     image's load status into the DOM (dumped with --dump-dom) shows every
#     image loaded (naturalWidth > 0).
# The Chromium part skips with a message when chromium is not installed;
# the image part needs pnrsim-plot study (Python's pandas and matplotlib;
# else: skip). Prints "N passed, N failed".
TEST_NAME=test_html
. "$(dirname "$0")/lib.sh"    # top, build, P, SWEEP, check, skip, need, finish, T
need "$SWEEP"
TRACE=$top/traces/lanl-cm5-techreport-sample10.swf
cat > base.ini <<EOT
[computer]
number = 16
[scheduler]
mpl = 2
EOT
cat > s.ini <<EOT
; a <small> study & its page
[study]
name = page
base = base.ini
trace = $TRACE
replications = 2
metrics = total_time, response_time_mean, bounded_slowdown_mean, bounded_slowdown_dedicated_mean
[set]
workload.max_jobs = 10
[vary]
computer.ram = 16, 64
scheduler.quantum = 10, 60, 600
[plot response]
metric = response_time_mean
x = scheduler.quantum
lines = computer.ram
logx = yes
EOT
"$SWEEP" -q -j 2 -o st s.ini > sweep.log 2>&1
check "study: exit 0" test $? -eq 0
H=st/index.html
check "index.html written" test -s $H
if command -v xmllint >/dev/null 2>&1; then
    # The page is HTML5 that is also well-formed XML: the XML parser checks
    # it strictly; libxml2 2.9's HTML parser knows no HTML5 element and
    # reports <details> and <summary> (each message 3 lines: the message,
    # the source line, the caret), nothing else may appear.
    xmllint --noout $H > xml.out 2>&1
    check "xmllint (XML): well-formed, no message" test $? -eq 0 -a ! -s xml.out
    xmllint --html --noout $H > xl.out 2>&1
    xrc=$?
    other=$(grep 'HTML parser error' xl.out | grep -v -e 'Tag details invalid' -e 'Tag summary invalid' | head -1)
    ndet=$(grep -c '<details' $H)
    check "xmllint --html: no message but the HTML5 <details>/<summary> ones (2 per <details>: $ndet)${other:+: $other}" \
        test $xrc -eq 0 -a -z "$other" -a "$(grep -c 'HTML parser error' xl.out)" -le $((2 * ndet))
else
    skip "xmllint not installed (Debian libxml2-utils)"
fi
check "one <tr class=\"point\"> per point (6)" test "$(grep -c '<tr class="point">' $H)" -eq 6
missing=""
for ram in 16 64; do
    for q in 10 60 600; do
        grep -q "<tr class=\"point\"><td class=\"p\">$ram</td><td class=\"p\">$q</td><td>2</td><td>[0-9.e+-]* \[[0-9.e+-]*, [0-9.e+-]*\]</td>" $H || missing="$missing $ram/$q"
    done
done
check "every point listed with its values, n = 2 and mean [lo, hi]${missing:+: missing$missing}" test -z "$missing"
# Issue 37 item 5: units in the headers (the keys' units of
# configs/reference.ini: computer.ram MB, scheduler.quantum s; the
# metrics' of docs/METRICS.md: total_time and response_time_mean s,
# bounded_slowdown_mean and bounded_slowdown_dedicated_mean none); the
# headline metrics (here response_time_mean and
# bounded_slowdown_dedicated_mean of the study's four, in the study's
# order) in the first table, the
# others (total_time, bounded_slowdown_mean) in a second one folded in
# <details class="rest">, one <tr class="rest"> per point.
head=$(grep -m1 '^<tr><th>' $H)
check "headline table's header: computer.ram (MB), scheduler.quantum (s), n, response_time_mean (s), bounded_slowdown_dedicated_mean only" \
    test "$head" = "<tr><th>computer.ram (MB)</th><th>scheduler.quantum (s)</th><th>n</th><th>response_time_mean (s)</th><th>bounded_slowdown_dedicated_mean</th></tr>"
rest=$(sed -n '/^<details class="rest">/,/^<\/details>/p' $H)
check "the other metrics folded: total_time (s), bounded_slowdown_mean (no unit), a row per point (6)" \
    sh -c "echo '$rest' | grep -qF '<th>n</th><th>total_time (s)</th><th>bounded_slowdown_mean</th></tr>' && test \$(echo '$rest' | grep -c '<tr class=\"rest\">') -eq 6"
check "the folded table comes after the headline one, before the study file" \
    test "$(grep -n '^<details class="rest">' $H | cut -d: -f1)" -gt "$(grep -n '^<tr><th>' $H | head -1 | cut -d: -f1)" -a \
         "$(grep -n '^<details class="rest">' $H | cut -d: -f1)" -lt "$(grep -n '<h2>Study file</h2>' $H | cut -d: -f1)"
check "the page says which bounded slowdown is which (both in the study)" \
    sh -c "grep -q '<p class=\"slowdowns\">' $H && grep -q 'bounded_slowdown_dedicated_mean</code> divides by the job.s dedicated run time' $H && grep -q 'bounded_slowdown_mean</code> (PNRSim.s) divides by the execution as run' $H"
check "the study file is in the page, escaped" grep -q '; a &lt;small&gt; study &amp; its page' $H
check "no reference to the network" sh -c "! grep -Eq 'https?:|src=\"//|href=\"//' $H"
check "the study file is folded (<details>) after the summary table" \
    test "$(grep -n '^<details>' $H | tail -1 | cut -d: -f1)" -gt "$(grep -n '<h2>Summary</h2>' $H | cut -d: -f1)"
check "the plots come before the summary table" \
    test "$(grep -n '<h2>Plots</h2>' $H | cut -d: -f1)" -lt "$(grep -n '<h2>Summary</h2>' $H | cut -d: -f1)"
imgs=$(sed -n 's/.*<img src="\([^"]*\)".*/\1/p' $H)
if "$PLOT" study --help 2>&1 | grep -q '^usage: pnrsim-plot study' &&
    "$PY" -c 'import pandas, matplotlib' 2> /dev/null; then
    check "the plot is shown" test "$(echo "$imgs" | grep -c 'plots/response.png')" -eq 1
else
    skip "pnrsim-plot study or pandas/matplotlib missing: no plot in the page"
fi
nf=0
for i in $imgs; do [ -s "st/$i" ] || nf=$((nf + 1)); done
check "every image referred to exists" test $nf -eq 0

CHROME=$(command -v chromium || command -v chromium-browser || command -v google-chrome)
if [ -z "$CHROME" ]; then
    skip "Chromium not installed (Debian chromium; tools/deps.sh html installs it): page not opened in a browser"
    finish
fi
# The flags keep it from the network and from the user's profile.
chrome() {
    prof=$(mktemp -d "$T/prof.XXXXXX")
    timeout 120 "$CHROME" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
        --disable-background-networking --disable-component-update --disable-sync \
        --disable-dev-shm-usage --user-data-dir="$prof" "$@"
}
chrome --enable-logging=stderr --v=0 --window-size=1280,1600 --screenshot="$T/shot.png" \
    "file://$T/$H" > shot.out 2> shot.err
check "Chromium: screenshot of index.html taken (PNG)" \
    sh -c "head -c 8 shot.png | od -An -c | grep -q 'P   N   G'"
cerr=$(grep -m1 -E 'CONSOLE|Failed to load|ERR_FILE_NOT_FOUND' shot.err | cut -c1-120)
check "Chromium: no console error or failed load${cerr:+: $cerr}" test -z "$cerr"
# The same page with a script that records each image's state.
sed 's|</body>|<script>window.addEventListener("load", function () { var s = ""; for (var i = 0; i < document.images.length; i++) { var m = document.images[i]; s += m.getAttribute("src") + "=" + (m.complete \&\& m.naturalWidth > 0 ? "loaded" : "broken") + ";"; } document.body.setAttribute("data-images", s + "end"); });</script></body>|' \
    $H > st/check.html
chrome --virtual-time-budget=5000 --dump-dom "file://$T/st/check.html" > dom.html 2> dom.err
st=$(sed -n 's/.*data-images="\([^"]*\)".*/\1/p' dom.html)
nimg=$(echo "$imgs" | grep -c .)
nok=$(echo "$st" | tr ';' '\n' | grep -c '=loaded')
check "Chromium: every image of the page loaded (${st:-no status in the DOM})" \
    sh -c "test -n '$st' && ! echo '$st' | grep -q broken && test $nok -eq $nimg"
finish
