"""``python3 -m pnrsim SUBCOMMAND ...``: plot (the default), study, evalys, validate, --version."""
import sys


def main(argv=None):
    """Dispatch to a subcommand; returns the exit status."""
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] == "--version":
        from . import __version__
        print("pnrsim-plot %s" % __version__)
        return 0
    if argv and argv[0] == "study":
        try:
            from . import study  # lazy: a study's tables and plots
        except ImportError as e:
            sys.stderr.write("pnrsim-plot study: cannot load pnrsim.study (%s)\n" % e)
            return 2
        return study.main(argv[1:])
    if argv and argv[0] == "validate":
        from . import validate  # simulated against logged starts (needs pandas when it runs)
        return validate.main(argv[1:])
    # What each subcommand needs is checked when it runs (cli.need), after
    # its options are parsed: --help needs nothing, evalys numpy and
    # pandas, not matplotlib.
    from . import cli
    if argv and argv[0] == "evalys":
        return cli.evalys_main(argv[1:])
    if argv and argv[0] == "plot":
        argv = argv[1:]
    return cli.plot_main(argv)


if __name__ == "__main__":
    try:
        rc = main()
        sys.stdout.flush()
    except BrokenPipeError:  # e.g. pnrsim-plot evalys DIR | head
        import os
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        rc = 0
    sys.exit(rc)
