#!/usr/bin/env python3
"""scipy.sparse.csgraph.dijkstra on the graph that gk read, for bench/sssp-cpu.sh.

    python3 bench/sssp-cpu.py GRAPH.nthu SOURCES_FILE [GK_ROWS]

GRAPH.nthu: gk's NTHU file (int32 V, int32 E, then E triples int32 src, dst,
w), as `gk gen apsp --kind=road` writes it.  The graph is built as gk builds
its CSR (each (src, dst) pair once with its smallest weight, self-loops
dropped), straight into a csr_matrix (data, indices, indptr), so scipy's
duplicate summing never applies.  SOURCES_FILE: one vertex a line, the list
given to `gk apsp --sources=@FILE` (# comments allowed).  Prints the seconds
of reading + building and of the one dijkstra(indices=...) call, as
"scipy_read S" and "scipy_dijkstra S" lines.  With GK_ROWS (gk's raw int32
S x V output of the same run): every distance compared, exactly (gk's
1073741823 = scipy's inf); exit 1 on the first difference.
"""
import sys
import time

import numpy as np
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import dijkstra

GK_INF = 1073741823


def read_nthu(path):
    raw = np.fromfile(path, dtype="<i4")
    V, E = int(raw[0]), int(raw[1])
    t = raw[2:2 + 3 * E].reshape(E, 3)
    s, d, w = t[:, 0].astype(np.int64), t[:, 1].astype(np.int64), t[:, 2]
    keep = s != d
    s, d, w = s[keep], d[keep], w[keep]
    order = np.lexsort((w, d, s))            # by src, dst, then smallest weight first
    s, d, w = s[order], d[order], w[order]
    first = np.ones(len(s), dtype=bool)
    first[1:] = (s[1:] != s[:-1]) | (d[1:] != d[:-1])
    s, d, w = s[first], d[first], w[first]
    indptr = np.zeros(V + 1, dtype=np.int64)
    np.add.at(indptr, s + 1, 1)
    indptr = np.cumsum(indptr)
    return csr_matrix((w.astype(np.float64), d.astype(np.int32), indptr), shape=(V, V)), V


def read_sources(path):
    out = []
    for line in open(path):
        line = line.split("#", 1)[0].strip()
        if line:
            out.append(int(line))
    return np.array(out, dtype=np.int64)


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__)
    t0 = time.perf_counter()
    g, V = read_nthu(sys.argv[1])
    src = read_sources(sys.argv[2])
    t1 = time.perf_counter()
    d = dijkstra(g, directed=True, indices=src)
    t2 = time.perf_counter()
    print("scipy_read %.3f" % (t1 - t0))
    print("scipy_dijkstra %.3f" % (t2 - t1))
    print("scipy_edges %d" % g.nnz)
    if len(sys.argv) == 4:
        gk = np.fromfile(sys.argv[3], dtype="<i4").reshape(len(src), V)
        want = np.where(np.isinf(d), GK_INF, d).astype(np.int64)
        bad = np.argwhere(gk != want)
        if len(bad):
            i, v = bad[0]
            sys.exit("DIFFERENT: source %d (row %d), vertex %d: gk %d, scipy %s"
                     % (src[i], i, v, gk[i, v], d[i, v]))
        print("same: all %d x %d distances equal" % (len(src), V))


main()
