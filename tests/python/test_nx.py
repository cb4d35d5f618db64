#!/usr/bin/env python3
"""gk.nx against NetworkX's own functions, as TAP: the same random graphs
(directed or not, multigraphs, missing weights, zero weights, self-loops,
node labels of any kind and order) go to both, and the results must be equal
in type, keys and values.  Run by tests/test_nx.sh (which skips without
numpy or networkx) with GK_LIBRARY pointing at the build tree's libgk."""
import collections
import random
import warnings

import networkx as nx
import numpy as np

import gk
from tap import Skip, test, done  # tests/python/tap.py
import gk.nx


def expect_raises(exc, words, fn, *a, **k):
    try:
        fn(*a, **k)
    except exc as e:
        for w in words:
            assert w in str(e), "%r not in %r" % (w, str(e))
        return
    raise AssertionError("%s did not raise %s" % (fn.__name__, exc.__name__))


def random_graph(rng, cls, V, p, labels, maxw=20, missing=0.1, loops=0.05, attr="weight", floats=False,
                 minloop=0):
    """A random graph of class cls: V nodes (labels: 'int', 'str' or 'mixed',
    added in shuffled order), each ordered pair an edge with probability p
    (twice for multigraphs: parallel edges), integral weights in [0, maxw]
    (as floats when floats), some edges without the attribute, self-loops of
    weights from minloop (negative ones: floyd_warshall_numpy ignores them)."""
    G = cls()
    names = list(range(V))
    if labels == "str":
        names = ["n%d" % i for i in names]
    elif labels == "mixed":
        names = [i if i % 2 else "v%d" % i for i in names]
    order = names[:]
    rng.shuffle(order)
    G.add_nodes_from(order)
    reps = 2 if G.is_multigraph() else 1
    for _ in range(reps):
        for a in names:
            for b in names:
                if a == b:
                    if rng.random() < loops:
                        G.add_edge(a, b, **{attr: rng.randint(minloop, maxw)})
                    continue
                if rng.random() >= p:
                    continue
                if rng.random() < missing:
                    G.add_edge(a, b)
                else:
                    w = rng.randint(0, maxw)
                    G.add_edge(a, b, **{attr: float(w) if floats else w})
    return G


CLASSES = (nx.Graph, nx.DiGraph, nx.MultiGraph, nx.MultiDiGraph)


def cases(seed, sizes=(0, 1, 2, 7, 40, 97), **kw):
    rng = random.Random(seed)
    for cls in CLASSES:
        for V in sizes:
            for p in (0.05, 0.3):
                yield cls, V, p, random_graph(rng, cls, V, p, rng.choice(("int", "str", "mixed")), **kw)


def same_array(a, b):
    assert type(a) is np.ndarray and a.dtype == b.dtype == np.float64, (type(a), a.dtype)
    assert a.shape == b.shape, (a.shape, b.shape)
    assert np.array_equal(a, b), "first difference at %s" % (np.argwhere(a != b)[0],)


@test
def t_fw_numpy():
    """floyd_warshall_numpy == networkx's on random graphs of every class (float64, inf unreachable)"""
    n = 0
    for cls, V, p, G in cases(1, minloop=-5):
        same_array(gk.nx.floyd_warshall_numpy(G, device="cpu"), nx.floyd_warshall_numpy(G))
        n += 1
    assert n == 48


@test
def t_fw_numpy_args():
    """floyd_warshall_numpy with nodelist (a permutation), weight=None and another attribute"""
    rng = random.Random(2)
    for cls in CLASSES:
        G = random_graph(rng, cls, 30, 0.15, "str", attr="cost")
        nodes = list(G)
        rng.shuffle(nodes)
        same_array(gk.nx.floyd_warshall_numpy(G, nodelist=nodes, weight="cost"),
                   nx.floyd_warshall_numpy(G, nodelist=nodes, weight="cost"))
        same_array(gk.nx.floyd_warshall_numpy(G, weight=None), nx.floyd_warshall_numpy(G, weight=None))
        # the attribute "weight" is absent everywhere: every edge counts 1
        same_array(gk.nx.floyd_warshall_numpy(G), nx.floyd_warshall_numpy(G))
        same_array(gk.nx.floyd_warshall_numpy(G, nodes, "cost"), nx.floyd_warshall_numpy(G, nodes, "cost"))


