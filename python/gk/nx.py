"""NetworkX graphs in: NetworkX's all-pairs shortest-path functions on gk.

    import networkx as nx, gk.nx
    G = nx.gnp_random_graph(3000, 0.05, directed=True)
    A = gk.nx.floyd_warshall_numpy(G)                 # as nx.floyd_warshall_numpy(G)
    d = dict(gk.nx.all_pairs_dijkstra_path_length(G))  # as nx.all_pairs_dijkstra_path_length(G)

Each function takes the graph, converts it once into gk's int32 matrix
(nodes in G's order or nodelist's, the smallest weight of parallel edges of
a multigraph, both directions of an undirected edge, self-loops ignored, a
missing weight attribute counting as 1, as NetworkX does) and returns what
the NetworkX function of the same name returns: the same type (a float64
numpy array with inf where unreachable, a dict of dicts, an iterator of
(node, dict) pairs), the same keys, the same values.

gk's limits: weights must be non-negative integers of at most
gk.MAX_WEIGHT (1073741822; floats with integral values such as 2.0 are
fine); a negative, fractional or NaN weight raises ValueError naming the edge
and the limitation (NetworkX's own functions handle them: a later gk adds
such weights) rather than being rounded.  Self-loops are ignored, except
that a negative one is refused where NetworkX's function would use it (all
but floyd_warshall_numpy, which sets the diagonal to 0 first).  An edge of weight inf is no edge,
as it is for NetworkX's functions.  Paths of 2^30 - 1 or more are reported
as unreachable (a RuntimeWarning says when a graph could have one).
weight=None means every edge has weight 1.  device= and gpus= choose where
gk runs, as for gk.apsp.
"""

import numbers

import gk

__all__ = ["floyd_warshall_numpy", "floyd_warshall", "all_pairs_dijkstra_path_length",
           "all_pairs_shortest_path_length"]


def _nx():
    try:
        import networkx
    except ImportError as e:
        raise ImportError("gk.nx needs networkx (apt-get install python3-networkx or "
                          "pip install networkx)") from e
    return networkx


def _convert(G, nodelist, weight, fname, default, loops):
    """(nodes, d, integral): gk's initial int32 matrix of G (a new array),
    the node of each row, and whether every weight used is an integer type
    (NetworkX's sums then stay ints).  default: the weight of an edge without
    the attribute (1 for to_numpy_array and Dijkstra, 1.0 for floyd_warshall).
    loops: a negative self-loop is refused (NetworkX's floyd_warshall and
    Dijkstra use it; floyd_warshall_numpy overwrites the diagonal first)."""
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
    src, dst, ws = [], [], []
    if weight is None:
        edges = ((u, v, 1) for u, v in G.edges())
    else:
        edges = G.edges(data=weight, default=default)
    for u, v, w in edges:
        if u == v:                    # a non-negative self-loop never shortens a path
            if loops and isinstance(w, numbers.Real) and w < 0:
                _refuse(fname, u, v, w)
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
    if integral:
        # checked as Python ints first: they may not fit int64
        for i, x in enumerate(ws):
            if x < 0 or x > gk.MAX_WEIGHT:
                _refuse(fname, nodes[src[i]], nodes[dst[i]], x)
        w = np.asarray(ws, dtype=np.int64)
    else:
        w = np.asarray(ws, dtype=np.float64)
        keep = w != np.inf                 # an edge of infinite weight is no edge
        bad = keep & (np.isnan(w) | (w < 0) | (w != np.floor(w)) | (w > gk.MAX_WEIGHT))
        if bad.any():
            i = int(np.flatnonzero(bad)[0])
            _refuse(fname, nodes[src[i]], nodes[dst[i]], ws[i])
        src, dst, w = src[keep], dst[keep], w[keep].astype(np.int64)
    gk._warn_long(fname, V, int(w.max()) if w.size else 0)
    d = gk._matrix_from_edges(np, V, src, dst, w.astype(np.int32), not G.is_directed())
    return nodes, d, integral


