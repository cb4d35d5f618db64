"""NetworkX graphs in: NetworkX's all-pairs shortest-path functions on gk.

    import networkx as nx, gk.nx
    G = nx.gnp_random_graph(3000, 0.05, directed=True)
    A = gk.nx.floyd_warshall_numpy(G)                 # as nx.floyd_warshall_numpy(G)
    d = dict(gk.nx.all_pairs_dijkstra_path_length(G))  # as nx.all_pairs_dijkstra_path_length(G)
    pred, dist = gk.nx.floyd_warshall_predecessor_and_distance(G)

Each function takes the graph, converts it once into gk's matrix (nodes in
G's order or nodelist's, the smallest weight of parallel edges of a
multigraph, both directions of an undirected edge, self-loops ignored, a
missing weight attribute counting as 1, as NetworkX does) and returns what
the NetworkX function of the same name returns: the same type (a float64
numpy array with inf where unreachable, a dict of dicts, an iterator of
(node, dict) pairs), the same keys, the same values.

Weights: any real numbers; gk computes exactly in int32 or int64 when every
weight is integral (ints, or floats such as 2.0; the lengths are ints where
NetworkX's are, floats where it meets a float weight), else in float64 (the
lengths then equal NetworkX's within 2 (V-1)^2 2^-53 max|w|: another
summation order).  An edge of weight inf is no edge, as it is for NetworkX's
functions; a NaN weight raises ValueError naming the edge.  The
Floyd-Warshall functions take negative weights; a cycle of negative length
raises networkx.NetworkXUnbounded naming a node on it (NetworkX's exception
for negative cycles; its Floyd-Warshall functions do not look for one and
return meaningless lengths instead).  all_pairs_dijkstra_path_length refuses
negative weights (ValueError naming the edge: Dijkstra's algorithm needs
them non-negative; NetworkX's raises or gives wrong lengths).  Self-loops
are ignored, except a negative one where NetworkX's function would use it
(all but floyd_warshall_numpy, which sets the diagonal to 0 first): a
negative cycle for the Floyd-Warshall functions, refused by Dijkstra.
weight=None means every edge has weight 1.  device= and gpus= choose where
gk runs, as for gk.apsp.
"""

import numbers

import gk
from gk import _lib

__all__ = ["floyd_warshall_numpy", "floyd_warshall", "floyd_warshall_predecessor_and_distance",
           "all_pairs_dijkstra_path_length", "all_pairs_shortest_path_length"]


def _nx():
    try:
        import networkx
    except ImportError as e:
        raise ImportError("gk.nx needs networkx (apt-get install python3-networkx or "
                          "pip install networkx)") from e
    return networkx


class _Graph:
    """G as gk computes with it: nodes (the node of each row), the matrix d
    (C-ordered, gk element type dtype, its no-edge value inf), integral (every
    weight used is an integer type: NetworkX's sums then stay ints), loops
    (the nodes with a self-loop, for NetworkX's predecessors) and inf_edges
    (index pairs of the edges of weight inf: no edge, but NetworkX's
    predecessor dict names them)."""


def _convert(G, nodelist, weight, fname, default, loops, negative):
    """A _Graph of G.  default: the weight of an edge without the attribute
    (1 for to_numpy_array and Dijkstra, 1.0 for floyd_warshall).  loops: a
    negative self-loop counts (NetworkX's floyd_warshall and Dijkstra use
    it; floyd_warshall_numpy overwrites the diagonal first).  negative:
    negative weights are allowed (Floyd-Warshall) or refused (Dijkstra)."""
    np = gk._np()
    nxm = _nx()
    if weight is not None and not isinstance(weight, str):
        raise TypeError("%s: weight=%r: gk takes the name of an edge attribute (or None), "
                        "not a function" % (fname, weight))
    if nodelist is None:
        nodes = list(G)
    else:
        nodes = list(nodelist)
        if not (len(nodes) == len(G) == len(set(nodes))) or any(n not in G for n in nodes):
            raise nxm.NetworkXError("nodelist must contain every node in G with no repeats."
                                    "If you wanted a subgraph of G use G.subgraph(nodelist)")
    V = len(nodes)
    index = {n: i for i, n in enumerate(nodes)}
    src, dst, ws, looped = [], [], [], []
    if weight is None:
        edges = ((u, v, 1) for u, v in G.edges())
    else:
        edges = G.edges(data=weight, default=default)
    for u, v, w in edges:
        if u == v:
            if loops:
                if isinstance(w, numbers.Real) and w < 0:
                    if not negative:
                        _refuse(fname, u, v, w, negative)
                    _cycle(u)           # dist[u][u] = w < 0: a negative cycle of one edge
                looped.append(index[u])
            continue
        src.append(index[u])
        dst.append(index[v])
        ws.append(w)
    src = np.asarray(src, dtype=np.int64)
    dst = np.asarray(dst, dtype=np.int64)
    for i, x in enumerate(ws):
        if not isinstance(x, numbers.Real):
            raise TypeError("%s: edge (%r, %r) has weight %r: weights must be numbers"
                            % (fname, nodes[src[i]], nodes[dst[i]], x))
    integral = all(isinstance(x, numbers.Integral) for x in ws)
    g = _Graph()
    g.nodes, g.integral, g.loops = nodes, integral, looped
    g.inf_edges = ([], [])
    lo = None if negative else 0
    hi = _lib.GK_APSP_INF64 // 2
    if integral:
        # checked as Python ints first: they may not fit int64
        for i, x in enumerate(ws):
            if (lo is not None and x < lo) or x > hi or x < -hi:
                _refuse(fname, nodes[src[i]], nodes[dst[i]], x, negative)
        w = np.asarray(ws, dtype=np.int64)
    else:
        w = np.asarray(ws, dtype=np.float64)
        keep = w != np.inf                 # an edge of infinite weight is no edge
        bad = keep & (np.isnan(w) | (w == -np.inf))
        if lo is not None:
            bad |= keep & (w < lo)
        if bad.any():
            i = int(np.flatnonzero(bad)[0])
            _refuse(fname, nodes[src[i]], nodes[dst[i]], ws[i], negative)
        g.inf_edges = (src[~keep], dst[~keep])
        src, dst, w = src[keep], dst[keep], w[keep]
        if (w == np.floor(w)).all() and (np.abs(w) <= hi).all():
            w = w.astype(np.int64)         # integral floats (2.0): computed exactly
    g.d, g.dtype, g.inf = _matrix(np, fname, V, src, dst, w, not G.is_directed())
    return g