@test
def t_fw_dict():
    """floyd_warshall == networkx's: a dict of defaultdicts, every pair, inf unreachable, int or float values"""
    for missing in (0, 0.1):
        for cls, V, p, G in cases(3, sizes=(0, 1, 5, 23), missing=missing):
            got, want = gk.nx.floyd_warshall(G), nx.floyd_warshall(G)
            assert type(got) is dict and list(got) == list(want)
            lacks = any("weight" not in d for a, b, d in G.edges(data=True) if a != b)
            for u in want:
                assert isinstance(got[u], collections.defaultdict) and got[u] == want[u], u
                assert got[u]["not a node"] == float("inf")
                for v, x in want[u].items():
                    # every weight an int: the same types; a missing weight counts 1.0
                    # (networkx's lengths are floats only along paths meeting one)
                    t = type(x) if not lacks or x == float("inf") or u == v else float
                    assert type(got[u][v]) is t, (u, v, got[u][v], x)


@test
def t_dijkstra():
    """all_pairs_dijkstra_path_length == networkx's (an iterator in node order; reachable targets), with cutoffs"""
    for cls, V, p, G in cases(4, sizes=(0, 1, 7, 40)):
        for cutoff in (None, 0, 7, 15.5):
            it = gk.nx.all_pairs_dijkstra_path_length(G, cutoff=cutoff)
            assert iter(it) is it
            got, want = list(it), list(nx.all_pairs_dijkstra_path_length(G, cutoff=cutoff))
            assert [u for u, _ in got] == [u for u, _ in want]
            for (u, a), (_, b) in zip(got, want):
                assert type(a) is dict and a == b, (u, cutoff, a, b)
                assert all(type(a[v]) is type(b[v]) for v in b), (u, a, b)


@test
def t_shortest_path_length():
    """all_pairs_shortest_path_length == networkx's (edge counts, weights ignored), with cutoffs"""
    for cls, V, p, G in cases(5, sizes=(0, 1, 7, 40)):
        for cutoff in (None, 0, 1, 3):
            got = list(gk.nx.all_pairs_shortest_path_length(G, cutoff=cutoff))
            want = list(nx.all_pairs_shortest_path_length(G, cutoff=cutoff))
            assert [u for u, _ in got] == [u for u, _ in want]
            for (u, a), (_, b) in zip(got, want):
                assert a == b and all(type(x) is int for x in a.values()), (u, cutoff, a, b)


@test
def t_float_weights():
    """integral float weights (2.0) are taken as they are: equal results, float lengths as networkx's"""
    rng = random.Random(6)
    for cls in CLASSES:
        G = random_graph(rng, cls, 25, 0.2, "int", floats=True, missing=0)
        same_array(gk.nx.floyd_warshall_numpy(G), nx.floyd_warshall_numpy(G))
        got = dict(gk.nx.all_pairs_dijkstra_path_length(G))
        want = dict(nx.all_pairs_dijkstra_path_length(G))
        assert got == want
        assert all(type(x) is float for u in got for v, x in got[u].items() if u != v)
    # an edge of weight inf is no edge, for networkx's functions too
    G = nx.DiGraph([(0, 1, {"weight": float("inf")}), (1, 2, {"weight": 3.0})])
    same_array(gk.nx.floyd_warshall_numpy(G), nx.floyd_warshall_numpy(G))


