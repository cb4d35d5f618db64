// vadd.cu - the smallest kernel: proves the plumbing (fatbin embedded in
// libgk, loaded from C, launched by handle, timed with events) and NVRTC
// variants (-DVADD_PER_THREAD).  Kernels only: no host code in .cu files.

// The tunable parameters: their ranges, defaults and candidate values are
// described once, in src/core/space_vadd.c; the build and NVRTC pass every
// one of them as -DNAME=VALUE, so none has a default here.
//   VADD_PER_THREAD  elements per thread
//   THREADS          threads per block (the host launches blocks of THREADS)
#ifndef VADD_PER_THREAD
#error "VADD_PER_THREAD must be defined (gk passes every parameter of the kernel's space)"
#endif
#ifndef THREADS
#error "THREADS must be defined (gk passes every parameter of the kernel's space)"
#endif

extern "C" __global__ void gk_vadd(const float *a, const float *b, float *c, unsigned long long n)
{
    unsigned long long i0 = ((unsigned long long)blockIdx.x * blockDim.x + threadIdx.x) * VADD_PER_THREAD;
#pragma unroll
    for (int k = 0; k < VADD_PER_THREAD; k++) {
        unsigned long long i = i0 + k;
        if (i < n)
            c[i] = a[i] + b[i];
    }
}
