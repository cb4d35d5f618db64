"""scipy.sparse.csgraph's shortest paths on libgk: gk.shortest_path,
gk.dijkstra, gk.johnson and gk.bellman_ford take scipy 1.10's arguments and
give its results and exceptions, computed by gk_sssp_run (include/gk/sssp.h)
on every core, or on the GPU.

    from gk import dijkstra                 # instead of scipy.sparse.csgraph's
    d = dijkstra(csr, indices=[0, 5], limit=100.0)

Why this module converts the input itself instead of calling scipy's
validate_graph: it must see the graph exactly as scipy's functions see it
(below), and then hand libgk a CSR (gk_graph_from_csr), whose own rules
(duplicates keep the smallest weight, self-loops dropped, +-inf refused)
differ in a few places:

  - a dense array: 0, +-inf and NaN are "no edge" (csgraph_from_dense);
    a masked array: every unmasked entry is an edge, 0 included;
  - a scipy.sparse matrix of any format goes through
    scipy.sparse.csr_matrix(x, dtype=float64), scipy's own conversion: a coo
    matrix's duplicates are summed there, a csr/csc matrix's duplicates are
    kept (and then count as their smallest, as in scipy's relaxations);
    explicit zeros are edges of weight 0 (but not in a BSR matrix with
    scipy >= 1.18, which drops them there); stored +inf and NaN are no edge
    (with unweighted=True every stored entry, inf and NaN too, is an edge of
    weight 1, as scipy); a stored -inf is refused (ValueError: scipy's
    results with it are -inf or NaN);
  - self-loops never shorten a path, but scipy's Johnson and Bellman-Ford
    report a negative one as a negative cycle (Johnson: anywhere; Bellman-
    Ford: where a source reaches it): done here, since libgk drops them;
  - directed=False: each edge both ways, the smaller of w_ij and w_ji.

Weights go to libgk as int32 when every weight is an integer and
(V-1) max|w| < 2^30 - 1 (half of it with a negative weight): exact, and
Dijkstra uses its radix heap; else as float64.  Results are always scipy's:
float64 distances with inf for unreachable, int32 predecessors with -9999
for none.
"""

import ctypes
import warnings

from . import _lib
from ._lib import lib
from . import (_np, _context, _tls, _report_dict, _check, _is_sparse, NegativeCycleError,
               SCIPY_NO_PRED, INF, floyd_warshall)

__all__ = ["shortest_path", "dijkstra", "johnson", "bellman_ford"]

# scipy's words (scipy.sparse.csgraph.dijkstra, a UserWarning)
_NEGATIVE_WARNING = ("Graph has negative weights: dijkstra will give inaccurate results if the graph "
                     "contains negative cycles. Consider johnson or bellman_ford.")


class _Edges:
    """The graph as scipy's shortest-path functions see it, ready for libgk:
    V; the CSR (indptr int64, indices int32, weights of dtype) without
    self-loops; negative (a weight < 0 in it); negative_loops (the vertices
    with a negative self-loop, ascending); scipy_negative (scipy's
    "Graph has negative weights" test, before unweighted)."""


def _scipy_version():
    """(major, minor) of the installed scipy (its rules changed between versions)."""
    import scipy
    try:
        return tuple(int(x) for x in scipy.__version__.split(".")[:2])
    except ValueError:
        return (0, 0)


