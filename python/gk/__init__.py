"""gk: all-pairs shortest paths and stencils on GPUs and CPUs.

    import gk
    d = gk.apsp(edges)                      # (E, 3) src, dst, w -> int32 V x V
    d = gk.apsp("graph.gr")                 # any format gk reads
    from gk import floyd_warshall           # instead of scipy.sparse.csgraph's
    d = floyd_warshall(csgraph, directed=False)
    from gk import dijkstra                 # scipy's dijkstra, johnson, bellman_ford,
    d = dijkstra(csr, indices=[0, 7], limit=50.0)   # shortest_path (gk/csgraph.py)
    g = gk.stencil(grid, steps=16)
    g = gk.stencil(grid32, 10, weights=w, boundary="periodic")   # w: (2r+1,)*dims
    g = gk.stencil(grid, 10, weights=w, config="TSTEPS=2")   # as gk stencil --config
    gk.info()

The module calls libgk's C API through ctypes (see gk/_lib.py): no compile
step, numpy at run time only.  Every long call releases the GIL.  Failures
raise gk.Error subclasses carrying libgk's one-line message.

Contexts: each (device, gpus) pair gets one gk_context, created on first use
from the environment the gk commands read (GK_DEVICE, GK_CACHE_DIR, ...: the
tuning cache and shipped tables pick the GPU configuration) and reused; a lock
serialises the jobs of one context (a context runs one job at a time).
"""

import atexit
import ctypes
import operator
import os
import threading
import warnings

from . import _lib
from ._lib import lib

__all__ = ["apsp", "floyd_warshall", "stencil", "info", "read_graph", "convert",
           "write_distances", "last_report", "Error", "FormatError", "InvalidArgumentError",
           "FileError", "OutOfMemoryError", "NoDeviceError", "MismatchError", "INF",
           "MAX_WEIGHT", "__version__", "gemm", "NegativeCycleError", "reconstruct_path",
           "path", "shortest_path", "dijkstra", "johnson", "bellman_ford"]

INF = _lib.GK_APSP_INF                 # unreachable, in gk's int32 matrices
MAX_WEIGHT = _lib.GK_APSP_MAX_WEIGHT   # the largest edge weight
__version__ = lib.gk_version().decode()


class Error(Exception):
    """A failure reported by libgk: str(e) is its message, e.status its code."""

    def __init__(self, message, status=_lib.GK_EINTERNAL):
        super().__init__(message)
        self.status = status
        self.status_name = _lib.STATUS_NAMES[status] if 0 <= status < len(_lib.STATUS_NAMES) else "?"


class InvalidArgumentError(Error, ValueError):
    """GK_EINVAL: a bad argument."""


class FormatError(Error, ValueError):
    """GK_EFORMAT: an input file breaks its format's rules (file:line: ...)."""


class FileError(Error, OSError):
    """GK_EIO: a file could not be opened, read or written."""


class OutOfMemoryError(Error, MemoryError):
    """GK_ENOMEM: host or device memory could not be had."""


class NoDeviceError(Error, RuntimeError):
    """GK_ENODEV: no usable GPU (device="gpu" without one, a CPU-only build)."""


class MismatchError(Error, RuntimeError):
    """GK_EMISMATCH: a checked result differs from its reference."""


try:    # scipy's, so that "except scipy.sparse.csgraph.NegativeCycleError" catches gk's
    from scipy.sparse.csgraph import NegativeCycleError as _ScipyNegativeCycleError
    _NEGCYCLE_BASES = (_ScipyNegativeCycleError, ValueError)
except ImportError:
    _NEGCYCLE_BASES = (ValueError,)


class NegativeCycleError(Error, *_NEGCYCLE_BASES):
    """GK_ENEGCYCLE: the graph has a cycle of negative length, so shortest
    paths do not exist; e.vertex is a vertex on one (0-based).  With the
    message of scipy's Johnson and Bellman-Ford ("Negative cycle detected on
    node N").  A subclass of scipy.sparse.csgraph.NegativeCycleError when
    scipy can be imported (code written for scipy catches it unchanged), of
    ValueError always, and of gk.Error."""

    def __init__(self, message, status=_lib.GK_ENEGCYCLE, vertex=-1):
        super().__init__(message, status)
        self.vertex = vertex


_ERRORS = {_lib.GK_EINVAL: InvalidArgumentError, _lib.GK_EFORMAT: FormatError,
           _lib.GK_EIO: FileError, _lib.GK_ENOMEM: OutOfMemoryError,
           _lib.GK_ENODEV: NoDeviceError, _lib.GK_EMISMATCH: MismatchError,
           _lib.GK_ENEGCYCLE: NegativeCycleError}


def _raise(st):
    msg = lib.gk_last_error().decode(errors="replace") or lib.gk_strerror(st).decode()
    raise _ERRORS.get(st, Error)(msg, st)


def _check(st):
    if st != _lib.GK_OK:
        _raise(st)


def _np():
    try:
        import numpy
    except ImportError as e:  # pragma: no cover
        raise ImportError("gk needs numpy for its arrays: install numpy (e.g. apt-get install "
                          "python3-numpy or pip install numpy)") from e
    return numpy


# ---------------------------------------------------------------- contexts

_contexts = {}
_contexts_lock = threading.Lock()
_tls = threading.local()


class _Context:
    def __init__(self, handle, key):
        self.handle = handle
        self.key = key
        self.lock = threading.Lock()


def _context(fname, device, gpus):
    if not isinstance(device, str):
        raise ValueError("%s: device=%r: want 'auto', 'cpu' or 'gpu'" % (fname, device))
    backend = ctypes.c_int()
    if lib.gk_backend_parse(device.encode(), ctypes.byref(backend)) != _lib.GK_OK:
        raise ValueError("%s: device=%r: want 'auto', 'cpu' or 'gpu'" % (fname, device))
    if gpus is None:
        glist = None
    elif isinstance(gpus, str):
        glist = gpus
    elif isinstance(gpus, int) and not isinstance(gpus, bool):
        glist = str(gpus)
    else:
        try:
            items = [int(g) for g in gpus]
        except (TypeError, ValueError):
            raise ValueError("%s: gpus=%r: want a GPU ordinal, a list of them, 'all' or None"
                             % (fname, gpus)) from None
        glist = ",".join(str(g) for g in items)
    key = (backend.value, glist)
    with _contexts_lock:
        c = _contexts.get(key)
        if c is not None:
            return c
        o = _lib.new(_lib.ContextOptions)
        _check(lib.gk_context_options_from_env(ctypes.byref(o)))
        if not o.data_dir and os.path.isdir(os.path.join(_lib.BUNDLED_DATA_DIR, "tuned")):
            o.data_dir = os.fsencode(_lib.BUNDLED_DATA_DIR)    # pip's package: its own tables
        o.backend = backend.value
        if glist is not None:
            _check(lib.gk_context_options_set_gpus(ctypes.byref(o), glist.encode()))
            if o.ngpus > 1:
                raise NotImplementedError(
                    "%s: gpus=%r names %d GPUs: a job runs on one GPU (multi-GPU APSP is not "
                    "implemented yet); pass one ordinal" % (fname, gpus, o.ngpus))
        h = ctypes.c_void_p()
        _check(lib.gk_context_create(ctypes.byref(h), ctypes.byref(o)))
        c = _contexts[key] = _Context(h, key)
        return c


