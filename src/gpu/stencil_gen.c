/* stencil_gen.c - host side of the generated stencil engine: the source of
 * a description (stencil_gen_src.c) compiled with NVRTC (cubins cached per
 * process by the hash of their source and the architecture: a description
 * opened again, by the tuner, the bench or every GPU of a run, compiles
 * once; and in the store the caller passes to each open, its context's
 * cache directory: another process loads them from there), dense device
 * buffers, the pass loop. */
#include "gpu/stencil_gen.h"
#include "gpu/gpu.h"
#include "core/rng.h"

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct gk_stencil_gen {
    gk_device_info dev;
    cudaStream_t stream;
    gk__stencil_spec spec;
    gk_config cfg;                 /* complete */
    char cfgtext[160];
    cudaLibrary_t lib;
    cudaKernel_t k[GK__SG_TMAX + 1];   /* k[t]: t steps per pass, t = 1..tmax */
    int tmax, tx, ty, zc, nt;
    int design, px, xh;            /* DESIGN (0 ring, 1 warp streaming), PX, XH */
    size_t dyn[GK__SG_TMAX + 1];   /* XH=1: the dynamic shared memory k[t] is allowed (0: not set yet) */
    int64_t nx, ny, nz;            /* as given (2D: nz = 1) */
    int mx, my, mz;                /* as run: 2D is mx = nx, my = 1, mz = ny */
    int org, orgx;                 /* the tiles' origin in y, z and in x (gk__stencil_gen_origin): r or 0 */
    size_t es, bytes;
    size_t maxpitch;               /* the longest pitch of a 2D copy (band_sync) */
    void *buf[2];
    int cur;
    gk_gpu_timer timer;
};

/* ---- the per-process cubin cache ---- */
#define CACHED 32
static struct { uint64_t hash; int arch; size_t len; void *cubin; size_t size; } cache[CACHED];
static unsigned cache_next;
static pthread_mutex_t cache_lock = PTHREAD_MUTEX_INITIALIZER;

static void *cache_find(uint64_t h, int arch, size_t len, size_t *size)
{
    void *c = NULL;
    pthread_mutex_lock(&cache_lock);
    for (int i = 0; i < CACHED && !c; i++)
        if (cache[i].cubin && cache[i].hash == h && cache[i].arch == arch && cache[i].len == len
            && (c = malloc(cache[i].size))) {
            memcpy(c, cache[i].cubin, cache[i].size);
            *size = cache[i].size;
        }
    pthread_mutex_unlock(&cache_lock);
    return c;
}

static void cache_add(uint64_t h, int arch, size_t len, const void *cubin, size_t size)
{
    void *c = malloc(size);
    if (!c) return;                  /* a cache, not a requirement */
    memcpy(c, cubin, size);
    pthread_mutex_lock(&cache_lock);
    unsigned i = cache_next++ % CACHED;
    free(cache[i].cubin);
    cache[i].hash = h;
    cache[i].arch = arch;
    cache[i].len = len;
    cache[i].cubin = c;
    cache[i].size = size;
    pthread_mutex_unlock(&cache_lock);
}

static void cache_forget(uint64_t h, int arch, size_t len)
{
    pthread_mutex_lock(&cache_lock);
    for (int i = 0; i < CACHED; i++)
        if (cache[i].cubin && cache[i].hash == h && cache[i].arch == arch && cache[i].len == len) {
            free(cache[i].cubin);
            cache[i].cubin = NULL;
        }
    pthread_mutex_unlock(&cache_lock);
}

/* The kernels: the process's cache, else disk (the caller's store; NULL:
 * none), else NVRTC. */