@test
def t_arguments():
    """weight= a function is refused; non-negative self-loops are ignored; the largest int32 weight's paths are exact"""
    expect_raises(TypeError, ("attribute",), gk.nx.floyd_warshall_numpy, nx.path_graph(3),
                  weight=lambda u, v, d: 1)
    G = nx.DiGraph([(0, 1, {"weight": 2}), (1, 1, {"weight": 7})])
    assert dict(gk.nx.all_pairs_dijkstra_path_length(G)) == dict(nx.all_pairs_dijkstra_path_length(G))
    assert gk.nx.floyd_warshall(G) == nx.floyd_warshall(G)
    # paths past 2^30 - 1 are computed in int64 (1.1 reported them unreachable)
    G = nx.DiGraph([(0, 1, {"weight": gk.MAX_WEIGHT}), (1, 2, {"weight": gk.MAX_WEIGHT})])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        a = gk.nx.floyd_warshall_numpy(G)
    assert a[0, 1] == gk.MAX_WEIGHT and a[0, 2] == 2 * gk.MAX_WEIGHT
    assert gk.last_report()["dtype"] == "int64"


# ------------------------------------------------------------------ 1.2: real and negative weights

def real_graph(rng, cls, V, p, negative=False, ints=False):
    """A random graph of class cls with real weights (ints when ints),
    negative ones when negative (directed classes: base + h(u) - h(v) with
    base >= 0, so no negative cycle), parallel edges in multigraphs, some
    missing weights and self-loops when not negative."""
    G = cls()
    names = [i if i % 3 else "v%d" % i for i in range(V)]
    order = names[:]
    rng.shuffle(order)
    G.add_nodes_from(order)
    h = {n: rng.uniform(0, 20) for n in names}
    for _ in range(2 if G.is_multigraph() else 1):
        for a in names:
            for b in names:
                if rng.random() >= p:
                    continue
                if a == b:
                    if not negative:
                        G.add_edge(a, b, weight=rng.uniform(0, 5))
                    continue
                if not negative and rng.random() < 0.1:
                    G.add_edge(a, b)
                    continue
                w = rng.uniform(0.1, 10) + (h[a] - h[b] if negative else 0)
                G.add_edge(a, b, weight=round(w) if ints else w)
    return G


def tol_of(G):
    w = [abs(d.get("weight", 1)) for a, b, d in G.edges(data=True)]
    return 2.0 * max(len(G) - 1, 0) ** 2 * 2.0**-53 * max(w + [0])


def close_array(a, b, tol):
    assert type(a) is np.ndarray and a.dtype == b.dtype == np.float64 and a.shape == b.shape
    fa, fb = np.isfinite(a), np.isfinite(b)
    assert np.array_equal(fa, fb) and np.array_equal(a[~fa], b[~fb])
    assert (np.abs(a[fa] - b[fb]) <= tol).all(), np.abs(a[fa] - b[fb]).max()


def close_dicts(got, want, tol, exact):
    assert type(got) is dict and list(got) == list(want)
    for u in want:
        assert isinstance(got[u], collections.defaultdict) and set(got[u]) == set(want[u]), u
        for v, x in want[u].items():
            y = got[u][v]
            if exact or x in (0, float("inf")):
                assert y == x and type(y) is type(x), (u, v, y, x)
            else:
                assert type(y) is float and abs(y - x) <= tol, (u, v, y, x)


def edge_weight(G, a, b):
    if G.is_multigraph():
        return min(d.get("weight", 1.0) for d in G[a][b].values())
    return G[a][b].get("weight", 1.0)


def check_pred(G, pred, dist, want_pred, tol):
    """gk's predecessors: NetworkX's keys, and every path nx.reconstruct_path
    builds from them is made of G's edges and sums to the distance."""
    assert type(pred) is dict and set(pred) == set(want_pred), (set(pred) ^ set(want_pred))
    for u in want_pred:
        assert type(pred[u]) is dict and set(pred[u]) == set(want_pred[u]), u
        for v in pred[u]:
            if v == u:
                assert pred[u][u] == u
                continue
            path = nx.reconstruct_path(u, v, pred)
            assert path[0] == u and path[-1] == v and len(path) <= len(G)
            total = sum(edge_weight(G, a, b) for a, b in zip(path, path[1:]))
            assert abs(total - dist[u][v]) <= tol, (u, v, path, total, dist[u][v])


