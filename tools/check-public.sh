#!/bin/sh
# tools/check-public.sh HEADER... : every public header (the Makefile's
# PUBLIC_HEADERS, issue 34) says so in its first comment ("public (issue
# 34)" or ", public."), and includes only other public headers (by the
# same "folder/name.h" spelling) and the C library (<...> headers of the
# C standard: no <gsl/...>, <ini.h>, <zlib.h>), and has the extern "C"
# guards a C++ plugin needs (#ifdef __cplusplus ... extern "C" {; the
# headers named in CXX_PENDING are let off with a note, until their
# owners add them). Exit 1 with a line per problem.
status=0
std=" assert.h complex.h ctype.h errno.h fenv.h float.h inttypes.h iso646.h limits.h locale.h math.h setjmp.h signal.h stdalign.h stdarg.h stdatomic.h stdbool.h stddef.h stdint.h stdio.h stdlib.h stdnoreturn.h string.h tgmath.h threads.h time.h uchar.h wchar.h wctype.h "
CXX_PENDING=" "
for h in "$@"; do
    [ -f "$h" ] || { echo "check-public: $h: no such file"; status=1; continue; }
    if ! grep -q '^[[:space:]]*extern "C" {' "$h"; then
        case "$CXX_PENDING" in
            *" $h "*) echo "check-public: note: $h has no extern \"C\" guards yet (CXX_PENDING)" ;;
            *) echo "check-public: $h has no extern \"C\" guards (#ifdef __cplusplus extern \"C\" { #endif)"; status=1 ;;
        esac
    fi
    head -3 "$h" | grep -qi 'public' || { echo "check-public: $h: its first comment does not say it is public"; status=1; }
    for inc in $(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$h"); do
        case " $* " in
            *" $inc "*) ;;
            *) echo "check-public: $h includes \"$inc\", which is not a public header (PUBLIC_HEADERS: $*)"; status=1 ;;
        esac
    done
    for inc in $(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*<\([^>]*\)>.*/\1/p' "$h"); do
        case "$std" in
            *" $inc "*) ;;
            *) echo "check-public: $h includes <$inc>, which is not a C standard header"; status=1 ;;
        esac
    done
done
# Each header alone, compiled as C (-std=c99 -pedantic, with <iso646.h>
# first, whose macros `not`, `and`, ... a parameter name must not be) and,
# where a C++ compiler is installed, as C++ (a C++ plugin includes them).
tmpd=$(mktemp -d)
trap 'rm -rf "$tmpd"' EXIT
for h in "$@"; do
    [ -f "$h" ] || continue
    printf '#include <iso646.h>\n#include "%s"\n' "$h" > "$tmpd/one.c"
    if ! cc -std=c99 -pedantic -Werror -fsyntax-only -I. "$tmpd/one.c" 2> "$tmpd/err"; then
        echo "check-public: $h does not compile alone as C99 with <iso646.h>: $(head -2 "$tmpd/err" | tr '\n' ' ')"
        status=1
    fi
    if command -v g++ >/dev/null 2>&1; then
        printf '#include "%s"\n' "$h" > "$tmpd/one.cpp"
        if ! g++ -std=c++11 -fsyntax-only -I. "$tmpd/one.cpp" 2> "$tmpd/err"; then
            echo "check-public: $h does not compile as C++11: $(head -2 "$tmpd/err" | tr '\n' ' ')"
            status=1
        fi
    fi
done
command -v g++ >/dev/null 2>&1 || echo "check-public: note: g++ not installed: the headers were not compiled as C++"
[ $status -eq 0 ] && echo "check-public: $# public headers include only public headers and the C library, and compile alone as C99 and C++"
exit $status
