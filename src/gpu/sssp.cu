/* sssp.cu - shortest paths from chosen sources on one GPU: one thread block
 * per source, many sources per launch (host side: sssp_gpu.c; parameters:
 * sssp_kernel.h).
 *
 * DESIGN.  The jobs are "S sources, S large" (1000 sources of a road graph
 * of a million vertices; all 100 000 sources of a smaller one).  Three
 * shapes were on the table:
 *   (a) min-plus SpMM / batched Bellman-Ford: K sources as K lanes of each
 *       vertex, every round relaxes the active vertices for all lanes;
 *   (b) one delta-stepping / near-far search per launch, the whole GPU on
 *       one source (what GPU graph libraries do for SSSP);
 *   (c) one block per source, near-far inside the block, as many blocks as
 *       the GPU holds at once, each block taking the next source when done.
 * On a road-like grid the hop diameter is in the thousands: (a) pays a round
 * per hop for the whole batch and re-relaxes each vertex once per lane whose
 * wave crosses it at another time (work many times Dijkstra's), and (b)
 * pays several kernel launches per bucket per source (thousands of buckets x
 * 1000 sources).  (c) needs no launch per round (a round is a
 * __syncthreads), keeps each search's work near Dijkstra's (near-far with a
 * bucket width of a few mean weights re-relaxes little), and fills the GPU
 * with independent searches, so the total is bound by the memory traffic of
 * the relaxations, which is what the 1000-source and all-sources jobs need.
 * On a low-diameter (R-MAT) graph a block's frontier is wide, so the same
 * shape works; a warp takes a vertex of degree >= 32 together so a hub does
 * not serialise one thread.  The cost: one source alone uses one block (a
 * single-source search is the CPU's job; the cost model knows it), and the
 * workspace is 24 bytes per vertex per resident block, plus the rows.
 *
 * Measured (NVIDIA H200, tests/bench_sssp_gpu, int32, 1000 sources, median
 * of 3 after a warm-up, rows copied down included): road-like 1000 x 1000
 * grid + 2 % shortcuts (V = 1e6, E = 4.04e6): 0.73 s, 7.0e9 relaxations/s,
 * 1.27 relaxations per edge per source (near-far re-relaxes little), 13x
 * gk's CPU Dijkstra on the 16 cores of the same machine (9.4 s), rows equal
 * byte for byte; R-MAT V = 2^20, E = 8.2e6: 1.46 s, 8.9e9/s, 2.8x the CPU
 * (R-MAT searches reach few vertices, which suits the CPU); all 99 856
 * sources of a 316 x 316 road grid: 4.3 s (Floyd-Warshall on it: ~37 s).
 * Knobs, swept on the road graph: 64 / 128 / 256 / 512 threads a block
 * within 10 % (128, the default, keeps ~9 blocks of 56 registers per SM);
 * bucket width 1 / 4 / 16 mean weights: 0.86 / 0.81 / 0.97 s (4, the
 * default).  Flat enough that the knobs are fixed defaults, not a tuner
 * space.  Shapes (a) and (b) were judged by their round and launch counts
 * above, not built.
 *
 * Correctness.  Each distance is the minimum over the candidates d[u] + w
 * in the element type (atomicMin: on the integer, or on the bit pattern of a
 * non-negative float, which orders like the value; a compare-and-swap loop
 * where floats may be negative), i.e. the least fixed point that Dijkstra
 * reaches, so the bits equal the CPU's.  Predecessors come from a second
 * pass once the distances are final: a breadth-first walk from the source
 * over the tight edges (d[u] + w == d[v], the same expression as the
 * search), each vertex taking the first that reaches it -- a shortest-path
 * tree even with zero-weight cycles, where "any tight edge" could loop.
 * min_only: all sources in one block's search; the walk also carries each
 * vertex's source (nearest); with h, through a virtual source (start -h[s],
 * back + h[v]) even for one source, the CPU's formulas, so the bits agree.  Johnson: w' = (w + h[u]) - h[v] (floats:
 * max(0, .)) on the fly, back as (d' - h[s]) + h[v].  Negative weights
 * without h: label-correcting rounds (a FIFO), capped at V + 1 rounds; a
 * vertex still changing then lies downstream of a negative cycle, which the
 * host finds by walking the search's last predecessors (fmark).
 *
 * Element types: one kernel each (gk_sssp_i32, _i64, _f32, _f64). */