@test
def t_real_weights():
    """real weights, every class: the Floyd-Warshall functions and Dijkstra == networkx's within the tolerance"""
    rng = random.Random(11)
    for cls in CLASSES:
        for V, p in ((0, 0), (1, 0.5), (9, 0.3), (70, 0.05), (130, 0.03)):
            G = real_graph(rng, cls, V, p)
            tol = tol_of(G)
            close_array(gk.nx.floyd_warshall_numpy(G), nx.floyd_warshall_numpy(G), tol)
            close_dicts(gk.nx.floyd_warshall(G), nx.floyd_warshall(G), tol, False)
            pred, dist = gk.nx.floyd_warshall_predecessor_and_distance(G)
            wpred, wdist = nx.floyd_warshall_predecessor_and_distance(G)
            close_dicts(dist, wdist, tol, False)
            check_pred(G, pred, dist, wpred, tol)
            got = list(gk.nx.all_pairs_dijkstra_path_length(G))
            want = list(nx.all_pairs_dijkstra_path_length(G))
            assert [u for u, _ in got] == [u for u, _ in want]
            for (u, a), (_, b) in zip(got, want):
                assert set(a) == set(b) and all(abs(a[v] - b[v]) <= tol for v in b), u
    assert gk.last_report()["dtype"] == "float64"


@test
def t_negative_weights():
    """negative weights (directed, no negative cycle): == networkx's, exactly for ints; predecessors valid"""
    rng = random.Random(12)
    for cls in (nx.DiGraph, nx.MultiDiGraph):
        for V, p in ((2, 0.5), (30, 0.2), (100, 0.04)):
            for ints in (True, False):
                G = real_graph(rng, cls, V, p, negative=True, ints=ints)
                assert any(d["weight"] < 0 for a, b, d in G.edges(data=True)) or V < 10
                tol = 0 if ints else tol_of(G)
                close_array(gk.nx.floyd_warshall_numpy(G), nx.floyd_warshall_numpy(G), tol)
                close_dicts(gk.nx.floyd_warshall(G), nx.floyd_warshall(G), tol, ints)
                pred, dist = gk.nx.floyd_warshall_predecessor_and_distance(G)
                wpred, wdist = nx.floyd_warshall_predecessor_and_distance(G)
                close_dicts(dist, wdist, tol, ints)
                check_pred(G, pred, dist, wpred, tol)
                if ints:
                    assert gk.last_report()["dtype"] == "int32"
                expect_raises(ValueError, ("negative", "Dijkstra"), gk.nx.all_pairs_dijkstra_path_length, G) \
                    if any(d["weight"] < 0 for a, b, d in G.edges(data=True)) else None


@test
def t_negative_cycles():
    """a negative cycle raises networkx.NetworkXUnbounded naming a node on it"""
    fns = (gk.nx.floyd_warshall_numpy, gk.nx.floyd_warshall, gk.nx.floyd_warshall_predecessor_and_distance)
    for cyc in (["a", "b"], [3, "x", 7, 1]):
        G = nx.DiGraph()
        G.add_weighted_edges_from([(10 + i, 11 + i, 1.5) for i in range(20)])
        G.add_edge(10, cyc[0], weight=2)
        for a, b in zip(cyc, cyc[1:] + cyc[:1]):
            G.add_edge(a, b, weight=1)
        G[cyc[-1]][cyc[0]]["weight"] = -len(cyc)
        for f in fns:
            try:
                f(G)
                raise AssertionError("no exception")
            except nx.NetworkXUnbounded as e:
                assert str(e).startswith("Negative cycle detected on node ")
                assert any(str(e) == "Negative cycle detected on node %r" % (n,) for n in cyc), str(e)
                assert isinstance(e.__cause__, gk.NegativeCycleError)
    # undirected: one negative edge is a cycle (there and back), as for networkx
    G = nx.Graph([(0, 1, {"weight": 2}), (1, 2, {"weight": -1})])
    for f in fns:
        expect_raises(nx.NetworkXUnbounded, ("Negative cycle",), f, G)
    # a negative self-loop: a cycle for floyd_warshall (networkx's goes negative on it);
    # floyd_warshall_numpy ignores it, as networkx's
    G = nx.DiGraph([(0, 1, {"weight": 2}), (1, 1, {"weight": -7})])
    expect_raises(nx.NetworkXUnbounded, ("node 1",), gk.nx.floyd_warshall, G)
    expect_raises(nx.NetworkXUnbounded, ("node 1",), gk.nx.floyd_warshall_predecessor_and_distance, G)
    same_array(gk.nx.floyd_warshall_numpy(G), nx.floyd_warshall_numpy(G))
    expect_raises(ValueError, ("(1, 1)", "negative", "Dijkstra"), gk.nx.all_pairs_dijkstra_path_length, G)