static gk_status load_module(gk_stencil_gen *g, const gk__sg_cubin_store *disk)
{
    char *src = NULL;
    gk_status st = gk__stencil_gen_source(&g->spec, &g->cfg, &src);
    if (st) return st;
    size_t len = strlen(src), size = 0;
    uint64_t h = gk__fnv1a64(src, len);
    int arch = 10 * g->dev.cc_major + g->dev.cc_minor;
    void *cubin = cache_find(h, arch, len, &size);
    char name[96];
    snprintf(name, sizeof name, "sm%d-rt%d-%016llx-%zu", arch, g->dev.runtime_version, (unsigned long long)h, len);
    int from_disk = 0;
    if (!cubin && disk && disk->load && disk->load(disk, name, &cubin, &size)) {
        from_disk = 1;               /* checked by the load below: a bad one is compiled again */
        cache_add(h, arch, len, cubin, size);
    }
    if (!cubin) {
        gk_kernel_image img = { "stencil_gen", NULL, 0, src, len };
        gk_config none;
        char log[1024];
        gk__config_clear(&none);
        st = gk__nvrtc_compile(&img, NULL, &none, g->dev.cc_major, g->dev.cc_minor, &cubin, &size, log, sizeof log);
        if (st) {
            char *nl = strchr(log, '\n');
            if (nl) *nl = '\0';
            if (log[0])
                st = gk__fail(st, "stencil %s with %s: NVRTC: %.400s", g->spec.key, g->cfgtext, log);
            free(src);
            return st;
        }
        cache_add(h, arch, len, cubin, size);
        if (disk && disk->save)
            disk->save(disk, name, cubin, size);
    }
    cudaError_t e = cudaLibraryLoadData(&g->lib, cubin, NULL, NULL, 0, NULL, NULL, 0);
    free(cubin);
    if (e != cudaSuccess && from_disk) {
        /* a stored cubin the driver refuses: forget it, compile again */
        cache_forget(h, arch, len);
        free(src);
        g->lib = NULL;
        (void)cudaGetLastError();
        return load_module(g, NULL);
    }
    free(src);
    if (e != cudaSuccess)
        return gk__cuda_fail(e, "cudaLibraryLoadData(generated stencil)");
    for (int t = 1; t <= g->tmax; t++) {
        char kname[32];
        snprintf(kname, sizeof kname, "gk_sg_t%d", t);
        GK_CUDA_TRY(cudaLibraryGetKernel(&g->k[t], g->lib, kname));
    }
    return GK_OK;
}