#include "sssp_kernel.h"

/* gk/apsp.h's INF values (this file is built by nvcc alone, without the
 * library's include path). */
#define GK_SSSP_INF32 1073741823
#define GK_SSSP_INF64 4611686018427387903LL
#define VISITED (-7)                 /* mark[] in the tree pass (stamps are >= 0) */

template <typename T> struct tr;
template <> struct tr<int> {
    static __device__ int inf() { return GK_SSSP_INF32; }
    static __device__ long long key(int x) { return x; }
    static __device__ int unkey(long long k) { return (int)k; }
    static __device__ int add(int a, long long dl) { return a >= GK_SSSP_INF32 - dl ? GK_SSSP_INF32 : (int)(a + dl); }
    static __device__ int rew(int w, int hu, int hv) { return (w + hu) - hv; }
    static __device__ int amin(int *a, int v, bool) { return atomicMin(a, v); }
    static __device__ bool within(int x, const gk__sssp_params &p) { return (long long)x <= p.lim_i; }
    static __device__ int delta(const gk__sssp_params &p) { return (int)p.delta_i; }
};
template <> struct tr<long long> {
    static __device__ long long inf() { return GK_SSSP_INF64; }
    static __device__ long long key(long long x) { return x; }
    static __device__ long long unkey(long long k) { return k; }
    static __device__ long long add(long long a, long long dl) { return a >= GK_SSSP_INF64 - dl ? GK_SSSP_INF64 : a + dl; }
    static __device__ long long rew(long long w, long long hu, long long hv) { return (w + hu) - hv; }
    static __device__ long long amin(long long *a, long long v, bool) { return atomicMin(a, v); }
    static __device__ bool within(long long x, const gk__sssp_params &p) { return x <= p.lim_i; }
    static __device__ long long delta(const gk__sssp_params &p) { return p.delta_i; }
};
template <> struct tr<float> {
    static __device__ float inf() { return __int_as_float(0x7f800000); }
    static __device__ long long key(float x) { return __float_as_int(x); }
    static __device__ float unkey(long long k) { return __int_as_float((int)k); }
    static __device__ float add(float a, double dl) { return a + (float)dl; }
    static __device__ float rew(float w, float hu, float hv) { float x = (w + hu) - hv; return x > 0.0f ? x : 0.0f; }
    static __device__ float amin(float *a, float v, bool neg)
    {
        if (!neg)   /* both non-negative: the bit patterns order as the values */
            return __int_as_float(atomicMin((int *)a, __float_as_int(v)));
        int *ai = (int *)a;
        int old = *(volatile int *)ai;
        while (__int_as_float(old) > v) {
            int prev = atomicCAS(ai, old, __float_as_int(v));
            if (prev == old) break;
            old = prev;
        }
        return __int_as_float(old);
    }
    static __device__ bool within(float x, const gk__sssp_params &p) { return (double)x <= p.lim_f; }
    static __device__ double delta(const gk__sssp_params &p) { return p.delta_f; }
};
template <> struct tr<double> {
    static __device__ double inf() { return __longlong_as_double(0x7ff0000000000000LL); }
    static __device__ long long key(double x) { return __double_as_longlong(x); }
    static __device__ double unkey(long long k) { return __longlong_as_double(k); }
    static __device__ double add(double a, double dl) { return a + dl; }
    static __device__ double rew(double w, double hu, double hv) { double x = (w + hu) - hv; return x > 0.0 ? x : 0.0; }
    static __device__ double amin(double *a, double v, bool neg)
    {
        if (!neg)
            return __longlong_as_double(atomicMin((long long *)a, __double_as_longlong(v)));
        unsigned long long *ai = (unsigned long long *)a;
        unsigned long long old = *(volatile unsigned long long *)ai;
        while (__longlong_as_double((long long)old) > v) {
            unsigned long long prev = atomicCAS(ai, old, (unsigned long long)__double_as_longlong(v));
            if (prev == old) break;
            old = prev;
        }
        return __longlong_as_double((long long)old);
    }
    static __device__ bool within(double x, const gk__sssp_params &p) { return x <= p.lim_f; }
    static __device__ double delta(const gk__sssp_params &p) { return p.delta_f; }
};

