#!/usr/bin/env python3
"""The gk Python module against independent references, as TAP.

References: scipy.sparse.csgraph.floyd_warshall when scipy is installed, and
always a plain numpy Floyd-Warshall and a numpy 27-point stencil written here.
Run by tests/test_python.sh (which skips when numpy is missing) with
GK_LIBRARY pointing at the build tree's libgk and GK_LAYOUT at
tests/test_python_layout (the C side of the structure layouts).
"""
import ctypes
import os
import subprocess
import tempfile
import threading
import warnings

import numpy as np

import gk
from tap import Skip, test, done  # tests/python/tap.py
from gk import _lib

try:
    import scipy.sparse as sp
    from scipy.sparse.csgraph import floyd_warshall as scipy_fw
    from scipy.sparse.csgraph import NegativeCycleError, construct_dist_matrix
except ImportError:
    sp = scipy_fw = NegativeCycleError = construct_dist_matrix = None

INF = gk.INF


def need_scipy():
    if scipy_fw is None:
        raise Skip("scipy is not installed (the numpy reference tests still ran)")


def ref_fw(d):
    """Plain Floyd-Warshall on a float matrix (inf: no edge)."""
    d = np.array(d, dtype=np.float64)
    np.fill_diagonal(d, 0)
    for k in range(d.shape[0]):
        np.minimum(d, d[:, k, None] + d[None, k, :], out=d)
    return d


def ref_from_edges(V, edges, undirected=False):
    """The float adjacency (inf: none) of an edge list: min of duplicates, no self-loops."""
    a = np.full((V, V), np.inf)
    for s, t, w in edges:
        s, t = int(s), int(t)
        if s == t:
            continue
        a[s, t] = min(a[s, t], w)
        if undirected:
            a[t, s] = min(a[t, s], w)
    return a


def as_gk(f):
    """float distances (inf) -> gk's int32 (INF)."""
    out = np.where(np.isinf(f), INF, f)
    return out.astype(np.int32)


def expect_raises(exc, pattern, fn, *a, **k):
    try:
        fn(*a, **k)
    except exc as e:
        assert pattern in str(e), "message %r lacks %r" % (str(e), pattern)
        return e
    raise AssertionError("%s not raised" % exc.__name__)


rng = np.random.default_rng(20261122)


def random_dense(V, density, maxw=20):
    a = rng.integers(0, maxw + 1, (V, V)).astype(np.float64)   # 0 entries: no edge (scipy)
    a[rng.random((V, V)) > density] = 0
    return a


# ------------------------------------------------------------------ layout

@test
def t_layout():
    """the ctypes structures and constants match the C compiler's layouts"""
    exe = os.environ.get("GK_LAYOUT")
    if not exe or not os.path.exists(exe):
        raise Skip("GK_LAYOUT (tests/test_python_layout) not built")
    lines = subprocess.run([exe], check=True, stdout=subprocess.PIPE, universal_newlines=True).stdout.split("\n")
    seen = {}
    for line in filter(None, lines):
        a, b, c = line.split()
        if a == "const":
            assert getattr(_lib, b) == int(c), "%s: Python %r, C %s" % (b, getattr(_lib, b), c)
            continue
        cls = _lib.STRUCTS[a]
        if b == "sizeof":
            assert ctypes.sizeof(cls) == int(c), "sizeof %s: ctypes %d, C %s" % (a, ctypes.sizeof(cls), c)
        else:
            assert getattr(cls, b).offset == int(c), "%s.%s: ctypes %d, C %s" % (a, b, getattr(cls, b).offset, c)
            seen.setdefault(a, set()).add(b)
    for name, cls in _lib.STRUCTS.items():
        assert {f[0] for f in cls._fields_} == seen.get(name, set()), name


@test
def t_soname():
    """the module loads libgk by its soname (libgk.so.1: make check's, pip's, make install's)"""
    lib = gk.info()["library"]
    assert os.path.basename(lib) == _lib.SONAME, "loaded %s, the module looks for %s" % (lib, _lib.SONAME)
    assert os.path.exists(lib), lib


@test
def t_cdll():
    """libgk is a ctypes.CDLL: foreign calls release the GIL"""
    assert isinstance(_lib.lib, ctypes.CDLL) and not isinstance(_lib.lib, ctypes.PyDLL)


@test
def t_info():
    """gk.info() reports the version, the CPU and the GPUs"""
    i = gk.info()
    assert i["version"] == gk.__version__ == i["build"]["version"]
    assert i["cpu"]["pus"] >= 1 and isinstance(i["gpus"], list)
    assert i["gpu_usable"] or i["gpu_note"]


# ------------------------------------------------------------------ floyd_warshall

@test
def t_fw_numpy_ref():
    """floyd_warshall == a plain numpy Floyd-Warshall (dense, 0 = no edge, unreachable pairs)"""
    for V in (1, 2, 7, 64, 129):
        for density in (0.02, 0.2):
            a = random_dense(V, density)
            adj = np.where(a == 0, np.inf, a)
            got = gk.floyd_warshall(a, device="cpu")
            assert got.dtype == np.float64 and got.shape == (V, V)
            assert np.array_equal(got, ref_fw(adj)), (V, density)
            und = np.minimum(adj, adj.T)
            assert np.array_equal(gk.floyd_warshall(a, directed=False), ref_fw(und))
            one = np.where(np.isinf(adj), np.inf, 1.0)
            assert np.array_equal(gk.floyd_warshall(a, unweighted=True), ref_fw(one))


@test
def t_fw_scipy_dense():
    """floyd_warshall == scipy's on dense graphs: directed, undirected, unweighted, inf/NaN, self-loops"""
    need_scipy()
    for V in (1, 3, 50, 200):
        for density in (0.01, 0.1, 0.5):
            a = random_dense(V, density)
            if V > 2:
                a[0, 1], a[1, 2] = np.inf, np.nan          # more non-edges
                a[2, 2] = 5                                # a self-loop: ignored
            for directed in (True, False):
                for unweighted in (False, True):
                    want = scipy_fw(a, directed=directed, unweighted=unweighted)
                    got = gk.floyd_warshall(a, directed=directed, unweighted=unweighted)
                    assert got.dtype == want.dtype and np.array_equal(got, want), (V, density, directed, unweighted)
    lst = [[0, 3, 0], [0, 0, 1], [2, 0, 0]]
    assert np.array_equal(gk.floyd_warshall(lst), scipy_fw(lst))
    m = np.ma.masked_array([[0, 3.0], [4.0, 0]], mask=[[0, 1], [0, 0]])
    assert np.array_equal(gk.floyd_warshall(m), scipy_fw(m))
    assert gk.floyd_warshall(np.zeros((0, 0))).shape == (0, 0)


