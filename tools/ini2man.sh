#!/bin/sh
# tools/ini2man.sh REFERENCE.INI VERSION: write pnrsim.ini(5) to standard
# output, generated from configs/reference.ini (the file a test checks
# against the program's defaults), so the manual lists every key with its
# default, unit, allowed values and range and cannot drift from it.
#
# reference.ini's layout: a header comment (the page's DESCRIPTION), then
# per section a comment line and [section], then per key one or more
# comment lines ("; what [unit; allowed]", "; range: why") and KEY = VALUE.
set -e
ref=$1
version=${2:-0}
awk -v version="$version" '
function esc(s) {
    gsub(/\\/, "\\e", s)
    sub(/^[.'"'"']/, "\\\\\\&&", s)
    return s
}
BEGIN {
    print ".\\\" Generated from configs/reference.ini by tools/ini2man.sh: do not edit."
    print ".TH PNRSIM.INI 5 \"\" \"pnrsim " version "\" \"File Formats\""
    print ".SH NAME"
    print "pnrsim.ini \\- scenario file of pnrsim: every configuration key"
    print ".SH SYNOPSIS"
    print "[\\fISECTION\\fR]"
    print ".br"
    print "\\fIkey\\fR = \\fIvalue\\fR"
    print ".SH DESCRIPTION"
    print "A scenario for"
    print ".BR pnrsim (1)"
    print "is an INI file given with \\fB\\-c\\fR; single keys are overridden with"
    print "\\fB\\-\\-set\\fR \\fISECTION.KEY=VALUE\\fR. What follows is"
    print "the commented reference file shipped as configs/reference.ini (installed under"
    print "share/pnrsim/configs), which lists every key with its default value."
    print ".PP"
    header = 1; nc = 0
}
header && /^;/ { line = $0; sub(/^; ?/, "", line); if (line == "") print ".PP"; else print esc(line); next }
header && /^$/ { header = 0; print ".SH KEYS"; next }
/^\[/ {
    sec = $0; gsub(/[\[\]]/, "", sec)
    print ".SS [" sec "]"
    if (nc > 0) print esc(c[nc])
    nc = 0; next
}
/^;/ { line = $0; sub(/^; ?/, "", line); c[++nc] = line; next }
/^[A-Za-z_]+ *=/ {
    key = $0; sub(/ *=.*/, "", key)
    val = $0; sub(/^[^=]*= */, "", val)
    print ".TP"
    if (val == "") print "\\fB" key "\\fR = (empty)"
    else print "\\fB" key "\\fR = \\fI" esc(val) "\\fR"
    for (i = 1; i <= nc; i++) { if (i > 1) print ".br"; print esc(c[i]) }
    nc = 0; next
}
/^$/ { nc = 0; next }
END {
    print ".SH FILES"
    print ".TP"
    print ".I configs/reference.ini"
    print "every key with its default (this page is generated from it)."
    print ".TP"
    print ".I configs/default.ini"
    print "the demo scenario."
    print ".SH SEE ALSO"
    print ".BR pnrsim (1),"
    print ".BR pnrsim\\-sweep (1),"
    print ".BR pnrsim\\-plot (1)"
}' "$ref"