/* One block's search state: the queues of its slot and the shared
 * counters. */
template <typename T> struct search {
    const gk__sssp_params *p;
    T *d;
    int *qout, *fa, *mark, *fmark;
    int *s_nout, *s_nfar;
    T thr;
    int stamp;                   /* the stamp of the queue being filled */
    bool bf;
    unsigned long long relax;

    __device__ void push_near(int v)
    {
        if (atomicExch(&mark[v], stamp) != stamp)
            qout[atomicAdd(s_nout, 1)] = v;
    }

    __device__ void edge(int u, T du, T hu, long long e)
    {
        const T *w = (const T *)p->w, *h = (const T *)p->h;
        int v = p->indices[e];
        T cand = h ? du + tr<T>::rew(w[e], hu, h[v]) : du + w[e];
        relax++;
        if (p->prune && !tr<T>::within(cand, *p))
            return;
        if (!(cand < __ldcg(d + v)))
            return;
        T old = tr<T>::amin(d + v, cand, bf);
        if (!(cand < old))
            return;
        if (bf) {
            fmark[v] = u;
            push_near(v);
        } else if (cand < thr) {
            push_near(v);
        } else if (atomicExch(&fmark[v], 1) == 0) {
            fa[atomicAdd(s_nfar, 1)] = v;
        }
    }
};

/* One row: item's search in this block's slot (queues, marks), the row
 * itself (dist, pred) searched in place; the edges it relaxed. */