gk_status gk__stencil_gen_open(gk_stencil_gen **out, const gk_device_info *dev, void *stream,
                               const gk__stencil_spec *s, int64_t nx, int64_t ny, int64_t nz,
                               const gk_config *cfg, const gk__sg_cubin_store *store)
{
    gk_status st;
    *out = NULL;
    if (!s || (s->dims != 2 && s->dims != 3) || s->radius < 1 || s->radius > 4 || s->npoints < 1
        || s->npoints > GK_STENCIL_MAX_POINTS || (s->dtype != GK_DTYPE_FLOAT32 && s->dtype != GK_DTYPE_FLOAT64))
        return gk__fail(GK_EINVAL, "stencil_gen: not a valid stencil description");
    if (s->dims == 2 && nz != 1)
        return gk__fail(GK_EINVAL, "stencil %s: a 2D grid has nz = 1, not %lld", s->key, (long long)nz);
    if (nx < 1 || ny < 1 || nz < 1 || nx > (1 << 30) || ny > (1 << 30) || nz > (1 << 30))
        return gk__fail(GK_EINVAL, "stencil grid %lldx%lldx%lld: sizes must be 1..2^30", (long long)nx,
                        (long long)ny, (long long)nz);
    int r = s->radius;
    if (s->boundary == GK_BOUNDARY_PERIODIC
        && (nx < 2 * r + 1 || ny < 2 * r + 1 || (s->dims == 3 && nz < 2 * r + 1)))
        return gk__fail(GK_EINVAL, "stencil %s: a periodic grid needs every extent >= %d (2r+1), not %lldx%lldx%lld",
                        s->key, 2 * r + 1, (long long)nx, (long long)ny, (long long)nz);
    gk_stencil_gen *g = calloc(1, sizeof *g);
    if (!g)
        return gk__fail(GK_ENOMEM, "out of host memory for the generated stencil");
    g->dev = *dev;
    g->stream = (cudaStream_t)stream;
    g->spec = *s;
    gk_config def;
    /* a configuration naming its design completes with that design's
     * defaults (DESIGN=1 alone: the warp design's own rows, steps, lanes) */
    g->es = s->dtype == GK_DTYPE_FLOAT32 ? 4 : 8;
    gk__stencil_gen_default_design(s->dims, r, gk__stencil_gen_points(s), g->es,
                                   cfg ? gk__config_get(cfg, "DESIGN", -1) : -1, &def);
    if (!cfg)                         /* the defaults (the slabs of a distributed run): on this device */
        gk__stencil_gen_default_fit(s->dims, r, g->es, dev, &def);
    if (cfg) {
        /* the given parameters over the description's defaults */
        for (int i = 0; i < cfg->n; i++)
            if ((st = gk__config_set(&def, cfg->p[i].name, cfg->p[i].value)))
                goto fail;
    }
    if ((st = gk__space_complete(&gk__space_stencil_gen, &def, &g->cfg)))
        goto fail;
    gk__config_format(&g->cfg, g->cfgtext, sizeof g->cfgtext);
    char why[256];
    if (gk__stencil_gen_reject(&g->cfg, s->dims, r, g->es, &g->dev, why, sizeof why)) {
        st = gk__fail(GK_EINVAL, "stencil %s configuration %s cannot run here: %s", s->key, g->cfgtext, why);
        goto fail;
    }
    g->tmax = gk__param(&g->cfg, "TSTEPS");
    g->tx = gk__param(&g->cfg, "TX");
    g->ty = s->dims == 3 ? gk__param(&g->cfg, "TY") : 1;
    g->zc = gk__param(&g->cfg, "ZC");
    g->nt = gk__param(&g->cfg, "NT");
    g->design = gk__param(&g->cfg, "DESIGN");
    g->org = gk__stencil_gen_origin(&g->cfg, (int)s->boundary, r);
    g->orgx = gk__stencil_gen_origin_x(&g->cfg, (int)s->boundary, r);
    g->px = gk__param(&g->cfg, "PX");
    g->xh = gk__stencil_gen_xh(&g->cfg);
    g->nx = nx; g->ny = ny; g->nz = nz;
    g->mx = (int)nx;
    g->my = s->dims == 3 ? (int)ny : 1;
    g->mz = s->dims == 3 ? (int)nz : (int)ny;
    if (g->design == 2 && s->boundary == GK_BOUNDARY_PERIODIC) {
        /* the tiles' halo of t*r points wraps once (sgz_wrap): a periodic
         * grid thinner than that runs fewer steps per pass (same results;
         * the configuration that runs, and says so, has that TSTEPS) */
        int asked = g->tmax;
        while (g->tmax > 1 && (g->tmax * r > nx || g->tmax * r > ny || g->tmax * r > nz))
            g->tmax--;
        if (g->tmax != asked) {
            gk__config_set(&g->cfg, "TSTEPS", g->tmax);
            gk__config_format(&g->cfg, g->cfgtext, sizeof g->cfgtext);
        }
    }
    int64_t oy = g->ty - (g->design == 2 ? 2 * (g->tmax - 1) * r : 0);
    int64_t by = (g->my + oy - 1) / oy, bz = (g->mz + g->zc - 1) / g->zc;
    if (by > 65535 || bz > 65535) {
        st = gk__fail(GK_EINVAL, "stencil grid %lldx%lldx%lld: too many blocks along y or z with %s (%lld, %lld > 65535)",
                      (long long)nx, (long long)ny, (long long)nz, g->cfgtext, (long long)by, (long long)bz);
        goto fail;
    }
    /* each extent <= 2^30: the product is checked before it is a size */
    if ((double)nx * (double)ny * (double)nz * (double)g->es > (double)(SIZE_MAX / 4)) {
        st = gk__fail(GK_ENOMEM, "stencil grid %lldx%lldx%lld: too large for one GPU", (long long)nx, (long long)ny,
                      (long long)nz);
        goto fail;
    }
    g->bytes = (size_t)nx * (size_t)ny * (size_t)nz * g->es;
    size_t fr = 0, tot = 0;
    GK_CUDA_GOTO(cudaMemGetInfo(&fr, &tot), st, fail);
    if (2 * g->bytes > fr) {
        char b1[32], b2[32];
        st = gk__fail(GK_ENOMEM, "stencil grid %lldx%lldx%lld needs %s of GPU memory (two buffers), %s has %s free",
                      (long long)nx, (long long)ny, (long long)nz, gk__human_bytes(2.0 * (double)g->bytes, b1, sizeof b1),
                      g->dev.name, gk__human_bytes((double)fr, b2, sizeof b2));
        goto fail;
    }
    int mp = 0;                      /* unknown: the 2^31 - 1 of every GPU so far */
    if (cudaDeviceGetAttribute(&mp, cudaDevAttrMaxPitch, g->dev.ordinal) != cudaSuccess)
        (void)cudaGetLastError();
    g->maxpitch = mp > 0 ? (size_t)mp : (size_t)INT32_MAX;
    if ((st = load_module(g, store)))
        goto fail;
    GK_CUDA_GOTO(cudaMalloc(&g->buf[0], g->bytes), st, fail);
    GK_CUDA_GOTO(cudaMalloc(&g->buf[1], g->bytes), st, fail);
    if ((st = gk__gpu_timer_init(&g->timer)))
        goto fail;
    *out = g;
    return GK_OK;
fail:
    gk__stencil_gen_close(g);
    return st;
}