@atexit.register
def _destroy_contexts():
    with _contexts_lock:
        for c in _contexts.values():
            lib.gk_context_destroy(c.handle)
        _contexts.clear()


def _report_dict(r):
    def phase(x):
        return None if x < 0 else x
    return {"backend": {_lib.GK_BACKEND_CPU: "cpu", _lib.GK_BACKEND_GPU: "gpu"}.get(r.backend, "auto"),
            "device": r.device.decode(errors="replace"),
            "backend_note": r.backend_note.decode(errors="replace"),
            "config": r.config.decode(errors="replace"),
            "config_source": _lib.CONFIG_SOURCES[r.config_source]
            if 0 <= r.config_source < len(_lib.CONFIG_SOURCES) else "?",
            "config_detail": r.config_detail.decode(errors="replace"),
            "seconds": {"host_to_device": phase(r.h2d), "compute": phase(r.compute),
                        "device_to_host": phase(r.d2h), "check": phase(r.check)},
            "checked": bool(r.checked),
            "check_against": r.check_against.decode(errors="replace"),
            "precision": r.precision or None,
            "precision_detail": r.precision_detail.decode(errors="replace"),
            "dtype": _lib.DTYPE_NAMES.get(r.dtype),
            "cycle_vertex": None if r.cycle_vertex < 0 else r.cycle_vertex,
            "config_ignored": bool(r.config_ignored)}


def last_report():
    """What the calling thread's last apsp/floyd_warshall/stencil job did:
    backend, device, configuration and phase times (None: not applicable);
    for APSP also precision (16 or 32 for int32 distances) and its
    precision_detail, dtype (the element type that ran: 'int32', 'int64',
    'float32' or 'float64'), cycle_vertex (after a NegativeCycleError: the
    vertex it names; else None) and config_ignored (True: gk.stencil's
    config was checked but the job ran on the CPU, which has its own
    kernel).  After gk.dijkstra, johnson, bellman_ford and shortest_path
    also algorithm (what ran: 'dijkstra', 'johnson', 'bellman-ford' or
    'fw'), why (auto's reasoning, or "asked for"), sources and
    relaxations."""
    return getattr(_tls, "report", None)


# ---------------------------------------------------------------- APSP

def _check_precision(fname, precision):
    if precision not in ("auto", "32", 32):
        raise ValueError("%s: precision=%r: want 'auto' or '32' (int32 distances; a 16-bit path "
                         "does not exist yet)" % (fname, precision))


def _solve(fname, d, device, gpus, check=False):
    """Solve the C-contiguous int32 V x V matrix d in place."""
    np = _np()
    assert d.dtype == np.int32 and d.flags.c_contiguous and d.flags.writeable
    V = d.shape[0]
    ctx = _context(fname, device, gpus)
    prob = _lib.new(_lib.ApspProblem, V)
    opts = _lib.new(_lib.ApspOptions)
    opts.check = 1 if check else 0
    rep = _lib.new(_lib.Report)
    with ctx.lock:            # the GIL is released inside the call (ctypes.CDLL)
        st = lib.gk_apsp_run(ctx.handle, ctypes.byref(prob), d.ctypes.data, ctypes.byref(opts),
                             ctypes.byref(rep))
        _tls.report = _report_dict(rep)
        _check(st)
    return d


def _from_malloc(ptr, V):
    """A numpy view of a matrix libgk allocated, released with gk_free when
    the array goes."""
    np = _np()
    n = V * V
    buf = (ctypes.c_int32 * n).from_address(ctypes.addressof(ptr.contents))
    import weakref
    addr = ctypes.addressof(ptr.contents)
    weakref.finalize(buf, lib.gk_free, addr)
    return np.frombuffer(buf, dtype=np.int32).reshape(V, V)


def _path(fname, path):
    """A file name as bytes for the C library.  An embedded NUL byte would
    cut the name short in C (and read or write another file): ValueError,
    as open() raises."""
    b = os.fsencode(path)
    if b"\0" in b:
        raise ValueError("%s: embedded null byte in the file name %r" % (fname, path))
    return b


def read_graph(path, *, format="auto", undirected=False, vertices=None):
    """Read a graph file (nthu, gr, mtx, edges; format "auto": by the name and
    the first bytes) into gk's initial matrix: int32 V x V, INF for no edge, 0
    on the diagonal, the smallest weight of duplicate edges, self-loops
    ignored.  A broken rule raises FormatError naming the file and line (the
    text formats' rules are gk(1)'s GRAPH FORMATS: a UTF-8 byte-order mark
    is skipped, decimal numbers only).  A name with a NUL byte raises
    ValueError, as open() does."""
    fmt = ctypes.c_int()
    if lib.gk_format_parse(str(format).encode(), ctypes.byref(fmt)) != _lib.GK_OK or \
            fmt.value == _lib.GK_FORMAT_NPY:
        raise ValueError("read_graph: format=%r: want 'auto', 'nthu', 'gr', 'mtx' or 'edges'" % (format,))
    ptr = _lib._i32p()
    V, E, maxw = ctypes.c_int64(), ctypes.c_int64(), ctypes.c_int32()
    _check(lib.gk_apsp_read_format(_path("read_graph", path), fmt.value, 1 if undirected else 0,
                                   int(vertices or 0), ctypes.byref(ptr), ctypes.byref(V),
                                   ctypes.byref(E), ctypes.byref(maxw)))
    return _from_malloc(ptr, V.value)