template <typename T> __device__ unsigned long long sssp_item(const gk__sssp_params &p, long long item)
{
    typedef tr<T> X;
    const long long V = p.V;
    const int tid = threadIdx.x, bd = blockDim.x, lane = tid & 31;
    const long long slot = blockIdx.x;
    const T INF = X::inf();
    const T *h = (const T *)p.h;
    T *d = (T *)p.dist + item * V;
    int *qin = p.queues + slot * 4 * V, *qout = qin + V, *fa = qin + 2 * V, *fb = qin + 3 * V;
    int *mark = p.mark + slot * V, *fmark = p.fmark + slot * V;
    int *pred = p.tree ? p.pred + item * V : 0;
    int *nearest = p.nearest;
    const int *src = p.sources + (p.nsrc == 1 ? item : 0);
    const bool bf = p.mode == GK_SSSP_MODE_BF;
    __shared__ int s_nout, s_nfar, s_nkept;
    __shared__ long long s_min;

    for (long long v = tid; v < V; v += bd) {
        d[v] = INF;
        mark[v] = 0;
        fmark[v] = bf ? -1 : 0;
        if (pred) pred[v] = -1;
        if (nearest) nearest[v] = -1;
    }
    __syncthreads();
    if (tid == 0) {
        int n = 0;
        for (int i = 0; i < p.nsrc; i++) {
            int s = src[i];
            /* min_only with h: the virtual root's edges reweighted, 0 - h[s] */
            T z = (h && p.virt) ? (T)0 - h[s] : (T)0;
            if (z < d[s]) d[s] = z;
            if (mark[s] != 1) { mark[s] = 1; qin[n++] = s; }
        }
        s_nout = n;
        s_nfar = 0;
    }
    __syncthreads();

    search<T> st;
    st.p = &p; st.d = d; st.mark = mark; st.fmark = fmark; st.fa = fa;
    st.s_nout = &s_nout; st.s_nfar = &s_nfar; st.bf = bf; st.relax = 0;
    st.thr = bf ? INF : X::add((T)0, X::delta(p));
    int nn = s_nout;
    int round = 1;                        /* the stamp of the queue in qin */
    bool cycle = false;
    for (;;) {
        while (nn > 0) {
            if (bf && round > p.round_cap) {
                /* a negative cycle: the vertex and the last predecessors */
                if (tid == 0) p.status[item] = 1 + qin[0];
                for (long long v = tid; v < V; v += bd)
                    p.pred[item * V + v] = fmark[v];
                cycle = true;
                break;
            }
            __syncthreads();
            if (tid == 0) s_nout = 0;
            __syncthreads();
            st.qout = qout;
            st.stamp = round + 1;
            for (int i0 = 0; i0 < nn; i0 += bd) {
                int i = i0 + tid, u = -1;
                long long e0 = 0, e1 = 0;
                T du = 0, hu = 0;
                if (i < nn) {
                    u = qin[i];
                    du = __ldcg(d + u);
                    e0 = p.indptr[u];
                    e1 = p.indptr[u + 1];
                    if (h) hu = h[u];
                }
                bool big = u >= 0 && e1 - e0 >= 32;
                unsigned m = __ballot_sync(0xffffffffu, big);
                while (m) {                  /* a hub: the warp's lanes share its edges */
                    int l = __ffs(m) - 1;
                    m &= m - 1;
                    int bu = __shfl_sync(0xffffffffu, u, l);
                    long long b0 = __shfl_sync(0xffffffffu, e0, l), b1 = __shfl_sync(0xffffffffu, e1, l);
                    T bdu = __shfl_sync(0xffffffffu, du, l), bhu = __shfl_sync(0xffffffffu, hu, l);
                    for (long long e = b0 + lane; e < b1; e += 32)
                        st.edge(bu, bdu, bhu, e);
                }
                if (u >= 0 && !big)
                    for (long long e = e0; e < e1; e++)
                        st.edge(u, du, hu, e);
            }
            __syncthreads();
            nn = s_nout;
            int *t = qin; qin = qout; qout = t;
            round++;
        }
        if (bf || cycle)
            break;
        /* the near queue is empty: raise the threshold, move the far
           vertices below it to the near queue (those below the old one were
           searched when they got there) */
        __syncthreads();
        int nfar = s_nfar;
        if (nfar == 0)
            break;
        T old = st.thr, nt = X::add(st.thr, X::delta(p));
        for (int pass = 0; pass < 2; pass++) {
            __syncthreads();
            if (tid == 0) { s_nout = 0; s_nkept = 0; s_min = 0x7fffffffffffffffLL; }
            __syncthreads();
            for (int i = tid; i < nfar; i += bd) {
                int v = fa[i];
                T dv = __ldcg(d + v);
                if (dv < old) {
                    fmark[v] = 0;
                } else if (dv < nt) {
                    fmark[v] = 0;
                    if (atomicExch(&mark[v], round) != round)
                        qin[atomicAdd(&s_nout, 1)] = v;
                } else {
                    fb[atomicAdd(&s_nkept, 1)] = v;
                    atomicMin(&s_min, X::key(dv));
                }
            }
            __syncthreads();
            nn = s_nout;
            nfar = s_nkept;
            T mf = X::unkey(s_min);
            int *t = fa; fa = fb; fb = t;
            st.thr = nt;
            if (nn > 0 || nfar == 0)
                break;
            /* nothing within one width: jump to the nearest far vertex */
            old = nt;
            nt = X::add(mf, X::delta(p));
            if (!(nt > mf)) nt = INF;
        }
        st.fa = fa;
        __syncthreads();
        if (tid == 0) s_nfar = nfar;
        __syncthreads();
        if (nn == 0)
            break;
    }
    __syncthreads();

    /* the tree: a breadth-first walk over the tight edges from the sources */
    if (p.tree && !cycle) {
        const T *w = (const T *)p.w;
        if (tid == 0) {
            int n = 0;
            for (int i = 0; i < p.nsrc; i++) {
                int s = src[i];
                /* a root only where the search left its start value: a source
                   that another reached for less (negative weights) takes a
                   predecessor like any vertex */
                T z = (h && p.virt) ? (T)0 - h[s] : (T)0;
                if (d[s] == z && mark[s] != VISITED) {
                    mark[s] = VISITED;
                    qin[n++] = s;
                    if (nearest) nearest[s] = s;
                }
            }
            s_nout = n;
        }
        __syncthreads();
        nn = s_nout;
        while (nn > 0) {
            __syncthreads();
            if (tid == 0) s_nout = 0;
            __syncthreads();
            for (int i = tid; i < nn; i += bd) {
                int u = qin[i];
                T du = d[u], hu = h ? h[u] : (T)0;
                for (long long e = p.indptr[u], e1 = p.indptr[u + 1]; e < e1; e++) {
                    int v = p.indices[e];
                    T dv = __ldcg(d + v);
                    if (dv == INF)
                        continue;
                    T cand = h ? du + X::rew(w[e], hu, h[v]) : du + w[e];
                    if (cand == dv && __ldcg(mark + v) != VISITED && atomicExch(&mark[v], VISITED) != VISITED) {
                        if (pred) pred[v] = u;
                        if (nearest) nearest[v] = nearest[u];
                        qout[atomicAdd(&s_nout, 1)] = v;
                    }
                }
            }
            __syncthreads();
            nn = s_nout;
            int *t = qin; qin = qout; qout = t;
        }
        __syncthreads();
    }

    /* back from the reweighted distances; the limit where the search could
       not apply it */
    if (!cycle && (h || (p.has_limit && !p.prune))) {
        T hs = (h && !p.virt) ? h[src[0]] : (T)0;
        for (long long v = tid; v < V; v += bd) {
            T x = d[v];
            if (x == INF)
                continue;
            if (h)
                x = !p.virt ? (x - hs) + h[v] : x + h[v];
            if (p.has_limit && !X::within(x, p)) {
                x = INF;
                if (pred) pred[v] = -1;
                if (nearest) nearest[v] = -1;
            }
            d[v] = x;
        }
    }
    __syncthreads();
    return st.relax;
}

/* A block takes rows until none is left: sources whose searches take
 * longer (a corner of a grid) do not hold a wave back. */
template <typename T> __device__ void sssp_block(const gk__sssp_params &p)
{
    __shared__ int s_item;
    unsigned long long relax = 0;
    for (;;) {
        __syncthreads();
        if (threadIdx.x == 0) s_item = atomicAdd(p.next, 1);
        __syncthreads();
        long long item = s_item;
        if (item >= p.nitems)
            break;
        relax += sssp_item<T>(p, item);
    }
    if (relax) atomicAdd(p.relax, relax);
}

extern "C" __global__ void __launch_bounds__(1024) gk_sssp_i32(gk__sssp_params p) { sssp_block<int>(p); }
extern "C" __global__ void __launch_bounds__(1024) gk_sssp_i64(gk__sssp_params p) { sssp_block<long long>(p); }
extern "C" __global__ void __launch_bounds__(1024) gk_sssp_f32(gk__sssp_params p) { sssp_block<float>(p); }
extern "C" __global__ void __launch_bounds__(1024) gk_sssp_f64(gk__sssp_params p) { sssp_block<double>(p); }