void gk__stencil_gen_close(gk_stencil_gen *g)
{
    if (!g) return;
    gk__gpu_timer_free(&g->timer);
    cudaFree(g->buf[0]);
    cudaFree(g->buf[1]);
    if (g->lib)
        cudaLibraryUnload(g->lib);
    free(g);
}

const char *gk__stencil_gen_config(const gk_stencil_gen *g) { return g->cfgtext; }

/* The tiles start at org = r (the fixed boundary, DESIGN=1 and 2): the
 * kernels write the interior only, so the band of r cells at each face,
 * which never changes, must be in the buffer they write as it is in the one
 * they read.  After the host wrote planes [p0, p1) (2D: rows) of the
 * current buffer, their band goes to the other one: the whole of each
 * plane in the band of z (2D: of y), then the r rows at either side in y
 * (3D) and the r columns at either side in x of the others, as strided
 * device copies (no kernel).
 *   gk__stencil_gen_band_copies lists those copies for an mx x my x mz grid
 * as run (2D: my = 1) of es-byte elements: c[i] = { byte offset (the same
 * in both buffers), pitch, width, height }, height 1 a contiguous block;
 * at most max of them written, the count returned.  No copy of several
 * rows has a pitch above maxpitch (the device's, cudaDevAttrMaxPitch:
 * 2^31 - 1 bytes; cudaMemcpy2D refuses more): a plane or row that long is
 * copied a block at a time.  Declared in gpu/stencil_gen.h (CUDA builds):
 * tests/test_stencil_gen.c checks the cells it covers without a GPU. */
/* height blocks of width bytes, pitch apart, from off: into c[k..] */
static size_t band_copy(size_t (*c)[4], size_t max, size_t k, size_t off, size_t pitch, size_t width, size_t height,
                        size_t maxpitch)
{
    if (height > 1 && pitch == width) {   /* contiguous */
        width *= height;
        height = 1;
    }
    if (height > 1 && pitch > maxpitch) { /* one block at a time */
        for (size_t i = 0; i < height; i++)
            k = band_copy(c, max, k, off + i * pitch, width, width, 1, maxpitch);
        return k;
    }
    if (k < max) {
        c[k][0] = off;
        c[k][1] = height > 1 ? pitch : width;
        c[k][2] = width;
        c[k][3] = height;
    }
    return k + 1;
}

