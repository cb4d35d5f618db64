"""The TAP harness of the Python tests (test_gk.py, test_nx.py): each
function decorated with @test runs at once as one numbered TAP test; a
RuntimeWarning fails it; Skip marks it skipped with the reason; done()
prints the plan and exits non-zero if any failed."""

import sys
import traceback
import warnings

_n = 0
_failed = 0


class Skip(Exception):
    pass


def test(fn):
    """Run fn now as one TAP test."""
    global _n, _failed
    _n += 1
    name = fn.__doc__.strip().splitlines()[0] if fn.__doc__ else fn.__name__
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", RuntimeWarning)
            fn()
        print("ok %d - %s" % (_n, name))
    except Skip as e:
        print("ok %d - %s # SKIP %s" % (_n, name, e))
    except Exception:
        _failed += 1
        print("not ok %d - %s" % (_n, name))
        for line in traceback.format_exc().splitlines():
            print("# " + line)
    sys.stdout.flush()
    return fn


def done():
    print("1..%d" % _n)
    sys.exit(1 if _failed else 0)
