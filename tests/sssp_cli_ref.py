"""The reference of tests/test_sssp_cli.sh: scipy.sparse.csgraph's shortest
paths (an implementation independent of gk's) and plain numpy checks of
gk apsp --sources outputs.  Each command exits 0 when gk's files agree and
prints why not otherwise.

  rows   GRAPH V ALG SOURCES OUT [LIMIT]  OUT (raw int32 S x V, or .npy) equals
                                   scipy's ALG (dijkstra, bellman_ford,
                                   johnson) rows, exactly (gk's 1073741823 =
                                   scipy's inf); .npy: shape (S, V), int32
  minonly GRAPH V SOURCES DIST NEAREST [LIMIT]  scipy's min_only distances;
                                   NEAREST[v]: a source at that distance, -1
                                   where unreachable
  pred   GRAPH V SOURCES DIST PRED [minonly]  every predecessor row is a
                                   shortest-path tree of gk's distances (an edge
                                   u -> v with d[u] + w == d[v], following it
                                   reaches the source; -1 at the source and the
                                   unreachable)

GRAPH: a text edge list "src dst w" (# comments), read as gk reads it: each
(src, dst) once with its smallest weight, self-loops dropped; the CSR is
given to scipy as (data, indices, indptr), so duplicates are never summed and
explicit zero weights stay edges.  SOURCES: "5,0,7-9" as --sources.
"""
import sys

import numpy as np

INF = 1073741823


def read_graph(path, V):
    rows = []
    for line in open(path):
        line = line.split("#", 1)[0].split()
        if line:
            rows.append((int(line[0]), int(line[1]), int(line[2])))
    best = {}
    for s, t, w in rows:
        if s != t and ((s, t) not in best or w < best[(s, t)]):
            best[(s, t)] = w
    return best


def csr(best, V):
    from scipy.sparse import csr_matrix
    keys = sorted(best)
    indptr = np.zeros(V + 1, dtype=np.int64)
    for s, _ in keys:
        indptr[s + 1] += 1
    indptr = np.cumsum(indptr)
    indices = np.array([t for _, t in keys], dtype=np.int32)
    data = np.array([best[k] for k in keys], dtype=np.float64)
    return csr_matrix((data, indices, indptr), shape=(V, V))


def parse_sources(text):
    out = []
    for item in text.split(","):
        if "-" in item:
            a, b = item.split("-")
            out.extend(range(int(a), int(b) + 1))
        else:
            out.append(int(item))
    return out


def load(path, shape):
    if path.endswith(".npy"):
        a = np.load(path)
        if len(shape) == 1 and a.shape == (1,) + shape:   # --min-only: one row, (1, V)
            a = a[0]
        if a.dtype != np.int32 or a.shape != shape:
            sys.exit("%s: %s %s, want int32 %s" % (path, a.dtype, a.shape, shape))
        return a.astype(np.int64)
    a = np.fromfile(path, dtype="<i4")
    if a.size != int(np.prod(shape)):
        sys.exit("%s: %d int32 values, want %s" % (path, a.size, shape))
    return a.reshape(shape).astype(np.int64)


def as_gk(d):
    return np.where(np.isinf(d), INF, d).astype(np.int64)


def first_diff(got, want, src):
    bad = np.argwhere(got != want)
    if len(bad):
        i, v = bad[0][0], bad[0][-1]
        if got.ndim == 1:
            sys.exit("%d differences; first: vertex %d: gk %d, scipy %d" % (len(bad), v, got[v], want[v]))
        sys.exit("%d differences; first: row %d (source %d), vertex %d: gk %d, scipy %d"
                 % (len(bad), i, src[i], v, got[i, v], want[i, v]))


def cmd_rows(graph, V, alg, sources, out, limit=None):
    import scipy.sparse.csgraph as cg
    V = int(V)
    src = parse_sources(sources)
    g = csr(read_graph(graph, V), V)
    if alg == "dijkstra":
        d = cg.dijkstra(g, indices=src, limit=float(limit) if limit else np.inf)
    elif limit:
        sys.exit("limit: dijkstra only")
    else:
        d = getattr(cg, alg)(g, indices=src)
    first_diff(load(out, (len(src), V)), as_gk(np.atleast_2d(d)), src)


def cmd_minonly(graph, V, sources, dist, nearest, limit=None):
    import scipy.sparse.csgraph as cg
    V = int(V)
    src = parse_sources(sources)
    g = csr(read_graph(graph, V), V)
    lim = float(limit) if limit else np.inf
    d = cg.dijkstra(g, indices=src, min_only=True, limit=lim)
    full = as_gk(cg.dijkstra(g, indices=src, limit=lim))
    got = load(dist, (V,))
    first_diff(got, as_gk(d), src)
    nr = load(nearest, (V,))
    for v in range(V):
        if got[v] == INF:
            if nr[v] != -1:
                sys.exit("nearest[%d] = %d, want -1 (unreachable)" % (v, nr[v]))
        elif nr[v] not in src or full[src.index(nr[v]), v] != got[v]:
            sys.exit("nearest[%d] = %d is no source at distance %d" % (v, nr[v], got[v]))


def cmd_pred(graph, V, sources, dist, pred, minonly=None):
    V = int(V)
    src = parse_sources(sources)
    best = read_graph(graph, V)
    shape = (V,) if minonly else (len(src), V)
    D = load(dist, shape).reshape(-1, V)
    P = load(pred, shape).reshape(-1, V)
    roots = [set(src)] if minonly else [{s} for s in src]
    for i in range(D.shape[0]):
        d, p = D[i], P[i]
        for v in range(V):
            u = p[v]
            if v in roots[i] or d[v] == INF:
                if u != -1:
                    sys.exit("row %d: pred[%d] = %d, want -1 (%s)" % (i, v, u, "a source" if v in roots[i]
                                                                       else "unreachable"))
                continue
            if (u, v) not in best or d[u] + best[(u, v)] != d[v]:
                sys.exit("row %d: pred[%d] = %d: no edge with d[%d] + w == d[%d] (%d)" % (i, v, u, u, v, d[v]))
            x, steps = v, 0
            while x not in roots[i]:
                x, steps = p[x], steps + 1
                if x < 0 or steps > V:
                    sys.exit("row %d: following pred from %d does not reach a source" % (i, v))


cmds = {"rows": cmd_rows, "minonly": cmd_minonly, "pred": cmd_pred}
if len(sys.argv) < 2 or sys.argv[1] not in cmds:
    sys.exit(__doc__)
cmds[sys.argv[1]](*sys.argv[2:])