def _matrix_from_edges(np, V, src, dst, w, undirected, unique=False):
    """gk's initial matrix from edge columns (validated): min over duplicates,
    self-loops ignored, 0 on the diagonal.  unique: no (src, dst) pair repeats."""
    d = np.full((V, V), INF, dtype=np.int32)
    keep = src != dst
    src, dst, w = src[keep], dst[keep], w[keep]
    if unique:
        d[src, dst] = w
        if undirected:
            np.minimum(d, d.T, out=d)
    elif src.size:
        if undirected:
            src, dst, w = np.concatenate([src, dst]), np.concatenate([dst, src]), np.concatenate([w, w])
        lin = src.astype(np.int64) * V + dst.astype(np.int64)
        order = np.lexsort((w, lin))           # by cell, then weight
        lin, w = lin[order], w[order]
        first = np.empty(lin.size, dtype=bool)
        first[0] = True
        np.not_equal(lin[1:], lin[:-1], out=first[1:])
        d.ravel()[lin[first]] = w[first]
    np.fill_diagonal(d, 0)
    return d


def _integral(np, fname, what, values, lo, hi, where):
    """Check values (float or int array) are integers in [lo, hi]; where(i)
    describes entry i for the message."""
    if values.size == 0:
        return values.astype(np.int64)
    # gk.apsp runs the int32 kernels only; say where real and negative weights go
    hint = " (gk.floyd_warshall takes real and negative weights)" \
        if fname.startswith("gk.apsp") and what == "weight" else ""
    if values.dtype.kind == "f":
        bad = ~np.isfinite(values) | (values != np.floor(values))
        if bad.any():
            i = int(np.flatnonzero(bad)[0])
            raise ValueError("%s: %s %s = %r is not an integer: gk's %s values are integers in [%d, %d]%s"
                             % (fname, where(i), what, float(values[i]), what, lo, hi, hint))
    elif values.dtype.kind not in "iub":
        raise ValueError("%s: %s values of dtype %s: want integers" % (fname, what, values.dtype))
    out_of = (values < lo) | (values > hi)
    if out_of.any():
        i = int(np.flatnonzero(out_of)[0])
        v = values[i]
        raise ValueError("%s: %s %s = %s is outside [%d, %d]%s" % (fname, where(i), what,
                         v.item() if hasattr(v, "item") else v, lo, hi, hint))
    return values.astype(np.int64)


def _is_sparse(x):
    return type(x).__module__.startswith("scipy.sparse") and hasattr(x, "tocoo")


def _warn_long(fname, V, maxw):
    if V > 1 and (V - 1) * int(maxw) >= INF:
        warnings.warn("%s: (V - 1) * max weight = %d >= 2^30 - 1: paths that long are reported as "
                      "unreachable" % (fname, (V - 1) * int(maxw)), RuntimeWarning, stacklevel=3)


def _warn_zeros(np, fname, a):
    """A dense float matrix is most often scipy-style, where 0 means "no
    edge"; gk.apsp reads 0 as an edge of weight 0, and a user got an all-zero
    result that way.  Say so when kind= did not confirm gk's convention."""
    zeros = int(np.count_nonzero(a == 0)) - int(np.count_nonzero(np.diagonal(a) == 0))
    if zeros:
        warnings.warn("%s: the dense float matrix has %d zero%s off the diagonal: gk.apsp reads 0 as "
                      "an edge of weight 0 (no edge: inf, NaN or gk.INF), scipy.sparse.csgraph reads "
                      "it as no edge; use gk.floyd_warshall for scipy's convention, or pass "
                      "kind='matrix' to keep gk's" % (fname, zeros, "" if zeros == 1 else "s"),
                      UserWarning, stacklevel=4)


def _apsp_matrix(graph, kind, vertices, undirected, fname):
    """gk's initial int32 matrix (a new array) from the graph argument of apsp."""
    np = _np()
    if isinstance(graph, (str, bytes, os.PathLike)):
        d = read_graph(graph, undirected=undirected, vertices=vertices)
        return d, d.shape[0]
    if _is_sparse(graph):
        if graph.ndim != 2 or graph.shape[0] != graph.shape[1]:
            raise ValueError("%s: a sparse graph must be square, not %s" % (fname, graph.shape))
        c = graph.tocoo()
        V = graph.shape[0]
        data = np.asarray(c.data, dtype=np.float64) if c.data.dtype.kind not in "iub" else c.data
        keep = (c.row != c.col)
        if data.dtype.kind == "f":
            keep &= ~np.isnan(data) & (data != np.inf)
        r, col, data = c.row[keep], c.col[keep], data[keep]
        w = _integral(np, fname, "weight", data, 0, MAX_WEIGHT,
                      lambda i: "graph[%d, %d]:" % (r[i], col[i]))
        return _matrix_from_edges(np, V, r, col, w, undirected), V
    a = graph
    if np.ma.isMaskedArray(a):
        a = a.astype(np.float64).filled(np.inf)
    a = np.asarray(a)
    if a.ndim != 2:
        raise ValueError("%s: graph of shape %s: want an (E, 3) edge array, a V x V matrix, a "
                         "scipy.sparse matrix or a file name" % (fname, a.shape))
    if kind == "auto":
        if a.shape == (3, 3):
            raise ValueError("%s: a 3 x 3 array is either 3 edges or a 3-vertex matrix: pass "
                             "kind='edges' or kind='matrix'" % fname)
        kind = "matrix" if a.shape[0] == a.shape[1] else "edges" if a.shape[1] == 3 else None
        if kind is None:
            raise ValueError("%s: graph of shape %s: want an (E, 3) edge array or a square matrix"
                             % (fname, a.shape))
        if kind == "matrix" and a.dtype.kind == "f":
            _warn_zeros(np, fname, a)
    if kind == "edges":
        if a.shape[1] != 3:
            raise ValueError("%s: an edge array has 3 columns (src, dst, w), not %d" % (fname, a.shape[1]))
        hi_v = (vertices - 1) if vertices else 2**31 - 3
        where = lambda i: "edge %d:" % i  # noqa: E731
        s = _integral(np, fname, "vertex", a[:, 0], 0, hi_v, where)
        t = _integral(np, fname, "vertex", a[:, 1], 0, hi_v, where)
        w = _integral(np, fname, "weight", a[:, 2], 0, MAX_WEIGHT, where)
        V = max(int(vertices or 0), int(s.max()) + 1 if s.size else 0, int(t.max()) + 1 if t.size else 0)
        if V < 1:
            raise ValueError("%s: no edges and no vertices= to give the vertex count" % fname)
        return _matrix_from_edges(np, V, s, t, w, undirected), V
    if kind != "matrix":
        raise ValueError("%s: kind=%r: want 'auto', 'edges' or 'matrix'" % (fname, kind))
    if a.shape[0] != a.shape[1]:
        raise ValueError("%s: a matrix must be square, not %s" % (fname, a.shape))
    V = a.shape[0]
    if a.dtype.kind == "f":
        edge = ~np.isnan(a) & (a < INF)
    elif a.dtype.kind in "iub":
        edge = a < INF
    else:
        raise ValueError("%s: a matrix of dtype %s: want numbers" % (fname, a.dtype))
    np.fill_diagonal(edge, False)
    idx = np.flatnonzero(edge)
    w = _integral(np, fname, "weight", a.ravel()[idx], 0, MAX_WEIGHT,
                  lambda i: "graph[%d, %d]:" % divmod(int(idx[i]), V))
    d = np.full((V, V), INF, dtype=np.int32)
    d.ravel()[idx] = w
    if undirected:
        np.minimum(d, d.T, out=d)
    np.fill_diagonal(d, 0)
    return d, V