size_t gk__stencil_gen_band_copies(int dims, int64_t mx, int64_t my, int64_t mz, int64_t r, size_t es, size_t maxpitch,
                                   int64_t p0, int64_t p1, size_t (*c)[4], size_t max)
{
    size_t k = 0;
    if (r < 1 || p1 <= p0)
        return 0;
    const size_t row = (size_t)mx * es, plane = row * (size_t)my, band = (size_t)r * es;
    /* a plane of no interior (x, or y in 3D, at most 2r wide) is all band */
    const int thin = mx <= 2 * r || (dims == 3 && my <= 2 * r);
    for (int64_t p = p0; p < p1;) {
        int in_band = thin || p < r || p >= mz - r;
        int64_t e = p + 1;            /* [p, e): planes all in the band or all inside */
        while (e < p1 && (thin || e < r || e >= mz - r) == in_band)
            e++;
        size_t o = (size_t)p * plane, n = (size_t)(e - p);
        if (in_band) {
            k = band_copy(c, max, k, o, plane, plane, n, maxpitch);
        } else {
            if (dims == 3) {          /* rows y < r and y >= my - r of each plane */
                size_t top = (size_t)(my - r) * row;
                k = band_copy(c, max, k, o, plane, (size_t)r * row, n, maxpitch);
                k = band_copy(c, max, k, o + top, plane, (size_t)r * row, n, maxpitch);
            }
            size_t rows = n * (size_t)my, right = (size_t)(mx - r) * es;
            k = band_copy(c, max, k, o, row, band, rows, maxpitch);
            k = band_copy(c, max, k, o + right, row, band, rows, maxpitch);
        }
        p = e;
    }
    return k;
}

static gk_status band_sync(gk_stencil_gen *g, int64_t p0, int64_t p1)
{
    if (!g->org || p1 <= p0)
        return GK_OK;
    size_t small[16][4], (*c)[4] = small;
    size_t n = gk__stencil_gen_band_copies(g->spec.dims, g->mx, g->my, g->mz, g->org, g->es, g->maxpitch, p0, p1,
                                           small, 16);
    if (n > 16) {                     /* planes or rows beyond the pitch a 2D copy takes: a copy each */
        if (!(c = malloc(n * sizeof *c)))
            return gk__fail(GK_ENOMEM, "out of host memory for the band's copies (%zu)", n);
        gk__stencil_gen_band_copies(g->spec.dims, g->mx, g->my, g->mz, g->org, g->es, g->maxpitch, p0, p1, c, n);
    }
    char *src = g->buf[g->cur], *dst = g->buf[g->cur ^ 1];
    cudaError_t e = cudaSuccess;
    for (size_t i = 0; i < n && e == cudaSuccess; i++)
        e = c[i][3] == 1 ? cudaMemcpyAsync(dst + c[i][0], src + c[i][0], c[i][2], cudaMemcpyDeviceToDevice, g->stream)
                         : cudaMemcpy2DAsync(dst + c[i][0], c[i][1], src + c[i][0], c[i][1], c[i][2], c[i][3],
                                             cudaMemcpyDeviceToDevice, g->stream);
    if (c != small)
        free(c);
    if (e != cudaSuccess)
        return gk__cuda_fail(e, "the fixed band's copy to the other buffer");
    return GK_OK;
}

gk_status gk__stencil_gen_upload(gk_stencil_gen *g, const void *grid, float *ms)
{
    gk_status st;
    g->cur = 0;
    if ((st = gk__gpu_timer_start(&g->timer, g->stream))) return st;
    GK_CUDA_TRY(cudaMemcpyAsync(g->buf[0], grid, g->bytes, cudaMemcpyHostToDevice, g->stream));
    if ((st = band_sync(g, 0, g->mz))) return st;
    return gk__gpu_timer_stop(&g->timer, g->stream, ms);
}

gk_status gk__stencil_gen_download(gk_stencil_gen *g, void *grid, float *ms)
{
    gk_status st;
    if ((st = gk__gpu_timer_start(&g->timer, g->stream))) return st;
    GK_CUDA_TRY(cudaMemcpyAsync(grid, g->buf[g->cur], g->bytes, cudaMemcpyDeviceToHost, g->stream));
    return gk__gpu_timer_stop(&g->timer, g->stream, ms);
}