@test
def t_fw_scipy_sparse():
    """floyd_warshall == scipy's on sparse graphs: explicit 0-weight edges, duplicates, self-loops"""
    need_scipy()
    for V in (2, 40, 150):
        E = V * 4
        s, t = rng.integers(0, V, E), rng.integers(0, V, E)
        w = rng.integers(0, 30, E).astype(np.float64)
        w[: E // 5] = 0                                    # explicit zeros: edges of weight 0
        s[: E // 10], t[: E // 10] = s[E // 10: E // 5], t[E // 10: E // 5]   # duplicates
        s[-3:] = t[-3:]                                    # self-loops
        # scipy takes the minimum of duplicates in a non-canonical CSR
        order = np.argsort(s, kind="stable")
        indptr = np.searchsorted(s[order], np.arange(V + 1))
        csr = sp.csr_matrix((w[order], t[order], indptr), shape=(V, V))
        assert not csr.has_canonical_format
        for fmt in ("csr", "csc", "lil"):
            g = csr if fmt == "csr" else csr.copy().asformat(fmt)   # tolil() sums csr's duplicates in place
            for directed in (True, False):
                for unweighted in (False, True):
                    want = scipy_fw(g, directed=directed, unweighted=unweighted)
                    got = gk.floyd_warshall(g, directed=directed, unweighted=unweighted)
                    assert np.array_equal(got, want), (V, fmt, directed, unweighted)
        # an independent check of the explicit-zero rule
        ref = ref_fw(ref_from_edges(V, zip(s, t, w)))
        assert np.array_equal(gk.floyd_warshall(csr), ref)


@test
def t_fw_overwrite():
    """overwrite=True writes into a C-ordered float64 array, as scipy does"""
    a = random_dense(30, 0.2)
    want = gk.floyd_warshall(a.copy())
    b = a.copy()
    got = gk.floyd_warshall(b, overwrite=True)
    assert got is b and np.array_equal(b, want)
    c = a.astype(np.float32)
    assert gk.floyd_warshall(c, overwrite=True) is not c


@test
def t_fw_arguments():
    """floyd_warshall's shape rule, unweighted over any weights, the ignored diagonal"""
    expect_raises(ValueError, "square", gk.floyd_warshall, np.zeros((2, 3)))
    # negative or fractional weights count 1 when unweighted, as in scipy
    r = gk.floyd_warshall(np.array([[0, -2.5], [0, 0]]), unweighted=True)
    assert np.array_equal(r, [[0, 1], [np.inf, 0]])
    # a negative diagonal is ignored, as in scipy
    assert np.array_equal(gk.floyd_warshall(np.array([[-3.0, 1], [0, 0]])), [[0, 1], [np.inf, 0]])


# ------------------------------------------------------------------ floyd_warshall: 1.2 weights

def tolerance(V, adj):
    """The contract's bound for float64 distances computed in another order:
    2 (V-1)^2 2^-53 max|w| over the edges."""
    w = np.abs(adj[np.isfinite(adj)])
    return 2.0 * max(V - 1, 0) ** 2 * 2.0**-53 * (w.max() if w.size else 0.0)


def close(got, want, tol):
    """Equal infinities, finite entries within tol."""
    return got.shape == want.shape and np.array_equal(np.isinf(got), np.isinf(want)) and \
        np.array_equal(np.signbit(got[np.isinf(got)]), np.signbit(want[np.isinf(want)])) and \
        bool((np.abs(got[np.isfinite(got)] - want[np.isfinite(want)]) <= tol).all())


def check_pred(adj, dist, pred, tol):
    """Every predecessor, independently of ties: adj is the initial matrix
    (inf: no edge, diagonal ignored).  pred[i, i] and unreachable pairs are
    -9999; for every reachable pair, following pred[i] from j back to i takes
    edges of adj, at most V - 1 of them, and sums to dist[i, j] within tol."""
    V = dist.shape[0]
    assert pred.dtype == np.int32 and pred.shape == (V, V) and pred.flags.c_contiguous
    reach = np.isfinite(dist)
    np.fill_diagonal(reach, False)
    assert (pred[~reach] == -9999).all(), "a 'none' that is not -9999, or a pred on the diagonal"
    ii, jj = np.nonzero(reach)
    cur, total = jj.copy(), np.zeros(ii.size)
    for _ in range(V):
        act = cur != ii
        if not act.any():
            break
        p = pred[ii[act], cur[act]]
        assert ((p >= 0) & (p < V)).all(), "a chain meets a 'none' or a bad vertex"
        w = adj[p, cur[act]]
        assert np.isfinite(w).all(), "a chain takes an edge the graph lacks"
        total[act] += w
        cur[act] = p
    assert (cur == ii).all(), "a chain longer than V - 1 edges (a cycle in pred)"
    err = np.abs(total - dist[ii, jj])
    assert (err <= tol).all(), "chain sum off by %g > %g" % (err.max(), tol)


def scipy_initial(a, directed=True):
    """scipy's initial matrix of a dense graph (0, inf, NaN: no edge), for the chain check."""
    adj = np.where((a == 0) | ~np.isfinite(a), np.inf, np.asarray(a, dtype=np.float64))
    return adj if directed else np.minimum(adj, adj.T)


def random_real(V, density, lo=0.1, hi=10.0):
    """A dense scipy-style graph of real weights in [lo, hi) (0: no edge)."""
    a = rng.uniform(lo, hi, (V, V))
    a[rng.random((V, V)) > density] = 0
    return a


def random_negative(V, density, ints=False):
    """Real (or integral) weights, many negative, no negative cycle:
    w(u, v) + h(u) - h(v) with w > 0 (a potential shift keeps every cycle's
    length)."""
    a = random_real(V, density) if not ints else np.ceil(random_real(V, density))
    h = rng.uniform(0, 8, V) if not ints else rng.integers(0, 9, V).astype(np.float64)
    b = np.where(a != 0, a + h[:, None] - h[None, :], 0)
    b[b == 0] = 1 if ints else 0.5     # a shifted weight of exactly 0 would read as "no edge"
    b[a == 0] = 0
    return b


@test
def t_fw_weights_1_2():
    """floyd_warshall takes what scipy takes: negative, fractional, large weights; predecessors"""
    d = gk.floyd_warshall(np.array([[0, -1.0], [1, 0]]))
    assert np.array_equal(d, [[0, -1], [1, 0]]) and d.dtype == np.float64
    assert np.array_equal(gk.floyd_warshall(np.array([[0, 1.5], [1, 0]])), [[0, 1.5], [1, 0]])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        r = gk.floyd_warshall(np.array([[0, 6e8, 0], [0, 0, 6e8], [0, 0, 0]]))
    assert r[0, 2] == 1.2e9 and gk.last_report()["dtype"] == "float64"   # past int32's 2^30 - 1
    r = gk.floyd_warshall(np.array([[0, 2.0**60, 0], [0, 0, 3], [0, 0, 0]]))
    assert r[0, 2] == 2.0**60 + 3
    r = gk.floyd_warshall(np.array([[0, 2.7e8, 0], [0, 0, -1], [0, 0, 0]]))   # 2 * 2.7e8 >= INF / 2
    assert r[0, 2] == 2.7e8 - 1 and gk.last_report()["dtype"] == "float64"
    r = gk.floyd_warshall(np.array([[0, 2.6e8, 0], [0, 0, -1], [0, 0, 0]]))
    assert r[0, 2] == 2.6e8 - 1 and gk.last_report()["dtype"] == "int32"
    d, p = gk.floyd_warshall(np.array([[0, 1, 0], [0, 0, 2], [0, 0, 0.]]), return_predecessors=True)
    assert np.array_equal(d, [[0, 1, 3], [np.inf, 0, 2], [np.inf, np.inf, 0]])
    assert np.array_equal(p, [[-9999, 0, 1], [-9999, -9999, 1], [-9999, -9999, -9999]])
    assert p.dtype == np.int32
    d, p = gk.floyd_warshall(np.zeros((0, 0)), return_predecessors=True)
    assert d.shape == p.shape == (0, 0) and p.dtype == np.int32
    # a negative diagonal is ignored, as in scipy (the diagonal is set to 0)
    assert np.array_equal(gk.floyd_warshall(np.array([[-3.0, 1], [0, 0]])), [[0, 1], [np.inf, 0]])
    assert gk.last_report()["dtype"] == "int32" and gk.last_report()["cycle_vertex"] is None
    gk.floyd_warshall(np.array([[0, 0.5], [-0.25, 0]]))
    assert gk.last_report()["dtype"] == "float64"
    e = expect_raises(ValueError, "csgraph[0, 1] = -inf", gk.floyd_warshall,
                      sp.csr_matrix(([-np.inf], ([0], [1])), shape=(2, 2))) if sp is not None else None
    assert e is None or not isinstance(e, gk.NegativeCycleError)


@test
def t_fw_real_scipy():
    """real weights: == scipy's and a numpy Floyd-Warshall within the tolerance; valid predecessors"""
    need_scipy()
    for V in (1, 2, 7, 63, 64, 65, 130, 200):
        for density in (0.03, 0.3):
            a = random_real(V, density)
            for directed in (True, False):
                adj = scipy_initial(a, directed)
                tol = tolerance(V, adj)
                want = scipy_fw(a, directed=directed)
                got, pred = gk.floyd_warshall(a, directed=directed, return_predecessors=True)
                assert got.dtype == np.float64 and got.flags.c_contiguous
                assert close(got, want, tol), (V, density, directed, np.nanmax(np.abs(got - want)))
                assert close(got, ref_fw(adj), tol)
                assert np.array_equal(gk.floyd_warshall(a, directed=directed), got)   # same bits
                check_pred(adj, got, pred, tol)
                w1 = gk.floyd_warshall(a, directed=directed, unweighted=True, return_predecessors=True)
                assert np.array_equal(w1[0], scipy_fw(a, directed=directed, unweighted=True))
                check_pred(np.where(np.isfinite(adj), 1.0, np.inf), w1[0], w1[1], 0)
    # scipy's other "no edge" entries in a real matrix: inf, -inf, NaN, masked
    a = random_real(90, 0.2)
    a[0, 1], a[1, 2], a[2, 3], a[3, 3] = np.inf, -np.inf, np.nan, -2.5
    adj = scipy_initial(a)
    np.fill_diagonal(adj, np.inf)
    got, pred = gk.floyd_warshall(a, return_predecessors=True)
    assert close(got, scipy_fw(a), tolerance(90, adj)) and gk.last_report()["dtype"] == "float64"
    check_pred(adj, got, pred, tolerance(90, adj))
    m = np.ma.masked_array(a, mask=rng.random(a.shape) < 0.3)
    m[~np.isfinite(a)] = np.ma.masked     # scipy computes with unmasked NaN and -inf (gk: no edge)
    want = scipy_fw(m)
    assert close(gk.floyd_warshall(m), want, tolerance(90, adj))
    assert (want > got + 1e-6).any()              # the mask took edges away


@test
def t_fw_negative_scipy():
    """negative weights without a negative cycle: == scipy's within the tolerance; valid predecessors"""
    need_scipy()
    for V in (3, 40, 64, 129, 190):
        for density in (0.05, 0.4):
            a = random_negative(V, density)
            assert (a < 0).sum() > V // 10 or V < 10
            adj = scipy_initial(a)
            tol = tolerance(V, adj)
            want, spred = scipy_fw(a, return_predecessors=True)
            got, pred = gk.floyd_warshall(a, return_predecessors=True)
            assert close(got, want, tol), (V, density)
            assert (got[np.isfinite(got)] < 0).any() or V < 40
            check_pred(adj, got, pred, tol)
            assert np.array_equal(pred == -9999, spred == -9999)
            # scipy's own reading of gk's predecessors gives gk's distances
            assert close(construct_dist_matrix(a, pred), np.where(np.isinf(got), np.inf, got), tol) or V < 3
            # integral negative weights: gk's int32 path, exactly scipy's distances
            b = random_negative(V, density, ints=True)
            got, pred = gk.floyd_warshall(b, return_predecessors=True)
            assert gk.last_report()["dtype"] == "int32"
            assert np.array_equal(got, scipy_fw(b)), V
            check_pred(scipy_initial(b), got, pred, 0)


@test
def t_fw_negative_cycle():
    """a negative cycle raises gk.NegativeCycleError naming a vertex on one, as scipy raises its own"""
    for V, cyc in ((2, [0, 1]), (5, [3, 1, 4]), (100, [70, 5, 66, 90]), (150, [149, 140])):
        a = random_real(V, 0.05) if V > 5 else np.zeros((V, V))
        a[:, cyc] = 0                          # the cycle's vertices have no other in-edges
        for x, y in zip(cyc, cyc[1:] + cyc[:1]):
            a[x, y] = 1.0
        a[cyc[-1], cyc[0]] = -len(cyc)         # length -1
        e = expect_raises(gk.NegativeCycleError, "Negative cycle detected on node ", gk.floyd_warshall, a)
        assert isinstance(e, gk.Error) and e.status == _lib.GK_ENEGCYCLE and e.status_name == "ENEGCYCLE"
        assert e.vertex in cyc, (e.vertex, cyc)
        assert str(e) == "Negative cycle detected on node %d" % e.vertex
        assert gk.last_report()["cycle_vertex"] == e.vertex
        expect_raises(gk.NegativeCycleError, "Negative cycle", gk.floyd_warshall, a, return_predecessors=True)
        if scipy_fw is not None:
            try:
                scipy_fw(a)
                raise AssertionError("scipy found no negative cycle")
            except NegativeCycleError as s:
                assert str(e.vertex) in str(s).strip("]").split("[")[1].split()
        # unweighted, the same graph has no negative cycle
        assert np.isfinite(gk.floyd_warshall(a, unweighted=True)[cyc[0], cyc[-1]])
    # undirected: one negative edge is a negative cycle (there and back), as in scipy
    e = expect_raises(gk.NegativeCycleError, "node", gk.floyd_warshall,
                      np.array([[0, -1.0, 0], [0, 0, 2], [0, 0, 0]]), directed=False)
    assert e.vertex in (0, 1)
    # a negative self-loop is not a cycle (scipy sets the diagonal to 0)
    assert np.array_equal(gk.floyd_warshall(np.array([[-1.0, 2], [0, 0]])), [[0, 2], [np.inf, 0]])


@test
def t_fw_sparse_real():
    """sparse real and negative weights: explicit zeros, -0.0, duplicates, every format == scipy's"""
    need_scipy()
    for V in (2, 70, 160):
        E = V * 5
        s, t = rng.integers(0, V, E), rng.integers(0, V, E)
        s[: E // 10], t[: E // 10] = s[E // 10: E // 5], t[E // 10: E // 5]   # duplicates
        h = rng.uniform(0, 5, V)
        w = rng.uniform(0, 10, E) + h[s] - h[t]          # negative ones, no negative cycle
        zero = np.flatnonzero(h[t] >= h[s])[: E // 5]    # 0 = w + h[s] - h[t] with w >= 0
        w[zero[::2]], w[zero[1::2]] = 0.0, -0.0
        w[-3:], s[-3:] = -5.0, t[-3:]                    # negative self-loops: ignored
        order = np.argsort(s, kind="stable")
        indptr = np.searchsorted(s[order], np.arange(V + 1))
        csr = sp.csr_matrix((w[order], t[order], indptr), shape=(V, V))
        adj = ref_from_edges(V, zip(s, t, w))
        tol = tolerance(V, adj)
        assert close(scipy_fw(csr), ref_fw(adj), tol)   # the duplicate rule of ref_from_edges is scipy's
        for fmt in ("csr", "csc", "lil", "coo", "dok"):
            g = csr if fmt == "csr" else csr.copy().asformat(fmt)   # lil and dok add duplicates up
            c = g.tocoo()
            gadj = ref_from_edges(V, zip(c.row, c.col, c.data))
            # scipy takes csr, csc and lil; the others: the reference of their entries
            want = scipy_fw(g) if fmt in ("csr", "csc", "lil") else ref_fw(gadj)
            got, pred = gk.floyd_warshall(g, return_predecessors=True)
            assert close(got, want, tol), (V, fmt)
            check_pred(gadj, got, pred, tol)


@test
def t_fw_overwrite_real():
    """overwrite=True with real and negative weights computes in the caller's float64 array"""
    a = random_negative(90, 0.1)
    want = gk.floyd_warshall(a)
    b = a.copy()
    got, pred = gk.floyd_warshall(b, overwrite=True, return_predecessors=True)
    assert got is b and np.array_equal(b, want)
    c = np.asfortranarray(a)
    assert gk.floyd_warshall(c, overwrite=True) is not c and np.array_equal(c, a)


@test
def t_reconstruct_path():
    """reconstruct_path on gk's predecessors == scipy's on the same row; the tree's paths have gk's lengths"""
    need_scipy()
    from scipy.sparse.csgraph import reconstruct_path as scipy_rp
    V = 80
    a = random_negative(V, 0.06)
    d, pred = gk.floyd_warshall(a, return_predecessors=True)
    tol = tolerance(V, scipy_initial(a))
    for i in (0, 17, V - 1):
        t = gk.reconstruct_path(a, pred[i])
        want = scipy_rp(a, pred[i])
        assert type(t) is type(want) and (t != want).nnz == 0
        # the tree's distances from i are gk's
        dt = scipy_fw(t)[i]
        assert close(dt, d[i], tol)
    expect_raises(ValueError, "one row", gk.reconstruct_path, a, pred)
    bad = pred[0].copy()
    bad[3] = V
    expect_raises(ValueError, "predecessors[3] = 80 is not a vertex", gk.reconstruct_path, a, bad)
    expect_raises(ValueError, "integers", gk.reconstruct_path, a, pred[0].astype(float))


@test
def t_negative_cycle_classes():
    """gk.NegativeCycleError is caught by scipy's NegativeCycleError (scipy installed) and by ValueError"""
    a = np.array([[0, 1.0, 0], [0, 0, 1.0], [-3.0, 0, 0]])
    assert issubclass(gk.NegativeCycleError, ValueError) and issubclass(gk.NegativeCycleError, gk.Error)
    try:
        gk.floyd_warshall(a)
        raise AssertionError("no negative cycle found")
    except ValueError as e:
        assert isinstance(e, gk.NegativeCycleError) and e.vertex in (0, 1, 2)
    if NegativeCycleError is None:
        raise Skip("scipy is not installed (the ValueError half still ran)")
    assert issubclass(gk.NegativeCycleError, NegativeCycleError)
    try:
        gk.floyd_warshall(a, return_predecessors=True)
        raise AssertionError("no negative cycle found")
    except NegativeCycleError as e:        # scipy's class, as code written for scipy catches it
        assert isinstance(e, gk.NegativeCycleError) and str(e) == "Negative cycle detected on node %d" % e.vertex
        assert e.status == _lib.GK_ENEGCYCLE


def naive_path(pred, i, j):
    """The predecessor walk written out: [] when unreachable."""
    if i == j:
        return [i]
    if pred[i, j] < 0:
        return []
    out = [j]
    while out[-1] != i:
        out.append(int(pred[i, out[-1]]))
        assert len(out) <= len(pred)
    return out[::-1]


@test
def t_path():
    """gk.path == the naive walk == `gk path` on the same matrix; its edges sum to the distance"""
    V = 60
    a = random_negative(V, 0.05)
    a[:, 7] = 0                                  # vertex 7 unreachable from the others
    d, pred = gk.floyd_warshall(a, return_predecessors=True)
    adj = np.where(a == 0, np.inf, a)
    np.fill_diagonal(adj, np.inf)
    tol = tolerance(V, adj)
    gkpred = np.where(pred < 0, -1, pred).astype(np.int32)     # gk's own convention
    exe = os.environ.get("GK")
    with tempfile.TemporaryDirectory() as tmp:
        f = os.path.join(tmp, "pred.i32")
        gkpred.tofile(f)
        for i, j in ((0, 0), (0, 7), (7, 7), (3, 59), (59, 3), (10, 20), (20, 10), (7, 1)) + \
                tuple((int(x), int(y)) for x, y in rng.integers(0, V, (20, 2))):
            got = gk.path(pred, i, j)
            assert got == naive_path(pred, i, j) == gk.path(gkpred, i, j), (i, j, got)
            assert (got == []) == np.isinf(d[i, j]), (i, j)
            if got:
                assert got[0] == i and got[-1] == j and len(set(got)) == len(got)
                length = sum(adj[u, v] for u, v in zip(got, got[1:]))
                assert abs(length - d[i, j]) <= tol, (i, j, length, d[i, j])
            if exe:
                r = subprocess.run([exe, "path", "--predecessors=" + f, str(i), str(j)],
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True)
                assert r.returncode == (0 if got else 1), (i, j, r)
                assert r.stdout.split() == [str(v) for v in got], (i, j, r.stdout)
    assert gk.path(np.array([[-9999]]), 0, 0) == [0]
    expect_raises(ValueError, "V x V predecessor matrix", gk.path, pred[0], 0, 1)
    expect_raises(ValueError, "integers", gk.path, pred.astype(float), 0, 1)
    expect_raises(ValueError, "j = 60 is not a vertex of the 60-vertex graph", gk.path, pred, 0, 60)
    expect_raises(ValueError, "i = -1 is not a vertex", gk.path, pred, -1, 0)
    expect_raises(ValueError, "want an integer vertex", gk.path, pred, 1.0, 0)
    bad = np.full((3, 3), -1, dtype=np.int32)
    bad[0, 2], bad[0, 1] = 1, 2                  # 2 <- 1 <- 2: a cycle
    expect_raises(ValueError, "go round a cycle", gk.path, bad, 0, 2)
    bad[0, 1] = 5
    expect_raises(ValueError, "predecessors[0, 1] = 5 is not a vertex", gk.path, bad, 0, 2)


@test
def t_fw_gpu_1_2():
    """the GPU gives the CPU's bits: float64 distances and predecessors, int32 with predecessors, negative cycles"""
    if not gk.info()["gpu_usable"]:
        raise Skip("no usable GPU: " + gk.info()["gpu_note"][:100])
    for V in (1, 65, 300):
        for a in (random_negative(V, 0.05), random_negative(V, 0.05, ints=True), random_real(V, 0.3)):
            dc, pc = gk.floyd_warshall(a, device="cpu", return_predecessors=True)
            tc = gk.last_report()["dtype"]
            dg, pg = gk.floyd_warshall(a, device="gpu", return_predecessors=True)
            assert gk.last_report()["backend"] == "gpu" and gk.last_report()["dtype"] == tc
            assert np.array_equal(dc, dg) and np.array_equal(pc, pg), (V, tc)
            assert np.array_equal(gk.floyd_warshall(a, device="gpu"), dc)
    a = random_real(200, 0.05)
    a[150, 40], a[40, 150] = 1.0, -2.0
    ec = expect_raises(gk.NegativeCycleError, "Negative cycle", gk.floyd_warshall, a, device="cpu")
    eg = expect_raises(gk.NegativeCycleError, "Negative cycle", gk.floyd_warshall, a, device="gpu")
    assert ec.vertex == eg.vertex and ref_fw(scipy_initial(a))[ec.vertex, ec.vertex] < 0, (ec.vertex, eg.vertex)


@test
def t_apsp_zero_warning():
    """gk.apsp warns about zeros off the diagonal of a dense float matrix without kind= (scipy reads them as no edge)"""
    a = np.array([[0, 3.0, 0, 1], [0, 0, 2, 0], [1, 0, 0, 0], [0, 0, 0, 0]])
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        d = gk.apsp(a)
    assert len(w) == 1 and issubclass(w[0].category, UserWarning), [str(x.message) for x in w]
    msg = str(w[0].message)
    for words in ("8 zeros off the diagonal", "edge of weight 0", "scipy", "gk.floyd_warshall", "kind='matrix'"):
        assert words in msg, (words, msg)
    assert w[0].filename == __file__                    # points at the caller
    assert np.array_equal(d, np.zeros((4, 4)))          # gk's convention: 0-weight edges everywhere
    for quiet in ((a, dict(kind="matrix")), (a.astype(np.int64), {}),
                  (np.where(a == 0, np.inf, a), {}), (np.ones((4, 4)) - np.eye(4), {})):
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            gk.apsp(quiet[0], **quiet[1])


# ------------------------------------------------------------------ apsp

@test
def t_apsp_edges():
    """apsp on (E, 3) edge arrays == the reference: duplicates, self-loops, 0 weights, unreachable"""
    for V, E in ((1, 0), (5, 3), (60, 200), (300, 3000)):
        s, t = rng.integers(0, V, E), rng.integers(0, V, E)
        w = rng.integers(0, 50, E)
        if E > 10:
            w[:5] = 0
            s[5:8], t[5:8] = s[8:11], t[8:11]
            s[-2:] = t[-2:]
        edges = np.stack([s, t, w], axis=1)
        want = as_gk(ref_fw(ref_from_edges(V, edges)))
        got = gk.apsp(edges, vertices=V, kind="edges", device="cpu")
        assert got.dtype == np.int32 and got.flags.c_contiguous and np.array_equal(got, want), V
        und = as_gk(ref_fw(ref_from_edges(V, edges, undirected=True)))
        assert np.array_equal(gk.apsp(edges, vertices=V, kind="edges", undirected=True), und)
        assert np.array_equal(gk.apsp(edges.astype(np.float64), vertices=V, kind="edges"), want)
        if scipy_fw is not None and E:
            # scipy from the duplicate-free edges (a COO -> CSR conversion would add duplicates up),
            # explicit zeros kept as 0-weight edges
            best = {}
            for a, b, c in edges.tolist():
                if a != b:
                    best[a, b] = min(c, best.get((a, b), c))
            if best:
                (i, j), c = zip(*best.keys()), list(best.values())
                csr = sp.csr_matrix((np.array(c, float), (i, j)), shape=(V, V))
                assert np.array_equal(got, as_gk(scipy_fw(csr))), V
    e = np.array([[0, 1, 4], [1, 3, 2]])
    assert gk.apsp(e).shape == (4, 4) and gk.apsp(e, vertices=6).shape == (6, 6)


@test
def t_apsp_matrix_sparse():
    """apsp on a gk-convention matrix (0 is an edge, INF/inf/NaN are not) and on scipy.sparse"""
    V = 80
    a = rng.integers(0, 9, (V, V)).astype(np.int64)
    a[rng.random((V, V)) > 0.05] = INF
    fa = np.where(a == INF, np.inf, a.astype(np.float64))
    assert np.array_equal(gk.apsp(a), as_gk(ref_fw(fa)))
    f = fa.copy()
    f[0, 1] = np.nan
    with warnings.catch_warnings(record=True) as w:     # zeros in a float matrix: t_apsp_zero_warning
        warnings.simplefilter("always")
        assert np.array_equal(gk.apsp(f), as_gk(ref_fw(np.where(np.isnan(f), np.inf, f))))
    assert len(w) == 1 and "zeros off the diagonal" in str(w[0].message)
    if sp is not None:
        nz = np.isfinite(fa) & (fa != 0)
        s = sp.csr_matrix(np.where(nz, fa, 0))
        assert np.array_equal(gk.apsp(s), as_gk(ref_fw(np.where(nz, fa, np.inf))))
        assert np.array_equal(gk.apsp(s.tocoo()), gk.apsp(s))
        zs = sp.csr_matrix((np.array([0.0]), (np.array([0]), np.array([1]))), shape=(2, 2))
        assert np.array_equal(gk.apsp(zs), [[0, 0], [INF, 0]])    # an explicit 0 is an edge


@test
def t_apsp_arguments():
    """apsp's argument errors: precision, device, gpus, kind, bad weights and ids"""
    e = np.array([[0, 1, 4], [1, 2, 2], [2, 0, 1], [0, 2, 9]])
    expect_raises(ValueError, "'auto' or '32'", gk.apsp, e, precision="16")
    assert np.array_equal(gk.apsp(e, precision="32"), gk.apsp(e, precision=32))
    expect_raises(ValueError, "device", gk.apsp, e, device="tpu")
    expect_raises(NotImplementedError, "one GPU", gk.apsp, e, gpus=[0, 1])
    expect_raises(ValueError, "kind='edges'", gk.apsp, np.zeros((3, 3), int))
    expect_raises(ValueError, "outside [0, 1073741822]", gk.apsp, np.array([[0, 1, -1], [1, 0, 1]]))
    expect_raises(ValueError, "not an integer", gk.apsp, np.array([[0, 1, 0.5], [1, 0, 1]]))
    expect_raises(ValueError, "outside [0, 4]", gk.apsp, np.array([[0, 7, 1], [1, 0, 1]]), vertices=5)
    expect_raises(ValueError, "no edges", gk.apsp, np.zeros((0, 3), int))


@test
def t_apsp_threads():
    """apsp from 4 threads at once gives the same answers (a context runs one job at a time)"""
    V = 150
    a = random_dense(V, 0.05).astype(np.int64)
    a[a == 0] = INF
    want = gk.apsp(a)
    out = [None] * 4

    def run(i):
        out[i] = gk.apsp(a)
    th = [threading.Thread(target=run, args=(i,)) for i in range(4)]
    for x in th:
        x.start()
    for x in th:
        x.join()
    assert all(np.array_equal(o, want) for o in out)


@test
def t_apsp_gpu():
    """the GPU gives the CPU's answer (same graphs), checked"""
    if not gk.info()["gpu_usable"]:
        raise Skip("no usable GPU: " + gk.info()["gpu_note"][:100])
    for V in (1, 100, 700):
        a = random_dense(V, 0.02, maxw=1000)
        assert np.array_equal(gk.floyd_warshall(a, device="gpu"), gk.floyd_warshall(a, device="cpu"))
        e = np.stack([rng.integers(0, V, 5 * V), rng.integers(0, V, 5 * V), rng.integers(0, 100, 5 * V)], 1)
        got = gk.apsp(e, vertices=V, kind="edges", device="gpu", check=True)
        assert gk.last_report()["backend"] == "gpu"
        assert np.array_equal(got, gk.apsp(e, vertices=V, kind="edges", device="cpu"))


# ------------------------------------------------------------------ files

SAMPLE = {
    "gr": "c a sample\np sp 4 5\na 1 2 3\na 2 3 0\na 1 2 1\na 3 3 4\na 4 1 7\n",
    "mtx": "%%MatrixMarket matrix coordinate integer general\n% a sample\n4 4 5\n1 2 3\n2 3 0\n1 2 1\n3 3 4\n4 1 7\n",
    "edges": "# a sample\n0 1 3\n1 2 0  # 0-weight edge\n0 1 1\n2 2 4\n3 0 7\n",
}
SAMPLE_EDGES = [(0, 1, 3), (1, 2, 0), (0, 1, 1), (2, 2, 4), (3, 0, 7)]


@test
def t_files():
    """read_graph, convert, write_distances: every format gives the same matrix as the NTHU file"""
    with tempfile.TemporaryDirectory() as d:
        nthu = os.path.join(d, "g.nthu")
        with open(nthu, "wb") as f:
            np.array([4, 5] + [x for e in SAMPLE_EDGES for x in e], dtype="<i4").tofile(f)
        want = as_gk(ref_fw(ref_from_edges(4, SAMPLE_EDGES)))
        assert np.array_equal(gk.apsp(nthu), want)
        for fmt, text in SAMPLE.items():
            p = os.path.join(d, "g." + fmt)
            with open(p, "w") as f:
                f.write(text)
            assert np.array_equal(gk.read_graph(p), gk.read_graph(nthu)), fmt
            assert np.array_equal(gk.apsp(p), want), fmt
            q = os.path.join(d, "back.nthu")
            assert gk.convert(p, q)[0] == 4
            assert np.array_equal(gk.apsp(q), want)
        sym = os.path.join(d, "s.mtx")
        with open(sym, "w") as f:
            f.write("%%MatrixMarket matrix coordinate pattern symmetric\n3 3 2\n2 1\n3 2\n")
        assert np.array_equal(gk.apsp(sym), [[0, 1, 2], [1, 0, 1], [2, 1, 0]])
        out = os.path.join(d, "dist.npy")
        gk.write_distances(out, want)
        assert np.array_equal(np.load(out), want) and np.load(out).dtype == np.int32


@test
def t_files_bad():
    """malformed files raise gk.FormatError naming the file and the line"""
    bad = {"gr": ("p sp 4 1\na 1 9 3\n", ":2: arc 1 -> 9: vertex 9 is outside [1, 4]"),
           "mtx": ("%%MatrixMarket matrix coordinate real general\n2 2 1\n1 2 0.5\n", ":3: entry (1, 2): weight 0.5"),
           "edges": ("0 1 3\n1 x 2\n", ":2: edge 1 -> x: dst 'x' is not an integer")}
    with tempfile.TemporaryDirectory() as d:
        for fmt, (text, msg) in bad.items():
            p = os.path.join(d, "bad." + fmt)
            with open(p, "w") as f:
                f.write(text)
            e = expect_raises(gk.FormatError, p + msg, gk.apsp, p)
            assert isinstance(e, ValueError) and e.status == _lib.GK_EFORMAT
        expect_raises(gk.FileError, "cannot open", gk.read_graph, os.path.join(d, "missing.gr"))


@test
def t_files_names():
    """a file name with a NUL byte raises ValueError (as open() does), never reads or writes its prefix"""
    with tempfile.TemporaryDirectory() as d:
        p = os.path.join(d, "g.gr")
        with open(p, "w") as f:
            f.write(SAMPLE["gr"])
        for name in (p + "\0.ignored", os.fsencode(p) + b"\0x"):
            expect_raises(ValueError, "embedded null byte", gk.read_graph, name)
            expect_raises(ValueError, "embedded null byte", gk.apsp, name)
            expect_raises(ValueError, "embedded null byte", gk.convert, name, os.path.join(d, "x.nthu"))
            expect_raises(ValueError, "embedded null byte", gk.convert, p, os.path.join(d, "y.nthu") + "\0z")
            expect_raises(ValueError, "embedded null byte", gk.write_distances, os.path.join(d, "o.npy\0x"),
                          np.zeros((2, 2), dtype=np.int32))
        assert sorted(os.listdir(d)) == ["g.gr"], os.listdir(d)
        # the counts come back whole (int64 in the C API)
        assert gk.convert(p, os.path.join(d, "ok.nthu")) == (4, 5)
        assert gk.read_graph(p).shape == (4, 4)
        e = expect_raises(ValueError, "gk's vertex values are integers", gk.apsp,
                          np.array([[0, 1.5, 2], [1, 0, 2]], dtype=np.float64), kind="edges")
        assert "vertexs" not in str(e)


# ------------------------------------------------------------------ stencil

def ref_stencil(g, steps, c):
    c = np.asarray(c, dtype=np.float64).reshape(3, 3, 3)
    nz, ny, nx = g.shape
    for _ in range(steps):
        p = np.zeros((nz + 2, ny + 2, nx + 2))
        p[1:-1, 1:-1, 1:-1] = g
        out = np.zeros_like(g)
        for dz in range(3):
            for dy in range(3):
                for dx in range(3):
                    out += c[dz, dy, dx] * p[dz:dz + nz, dy:dy + ny, dx:dx + nx]
        g = out
    return g


@test
def t_stencil():
    """stencil == a numpy 27-point reference (default and given coefficients, 1-3 D, overwrite)"""
    g = rng.uniform(-1, 1, (6, 7, 9))
    dflt = np.ctypeslib.as_array(_lib.default_coeffs)
    for coeffs in (None, rng.uniform(-0.1, 0.1, 27), rng.uniform(-0.1, 0.1, (3, 3, 3))):
        got = gk.stencil(g, 3, coeffs, device="cpu")
        want = ref_stencil(g, 3, dflt if coeffs is None else coeffs)
        assert got.shape == g.shape and np.allclose(got, want, rtol=0, atol=1e-13), np.abs(got - want).max()
    line = rng.uniform(-1, 1, 12)
    assert np.allclose(gk.stencil(line, 2), ref_stencil(line.reshape(1, 1, 12), 2, dflt).ravel(), rtol=0, atol=1e-13)
    h = g.copy()
    assert gk.stencil(h, 2, overwrite=True) is h and np.allclose(h, ref_stencil(g, 2, dflt), rtol=0, atol=1e-13)
    assert np.array_equal(gk.stencil(g, 0), g)
    expect_raises(ValueError, "27", gk.stencil, g, 1, np.ones(26))
    expect_raises(ValueError, "steps", gk.stencil, g, -1)
    bad = g.copy(); bad.flat[5] = np.nan
    expect_raises(ValueError, "must be finite (NaN or Inf at flat index 5)", gk.stencil, bad, 1)
    bad.flat[5] = -np.inf
    expect_raises(ValueError, "finite", gk.stencil, bad, 1, overwrite=True)
    if gk.info()["gpu_usable"]:
        assert np.allclose(gk.stencil(g, 3, device="gpu", check=True), gk.stencil(g, 3, device="cpu"),
                           rtol=0, atol=1e-13)


def ref_desc(g, steps, w, boundary, star=False):
    """A stencil description in numpy (float64 sums): w of shape (2r+1,)*d on a
    d-dimensional grid g; the boundary by padding (zero, wrap) or by keeping
    the band of r cells (fixed)."""
    g = np.asarray(g, dtype=np.float64)
    w = np.asarray(w, dtype=np.float64)
    d, r = w.ndim, w.shape[0] // 2
    for _ in range(steps):
        p = np.pad(g, r, mode="wrap" if boundary == "periodic" else "constant")
        out = np.zeros_like(g)
        for off in np.ndindex(*w.shape):
            sl = tuple(slice(o, o + n) for o, n in zip(off, g.shape))
            out += w[off] * p[sl]
        if boundary == "fixed":
            inner = tuple(slice(r, n - r) for n in g.shape)
            keep = g.copy()
            keep[inner] = out[inner]
            out = keep
        g = out
    return g


@test
def t_stencil_desc():
    """stencil with weights and boundaries: 2D/3D, star/box, r 1-4, float32 kept, checked bit for bit"""
    cases = [((5, 5), "zero", (11, 13)), ((3, 3, 3), "periodic", (5, 6, 7)), ((9, 9), "fixed", (12, 17)),
             ((5, 5, 5), "fixed", (7, 9, 8)), ((7, 7), "periodic", (9, 11))]
    for wshape, boundary, gshape in cases:
        for dt in (np.float64, np.float32):
            w = rng.uniform(-1, 1, wshape) / np.prod(wshape)
            g = rng.uniform(-1, 1, gshape).astype(dt)
            got = gk.stencil(g, 3, weights=w, boundary=boundary, device="cpu", check=True)
            rep = gk.last_report()
            assert got.dtype == dt and got.shape == g.shape, (got.dtype, got.shape)
            assert rep["checked"], rep
            wf = w.astype(np.float32).astype(np.float64) if dt == np.float32 else w
            want = ref_desc(g, 3, wf, boundary)
            tol = 1e-12 if dt == np.float64 else 1e-5
            assert np.abs(got - want).max() < tol, (wshape, boundary, dt, np.abs(got - want).max())
    # a star: weights off the axes 0 (inferred), its own engine, same values
    w = np.zeros((5, 5, 5)); w[2, 2, :] = w[2, :, 2] = w[:, 2, 2] = rng.uniform(-0.1, 0.1, 5)
    g = rng.uniform(-1, 1, (6, 7, 8))
    got = gk.stencil(g, 2, weights=w, device="cpu")
    assert "star" in gk.last_report()["config"], gk.last_report()["config"]
    assert np.abs(got - ref_desc(g, 2, w, "zero")).max() < 1e-12
    expect_raises(ValueError, "off the star", gk.stencil, g, 1, weights=np.ones((3, 3, 3)), shape="star")
    # float32 overwrite: the same array back
    h = rng.uniform(-1, 1, (9, 10)).astype(np.float32)
    h0 = h.copy()
    assert gk.stencil(h, 2, weights=np.ones((3, 3)) / 9, boundary="periodic", overwrite=True) is h
    assert np.abs(h - ref_desc(h0, 2, np.ones((3, 3)) / 9, "periodic")).max() < 1e-5
    # the 27-point box with a boundary; a float32 grid without weights
    g = rng.uniform(-1, 1, (5, 6, 7))
    dflt = np.ctypeslib.as_array(_lib.default_coeffs).reshape(3, 3, 3)
    assert np.abs(gk.stencil(g, 2, boundary="periodic", device="cpu") - ref_desc(g, 2, dflt, "periodic")).max() < 1e-12
    g32 = g.astype(np.float32)
    out = gk.stencil(g32, 2, device="cpu")
    assert out.dtype == np.float32 and np.abs(out - ref_desc(g32, 2, dflt.astype(np.float32), "zero")).max() < 1e-5
    # refused
    expect_raises(ValueError, "boundary", gk.stencil, g, 1, boundary="wrap")
    expect_raises(ValueError, "(2r+1,)*dims", gk.stencil, g, 1, weights=np.ones((3, 5)))
    expect_raises(ValueError, "(2r+1,)*dims", gk.stencil, g, 1, weights=np.ones((11, 11)))
    expect_raises(ValueError, "(2r+1,)*dims", gk.stencil, g, 1, weights=np.ones((4, 4)))
    expect_raises(ValueError, "weights must be finite", gk.stencil, g, 1, weights=np.full((3, 3), np.nan))
    expect_raises(ValueError, "one or the other", gk.stencil, g, 1, np.ones(27), weights=np.ones((3, 3, 3)))
    expect_raises(ValueError, "2-D weights on a 3-D grid", gk.stencil, g, 1, weights=np.ones((3, 3)))
    expect_raises(gk.Error, "2r+1", gk.stencil, np.ones((4, 4)), 1, weights=np.ones((5, 5)), boundary="periodic")
    expect_raises(ValueError, "needs weights", gk.stencil, g, 1, shape="mask")
    if gk.info()["gpu_usable"]:     # the generated GPU engine: the CPU's bits
        for wshape, boundary, gshape in cases:
            for dt in (np.float64, np.float32):
                w = rng.uniform(-1, 1, wshape) / np.prod(wshape)
                g = rng.uniform(-1, 1, gshape).astype(dt)
                try:
                    got = gk.stencil(g, 4, weights=w, boundary=boundary, device="gpu", check=True)
                except gk.Error as e:
                    if "not merged yet" in str(e):
                        raise Skip("the generated GPU engine is not in this build")
                    raise
                assert got.dtype == dt and np.array_equal(got, gk.stencil(g, 4, weights=w, boundary=boundary,
                                                                             device="cpu"))
    expect_raises(ValueError, "give weights", gk.stencil, g, 1, np.ones(27), shape="star")


def ref_fma(g, steps, w, boundary):
    """A float64 stencil description evaluated as libgk promises, bit for
    bit: per point t = w[q0]*v[q0], then t = fma(w[q], v[q], t) over the
    nonzero weights in ascending (dz, dy, dx) order (a zero weight adds
    nothing), each fma rounded once (exact Fractions, then one rounding);
    boundary 'zero' or 'periodic'.  Small grids only."""
    from fractions import Fraction
    g = np.asarray(g, dtype=np.float64)
    w = np.asarray(w, dtype=np.float64)
    r = w.shape[0] // 2
    pts = [(off, Fraction(float(w[off]))) for off in np.ndindex(*w.shape) if w[off] != 0]
    for _ in range(steps):
        p = np.pad(g, r, mode="wrap" if boundary == "periodic" else "constant")
        out = np.empty_like(g)
        for idx in np.ndindex(*g.shape):
            t = None
            for off, wv in pts:
                v = Fraction(float(p[tuple(i + o for i, o in zip(idx, off))]))
                t = float(wv * v) if t is None else float(wv * v + Fraction(t))
            out[idx] = t
        g = out
    return g


@test
def t_stencil_config():
    """stencil config=: checked against the description's rules, ignored on the CPU (same bits), refused as ValueError"""
    star = np.zeros((5, 5, 5))      # 3d-star-r2: the generated engine's rules
    star[2, 2, :] = star[2, :, 2] = star[:, 2, 2] = rng.uniform(-0.3, 0.3, 5)
    box = rng.uniform(-1, 1, (3, 3, 3)) / 27
    g = rng.uniform(-1, 1, (5, 6, 7))
    ok = "DESIGN=2,TX=32,TY=8,RX=1,RY=1"
    for w, boundary in ((star, "zero"), (box, "periodic")):
        want = ref_fma(g, 2, w, boundary)
        plain = gk.stencil(g, 2, weights=w, boundary=boundary, device="cpu")
        assert not gk.last_report()["config_ignored"]
        assert np.array_equal(plain, want), np.abs(plain - want).max()
        got = gk.stencil(g, 2, weights=w, boundary=boundary, device="cpu", config=ok)
        rep = gk.last_report()
        assert rep["config_ignored"] and rep["backend"] == "cpu", rep
        assert np.array_equal(got, want), np.abs(got - want).max()
        d = gk.stencil(g, 2, weights=w, boundary=boundary, device="cpu",
                       config={"DESIGN": 2, "TX": np.int64(32), "TY": 8, "RX": 1, "RY": 1})
        assert np.array_equal(d, got)
    # float32 and 2D descriptions: their own rules, the same bits as without config
    g32 = rng.uniform(-1, 1, (6, 7, 8)).astype(np.float32)
    a = gk.stencil(g32, 2, weights=star, device="cpu")
    b = gk.stencil(g32, 2, weights=star, device="cpu", config="DESIGN=2,TSTEPS=2")
    assert b.dtype == np.float32 and np.array_equal(a, b)
    g2 = rng.uniform(-1, 1, (9, 11))
    w2 = rng.uniform(-1, 1, (3, 3)) / 9
    assert np.array_equal(gk.stencil(g2, 3, weights=w2, device="cpu", config="DESIGN=1,PX=4"),
                          ref_fma(g2, 3, w2, "zero"))
    expect_raises(ValueError, "DESIGN=2 (z-streaming with register accumulation) is for 3D descriptions only",
                  gk.stencil, g2, 1, weights=w2, config="DESIGN=2")
    # refused: the library's message naming the parameter and the description; nothing written
    for text, says in (("NOPE=1", "no parameter 'NOPE'"), ("TX=0", "TX=0 is outside [1, "),
                       ("DESIGN=2,TX=32,TY=16,RX=1,RY=2,NT=64", "NT=64 but a tile of TX=32 x TY=16"),
                       ("DESIGN=1", "DESIGN=1 (warp streaming) is for 2D descriptions only"),
                       ("DESIGN=3", "DESIGN=3 is outside [0, 2]"), ("TX=32,,", "bad configuration item")):
        h = g.copy()
        e = expect_raises(ValueError, says, gk.stencil, h, 2, weights=star, config=text, overwrite=True)
        assert isinstance(e, gk.InvalidArgumentError) and "stencil 3d-star-r2-f64-zero" in str(e), str(e)
        assert np.array_equal(h, g), text
    expect_raises(ValueError, "no parameter 'NOPE'", gk.stencil, g, 1, weights=star, config={"NOPE": 1})
    for bad in (5, b"TX=32", ["TX=32"], {"TX": 1.5}, {"TX": True}, {3: 4}):
        expect_raises(TypeError, "config=", gk.stencil, g, 1, weights=star, config=bad)
    expect_raises(ValueError, "null byte", gk.stencil, g, 1, weights=star, config="TX=32\0")
    for key in ("DESIGN=2,TSTEPS", "TX,TY", "", "T X"):      # a key that is not one name
        expect_raises(ValueError, "is not a parameter name", gk.stencil, g, 1, weights=star, config={key: 3})
    # the classic 27-point box (as the C API): its own kernel's parameters
    dflt = np.ctypeslib.as_array(_lib.default_coeffs).reshape(3, 3, 3)
    want = gk.stencil(g, 2, device="cpu")
    got = gk.stencil(g, 2, device="cpu", config="BX=64,BY=4")
    assert gk.last_report()["config_ignored"] and np.array_equal(got, want)
    assert np.array_equal(ref_fma(g, 2, dflt, "zero"), want)
    h = g.copy()
    expect_raises(ValueError, "BX=0 is outside [1, 1024]", gk.stencil, h, 2, config="BX=0", overwrite=True)
    expect_raises(ValueError, "no parameter 'TX'", gk.stencil, h, 2, weights=box, config="TX=32", overwrite=True)
    assert np.array_equal(h, g)
    if gk.info()["gpu_usable"]:     # used on the GPU: the configuration that ran, the CPU's bits
        for w, boundary in ((star, "zero"), (box, "periodic")):
            got = gk.stencil(g, 3, weights=w, boundary=boundary, device="gpu", check=True, config=ok)
            rep = gk.last_report()
            assert rep["config_source"] == "user" and not rep["config_ignored"], rep
            assert "TX=32" in rep["config"] and "TY=8" in rep["config"], rep["config"]
            assert np.array_equal(got, ref_fma(g, 3, w, boundary))


# ------------------------------------------------------------------ gemm

@test
def t_gemm():
    """gemm == numpy in float64 within gk's bound, shapes that divide no tile, bad input refused"""
    rng = np.random.default_rng(3)
    for m, n, k in [(1, 1, 1), (7, 13, 17), (65, 33, 257), (20, 1, 5)]:
        a = rng.uniform(-1, 1, (m, k)).astype(np.float32)
        b = rng.uniform(-1, 1, (k, n)).astype(np.float32)
        want = a.astype(np.float64) @ b.astype(np.float64)
        bound = 2 * k * 2.0**-23 * (np.abs(a).astype(np.float64) @ np.abs(b).astype(np.float64)) + 1e-37 * k
        got = gk.gemm(a, b, device="cpu", check=True)
        assert got.dtype == np.float32 and got.shape == (m, n) and (np.abs(got - want) <= bound).all()
        if gk.info()["gpu_usable"]:
            g = gk.gemm(a, b, device="gpu", check=True)
            assert (np.abs(g - want) <= bound).all()
    assert gk.last_report()["checked"]
    expect_raises(ValueError, "inner sizes", gk.gemm, np.ones((2, 3)), np.ones((4, 2)))
    expect_raises(ValueError, "finite", gk.gemm, np.array([[np.nan]]), np.ones((1, 1)))
    expect_raises(ValueError, "2-D", gk.gemm, np.ones(3), np.ones((3, 1)))
    expect_raises(ValueError, "must be >= 1", gk.gemm, np.ones((0, 3)), np.ones((3, 2)))


done()