def _refuse(fname, u, v, w):
    if w != w:
        why = "is NaN"
    elif w < 0:
        why = "is negative"
    elif w > gk.MAX_WEIGHT:
        why = "is above gk's largest weight %d" % gk.MAX_WEIGHT
    else:
        why = "is not an integer"
    raise ValueError("%s: edge (%r, %r) has weight %r, which %s: gk computes with non-negative "
                     "integral weights only (int32, at most %d); negative and fractional weights "
                     "are not supported yet (NetworkX's own function handles them)"
                     % (fname, u, v, w, why, gk.MAX_WEIGHT))


def _solve(fname, G, nodelist, weight, device, gpus, default=1, loops=True):
    nodes, d, integral = _convert(G, nodelist, weight, fname, default, loops)
    if d.shape[0]:
        gk._solve(fname, d, device, gpus)
    return nodes, d, integral


def floyd_warshall_numpy(G, nodelist=None, weight="weight", *, device="auto", gpus=None):
    """networkx.floyd_warshall_numpy on gk: the V x V float64 array of
    shortest-path lengths, rows and columns in nodelist's order (default:
    G's), inf where there is no path, 0 on the diagonal."""
    np = gk._np()
    _, d, _ = _solve("gk.nx.floyd_warshall_numpy", G, nodelist, weight, device, gpus, loops=False)
    out = d.astype(np.float64)
    out[d >= gk.INF] = np.inf
    return out


def floyd_warshall(G, weight="weight", *, device="auto", gpus=None):
    """networkx.floyd_warshall on gk: {u: {v: length}} for every pair (a
    dict of collections.defaultdict whose missing entries are inf, as
    NetworkX's), inf where there is no path.  Lengths are ints when every
    weight is an int, else floats (NetworkX counts a missing weight as 1.0
    here; its lengths are floats only along paths that meet a float, equal
    in value)."""
    from collections import defaultdict
    nodes, d, integral = _solve("gk.nx.floyd_warshall", G, None, weight, device, gpus, default=1.0)
    inf = float("inf")
    out = {}
    conv = int if integral else float
    for i, u in enumerate(nodes):
        row = d[i].tolist()
        du = defaultdict(lambda: inf)
        for j, v in enumerate(nodes):
            x = row[j]
            du[v] = inf if x >= gk.INF else (0 if i == j else conv(x))
        out[u] = du
    return out


def _rows(nodes, d, cutoff, conv):
    """(source, {target: length}) for each row: reachable targets only
    (within cutoff), nearest first."""
    np = gk._np()
    for i, u in enumerate(nodes):
        row = d[i]
        reach = np.flatnonzero(row < gk.INF)
        if cutoff is not None:
            reach = reach[row[reach] <= cutoff]
        reach = reach[np.argsort(row[reach], kind="stable")]
        yield u, {nodes[j]: conv(x) for j, x in zip(reach.tolist(), row[reach].tolist())}


def all_pairs_dijkstra_path_length(G, cutoff=None, weight="weight", *, device="auto", gpus=None):
    """networkx.all_pairs_dijkstra_path_length on gk: an iterator of
    (source, {target: length}) in G's node order, each dict holding the
    targets reachable from source (source itself at 0), only those within
    cutoff when it is given.  Lengths are ints when every weight is an int
    (a missing weight counts as 1), else floats."""
    nodes, d, integral = _solve("gk.nx.all_pairs_dijkstra_path_length", G, None, weight, device, gpus)
    return _rows(nodes, d, cutoff, int if integral else float)


def all_pairs_shortest_path_length(G, cutoff=None, *, device="auto", gpus=None):
    """networkx.all_pairs_shortest_path_length on gk: an iterator of
    (source, {target: number of edges}) in G's node order, targets reachable
    from source only (within cutoff edges when it is given)."""
    nodes, d, _ = _solve("gk.nx.all_pairs_shortest_path_length", G, None, None, device, gpus, loops=False)
    return _rows(nodes, d, cutoff, int)