def _edges(np, csgraph, directed, unweighted, fname):
    if _is_sparse(csgraph):
        import scipy.sparse as sp
        if csgraph.ndim != 2 or csgraph.shape[0] != csgraph.shape[1]:
            raise ValueError("compressed-sparse graph must be shape (N, N)")
        g = sp.csr_matrix(csgraph, dtype=np.float64)       # scipy's validate_graph conversion
        if csgraph.format == "bsr" and _scipy_version() >= (1, 18):
            g.eliminate_zeros()       # scipy >= 1.18: a BSR's stored zeros (its blocks' padding) are no edge
        V = g.shape[0]
        indptr = np.asarray(g.indptr, dtype=np.int64)
        cols = np.asarray(g.indices, dtype=np.int64)
        rows = np.repeat(np.arange(V, dtype=np.int64), np.diff(indptr))
        data = np.array(g.data, dtype=np.float64)
    else:
        masked = np.ma.isMaskedArray(csgraph)
        a = np.asarray(np.ma.getdata(csgraph) if masked else csgraph)
        if a.ndim != 2:
            raise ValueError("graph should have two dimensions")
        if a.shape[0] != a.shape[1]:
            raise ValueError("graph should be a square array")
        a = a.astype(np.float64, copy=False)               # complex: numpy's ComplexWarning, as scipy
        V = a.shape[0]
        if masked:           # csgraph_from_masked: every unmasked entry, 0 included
            edge = ~np.ma.getmaskarray(csgraph)
        else:                # csgraph_from_dense: 0, +-inf and NaN are no edge
            edge = (a != 0) & np.isfinite(a)
        rows, cols = np.nonzero(edge)
        data = a[rows, cols]
    if V >= 2**31:
        raise ValueError("%s: a graph of %d vertices: gk's vertex ids are int32 (V < 2^31)" % (fname, V))
    e = _Edges()
    e.V = V
    with np.errstate(invalid="ignore"):
        e.scipy_negative = bool((data < 0).any())
        if unweighted:
            data = np.ones(data.shape)
        else:
            bad = data == -np.inf
            if bad.any():
                i = int(np.flatnonzero(bad)[0])
                raise ValueError("%s: csgraph[%d, %d] = -inf: edge weights are finite (no stored "
                                 "entry, inf or NaN: no edge)" % (fname, rows[i], cols[i]))
            keep = ~np.isnan(data) & (data != np.inf)
            rows, cols, data = rows[keep], cols[keep], data[keep]
    loop = rows == cols
    e.negative_loops = np.unique(rows[loop & (data < 0)])
    keep = ~loop
    rows, cols, data = rows[keep], cols[keep], data[keep] + 0.0    # -0.0 is 0
    e.indptr = np.zeros(V + 1, dtype=np.int64)
    np.cumsum(np.bincount(rows, minlength=V), out=e.indptr[1:])
    e.indices = cols.astype(np.int32)
    e.negative = bool((data < 0).any())
    e.directed = bool(directed)
    # int32 when it computes the same values exactly (gk/apsp.h's bound)
    big = float(np.abs(data).max()) if data.size else 0.0
    if (data == np.floor(data)).all() and (V - 1) * big < ((INF >> 1) if e.negative else INF):
        e.weights, e.dtype = data.astype(np.int32), _lib.GK_DTYPE_INT32
    else:
        e.weights, e.dtype = data, _lib.GK_DTYPE_FLOAT64
    return e


def _indices(np, indices, V, min_only):
    """scipy's rule: (int64 sources, result shape).  None: every vertex;
    else anything np.array(..., dtype=int32) takes (floats truncated), -V ..
    -1 counting from the end; the result's shape is indices' shape + (V,),
    (V,) with min_only."""
    if indices is None:
        return np.arange(V, dtype=np.int64), ((V,) if min_only else (V, V))
    idx = np.array(indices, order="C", dtype=np.int32, copy=True)
    shape = (V,) if min_only else idx.shape + (V,)
    idx = np.atleast_1d(idx).reshape(-1).astype(np.int64)
    idx[idx < 0] += V
    if np.any(idx < 0) or np.any(idx >= V):
        raise ValueError("indices out of range 0...N")
    return idx, shape


def _run(fname, e, sources, algorithm, min_only, limit, want_pred, device, gpus):
    """gk_sssp_run on the graph e from sources: (dist float64, pred int32 or
    None, nearest int32 or None) in scipy's conventions, rows = len(sources)
    (min_only: 1)."""
    np = _np()
    V, S = e.V, sources.shape[0]
    ctx = _context(fname, device, gpus)
    g = ctypes.c_void_p()
    _check(lib.gk_graph_from_csr(V, e.indptr.ctypes.data, e.indices.ctypes.data, e.weights.ctypes.data,
                                 e.dtype, 0 if e.directed else 1, ctypes.byref(g)))
    try:
        rows = 1 if min_only else S
        d = np.empty((rows, V), dtype=np.int32 if e.dtype == _lib.GK_DTYPE_INT32 else np.float64)
        pred = np.empty((rows, V), dtype=np.int32) if want_pred else None
        nearest = np.empty(V, dtype=np.int32) if min_only else None
        o = _lib.new(_lib.SsspOptions)
        o.algorithm = algorithm
        o.min_only = 1 if min_only else 0
        o.limit = limit
        o.predecessors = 1 if want_pred else 0
        rep = _lib.new(_lib.SsspReport)
        with ctx.lock:        # the GIL is released inside the call (ctypes.CDLL)
            st = lib.gk_sssp_run(ctx.handle, g, sources.ctypes.data, S, ctypes.byref(o), d.ctypes.data,
                                 None if pred is None else pred.ctypes.data,
                                 None if nearest is None else nearest.ctypes.data, ctypes.byref(rep))
            r = _report_dict(rep.run)
            r.update(algorithm=lib.gk_sssp_algorithm_name(rep.algorithm).decode(),
                     why=rep.why.decode(errors="replace"), sources=rep.sources,
                     relaxations=None if rep.relaxations < 0 else rep.relaxations)
            _tls.report = r
            if st == _lib.GK_ENEGCYCLE:
                v = rep.run.cycle_vertex
                raise NegativeCycleError("Negative cycle detected on node %d" % v, vertex=v)
            _check(st)
    finally:
        lib.gk_graph_destroy(g)
    if d.dtype == np.int32:
        dist = d.astype(np.float64)
        dist[d == INF] = np.inf
    else:
        dist = d
    for x in (pred, nearest):
        if x is not None:
            x[x < 0] = SCIPY_NO_PRED
    return dist, pred, nearest