def apsp(graph, *, device="auto", gpus=None, precision="auto", kind="auto", vertices=None,
         undirected=False, check=False):
    """All-pairs shortest paths on gk's terms: int32 distances, INF (2^30 - 1)
    for unreachable pairs; returns a new C-ordered int32 V x V array.

    graph:
      - an (E, 3) array of edges (src, dst, w), 0-based: V is the largest
        vertex id + 1, or `vertices` if that is more;
      - a V x V matrix, gk's convention: graph[i, j] is the weight of the edge
        i -> j; INF or more, +inf and NaN mean no edge; 0 is an edge of weight 0
        (unlike scipy.sparse.csgraph, where 0 means no edge in a dense matrix:
        use gk.floyd_warshall for that convention; a float matrix with zeros
        off the diagonal gets a UserWarning saying so unless kind="matrix"
        is given); the diagonal is ignored;
      - a scipy.sparse matrix: each stored entry is an edge (explicit zeros
        too), NaN and inf entries are not;
      - a file name: any format gk reads (see read_graph).
    A 3 x 3 array is ambiguous: kind="edges" or kind="matrix" says which.
    Weights are integers in [0, MAX_WEIGHT] (float arrays with integral
    values are fine); duplicates keep the smallest; self-loops are ignored.
    undirected: every edge goes both ways.  device: "auto" (the GPU when one
    is usable), "cpu" or "gpu".  gpus: an ordinal, a list, "all" or None (the
    environment's GK_DEVICE, default 0); more than one GPU raises
    NotImplementedError (APSP runs on one GPU).  precision: "auto" or "32".
    check: recompute on the CPU and compare (MismatchError on a difference).
    """
    _check_precision("gk.apsp", precision)
    _context("gk.apsp", device, gpus)          # argument errors before any work
    np = _np()
    d, V = _apsp_matrix(graph, kind, vertices, undirected, "gk.apsp")
    _warn_long("gk.apsp", V, np.max(d, where=d < INF, initial=0))
    return _solve("gk.apsp", d, device, gpus, check)


# scipy.sparse.csgraph's "no predecessor" (gk's C API: GK_APSP_NO_PRED, -1)
SCIPY_NO_PRED = -9999


def _min_scatter(np, d, lin, w):
    """d.flat[lin] = w, the smallest w where lin repeats."""
    if lin.size:
        order = np.lexsort((w, lin))           # by cell, then weight
        lin, w = lin[order], w[order]
        first = np.empty(lin.size, dtype=bool)
        first[0] = True
        np.not_equal(lin[1:], lin[:-1], out=first[1:])
        d.ravel()[lin[first]] = w[first]


def _scipy_matrix(np, csgraph, directed, unweighted, overwrite, fname):
    """scipy.sparse.csgraph.floyd_warshall's initial matrix: C-ordered
    float64, inf for no edge, 0 on the diagonal, the smaller weight both ways
    when not directed, every edge 1 when unweighted.  csgraph itself when
    overwrite and it is a C-ordered writable float64 ndarray (scipy works in
    it then too)."""
    if _is_sparse(csgraph):
        if csgraph.ndim != 2 or csgraph.shape[0] != csgraph.shape[1]:
            raise ValueError("graph should be a square array")
        V = csgraph.shape[0]
        c = csgraph.tocoo()
        data = np.asarray(c.data, dtype=np.float64)
        bad = data == -np.inf
        if bad.any():                # scipy computes with it (and gets NaN sums); gk refuses
            i = int(np.flatnonzero(bad)[0])
            raise ValueError("%s: csgraph[%d, %d] = -inf: edge weights are finite (no stored "
                             "entry, inf or NaN: no edge)" % (fname, c.row[i], c.col[i]))
        keep = ~np.isnan(data) & (data != np.inf)      # as scipy: no edge
        r, col = c.row[keep].astype(np.int64), c.col[keep].astype(np.int64)
        d = np.full((V, V), np.inf)
        # every stored entry is an edge (an explicit 0 too: + 0.0 makes -0.0
        # the +0.0 gk computes with); duplicates count as their smallest
        _min_scatter(np, d, r * V + col, data[keep] + 0.0)
    else:
        a = csgraph
        if np.ma.isMaskedArray(a):
            d = np.array(a.data, dtype=np.float64, order="C")
            if d.shape == np.ma.getmaskarray(a).shape:
                d[np.ma.getmaskarray(a)] = np.inf
            np.copyto(d, np.inf, where=(d == 0))
        elif overwrite and type(a) is np.ndarray and a.dtype == np.float64 and \
                a.flags.c_contiguous and a.flags.writeable:
            d = a
            np.copyto(d, np.inf, where=(d == 0))
        else:
            a = np.asarray(a)        # one pass: the copy with 0 -> inf (V = 3000: 72 MB)
            d = np.require(np.where(a == 0, np.inf, a), np.float64, "C")
        if d.ndim != 2 or d.shape[0] != d.shape[1]:
            raise ValueError("graph should be a square array")
        # scipy's dense convention: 0, inf, -inf and NaN are no edge (masked
        # entries too); the minimum is NaN or -inf only when there is one
        if not d.min(initial=np.inf) > -np.inf:
            d[~np.isfinite(d)] = np.inf
    if unweighted:
        np.copyto(d, 1.0, where=np.isfinite(d))
    np.fill_diagonal(d, 0)
    if not directed:
        np.minimum(d, d.T, out=d)
    return d