@test
def t_limits_1_2():
    """NaN, -inf and non-numeric weights are refused naming the edge; inf is no edge; large ints exact in int64"""
    for f in (gk.nx.floyd_warshall_numpy, gk.nx.floyd_warshall, gk.nx.all_pairs_dijkstra_path_length,
              gk.nx.floyd_warshall_predecessor_and_distance):
        for w, words in ((float("nan"), ("(1, 2)", "NaN")), (float("-inf"), ("(1, 2)", "-inf")),
                         (2 ** 70, ("(1, 2)", "beyond"))):
            G = nx.DiGraph([(0, 1, {"weight": 1}), (1, 2, {"weight": w})])
            expect_raises(ValueError, words, f, G)
        expect_raises(TypeError, ("'3'", "numbers"), f, nx.Graph([(0, 1, {"weight": "3"})]))
    big = 3 * 10 ** 12                  # paths past 2^30: int64, exact
    G = nx.DiGraph([(0, 1, {"weight": big}), (1, 2, {"weight": big + 1}), (2, 3, {"weight": -5})])
    assert gk.nx.floyd_warshall(G) == nx.floyd_warshall(G)
    assert gk.last_report()["dtype"] == "int64"
    a = gk.nx.floyd_warshall_numpy(G)
    assert a[0, 3] == 2 * big - 4 and a[3, 0] == np.inf
    # an inf-weight edge is no edge; networkx's predecessor dict names it all the same
    G = nx.DiGraph([(0, 1, {"weight": float("inf")}), (1, 2, {"weight": 3.5}), (3, 3, {"weight": 1.0})])
    same_array(gk.nx.floyd_warshall_numpy(G), nx.floyd_warshall_numpy(G))
    got, want = gk.nx.floyd_warshall_predecessor_and_distance(G), nx.floyd_warshall_predecessor_and_distance(G)
    assert got[0] == want[0] and got[1] == want[1], (got, want)
    # Dijkstra: fractional weights are fine now
    G = nx.DiGraph([(0, 1, {"weight": 0.25}), (1, 2, {"weight": 0.5})])
    assert dict(gk.nx.all_pairs_dijkstra_path_length(G)) == dict(nx.all_pairs_dijkstra_path_length(G))


@test
def t_nodelist():
    """a nodelist that is not a permutation of G's nodes raises networkx's NetworkXError"""
    G = nx.path_graph(4)
    for bad in ([0, 1, 2], [0, 1, 2, 2], [0, 1, 2, 9], [0, 1, 2, 3, 4]):
        expect_raises(nx.NetworkXError, ("nodelist",), gk.nx.floyd_warshall_numpy, G, nodelist=bad)
        expect_raises(nx.NetworkXError, (), nx.floyd_warshall_numpy, G, nodelist=bad)


@test
def t_gpu():
    """device="gpu": the same results as networkx's"""
    if not gk.info()["gpu_usable"]:
        raise Skip("no usable GPU: " + gk.info()["gpu_note"])
    for cls, V, p, G in cases(7, sizes=(1, 40, 97)):
        same_array(gk.nx.floyd_warshall_numpy(G, device="gpu"), nx.floyd_warshall_numpy(G))
        assert dict(gk.nx.all_pairs_dijkstra_path_length(G, device="gpu")) == \
            dict(nx.all_pairs_dijkstra_path_length(G))
    assert gk.last_report()["backend"] == "gpu"


done()
