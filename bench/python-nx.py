#!/usr/bin/env python3
"""gk.nx against NetworkX on the same random graphs: each function's time
(conversion included: the graph goes in, NetworkX's result type comes out)
and whether the results are equal.

    GK_LIBRARY=.libs/libgk.so.1 PYTHONPATH=python python3 bench/python-nx.py
    python3 bench/python-nx.py --sizes=1000,3000 --dijkstra-sizes=1000 --device=cpu

Graphs: nx.gnp_random_graph(V, --density (0.05), seed=1, directed=True),
integer weights uniform in [1, --max-weight (1000)] from random.Random(1)
in edge order.  Rows: floyd_warshall_numpy at every size; and
all_pairs_dijkstra_path_length (dict(...) of it) at --dijkstra-sizes
(NetworkX's Dijkstra from every node is slow).  Seconds are wall-clock,
one call each (the best of --repeat).
"""
import argparse
import os
import platform
import random
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
import networkx as nx   # noqa: E402
import numpy as np      # noqa: E402

import gk               # noqa: E402
import gk.nx            # noqa: E402


def best(f, repeat):
    t, out = None, None
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = f()
        dt = time.perf_counter() - t0
        t = dt if t is None or dt < t else t
    return t, out


def graph(V, density, maxw):
    G = nx.gnp_random_graph(V, density, seed=1, directed=True)
    rng = random.Random(1)
    for u, v, d in G.edges(data=True):
        d["weight"] = rng.randint(1, maxw)
    return G


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--device", default="cpu", choices=("auto", "cpu", "gpu"))
    ap.add_argument("--sizes", default="1000,3000")
    ap.add_argument("--dijkstra-sizes", default="1000")
    ap.add_argument("--density", type=float, default=0.05)
    ap.add_argument("--max-weight", type=int, default=1000)
    ap.add_argument("--repeat", type=int, default=1)
    a = ap.parse_args()
    i = gk.info()
    print("# gk %s (%s), networkx %s, numpy %s, Python %s; %s, %d threads"
          % (gk.__version__, a.device, nx.__version__, np.__version__, platform.python_version(),
             i["cpu"]["model"], i["cpu"]["omp_max_threads"]))
    print("| function | V | edges | gk.nx (s) | networkx (s) | speed-up | same |")
    print("|---|---|---|---|---|---|---|")
    dsizes = {int(s) for s in a.dijkstra_sizes.split(",") if s}
    for V in (int(s) for s in a.sizes.split(",")):
        G = graph(V, a.density, a.max_weight)
        E = G.number_of_edges()
        runs = [("floyd_warshall_numpy",
                 lambda: gk.nx.floyd_warshall_numpy(G, device=a.device),
                 lambda: nx.floyd_warshall_numpy(G),
                 lambda x, y: np.array_equal(x, y))]
        if V in dsizes:
            runs.append(("all_pairs_dijkstra_path_length",
                         lambda: dict(gk.nx.all_pairs_dijkstra_path_length(G, device=a.device)),
                         lambda: dict(nx.all_pairs_dijkstra_path_length(G)),
                         lambda x, y: x == y))
        for name, fg, fn, same in runs:
            tg, rg = best(fg, a.repeat)
            tn, rn = best(fn, a.repeat)
            print("| %s | %d | %d | %.3f | %.3f | %.1fx | %s |"
                  % (name, V, E, tg, tn, tn / tg, "yes" if same(rg, rn) else "NO"))
            sys.stdout.flush()


if __name__ == "__main__":
    main()
