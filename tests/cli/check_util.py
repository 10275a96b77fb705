"""What the NumPy checks of this folder share: the summary line and the command line."""

import sys


def summary(total, failed):
    """Prints "N passed, M failed"; returns the exit status (1 when anything failed)."""
    print(f"{total - failed} passed, {failed} failed")
    return 1 if failed else 0


def run(main, nargs, usage):
    """Exits with main(*arguments) when the command line has nargs arguments, else prints
    usage and exits 2."""
    if len(sys.argv) != nargs + 1:
        print(usage)
        sys.exit(2)
    sys.exit(main(*sys.argv[1:]))
