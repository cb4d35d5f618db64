// vadd.cu - the smallest kernel: proves the plumbing (fatbin embedded in
// libgk, loaded from C, launched by handle, timed with events) and NVRTC
// variants (-DVADD_PER_THREAD).  Kernels only: no host code in .cu files.

#ifndef VADD_PER_THREAD
#define VADD_PER_THREAD 1
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
