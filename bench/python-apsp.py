#!/usr/bin/env python3
"""gk.floyd_warshall against scipy.sparse.csgraph.floyd_warshall and
networkx.floyd_warshall_numpy on the same random graphs; every result is
compared with gk's.

    python3 bench/python-apsp.py                      # CPU, V = 1000 and 3000
    python3 bench/python-apsp.py --device=gpu         # the same graphs on the GPU
    python3 bench/python-apsp.py --sizes=1000 --skip=networkx
    python3 bench/python-apsp.py --device=gpu --wheels=DIR  # numpy etc. from wheels in DIR

Graphs: V vertices, each ordered pair an edge with probability --density
(default 0.05), integer weights uniform in [1, --max-weight] (default 1000),
seed 1: a dense float64 matrix, 0 meaning no edge (scipy's convention), so the
same array goes to all three.  Times are wall-clock seconds of one call each
(the best of --repeat, default 1), input conversion included, as a user sees
them.  scipy and networkx columns are left out, with a note, when the module
is missing (on a GPU machine without them).  Run from a build tree:
GK_LIBRARY=_b/.libs/libgk.so.1 PYTHONPATH=python python3 bench/python-apsp.py,
or with the module installed.
"""
import argparse
import os
import platform
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))


def use_wheels(d):
    """Make the wheels (.whl: zip files) in d importable: unpacked into a
    temporary directory put first on sys.path (for a machine without numpy,
    scipy or networkx installed and without network)."""
    import glob
    import tempfile
    import zipfile
    whls = sorted(glob.glob(os.path.join(d, "*.whl")))
    if not whls:
        return
    to = tempfile.mkdtemp(prefix="gk-wheels.")
    for w in whls:
        zipfile.ZipFile(w).extractall(to)
    sys.path.insert(0, to)
    print("# using the wheels of %s: %s" % (d, ", ".join(os.path.basename(w).split("-")[0] for w in whls)))


for arg in sys.argv[1:]:
    if arg.startswith("--wheels="):
        use_wheels(arg.split("=", 1)[1])
try:
    import numpy as np
except ImportError:
    print("python-apsp: numpy is needed: apt-get install python3-numpy, pip install numpy, or "
          "--wheels=DIR holding a numpy .whl for this Python", file=sys.stderr)
    sys.exit(1)
import gk


def best(f, repeat):
    t, out = None, None
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = f()
        dt = time.perf_counter() - t0
        t = dt if t is None or dt < t else t
    return t, out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--device", default="cpu", choices=("auto", "cpu", "gpu"))
    ap.add_argument("--sizes", default="1000,3000")
    ap.add_argument("--density", type=float, default=0.05)
    ap.add_argument("--max-weight", type=int, default=1000)
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--skip", default="", help="comma list: scipy, networkx")
    ap.add_argument("--wheels", help="a directory of .whl files to import numpy/scipy/networkx from")
    a = ap.parse_args()
    skip = set(filter(None, a.skip.split(",")))
    others = []
    if "scipy" not in skip:
        try:
            from scipy.sparse.csgraph import floyd_warshall as sfw
            import scipy
            others.append(("scipy %s" % scipy.__version__, lambda g: sfw(g)))
        except ImportError:
            print("# scipy is not installed: its column is left out")
    if "networkx" not in skip:
        try:
            import networkx as nx
            others.append(("networkx %s" % nx.__version__,
                           lambda g: np.asarray(nx.floyd_warshall_numpy(nx.from_numpy_array(g, create_using=nx.DiGraph)))))
        except ImportError:
            print("# networkx is not installed: its column is left out")
    info = gk.info()
    where = info["cpu"]["model"] + " (%d threads)" % info["cpu"]["omp_max_threads"]
    if a.device != "cpu" and info["gpus"]:
        where = info["gpus"][0]["name"] + "; host " + where
    print("# gk %s --device=%s on %s; numpy %s, Python %s" % (gk.__version__, a.device, where,
          np.__version__, platform.python_version()))
    print("# density %g, weights in [1, %d], seed 1; seconds of one call, conversions included"
          % (a.density, a.max_weight))
    cols = ["V", "edges", "gk (s)"] + ["%s (s)" % n for n, _ in others] + \
           ["speed-up vs %s" % n.split()[0] for n, _ in others] + ["same"]
    print("| " + " | ".join(cols) + " |")
    print("|" + "---|" * len(cols))
    ok = True
    for V in (int(x) for x in a.sizes.split(",")):
        rng = np.random.default_rng(1)
        g = rng.integers(1, a.max_weight + 1, (V, V)).astype(np.float64)
        g[rng.random((V, V)) >= a.density] = 0
        np.fill_diagonal(g, 0)
        E = int(np.count_nonzero(g))
        gk.floyd_warshall(g[:8, :8], device=a.device)           # context creation, not timed
        t_gk, d_gk = best(lambda: gk.floyd_warshall(g, device=a.device), a.repeat)
        row, same = [str(V), str(E), "%.3f" % t_gk], []
        times = []
        for name, f in others:
            t, d = best(lambda: f(g), a.repeat)
            times.append(t)
            row.append("%.3f" % t)
            same.append(bool(np.array_equal(d, d_gk)))
        row += ["%.1fx" % (t / t_gk) for t in times]
        row.append("yes" if all(same) else "NO")
        ok &= all(same)
        print("| " + " | ".join(row) + " |")
        sys.stdout.flush()
    rep = gk.last_report()
    print("# gk ran on: %s%s" % (rep["device"], " (" + rep["backend_note"] + ")" if rep["backend_note"] else ""))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