def _matrix(np, fname, V, src, dst, w, undirected):
    """(d, dtype, no-edge value): gk's initial matrix of the edges in the
    narrowest exact type (gk(1)'s --weights=auto rule): integers -> int32
    while (V-1) max|w| < GK_APSP_INF (half of it with a negative weight),
    else int64 (again half of GK_APSP_INF64 with a negative weight), floats
    -> float64."""
    if w.dtype.kind == "f":
        dtype, inf, npt = _lib.GK_DTYPE_FLOAT64, np.inf, np.float64
    else:
        m = int(np.abs(w).max()) if w.size else 0
        neg = bool(w.size) and int(w.min()) < 0
        span = max(V - 1, 0) * m
        if span < (gk.INF >> 1 if neg else gk.INF):
            dtype = _lib.GK_DTYPE_INT32
        elif span < (_lib.GK_APSP_INF64 >> 1 if neg else _lib.GK_APSP_INF64):
            dtype = _lib.GK_DTYPE_INT64
        else:
            raise ValueError("%s: (V - 1) * max|weight| = %d: too large for exact int64 distances "
                             "(at most %d)" % (fname, span, _lib.GK_APSP_INF64 >> 1))
        npt = np.int32 if dtype == _lib.GK_DTYPE_INT32 else np.int64
        inf = gk.INF if dtype == _lib.GK_DTYPE_INT32 else _lib.GK_APSP_INF64
    d = np.full((V, V), inf, dtype=npt)
    if undirected:
        src, dst, w = np.concatenate([src, dst]), np.concatenate([dst, src]), np.concatenate([w, w])
    gk._min_scatter(np, d, src * V + dst, w.astype(npt) + npt(0))   # + 0: -0.0 -> 0.0
    np.fill_diagonal(d, 0)
    return d, dtype, inf


def _cycle(node, e=None):
    raise _nx().NetworkXUnbounded("Negative cycle detected on node %r" % (node,)) from e


