#!/usr/bin/env python3
"""gk.floyd_warshall against scipy.sparse.csgraph.floyd_warshall on real
(float64) weights, the speed target of issue 24: at V = 3000 on the 2-core
development machine gk's call takes at most 1/100 of scipy's, the same
distances within gk's stated tolerance.

    GK_LIBRARY=.libs/libgk.so.1 PYTHONPATH=python OMP_NUM_THREADS=2 python3 bench/python-fw-float64.py
    python3 bench/python-fw-float64.py --sizes=1000,3000 --negative --repeat=3

Graph: V vertices, each ordered pair an edge with probability --density
(default 0.2: dense-ish), weights uniform in [1, 100) (float64, seed 1; with
--negative shifted by a potential, w + h(u) - h(v) with h uniform in [0, 50),
so many are negative and no cycle is), as a dense float64 matrix, 0 meaning
no edge (scipy's convention): the same array goes to both.  Times: wall-clock
seconds of one call each (the best of --repeat), input conversion included,
as a user sees them; gk's solve alone is gk.last_report()'s compute time.
Agreement: the same unreachable pairs and |gk - scipy| <= 2 (V-1)^2 2^-53
max|w| (gk(1), "Weights"), checked for every entry.  Exit status 1 when they
disagree, or (--target=X) when the speed-up is below X.
"""
import argparse
import os
import platform
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))

import numpy as np  # noqa: E402

import gk  # noqa: E402


def best(f, repeat):
    t, out = None, None
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = f()
        dt = time.perf_counter() - t0
        t = dt if t is None or dt < t else t
    return t, out


def graph(V, density, negative):
    rng = np.random.default_rng(1)
    g = rng.uniform(1, 100, (V, V))
    if negative:
        h = rng.uniform(0, 50, V)
        g += h[:, None] - h[None, :]
        g[g == 0] = 1.0                         # 0 would read as "no edge"
    g[rng.random((V, V)) >= density] = 0
    np.fill_diagonal(g, 0)
    return g


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--device", default="cpu", choices=("auto", "cpu", "gpu"))
    ap.add_argument("--sizes", default="3000")
    ap.add_argument("--density", type=float, default=0.2)
    ap.add_argument("--negative", action="store_true", help="negative weights (no negative cycle)")
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--target", type=float, default=0, help="exit 1 below this speed-up")
    a = ap.parse_args()
    import scipy
    from scipy.sparse.csgraph import floyd_warshall as scipy_fw
    info = gk.info()
    where = info["cpu"]["model"] + " (%d threads)" % info["cpu"]["omp_max_threads"]
    if a.device != "cpu" and info["gpus"]:
        where = info["gpus"][0]["name"] + "; host " + where
    print("# gk %s --device=%s on %s; scipy %s, numpy %s, Python %s" % (
        gk.__version__, a.device, where, scipy.__version__, np.__version__, platform.python_version()))
    print("# density %g, weights in [1, 100)%s, seed 1; seconds of one call (best of %d), "
          "conversions included" % (a.density, " + h(u) - h(v), h in [0, 50)" if a.negative else "",
                                    a.repeat))
    cols = ["V", "edges", "negative", "gk (s)", "gk solve (s)", "gk dtype", "scipy (s)", "speed-up",
            "max abs(gk - scipy)", "tolerance", "agree"]
    print("| " + " | ".join(cols) + " |")
    print("|" + "---|" * len(cols))
    ok = True
    for V in (int(x) for x in a.sizes.split(",")):
        g = graph(V, a.density, a.negative)
        E = int(np.count_nonzero(g))
        gk.floyd_warshall(g[:8, :8], device=a.device)            # context creation: not timed
        t_gk, d_gk = best(lambda: gk.floyd_warshall(g, device=a.device), a.repeat)
        rep = gk.last_report()
        t_sp, d_sp = best(lambda: scipy_fw(g), a.repeat)
        w = np.abs(g[g != 0])
        tol = 2.0 * (V - 1) ** 2 * 2.0**-53 * float(w.max())
        fin = np.isfinite(d_sp)
        err = float(np.abs(d_gk[fin] - d_sp[fin]).max()) if fin.any() else 0.0
        agree = bool(np.array_equal(fin, np.isfinite(d_gk)) and err <= tol)
        speed = t_sp / t_gk
        ok &= agree and speed >= a.target
        print("| %d | %d | %d | %.3f | %.3f | %s | %.3f | %.1fx | %.3g | %.3g | %s |" % (
            V, E, int((g < 0).sum()), t_gk, rep["seconds"]["compute"] or 0.0, rep["dtype"], t_sp,
            speed, err, tol, "yes" if agree else "NO"))
        sys.stdout.flush()
    rep = gk.last_report()
    print("# gk ran on: %s%s" % (rep["device"], " (" + rep["backend_note"] + ")" if rep["backend_note"] else ""))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
