#!/bin/sh
# tools/plot-wrapper.sh PYDIR VERSION [REL]: print the pnrsim-plot wrapper, a sh
# script that runs the Python companion (python/pnrsim) found in PYDIR with
# the system interpreter /usr/bin/python3 (where Debian's python3-pandas
# and python3-matplotlib live, whatever python3 comes first on PATH).
# The Makefile writes build/pnrsim-plot with PYDIR = the source tree's
# python/ and `make install` PREFIX/bin/pnrsim-plot with PYDIR =
# PREFIX/share/pnrsim/python, and REL = ../share/pnrsim/python: the
# installed wrapper looks for the package relative to its own directory
# first, so a tree installed with DESTDIR or moved as a whole still finds
# its own companion; PYDIR is the fallback. PYDIR, VERSION and REL go into
# single quotes (a quote in them is written as '\'').
q() { printf "'%s'" "$(printf '%s' "$1" | sed "s/'/'\\\\''/g")"; }
cat <<EOT
#!/bin/sh
# pnrsim-plot: the pictures of a pnrsim run, its Batsim/evalys jobs CSV
# and a study's plots (python3 -m pnrsim; see pnrsim-plot(1)).
pydir=$(q "$1")
EOT
[ -n "${3:-}" ] && cat <<EOT
here=\$(dirname -- "\$0")
[ -f "\$here"/$(q "$3")/pnrsim/__init__.py ] && pydir=\$here/$(q "$3")
EOT
cat <<EOT
PYTHONPATH=\$pydir\${PYTHONPATH:+:\$PYTHONPATH}
PNRSIM_VERSION=$(q "$2")
export PYTHONPATH PNRSIM_VERSION
exec /usr/bin/python3 -m pnrsim "\$@"
EOT