def _refuse(fname, u, v, w, negative):
    if w != w:
        why = "is NaN"
    elif w == float("-inf"):
        why = "is -inf"
    elif w < 0 and not negative:
        why = "is negative: Dijkstra's algorithm needs non-negative weights (the Floyd-Warshall " \
              "functions take negative ones)"
    else:
        why = "is beyond gk's exact int64 range (|w| at most %d)" % (_lib.GK_APSP_INF64 // 2)
    raise ValueError("%s: edge (%r, %r) has weight %r, which %s" % (fname, u, v, w, why))


def _solve(fname, G, nodelist, weight, device, gpus, default=1, loops=True, negative=True,
           pred=False):
    """The solved _Graph of G (g.d: distances; g.pred: int32 predecessors, -1
    for none, when pred)."""
    np = gk._np()
    g = _convert(G, nodelist, weight, fname, default, loops, negative)
    g.pred = None
    if pred:
        g.pred = np.empty(g.d.shape, dtype=np.int32)
    if g.d.shape[0]:
        try:
            gk._solve_paths(fname, g.d, g.pred, g.dtype, device, gpus)
        except gk.NegativeCycleError as e:
            _cycle(g.nodes[e.vertex], e)
    return g


def _values(g):
    """(reach, row lists): a bool matrix of the finite distances, and each
    row of g.d as a list of Python numbers (ints for int types)."""
    reach = g.d != g.inf
    return reach, [row.tolist() for row in g.d]


def floyd_warshall_numpy(G, nodelist=None, weight="weight", *, device="auto", gpus=None):
    """networkx.floyd_warshall_numpy on gk: the V x V float64 array of
    shortest-path lengths, rows and columns in nodelist's order (default:
    G's), inf where there is no path, 0 on the diagonal."""
    np = gk._np()
    g = _solve("gk.nx.floyd_warshall_numpy", G, nodelist, weight, device, gpus, loops=False)
    out = g.d.astype(np.float64)
    out[g.d == g.inf] = np.inf
    return out


def _dist_dicts(g, conv):
    """NetworkX's Floyd-Warshall distances: {u: defaultdict(inf, {v: length})}
    for every pair, in node order."""
    from collections import defaultdict
    inf = float("inf")
    reach, rows = _values(g)
    out = {}
    for i, u in enumerate(g.nodes):
        row = rows[i]
        du = defaultdict(lambda: inf)
        for j, v in enumerate(g.nodes):
            du[v] = (0 if i == j else conv(row[j])) if reach[i, j] else inf
        out[u] = du
    return out


def floyd_warshall(G, weight="weight", *, device="auto", gpus=None):
    """networkx.floyd_warshall on gk: {u: {v: length}} for every pair (a
    dict of collections.defaultdict whose missing entries are inf, as
    NetworkX's), inf where there is no path.  Lengths are ints when every
    weight is an int, else floats (NetworkX counts a missing weight as 1.0
    here; its lengths are floats only along paths that meet a float, equal
    in value)."""
    g = _solve("gk.nx.floyd_warshall", G, None, weight, device, gpus, default=1.0)
    return _dist_dicts(g, int if g.integral else float)


def floyd_warshall_predecessor_and_distance(G, weight="weight", *, device="auto", gpus=None):
    """networkx.floyd_warshall_predecessor_and_distance on gk: (pred, dist).
    dist as floyd_warshall's; pred = {u: {v: the node before v on a shortest
    path from u}} for the nodes u with an edge out, every v reachable from u
    (u itself only where u has a self-loop: pred[u][u] = u, as NetworkX's),
    plain dicts.  nx.reconstruct_path(u, v, pred) gives a shortest path.
    Where shortest paths tie, gk's predecessor may differ from NetworkX's:
    both are on shortest paths (gk's tie rule is the same on the CPU and
    the GPU)."""
    g = _solve("gk.nx.floyd_warshall_predecessor_and_distance", G, None, weight, device, gpus,
               default=1.0, pred=True)
    np = gk._np()
    nodes = g.nodes
    p = g.pred
    has = np.zeros(len(nodes), dtype=bool)
    # NetworkX names the source of every edge (an inf-weight one too) and of every self-loop
    for i, j in zip(*g.inf_edges):
        has[i] = True
        if p[i, j] < 0:
            p[i, j] = i
        if not G.is_directed():
            has[j] = True
            if p[j, i] < 0:
                p[j, i] = j
    has[g.loops] = True
    has |= (p >= 0).any(axis=1)
    pred = {}
    for i in np.flatnonzero(has).tolist():
        row = p[i].tolist()
        pu = {nodes[j]: nodes[k] for j, k in enumerate(row) if k >= 0}
        pred[nodes[i]] = pu
    for i in g.loops:
        pred[nodes[i]][nodes[i]] = nodes[i]
    return pred, _dist_dicts(g, int if g.integral else float)


def _rows(g, cutoff, conv):
    """(source, {target: length}) for each row: reachable targets only
    (within cutoff), nearest first."""
    np = gk._np()
    d = g.d
    for i, u in enumerate(g.nodes):
        row = d[i]
        reach = np.flatnonzero(row != g.inf)
        if cutoff is not None:
            reach = reach[row[reach] <= cutoff]
        reach = reach[np.argsort(row[reach], kind="stable")]
        yield u, {g.nodes[j]: conv(x) for j, x in zip(reach.tolist(), row[reach].tolist())}


def all_pairs_dijkstra_path_length(G, cutoff=None, weight="weight", *, device="auto", gpus=None):
    """networkx.all_pairs_dijkstra_path_length on gk: an iterator of
    (source, {target: length}) in G's node order, each dict holding the
    targets reachable from source (source itself at 0), only those within
    cutoff when it is given.  Lengths are ints when every weight is an int
    (a missing weight counts as 1), else floats.  Negative weights are
    refused (ValueError), as Dijkstra's algorithm needs."""
    g = _solve("gk.nx.all_pairs_dijkstra_path_length", G, None, weight, device, gpus,
               negative=False)
    return _rows(g, cutoff, int if g.integral else float)


def all_pairs_shortest_path_length(G, cutoff=None, *, device="auto", gpus=None):
    """networkx.all_pairs_shortest_path_length on gk: an iterator of
    (source, {target: number of edges}) in G's node order, targets reachable
    from source only (within cutoff edges when it is given)."""
    g = _solve("gk.nx.all_pairs_shortest_path_length", G, None, None, device, gpus, loops=False)
    return _rows(g, cutoff, int)