def _int32_exact(np, d):
    """d (float64, inf: no edge) as gk's int32 matrix when int32 computes
    the same values, exactly: every weight an integer and (V-1) max|w| below
    GK_APSP_INF (half of it with a negative weight), gk(1)'s --weights=auto
    rule; else None.  int32 min-plus is the faster kernel."""
    sample = d.ravel()[:4096]                   # real weights: known at once
    sample = sample[np.isfinite(sample)]
    if (sample != np.floor(sample)).any():
        return None
    V = d.shape[0]
    out = np.empty(d.shape, dtype=np.int32)
    hi = lo = 0.0
    step = max(1, 65536 // V)            # rows of 512 KB at most: each block's passes in cache
    with np.errstate(invalid="ignore"):  # a cast of a weight past int32 (then refused)
        for r in range(0, V, step):
            c = d[r:r + step]
            hi = max(hi, float(np.max(c, where=c < np.inf, initial=0)))
            lo = min(lo, float(c.min()))
            if (V - 1) * max(hi, -lo) >= ((INF >> 1) if lo < 0 else INF):
                return None
            x = np.minimum(c, INF)       # inf -> INF; every weight is below it
            o = out[r:r + step]
            np.copyto(o, x, casting="unsafe")
            if not (o == x).all():       # a fractional weight
                return None
    return out


def _solve_paths(fname, d, pred, dtype, device, gpus, check=False):
    """gk_apsp_run_paths on the C-ordered V x V matrix d (gk's element type
    dtype) in place, pred (int32 V x V, C-ordered) filled when not None.  A
    negative cycle raises NegativeCycleError in scipy's words."""
    V = d.shape[0]
    ctx = _context(fname, device, gpus)
    prob = _lib.new(_lib.ApspProblem, V)
    prob.dtype = dtype
    opts = _lib.new(_lib.ApspOptions)
    opts.check = 1 if check else 0
    rep = _lib.new(_lib.Report)
    with ctx.lock:            # the GIL is released inside the call (ctypes.CDLL)
        st = lib.gk_apsp_run_paths(ctx.handle, ctypes.byref(prob), d.ctypes.data,
                                   None if pred is None else pred.ctypes.data,
                                   ctypes.byref(opts), ctypes.byref(rep))
        _tls.report = _report_dict(rep)
        if st == _lib.GK_ENEGCYCLE:
            raise NegativeCycleError("Negative cycle detected on node %d" % rep.cycle_vertex,
                                     vertex=rep.cycle_vertex)
        _check(st)
    return d


def floyd_warshall(csgraph, directed=True, return_predecessors=False, unweighted=False,
                   overwrite=False, *, device="auto", gpus=None):
    """scipy.sparse.csgraph.floyd_warshall on gk: same arguments, same
    conventions, same results (a float64 V x V array, inf for unreachable, 0
    on the diagonal; with return_predecessors=True also the int32 V x V
    predecessor matrix, -9999 for none).

    As in scipy: in a dense array 0, inf and NaN mean "no edge" (masked
    entries too); in a scipy.sparse matrix every stored entry is an edge, an
    explicit 0 included, and duplicates count as their smallest; the diagonal
    is ignored; directed=False lets every edge be used both ways (the smaller
    weight of i->j and j->i); unweighted=True counts edges (every weight 1).
    Weights are any finite float64 values, negative ones included; a cycle
    of negative length raises gk.NegativeCycleError ("Negative cycle
    detected on node N", e.vertex = N).  Unlike scipy, any sparse format is
    accepted (scipy 1.10 wants csr, csc or lil), and a -inf stored in a
    sparse matrix is refused (ValueError).

    gk computes in float64 too, in another order (blocked Floyd-Warshall,
    the same bits on the CPU and the GPU): a distance may differ from
    scipy's by at most 2 (V-1)^2 2^-53 max|w| (gk(1), "Weights").  When
    every weight is an integer and (V-1) max|w| < 2^30 - 1 (half that with
    a negative weight) gk computes in int32, exactly scipy's values, faster
    (gk.last_report()["dtype"] says which ran).
    Predecessors follow gk's tie rule, not scipy's: where two shortest paths
    tie, the two may name different predecessors, each on a shortest path
    (following pred[i] from j back to i sums to dist[i, j]).
    overwrite=True computes in csgraph itself when it is a C-ordered
    writable float64 ndarray (as scipy).  device, gpus: as gk.apsp.
    """
    np = _np()
    fname = "gk.floyd_warshall"
    _context(fname, device, gpus)             # argument errors before any work
    d = _scipy_matrix(np, csgraph, directed, unweighted, overwrite, fname)
    V = d.shape[0]
    pred = np.empty((V, V), dtype=np.int32) if return_predecessors else None
    if V:
        i32 = _int32_exact(np, d)
        if i32 is None:
            _solve_paths(fname, d, pred, _lib.GK_DTYPE_FLOAT64, device, gpus)
        else:
            _solve_paths(fname, i32, pred, _lib.GK_DTYPE_INT32, device, gpus)
            np.copyto(d, i32)
            np.copyto(d, np.inf, where=(i32 == INF))
    if pred is None:
        return d
    np.copyto(pred, SCIPY_NO_PRED, where=(pred < 0))
    return d, pred


def reconstruct_path(csgraph, predecessors, directed=True):
    """scipy.sparse.csgraph.reconstruct_path for gk's (or scipy's)
    predecessors: the shortest-path tree of one source as a scipy.sparse
    csr_matrix, csgraph's weight on each edge pred[j] -> j.  predecessors is
    one row of floyd_warshall's matrix (pred[i]: length V, a negative value
    such as -9999 is "none").  Needs scipy (the result is scipy's type): it
    checks the row, then calls scipy's function."""
    np = _np()
    fname = "gk.reconstruct_path"
    try:
        from scipy.sparse.csgraph import reconstruct_path as scipy_reconstruct_path
    except ImportError as e:
        raise ImportError("%s returns a scipy.sparse matrix, as scipy's: it needs scipy "
                          "(apt-get install python3-scipy or pip install scipy)" % fname) from e
    shape = getattr(csgraph, "shape", None) or np.shape(csgraph)
    if len(shape) != 2 or shape[0] != shape[1]:
        raise ValueError("%s: csgraph of shape %s: want a square matrix" % (fname, tuple(shape)))
    V = shape[0]
    p = np.asarray(predecessors)
    if p.ndim != 1 or p.shape[0] != V:
        raise ValueError("%s: predecessors of shape %s: want one row of the predecessor matrix "
                         "(pred[i], length %d)" % (fname, p.shape, V))
    if p.dtype.kind not in "iu":
        raise ValueError("%s: predecessors of dtype %s: want integers" % (fname, p.dtype))
    bad = p >= V
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise ValueError("%s: predecessors[%d] = %d is not a vertex of the %d-vertex graph"
                         % (fname, i, int(p[i]), V))
    return scipy_reconstruct_path(csgraph, p.astype(np.int32), directed)


def path(predecessors, i, j):
    """The vertices of a shortest path from i to j, as a list [i, ..., j]
    ([i] when i == j, [] when j cannot be reached from i), read from the
    V x V predecessor matrix of floyd_warshall(..., return_predecessors=True)
    or gk.apsp's file (`gk apsp --predecessors`; any negative value, scipy's
    -9999 or gk's -1, is "none").  The walk of `gk path` on the command
    line (the rule of the C function gk_apsp_path); a broken matrix (a value
    outside [0, V), a cycle) raises ValueError.  scipy has no such function
    (reconstruct_path gives one source's whole tree as a sparse matrix:
    gk.reconstruct_path); this is the loop a scipy user writes by hand.
    Needs numpy only."""
    np = _np()
    fname = "gk.path"
    p = np.asarray(predecessors)
    if p.ndim != 2 or p.shape[0] != p.shape[1] or p.shape[0] == 0:
        raise ValueError("%s: predecessors of shape %s: want the V x V predecessor matrix "
                         "(for one row, use gk.reconstruct_path)" % (fname, p.shape))
    if p.dtype.kind not in "iu":
        raise ValueError("%s: predecessors of dtype %s: want integers" % (fname, p.dtype))
    V = p.shape[0]
    for name, v in (("i", i), ("j", j)):
        if isinstance(v, bool) or not isinstance(v, (int, np.integer)):
            raise ValueError("%s: %s = %r: want an integer vertex" % (fname, name, v))
        if not 0 <= v < V:
            raise ValueError("%s: %s = %d is not a vertex of the %d-vertex graph" % (fname, name, v, V))
    i, j = int(i), int(j)
    row = p[i]
    if i == j:
        return [i]
    if row[j] < 0:
        return []                       # unreachable
    # walk back from j (the rule of gk_apsp_path): a path has at most V
    # vertices, so a longer walk is a cycle in the matrix
    out = [j]
    v = j
    while v != i:
        u = int(row[v])
        if not 0 <= u < V:
            raise ValueError("%s: broken predecessor matrix: predecessors[%d, %d] = %d is not a "
                             "vertex in [0, %d)" % (fname, i, v, u, V))
        if len(out) == V:
            raise ValueError("%s: broken predecessor matrix: the predecessors of %d from %d go "
                             "round a cycle" % (fname, j, i))
        out.append(u)
        v = u
    out.reverse()
    return out


def write_distances(path, dist, *, format="auto"):
    """Write an int32 V x V distance matrix as nthu (raw int32) or npy;
    format "auto": npy for a name ending in .npy, else nthu.  Atomic: a
    failure leaves no file."""
    np = _np()
    d = np.ascontiguousarray(dist, dtype=np.int32)
    if d.ndim != 2 or d.shape[0] != d.shape[1]:
        raise ValueError("write_distances: want a square matrix, not %s" % (d.shape,))
    fmt = ctypes.c_int()
    if lib.gk_format_parse(str(format).encode(), ctypes.byref(fmt)) != _lib.GK_OK or \
            fmt.value not in (_lib.GK_FORMAT_AUTO, _lib.GK_FORMAT_NTHU, _lib.GK_FORMAT_NPY):
        raise ValueError("write_distances: format=%r: want 'auto', 'nthu' or 'npy'" % (format,))
    _check(lib.gk_apsp_write_format(_path("write_distances", path), fmt.value, d.ctypes.data, d.shape[0]))


def convert(src, dst, *, format="auto", output_format="auto", undirected=False, vertices=None):
    """`gk convert`: a graph file from one format to another (nthu, gr, mtx,
    edges).  Returns (V, edges written)."""
    fi, fo = ctypes.c_int(), ctypes.c_int()
    for f, val, name in ((fi, format, "format"), (fo, output_format, "output_format")):
        if lib.gk_format_parse(str(val).encode(), ctypes.byref(f)) != _lib.GK_OK or \
                f.value == _lib.GK_FORMAT_NPY:
            raise ValueError("convert: %s=%r: want 'auto', 'nthu', 'gr', 'mtx' or 'edges'" % (name, val))
    V, E, mx = ctypes.c_int64(), ctypes.c_int64(), ctypes.c_int64()
    _check(lib.gk_graph_convert(_path("convert", src), fi.value, _path("convert", dst), fo.value,
                                1 if undirected else 0, int(vertices or 0), ctypes.byref(V),
                                ctypes.byref(E), ctypes.byref(mx)))
    return V.value, E.value


# ---------------------------------------------------------------- stencil

_BOUNDARIES = {"zero": _lib.GK_BOUNDARY_ZERO, "periodic": _lib.GK_BOUNDARY_PERIODIC,
               "fixed": _lib.GK_BOUNDARY_FIXED}
_SHAPES = {"box": _lib.GK_STENCIL_BOX, "star": _lib.GK_STENCIL_STAR, "mask": _lib.GK_STENCIL_MASK}


def _stencil_weights(np, weights, shape, fname):
    """(dims, radius, shape code, C-ordered float64 weights) of a weights array."""
    w = np.array(weights, dtype=np.float64, order="C", copy=True)
    k = w.shape[0] if w.ndim else 0
    if w.ndim not in (2, 3) or any(n != k for n in w.shape) or k % 2 == 0 or not 3 <= k <= 9:
        raise ValueError("%s: weights of shape %s: want (2r+1,)*dims with dims 2 or 3 and r 1 to %d, "
                         "e.g. (3, 3) or (5, 5, 5)" % (fname, w.shape, _lib.GK_STENCIL_MAX_RADIUS))
    if not np.isfinite(w).all():
        raise ValueError("%s: the weights must be finite (NaN or Inf at flat index %d)"
                         % (fname, int(np.flatnonzero(~np.isfinite(w))[0])))
    r = k // 2
    if shape is None:   # a star when every weight off the axes is 0
        idx = np.indices(w.shape) - r
        off = (idx != 0).sum(axis=0) > 1
        shape = "star" if not w[off].any() else "box"
    if shape not in _SHAPES:
        raise ValueError("%s: shape=%r: want 'box', 'star' or 'mask'" % (fname, shape))
    return w.ndim, r, _SHAPES[shape], w


def _stencil_config(config, fname):
    """The bytes gk_stencil_options.config takes ("NAME=VALUE,...", what
    `gk stencil --config` passes) from a string or a dict {name: int} (in
    the dict's order); None: None.  libgk checks the names and values."""
    if config is None:
        return None
    if isinstance(config, dict):
        parts = []
        for k, v in config.items():
            try:                            # an int or a numpy integer, not a bool or a float
                if not isinstance(k, str) or isinstance(v, bool):
                    raise TypeError
                parts.append("%s=%d" % (k, operator.index(v)))
            except TypeError:
                raise TypeError("%s: config=%r: a dict's items are name (str): value (int)"
                                % (fname, config)) from None
            if not k or any(c in k for c in "=, \0"):
                # a key would otherwise smuggle more items into the text
                raise ValueError("%s: config=%r: %r is not a parameter name" % (fname, config, k))
        config = ",".join(parts)
    elif not isinstance(config, str):
        raise TypeError("%s: config=%r: want a string 'NAME=VALUE,...', a dict {name: int} or None"
                        % (fname, config))
    b = config.encode()
    if b"\0" in b:
        raise ValueError("%s: embedded null byte in config=%r" % (fname, config))
    return b


def stencil(grid, steps, coeffs=None, device="auto", *, gpus=None, overwrite=False, check=False,
            weights=None, boundary="zero", shape=None, config=None):
    """`steps` sweeps of a stencil over grid; by default the 27-point fp64 box
    with a zero halo.

    grid: a 1-, 2- or 3-D array, shape (nz, ny, nx) (x, the last axis, is
    the fastest: C order); returns a new array of the same shape, or grid
    itself when overwrite=True and it is a C-ordered, writable ndarray of
    the type computed (no copy).  A float32 ndarray is computed in float32
    and comes back float32; anything else as float64.

    The stencil: weights, a (2r+1, 2r+1) (2D) or (2r+1, 2r+1, 2r+1) (3D)
    array, r 1 to 4, weights[dz+r, dy+r, dx+r] multiplying grid[z+dz,
    y+dy, x+dx] (a 2D stencil takes a 1- or 2-D grid); shape 'box', 'star'
    (the weights off the axes must be 0) or 'mask' (the nonzero weights'
    points); None: 'star' when every weight off the axes is 0, else 'box'.
    Without weights: the 27-point box with coeffs, 27 numbers or a (3, 3, 3)
    array indexed [dz+1, dy+1, dx+1] (None: the CPC/PKU benchmark's), or
    with shape, the 3D shape of radius 1 with weight 1/points at each point
    (shape='box': the CPC/PKU benchmark's 27 coefficients, as without
    shape).
    boundary: 'zero' (outside reads 0), 'periodic' (indices wrap; every
    extent >= 2r+1) or 'fixed' (the points within r of a face keep their
    value).  Each point is one fma chain over the shape's points in
    ascending (dz, dy, dx) order, on every backend.  device, gpus: as
    gk.apsp.  check: recompute on the CPU and compare (the 27-point fp64
    box within gk's tolerance, every other stencil bit for bit).
    config: GPU kernel parameters that replace the tuned choice, a string
    "NAME=VALUE,..." or a dict {name: int} (in its order), as `gk stencil
    --config` and gk_stencil_options.config take them.  The classic
    stencil (a 3D box of radius 1, float64, zero boundary: no weights, or
    (3, 3, 3) weights) takes its 27-point kernel's parameters (BX, BY, RY,
    ZC, DESIGN, TSTEPS, ...); every other one the generated engine's (TX,
    TY, NT, ZC, TSTEPS, DESIGN, PX, RX, RY, PF, SK, PL, AC, ST, MB, OX,
    XH; their meaning, ranges and defaults: gk(1), under gk bench stencil
    --stencil) over the defaults of the DESIGN named, checked against that
    stencil's rules.
    Checked on every backend before anything runs (an unknown name, a
    value out of range or a configuration the rules refuse: ValueError
    with libgk's message naming the parameter, and for a generated
    stencil its key, e.g. '3d-star-r2-f64-zero'; grid untouched, even with
    overwrite=True); used on the GPU; ignored on the CPU, which runs its
    own kernel (last_report()['config_ignored'] is True).
    """
    np = _np()
    fname = "gk.stencil"
    steps_i = int(steps)
    if steps_i != steps or steps_i < 0:
        raise ValueError("gk.stencil: steps=%r: want an integer >= 0" % (steps,))
    if boundary not in _BOUNDARIES:
        raise ValueError("gk.stencil: boundary=%r: want 'zero', 'periodic' or 'fixed'" % (boundary,))
    if weights is not None and coeffs is not None:
        raise ValueError("gk.stencil: coeffs (the 27-point box's) and weights: give one or the other")
    cfg = _stencil_config(config, fname)
    f32 = isinstance(grid, np.ndarray) and grid.dtype == np.float32
    dt = np.float32 if f32 else np.float64
    ctx = _context(fname, device, gpus)
    g = grid
    if not (overwrite and type(g) is np.ndarray and g.dtype == dt and g.flags.c_contiguous
            and g.flags.writeable):
        g = np.array(grid, dtype=dt, order="C", copy=True)
    if g.ndim < 1 or g.ndim > 3:
        raise ValueError("gk.stencil: a grid of %d dimensions: want 1 to 3" % g.ndim)
    if not np.isfinite(g).all():     # as `gk stencil` refuses a grid file with NaN or Inf
        raise ValueError("gk.stencil: the grid must be finite (NaN or Inf at flat index %d)"
                         % int(np.flatnonzero(~np.isfinite(g))[0]))
    nz, ny, nx = (1,) * (3 - g.ndim) + g.shape
    c = w = None
    if coeffs is None:
        cptr = ctypes.addressof(_lib.default_coeffs)
    else:
        c = np.ascontiguousarray(coeffs, dtype=np.float64).ravel()
        if c.size != 27:
            raise ValueError("gk.stencil: %d coefficients: want 27 (or a 3 x 3 x 3 array)" % c.size)
        if not np.isfinite(c).all():
            raise ValueError("gk.stencil: the coefficients must be finite")
        cptr = c.ctypes.data
    _check(lib.gk_stencil_check_size(nx, ny, nz, steps_i))
    prob = _lib.new(_lib.StencilProblem, nx, ny, nz)
    desc = None
    if weights is None and shape is None and boundary == "zero" and not f32:
        prob.coeffs = cptr                  # the classic 27-point box
    else:
        desc = _lib.new(_lib.StencilDesc)
        if weights is not None:
            desc.dims, desc.radius, desc.shape, w = _stencil_weights(np, weights, shape, fname)
            if desc.dims == 2 and g.ndim == 3:
                raise ValueError("gk.stencil: 2-D weights on a 3-D grid: a 2D stencil takes a 1- or 2-D grid")
            desc.weights = w.ctypes.data
        else:
            if coeffs is not None and shape not in (None, "box"):
                raise ValueError("gk.stencil: coeffs are the 27-point box's: with shape=%r give weights" % (shape,))
            if shape is not None and shape not in _SHAPES:
                raise ValueError("gk.stencil: shape=%r: want 'box', 'star' or 'mask'" % (shape,))
            if shape == "mask":
                raise ValueError("gk.stencil: shape='mask' needs weights (its points are the nonzero ones)")
            desc.shape = _SHAPES[shape or "box"]
            if shape is None or shape == "box":
                desc.weights = cptr         # the 27-point box's coefficients
        desc.boundary = _BOUNDARIES[boundary]
        prob.desc = ctypes.addressof(desc)
        prob.dtype = _lib.GK_DTYPE_FLOAT32 if f32 else _lib.GK_DTYPE_FLOAT64
    opts = _lib.new(_lib.StencilOptions)
    opts.check = 1 if check else 0
    opts.config = cfg                       # None: NULL, the tuned choice
    rep = _lib.new(_lib.Report)
    with ctx.lock:
        st = lib.gk_stencil_run(ctx.handle, ctypes.byref(prob), g.ctypes.data, steps_i,
                                ctypes.byref(opts), ctypes.byref(rep))
        _tls.report = _report_dict(rep)
        _check(st)
    del c, w, desc                          # alive until here: libgk read them during the call
    return g


# ---------------------------------------------------------------- gemm

def gemm(a, b, device="auto", *, check=False):
    """C = A B in fp32: a (M x K) and b (K x N) 2-D arrays (converted to
    C-ordered float32; NaN and infinities are refused), returns C, a new
    M x N float32 array.  device: as gk.apsp (one GPU).  check: recompute
    on the CPU and compare under gk's bound (2 K eps sum|A||B| per element,
    include/gk/gemm.h); MismatchError beyond it.
    """
    np = _np()
    fname = "gk.gemm"
    ctx = _context(fname, device, None)
    a = np.ascontiguousarray(a, dtype=np.float32)
    b = np.ascontiguousarray(b, dtype=np.float32)
    if a.ndim != 2 or b.ndim != 2:
        raise ValueError("gk.gemm: want 2-D matrices, got %d-D and %d-D" % (a.ndim, b.ndim))
    m, k = a.shape
    k2, n = b.shape
    if k != k2:
        raise ValueError("gk.gemm: A is %d x %d, B is %d x %d: the inner sizes differ" % (m, k, k2, n))
    _check(lib.gk_gemm_check_size(m, n, k))
    if not (np.isfinite(a).all() and np.isfinite(b).all()):
        raise ValueError("gk.gemm: A and B must be finite (no NaN or infinity)")
    c = np.empty((m, n), dtype=np.float32)
    prob = _lib.new(_lib.GemmProblem, m, n, k)
    opts = _lib.new(_lib.GemmOptions)
    opts.check = 1 if check else 0
    rep = _lib.new(_lib.Report)
    with ctx.lock:
        st = lib.gk_gemm_run(ctx.handle, ctypes.byref(prob), a.ctypes.data, b.ctypes.data,
                             c.ctypes.data, ctypes.byref(opts), ctypes.byref(rep))
        _tls.report = _report_dict(rep)
        _check(st)
    return c


# ---------------------------------------------------------------- info

def info():
    """The build, the CPU and the GPUs, as a dict (what `gk info` prints)."""
    b = lib.gk_build_info_get().contents
    s = lambda x: x.decode(errors="replace") if x else ""  # noqa: E731
    build = {"version": s(b.version), "cc": s(b.cc), "configure_args": s(b.configure_args),
             "openmp": s(b.openmp), "hwloc": s(b.hwloc), "cuda": s(b.cuda),
             "cuda_archs": s(b.cuda_archs), "nvrtc": s(b.nvrtc)}
    t = _lib.new(_lib.CpuTopology)
    lib.gk_cpu_topology_get(ctypes.byref(t))
    cpu = {"model": s(t.model), "packages": t.packages, "numa_nodes": t.numa_nodes,
           "cores": t.cores, "pus": t.pus, "omp_max_threads": t.omp_max_threads,
           "from_hwloc": bool(t.from_hwloc)}
    n = ctypes.c_int(0)
    gpus, note = [], ""
    if lib.gk_gpu_count(ctypes.byref(n)) != _lib.GK_OK:
        note = lib.gk_last_error().decode(errors="replace")
    for i in range(n.value):
        d = _lib.new(_lib.DeviceInfo)
        if lib.gk_gpu_info(i, ctypes.byref(d)) == _lib.GK_OK:
            gpus.append({"ordinal": d.ordinal, "name": s(d.name), "compute_capability":
                         "%d.%d" % (d.cc_major, d.cc_minor), "sm_count": d.sm_count,
                         "total_mem": d.total_mem, "pci_bus_id": s(d.pci_bus_id),
                         "local_cpus": s(d.local_cpus)})
    why = ctypes.create_string_buffer(512)
    usable = bool(lib.gk_gpu_usable(why, len(why)))
    return {"version": __version__, "build": build, "cpu": cpu, "gpus": gpus,
            "gpu_usable": usable, "gpu_note": "" if usable else (why.value.decode(errors="replace") or note),
            "library": getattr(lib, "_name", "")}


# scipy.sparse.csgraph's shortest_path, dijkstra, johnson, bellman_ford
# (gk/csgraph.py; imported last: it uses the names above)
from .csgraph import shortest_path, dijkstra, johnson, bellman_ford  # noqa: E402