/* One pass of t steps; swaps the buffers. */
static gk_status launch(gk_stencil_gen *g, int t)
{
    /* DESIGN=2 with t steps stores the inner (TX - 2H) x (TY - 2H) of its
     * tile, H = (t-1)r (the rules keep it >= 1) */
    int h = g->design == 2 ? (t - 1) * g->spec.radius : 0, ox = g->tx - 2 * h, oy = g->ty - 2 * h;
    /* the points the tiles cover: the interior with the band kept (org = r;
     * x: orgx, 0 or r) */
    int64_t ex = g->mx - 2 * g->orgx, ey = g->spec.dims == 3 ? g->my - 2 * g->org : g->my, ez = g->mz - 2 * g->org;
    if (g->mx - 2 * g->org < 1 || ey < 1 || ez < 1)
        return GK_OK;                 /* all band: the step keeps every value (the buffers stay) */
    dim3 grid = gk__dim3((unsigned)((ex + ox - 1) / ox), (unsigned)((ey + oy - 1) / oy),
                         (unsigned)((ez + g->zc - 1) / g->zc));
    size_t smem = gk__stencil_gen_smem(&g->cfg, g->spec.dims, g->spec.radius, g->es, t);
    if (g->design == 1) {
        /* NT/32 warps per block, each a strip of W output columns (t steps:
         * t*r halo columns a side) and ZC rows; XH=1: the block one strip
         * (NT*PX columns), its stages' rows in shared memory */
        int64_t lanes = g->xh ? g->nt : 32, w = lanes * g->px - 2 * t * g->spec.radius, strips = (ex + w - 1) / w;
        int64_t spb = g->xh ? 1 : g->nt / 32;
        grid = gk__dim3((unsigned)((strips + spb - 1) / spb), (unsigned)((ez + g->zc - 1) / g->zc), 1);
    }
    if (g->design == 1 && g->xh && smem > g->dyn[t]) {
        /* the rows (dynamic) next to the ST=2 rings (static): past 48 KiB
         * together, a launch needs the kernel's allowance raised even where
         * the dynamic part alone is below it (gk__gpu_launch looks at that
         * part only); the rules kept both within the device's opt-in */
        GK_CUDA_TRY(cudaFuncSetAttribute((const void *)g->k[t], cudaFuncAttributeMaxDynamicSharedMemorySize,
                                         (int)smem));
        g->dyn[t] = smem;
    }
    const void *in = g->buf[g->cur];
    void *out = g->buf[g->cur ^ 1];
    int mx = g->mx, my = g->my, mz = g->mz;
    long long sy = g->mx, sz = (long long)g->mx * g->my;
    void *args[] = { &in, &out, &mx, &my, &mz, &sy, &sz };
    gk_status st = gk__gpu_launch(g->k[t], grid, gk__dim3((unsigned)g->nt, 1, 1), smem, g->stream, args);
    if (!st)
        g->cur ^= 1;
    return st;
}

gk_status gk__stencil_gen_run(gk_stencil_gen *g, int64_t steps, float *ms)
{
    gk_status st;
    if (steps < 0)
        return gk__fail(GK_EINVAL, "stencil: steps %lld < 0", (long long)steps);
    if ((st = gk__gpu_timer_start(&g->timer, g->stream))) return st;
    for (int64_t s = 0; s < steps; s += g->tmax)
        if ((st = launch(g, steps - s < g->tmax ? (int)(steps - s) : g->tmax)))
            return st;
    if ((st = gk__gpu_timer_stop(&g->timer, g->stream, ms))) return st;
    GK_CUDA_TRY(cudaGetLastError());
    return GK_OK;
}