def _sources_only(np, V, sources, min_only, want_pred):
    """The result when nothing beyond the sources is searched (limit NaN,
    no source): distance 0 at each source, inf elsewhere."""
    S = sources.shape[0]
    if min_only:
        dist = np.full((1, V), np.inf)
        dist[0, sources] = 0
        nearest = np.full(V, SCIPY_NO_PRED, dtype=np.int32)
        nearest[sources] = sources
    else:
        dist = np.full((S, V), np.inf)
        dist[np.arange(S), sources] = 0
        nearest = None
    pred = np.full(dist.shape, SCIPY_NO_PRED, dtype=np.int32) if want_pred else None
    return dist, pred, nearest


def _result(dist, pred, nearest, shape, want_pred):
    if not want_pred:
        return dist.reshape(shape)
    if nearest is not None:
        return dist.reshape(shape), pred.reshape(shape), nearest.reshape(shape)
    return dist.reshape(shape), pred.reshape(shape)


def _solve(fname, e, sources, algorithm, want_pred, device, gpus, min_only=False, limit=float("inf")):
    """A run with scipy's conventions for negative self-loops (Johnson: any
    is a negative cycle; Bellman-Ford: one a source reaches) and without a
    call for no source."""
    np = _np()
    if algorithm == _lib.GK_SSSP_JOHNSON and e.negative_loops.size:
        v = int(e.negative_loops[0])
        raise NegativeCycleError("Negative cycle detected on node %d" % v, vertex=v)
    if sources.shape[0] == 0 or e.V == 0:
        if algorithm == _lib.GK_SSSP_JOHNSON and e.negative and e.V:    # scipy checks the graph anyway
            _run(fname, e, np.zeros(1, dtype=np.int64), algorithm, False, float("inf"), False, device, gpus)
        return _sources_only(np, e.V, sources, min_only, want_pred)
    dist, pred, nearest = _run(fname, e, sources, algorithm, min_only, limit, want_pred, device, gpus)
    if algorithm == _lib.GK_SSSP_BELLMAN_FORD and e.negative_loops.size:
        reached = np.isfinite(dist[:, e.negative_loops]).any(axis=0)
        if reached.any():
            v = int(e.negative_loops[np.flatnonzero(reached)[0]])
            raise NegativeCycleError("Negative cycle detected on node %d" % v, vertex=v)
    return dist, pred, nearest


