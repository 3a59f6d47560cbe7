#!/bin/sh
# tests/test_study_table.sh BUILD: tools/study-table.py, the Markdown table
# of a pnrsim-sweep summary.csv (docs/STUDY-THEN-AND-NOW.md's tables).
#
# A hand-made summary.csv of three points; the expected cells are worked out
# from the formatting rule of the tool's docstring: "mean ± ci95", no
# decimals for |x| >= 100 with thousands separated by commas, else three
# significant digits, DIGITS decimals after METRIC:DIGITS, the mean alone
# when the interval is empty (n = 1), "-" when the mean is empty.
# Prints "N passed, N failed" last; KEEP=1 keeps the temporary directory.

TEST_NAME=test_study_table
. "$(dirname "$0")/lib.sh"    # top, PY, check, finish, T

cat > summary.csv <<'CSV'
computer.ram,netram.strategy,n,resp_mean,resp_sd,resp_ci95,resp_ci95_lo,resp_ci95_hi,util_mean,util_sd,util_ci95,util_ci95_lo,util_ci95_hi
256,central,4,12345.6,1,10.4,1,1,0.31256,1,0.0491,1,1
256,@disk,1,987.4,,,,,0.5,,,,
512,central,0,,,,,,,,,,
CSV
"$PY" "$top/tools/study-table.py" summary.csv resp util > t1.md
check "exit 0" test $? -eq 0
check "header: the varied keys, n, the metrics" \
    test "$(sed -n 1p t1.md)" = "| computer.ram | netram.strategy | n | resp | util |"
# 12345.6 -> 12,346 (no decimals, >= 100); 10.4 -> 10.4 (3 significant:
# 2 - floor(log10 10.4) = 1 decimal); 0.31256 -> 0.313 (3 decimals);
# 0.0491 -> 0.0491 (2 - (-2) = 4 decimals).
check "row 1: 12,346 ± 10.4 and 0.313 ± 0.0491" \
    test "$(sed -n 3p t1.md)" = "| 256 | central | 4 | 12,346 ± 10.4 | 0.313 ± 0.0491 |"
check "row 2 (n = 1): the means alone, 987 and 0.500" \
    test "$(sed -n 4p t1.md)" = "| 256 | @disk | 1 | 987 | 0.500 |"
check "row 3 (n = 0): '-'" \
    test "$(sed -n 5p t1.md)" = "| 512 | central | 0 | - | - |"
"$PY" "$top/tools/study-table.py" summary.csv resp:1 util:2 > t2.md
check "METRIC:DIGITS: 12,345.6 ± 10.4 and 0.31 ± 0.05" \
    test "$(sed -n 3p t2.md)" = "| 256 | central | 4 | 12,345.6 ± 10.4 | 0.31 ± 0.05 |"
"$PY" "$top/tools/study-table.py" summary.csv nosuch > t3.md 2> t3.err
check "a metric not in the file: exit 2, named" \
    test $? -eq 2 -a -n "$(grep 'no metric nosuch' t3.err)"

finish
