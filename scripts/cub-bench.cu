/*
 * A standalone yardstick for the tutor's CUB row: cub::DeviceReduce::Sum
 * over n ints, timed as the tutor times a step (the L2 flushed by reading
 * a buffer four times its size before each run, one run between two
 * events, the median of many), once with an int total and once with a
 * 64-bit total as the tutor asks for.  Built and run on a GPU machine:
 *   nvcc -O3 -arch=sm_90 -o /tmp/cub-bench scripts/cub-bench.cu && /tmp/cub-bench
 */
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <cub/device/device_reduce.cuh>

#define CHECK(x) do { cudaError_t rc_ = (x); if (rc_ != cudaSuccess) { \
	std::fprintf(stderr, "%s: %s\n", #x, cudaGetErrorString(rc_)); std::exit(1); } } while (0)

__global__ void flush_read(const int4 *buf, size_t n, int *sink)
{
	int acc = 0;
	for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
		acc ^= buf[i].x;
	if (acc == 0x12345678)
		*sink = acc;
}

template <typename OutT>
static double median_us(const int *d_in, int n, const int4 *flush, size_t flush_n, int *sink,
                        int sms, int reps, OutT *expect_out)
{
	OutT *d_out;
	void *tmp = nullptr;
	size_t tmp_bytes = 0;
	cudaEvent_t a, b;
	std::vector<float> ms(reps);

	CHECK(cudaMalloc(&d_out, sizeof(OutT)));
	CHECK(cub::DeviceReduce::Sum(tmp, tmp_bytes, d_in, d_out, n));
	CHECK(cudaMalloc(&tmp, tmp_bytes));
	CHECK(cudaEventCreate(&a));
	CHECK(cudaEventCreate(&b));
	for (int i = 0; i < 3; i++)
		CHECK(cub::DeviceReduce::Sum(tmp, tmp_bytes, d_in, d_out, n));
	for (int r = 0; r < reps; r++) {
		flush_read<<<sms * 4, 512>>>(flush, flush_n, sink);
		CHECK(cudaEventRecord(a));
		CHECK(cub::DeviceReduce::Sum(tmp, tmp_bytes, d_in, d_out, n));
		CHECK(cudaEventRecord(b));
		CHECK(cudaEventSynchronize(b));
		CHECK(cudaEventElapsedTime(&ms[r], a, b));
	}
	CHECK(cudaMemcpy(expect_out, d_out, sizeof(OutT), cudaMemcpyDeviceToHost));
	std::sort(ms.begin(), ms.end());
	CHECK(cudaFree(tmp));
	CHECK(cudaFree(d_out));
	return ms[reps / 2] * 1000.0;
}

int main()
{
	cudaDeviceProp prop;
	int *d_in, *sink;
	int4 *flush;

	CHECK(cudaGetDeviceProperties(&prop, 0));
	size_t flush_bytes = 4 * (size_t)prop.l2CacheSize;
	CHECK(cudaMalloc(&flush, flush_bytes));
	CHECK(cudaMemset(flush, 1, flush_bytes));
	CHECK(cudaMalloc(&sink, sizeof(int)));
	std::printf("GPU %s, %d SMs, L2 %d MiB\n", prop.name, prop.multiProcessorCount, prop.l2CacheSize >> 20);
	for (int shift : { 24, 28 }) {
		int n = 1 << shift;
		std::vector<int> h(n);
		unsigned long long seed = 20180419ULL;
		long long want = 0;
		for (int i = 0; i < n; i++) {
			seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
			h[i] = (int)((seed >> 33) & 0xff);
			want += h[i];
		}
		CHECK(cudaMalloc(&d_in, (size_t)n * sizeof(int)));
		CHECK(cudaMemcpy(d_in, h.data(), (size_t)n * sizeof(int), cudaMemcpyHostToDevice));
		int got32 = 0;
		long long got64 = 0;
		int reps = shift == 24 ? 200 : 100;
		double t32 = median_us(d_in, n, flush, flush_bytes / 16, sink, prop.multiProcessorCount, reps, &got32);
		double t64 = median_us(d_in, n, flush, flush_bytes / 16, sink, prop.multiProcessorCount, reps, &got64);
		std::printf("2^%d ints: int total %.1f us (%s), long long total %.1f us (%s)\n", shift, t32,
		            got32 == (int)want ? "right" : "WRONG", t64, got64 == want ? "right" : "WRONG");
		CHECK(cudaFree(d_in));
	}
	return 0;
}