def dijkstra(csgraph, directed=True, indices=None, return_predecessors=False, unweighted=False,
             limit=float("inf"), min_only=False, *, device="auto", gpus=None):
    """scipy.sparse.csgraph.dijkstra on gk: same arguments, results and
    exceptions.  Returns the float64 distances, shape indices.shape + (V,)
    (V x V for indices=None, (V,) for one index or with min_only), inf for
    unreachable or farther than limit; with return_predecessors also the
    int32 predecessors (-9999: none), and with min_only also `sources` (the
    source each distance comes from, -9999: none).

    As scipy: indices may count from the end (-1: the last vertex); a source
    outside [-V, V) raises ValueError ("indices out of range 0...N"); limit
    < 0 raises ValueError, limit NaN reaches only the sources themselves;
    min_only=True with indices=None gives 0 everywhere (scipy 1.10 raises a
    reshape error there).  The input rules: the module's docstring
    (gk.csgraph).  Where shortest paths tie, the predecessors may name
    another vertex than scipy's, each on a shortest path.

    Negative weights: scipy warns (UserWarning "Graph has negative weights:
    dijkstra will give inaccurate results ...") and its results are then
    what its label-setting search happens to find.  gk gives the same
    warning and then the true shortest paths (Johnson's algorithm; limit
    and min_only applied to those distances); a negative cycle raises
    gk.NegativeCycleError (a subclass of scipy's) where scipy returns
    inaccurate numbers.  Negative self-loops are ignored, as scipy 1.10's
    Dijkstra does.

    device: "auto" (the GPU when one is usable), "cpu" or "gpu"; gpus: as
    gk.apsp.  gk.last_report() says what ran ("algorithm", "why").
    """
    np = _np()
    fname = "gk.dijkstra"
    _context(fname, device, gpus)             # argument errors before any work
    e = _edges(np, csgraph, directed, unweighted, fname)
    if e.scipy_negative:
        warnings.warn(_NEGATIVE_WARNING, stacklevel=2)
    sources, shape = _indices(np, indices, e.V, min_only)
    limitf = ctypes.c_double(limit).value     # TypeError for a str or None, as scipy's cdef double
    if limitf < 0:
        raise ValueError("limit must be >= 0")
    want = bool(return_predecessors)
    if limitf != limitf or sources.shape[0] == 0 or e.V == 0:       # NaN: nothing is <= it
        dist, pred, nearest = _sources_only(np, e.V, sources, min_only, want)
        return _result(dist, pred, nearest, shape, want)
    if not e.negative:
        dist, pred, nearest = _run(fname, e, sources, _lib.GK_SSSP_DIJKSTRA, min_only, limitf, want,
                                   device, gpus)
        return _result(dist, pred, nearest, shape, want)
    # negative weights: the true distances (Johnson; libgk's limit and
    # min_only need non-negative weights), then limit and min_only here
    dist, pred, nearest = _run(fname, e, sources, _lib.GK_SSSP_JOHNSON, False, float("inf"), want,
                               device, gpus)
    if min_only:
        k = np.argmin(dist, axis=0)
        cols = np.arange(e.V)
        dist = dist[k, cols][None, :]
        if want:
            pred = pred[k, cols][None, :]
        nearest = sources[k].astype(np.int32)
        nearest[~np.isfinite(dist[0])] = SCIPY_NO_PRED
    if limitf < float("inf"):
        far = dist > limitf
        dist[far] = np.inf
        if want:
            pred[far] = SCIPY_NO_PRED
        if nearest is not None:
            nearest[far[0]] = SCIPY_NO_PRED
    return _result(dist, pred, nearest, shape, want)


def _rows(fname, algorithm, csgraph, directed, indices, return_predecessors, unweighted, device, gpus):
    """johnson's and bellman_ford's common body: the rows of indices (every
    vertex for None) by algorithm, with scipy's conventions (_solve)."""
    np = _np()
    _context(fname, device, gpus)             # argument errors before any work
    e = _edges(np, csgraph, directed, unweighted, fname)
    sources, shape = _indices(np, indices, e.V, False)
    want = bool(return_predecessors)
    dist, pred, _ = _solve(fname, e, sources, algorithm, want, device, gpus)
    return _result(dist, pred, None, shape, want)


def johnson(csgraph, directed=True, indices=None, return_predecessors=False, unweighted=False, *,
            device="auto", gpus=None):
    """scipy.sparse.csgraph.johnson on gk: same arguments, results and
    exceptions (shapes as gk.dijkstra's).  Negative weights are fine; a
    negative cycle anywhere in the graph (a negative self-loop too) raises
    gk.NegativeCycleError, a subclass of scipy's ("Negative cycle detected
    on node N", e.vertex = N).  Float results may differ from scipy's in the
    last bits (both reweight, in other orders); integers are exact.  device,
    gpus: as gk.dijkstra."""
    return _rows("gk.johnson", _lib.GK_SSSP_JOHNSON, csgraph, directed, indices, return_predecessors,
                 unweighted, device, gpus)


def bellman_ford(csgraph, directed=True, indices=None, return_predecessors=False, unweighted=False, *,
                 device="auto", gpus=None):
    """scipy.sparse.csgraph.bellman_ford on gk: same arguments, results and
    exceptions (shapes as gk.dijkstra's).  A negative cycle that a source
    reaches (a negative self-loop too) raises gk.NegativeCycleError, a
    subclass of scipy's; one no source reaches does not, as in scipy.  Its
    message names a vertex on the cycle (scipy's Bellman-Ford names the
    source whose search met it).  With directed=False scipy 1.10's
    bellman_ford can raise NegativeCycleError on a graph without any
    negative weight (float weights, w_ij != w_ji); gk returns the
    distances there (those of scipy's dijkstra and johnson).
    device, gpus: as gk.dijkstra."""
    return _rows("gk.bellman_ford", _lib.GK_SSSP_BELLMAN_FORD, csgraph, directed, indices, return_predecessors,
                 unweighted, device, gpus)