/* The grid between the current buffer and a pitched device grid. */
static gk_status copy_pitched(gk_stencil_gen *g, void *grid, int64_t pitch_y, int64_t pitch_z, int to_user)
{
    size_t row = (size_t)g->nx * g->es, upitch = (size_t)pitch_y * g->es;
    char *u = grid, *d = g->buf[g->cur];
    int64_t planes = g->spec.dims == 3 ? g->nz : 1;
    if (g->spec.dims == 3 && pitch_z == pitch_y * g->ny)
        planes = 1;                  /* one 2D copy of ny*nz rows */
    size_t rows = planes == 1 ? (size_t)g->ny * (size_t)g->nz : (size_t)g->ny;
    for (int64_t z = 0; z < planes; z++) {
        char *uz = u + (size_t)z * (size_t)pitch_z * g->es, *dz = d + (size_t)z * (size_t)g->ny * row;
        if (to_user)
            GK_CUDA_TRY(cudaMemcpy2DAsync(uz, upitch, dz, row, row, rows, cudaMemcpyDeviceToDevice, g->stream));
        else
            GK_CUDA_TRY(cudaMemcpy2DAsync(dz, row, uz, upitch, row, rows, cudaMemcpyDeviceToDevice, g->stream));
    }
    return GK_OK;
}

gk_status gk__stencil_gen_exec_device(gk_stencil_gen *g, void *grid, int64_t pitch_y, int64_t pitch_z,
                                      int64_t steps)
{
    gk_status st;
    if (pitch_y < g->nx || (g->spec.dims == 3 && pitch_z < pitch_y * g->ny))
        return gk__fail(GK_EINVAL, "stencil: pitches %lld, %lld too small for a %lldx%lldx%lld grid",
                        (long long)pitch_y, (long long)pitch_z, (long long)g->nx, (long long)g->ny, (long long)g->nz);
    g->cur = 0;
    if ((st = copy_pitched(g, grid, pitch_y, pitch_z, 0)) || (st = band_sync(g, 0, g->mz))
        || (st = gk__stencil_gen_run(g, steps, NULL))
        || (st = copy_pitched(g, grid, pitch_y, pitch_z, 1)))
        return st;
    GK_CUDA_TRY(cudaStreamSynchronize(g->stream));
    return GK_OK;
}

/* ---- slabs (src/api/stencil_dist.c): one engine per GPU of a process ---- */

gk_status gk__stencil_gen_open_on(gk_stencil_gen **g, const gk_device_info *dev, const gk__stencil_spec *s,
                                  int64_t nx, int64_t ny, int64_t nz, const gk_config *cfg,
                                  const gk__sg_cubin_store *store)
{
    *g = NULL;
    GK_CUDA_TRY(cudaSetDevice(dev->ordinal));
    return gk__stencil_gen_open(g, dev, NULL, s, nx, ny, nz, cfg, store);
}

gk_status gk__stencil_gen_planes(gk_stencil_gen *g, int64_t k, int64_t n, void *host, int put)
{
    size_t plane = (size_t)g->nx * (g->spec.dims == 3 ? (size_t)g->ny : 1) * g->es;
    char *d = (char *)g->buf[g->cur] + (size_t)k * plane;
    GK_CUDA_TRY(cudaSetDevice(g->dev.ordinal));
    if (put) {
        GK_CUDA_TRY(cudaMemcpyAsync(d, host, (size_t)n * plane, cudaMemcpyHostToDevice, g->stream));
        gk_status st = band_sync(g, k, k + n);
        if (st) return st;
    } else
        GK_CUDA_TRY(cudaMemcpyAsync(host, d, (size_t)n * plane, cudaMemcpyDeviceToHost, g->stream));
    GK_CUDA_TRY(cudaStreamSynchronize(g->stream));
    return GK_OK;
}

gk_status gk__stencil_gen_steps_on(gk_stencil_gen *g, int64_t steps, int wait)
{
    gk_status st;
    GK_CUDA_TRY(cudaSetDevice(g->dev.ordinal));
    if (steps > 0 && (st = gk__stencil_gen_run(g, steps, NULL)))
        return st;
    if (wait)
        GK_CUDA_TRY(cudaStreamSynchronize(g->stream));
    return GK_OK;
}
