#!/usr/bin/env python3
"""tools/layers-symbols.py BUILDDIR - who calls whom between the folders of
src/, from the symbols of the built objects (libgk_impl and the commands):
an edge a -> b means code in src/a uses a symbol defined in src/b.  Exits 1
on an edge that goes up or sideways (cli -> api -> tune -> gpu, cpu -> core;
tune may use cpu)."""
import collections, glob, os, subprocess, sys

rank = {'core': 0, 'cpu': 1, 'gpu': 1, 'tune': 2, 'api': 3, 'cli': 4}
build = sys.argv[1] if len(sys.argv) > 1 else '.'
defs, undefs = {}, collections.defaultdict(set)
for d in rank:
    objs = glob.glob(os.path.join(build, 'src', d, '.libs', 'libgk_impl_la-*.o')) + \
           glob.glob(os.path.join(build, 'src', d, 'gk*-*.o'))
    for o in objs:
        for line in subprocess.run(['nm', o], capture_output=True, text=True).stdout.splitlines():
            p = line.split()
            if len(p) == 3 and p[1] in 'TDRBV':
                defs[p[2]] = d
            elif len(p) == 2 and p[0] == 'U':
                undefs[d].add(p[1])
edges = collections.Counter()
for d, us in undefs.items():
    for u in us:
        if u in defs and defs[u] != d:
            edges[(d, defs[u])] += 1
bad = 0
for (a, b), n in sorted(edges.items()):
    up = rank[a] <= rank[b]
    bad |= up
    print(f"{a:5} -> {b:5} {n:3} symbols{'   UPWARD' if up else ''}")
sys.exit(bad)