def _square(np, csgraph):
    """V of a square csgraph; scipy's ValueError otherwise."""
    shape = csgraph.shape if _is_sparse(csgraph) else np.shape(csgraph)
    if len(shape) != 2:
        raise ValueError("graph should have two dimensions")
    if shape[0] != shape[1]:
        raise ValueError("graph should be a square array")
    return shape[0]


def _scipy_auto_edges(np, csgraph):
    """(edge count, a negative weight?) as scipy's shortest_path(method=
    'auto') counts them on the input as given."""
    if _is_sparse(csgraph):
        fmt = getattr(csgraph, "format", "")
        data = csgraph.data if fmt in ("csr", "csc", "coo") else csgraph.tocoo().data
        return csgraph.nnz, bool((np.asarray(data) < 0).any())
    if np.ma.isMaskedArray(csgraph):
        edges = csgraph.compressed()
        return csgraph.count(), bool((edges < 0).any())
    a = np.asarray(csgraph)
    edges = a[np.isfinite(a)]
    edges = edges[edges != 0]
    return edges.size, bool((edges < 0).any())


def shortest_path(csgraph, method="auto", directed=True, return_predecessors=False, unweighted=False,
                  overwrite=False, indices=None, *, device="auto", gpus=None):
    """scipy.sparse.csgraph.shortest_path on gk: same arguments, results and
    exceptions.  method 'FW' (gk.floyd_warshall; indices refused, as scipy),
    'D' (gk.dijkstra), 'J' (gk.johnson), 'BF' (gk.bellman_ford) or 'auto'.

    'auto': where scipy's rule picks Floyd-Warshall (no indices and at least
    V^2/4 edges) gk.floyd_warshall runs, with its input rules; else, without
    a negative weight, gk's cost model picks among all of gk's algorithms
    (gk.last_report()["algorithm"] and ["why"] say which and why), and with
    one, Johnson runs (gk's choice when indices is None), so that a
    negative cycle raises gk.NegativeCycleError where scipy's does.
    overwrite: used by Floyd-Warshall only (as scipy).  device, gpus: as
    gk.dijkstra.
    """
    np = _np()
    fname = "gk.shortest_path"
    _context(fname, device, gpus)
    auto = method == "auto"
    if auto:
        V = _square(np, csgraph)
        nk, negative = _scipy_auto_edges(np, csgraph)
        if indices is None and not nk < V * V / 4:
            method = "FW"
        else:
            e = _edges(np, csgraph, directed, unweighted, fname)
            sources, shape = _indices(np, indices, e.V, False)
            want = bool(return_predecessors)
            if negative:
                alg = _lib.GK_SSSP_JOHNSON
                if e.negative_loops.size:     # what scipy's Johnson says
                    v = int(e.negative_loops[0])
                    raise NegativeCycleError("Negative cycle detected on node %d" % v, vertex=v)
                if indices is None:           # every vertex a source: every cycle is found
                    alg = _lib.GK_SSSP_AUTO
            else:
                alg = _lib.GK_SSSP_AUTO
            dist, pred, _ = _solve(fname, e, sources, alg, want, device, gpus)
            return _result(dist, pred, None, shape, want)
    if method == "FW":
        if indices is not None:
            raise ValueError("Cannot specify indices with method == 'FW'.")
        _tls.report = None
        out = floyd_warshall(csgraph, directed, return_predecessors=return_predecessors,
                             unweighted=unweighted, overwrite=overwrite, device=device, gpus=gpus)
        r = getattr(_tls, "report", None)
        if r is not None:
            r.update(algorithm="fw", sources=r.get("sources"), relaxations=None,
                     why="auto: scipy's rule (no indices, at least V^2/4 edges): Floyd-Warshall"
                     if auto else "fw asked for")
        return out
    if method == "D":
        return dijkstra(csgraph, directed, indices=indices, return_predecessors=return_predecessors,
                        unweighted=unweighted, device=device, gpus=gpus)
    if method == "BF":
        return bellman_ford(csgraph, directed, indices=indices, return_predecessors=return_predecessors,
                            unweighted=unweighted, device=device, gpus=gpus)
    if method == "J":
        return johnson(csgraph, directed, indices=indices, return_predecessors=return_predecessors,
                       unweighted=unweighted, device=device, gpus=gpus)
    raise ValueError("unrecognized method '%s'" % (method,))
