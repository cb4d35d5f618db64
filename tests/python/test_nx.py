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
def t_limits():
    """negative, fractional, NaN, too large and non-numeric weights are refused naming the edge and the limit"""
    for f in (gk.nx.floyd_warshall_numpy, gk.nx.floyd_warshall, gk.nx.all_pairs_dijkstra_path_length):
        for w, words in ((-1, ("(1, 2)", "-1", "negative", "not supported yet")),
                         (2.5, ("(1, 2)", "2.5", "not an integer", "non-negative integral")),
                         (float("nan"), ("NaN",)),
                         (gk.MAX_WEIGHT + 1, ("above", str(gk.MAX_WEIGHT))),
                         (2 ** 70, ("above",)),
                         (-0.5, ("negative",))):
            G = nx.DiGraph([(0, 1, {"weight": 1}), (1, 2, {"weight": w})])
            expect_raises(ValueError, words, f, G)
        G = nx.Graph([(0, 1, {"weight": "3"})])
        expect_raises(TypeError, ("'3'", "numbers"), f, G)
    expect_raises(TypeError, ("attribute",), gk.nx.floyd_warshall_numpy, nx.path_graph(3),
                  weight=lambda u, v, d: 1)
    # a negative self-loop: floyd_warshall_numpy ignores it, as networkx's; the
    # others refuse it (networkx's use it: Dijkstra raises, floyd_warshall goes negative)
    G = nx.DiGraph([(0, 1, {"weight": 2}), (1, 1, {"weight": -7})])
    same_array(gk.nx.floyd_warshall_numpy(G), nx.floyd_warshall_numpy(G))
    expect_raises(ValueError, ("(1, 1)", "negative"), gk.nx.floyd_warshall, G)
    expect_raises(ValueError, ("(1, 1)", "negative"), gk.nx.all_pairs_dijkstra_path_length, G)
    expect_raises(ValueError, (), lambda: dict(nx.all_pairs_dijkstra_path_length(G)))
    G = nx.DiGraph([(0, 1, {"weight": 2}), (1, 1, {"weight": 7})])
    assert dict(gk.nx.all_pairs_dijkstra_path_length(G)) == dict(nx.all_pairs_dijkstra_path_length(G))
    # the largest weight is fine; paths that long are unreachable, with a warning
    G = nx.DiGraph([(0, 1, {"weight": gk.MAX_WEIGHT}), (1, 2, {"weight": gk.MAX_WEIGHT})])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        a = gk.nx.floyd_warshall_numpy(G)
    assert a[0, 1] == gk.MAX_WEIGHT and a[0, 2] == np.inf
    assert any("unreachable" in str(c.message) for c in caught)


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
