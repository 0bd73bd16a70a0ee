/* Kernels that fail on purpose, for the tests: the tutor must survive them. */

/* A store far outside any allocation: cudaErrorIllegalAddress. */
extern "C" __global__ void fault_out_of_bounds(int *p)
{
    p[threadIdx.x + (1ull << 40)] = 1;
}

/* A trap: cudaErrorLaunchFailure. */
extern "C" __global__ void fault_trap(int *p)
{
    if (threadIdx.x == 0)
        __trap();
    p[threadIdx.x] = 0;
}
