/*
 * Why the tutor waits for each timed run before sending the next: a short
 * kernel (vectorize's char4 add, 2^24 elements, about 20 us on an H100),
 * timed 1200 times between two events after the tutor's preparation (the
 * output poisoned, L2 evicted by reading a buffer four times its size),
 * in four ways, taken in turns so that any drift touches each alike:
 *   queued     16 runs sent one behind another, then a wait (the tutor
 *              before 2026-11-25);
 *   waited     a wait after every run (the tutor now, cub-bench, ncu);
 *   spacer     queued, with an empty kernel between the flush and the
 *              first event;
 *   warm       queued, no flush: L2 keeps the last run's data.
 * For each: the quartiles and the IQR as a percentage of the median.
 * Built and run on a GPU machine:
 *   nvcc -O3 -arch=sm_90 -o /tmp/queue-jitter scripts/queue-jitter.cu && /tmp/queue-jitter
 */
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK(x) do { cudaError_t rc_ = (x); if (rc_ != cudaSuccess) { \
	std::fprintf(stderr, "%s: %s\n", #x, cudaGetErrorString(rc_)); std::exit(1); } } while (0)

struct __align__(4) pack { signed char e[4]; };

/* kernels/vectorize.cu's vec_add<signed char, 4>, for n a multiple of 4 */
__global__ void add_char4(const pack *x, const pack *y, pack *z, int packs)
{
#pragma unroll 1
	for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < packs; i += blockDim.x * gridDim.x) {
		pack a = x[i], b = y[i], c;
#pragma unroll
		for (int k = 0; k < 4; k++)
			c.e[k] = a.e[k] + b.e[k];
		z[i] = c;
	}
}

/* kernels/measure.cu's flush_l2_read */
__global__ void flush_read(const int4 *buf, unsigned long long n4, int *sink)
{
	int acc = 0;
	for (unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x; i < n4;
	     i += (unsigned long long)gridDim.x * blockDim.x) {
		int4 v = buf[i];
		acc ^= v.x ^ v.y ^ v.z ^ v.w;
	}
	if (acc == 0x5eed1234)
		*sink = acc;
}

__global__ void empty() {}

enum way { QUEUED, WAITED, SPACER, WARM, WAYS };
static const char *const names[WAYS] = { "queued", "waited", "spacer", "warm" };

int main()
{
	const int n = 1 << 24, packs = n / 4, block = 1024, grid = packs / block, runs = 400, turns = 3;
	int sms, l2;
	CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
	CHECK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, 0));
	const size_t flush_bytes = 4 * (size_t)l2;
	const unsigned long long n4 = flush_bytes / 16;
	pack *x, *y, *z;
	int4 *flush;
	int *sink;
	cudaDeviceProp prop;
	cudaStream_t s;

	CHECK(cudaGetDeviceProperties(&prop, 0));
	CHECK(cudaMalloc(&x, n));
	CHECK(cudaMalloc(&y, n));
	CHECK(cudaMalloc(&z, n));
	CHECK(cudaMalloc(&flush, flush_bytes));
	CHECK(cudaMalloc(&sink, sizeof(int)));
	CHECK(cudaMemset(x, 1, n));
	CHECK(cudaMemset(y, 2, n));
	CHECK(cudaMemset(flush, 0, flush_bytes));
	CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
	std::vector<cudaEvent_t> start(runs), stop(runs);
	for (int i = 0; i < runs; i++) {
		CHECK(cudaEventCreate(&start[i]));
		CHECK(cudaEventCreate(&stop[i]));
	}
	for (int i = 0; i < 50; i++) {
		flush_read<<<sms * 4, 512, 0, s>>>(flush, n4, sink);
		add_char4<<<grid, block, 0, s>>>(x, y, z, packs);
	}
	CHECK(cudaStreamSynchronize(s));

	std::vector<float> us[WAYS];
	for (int turn = 0; turn < turns; turn++)
		for (int w = 0; w < WAYS; w++) {
			for (int i = 0; i < runs; i++) {
				if (w != WARM) {
					CHECK(cudaMemsetAsync(z, 0x7f, n, s));	/* the poison */
					flush_read<<<sms * 4, 512, 0, s>>>(flush, n4, sink);
				}
				if (w == SPACER)
					empty<<<1, 32, 0, s>>>();
				CHECK(cudaEventRecord(start[i], s));
				add_char4<<<grid, block, 0, s>>>(x, y, z, packs);
				CHECK(cudaEventRecord(stop[i], s));
				if (w == WAITED || (i + 1) % 16 == 0)
					CHECK(cudaStreamSynchronize(s));
			}
			CHECK(cudaStreamSynchronize(s));
			for (int i = 0; i < runs; i++) {
				float ms;
				CHECK(cudaEventElapsedTime(&ms, start[i], stop[i]));
				us[w].push_back(ms * 1000);
			}
		}
	std::printf("GPU %s; char4 add of 2^24 elements, %d runs each way\n", prop.name, runs * turns);
	for (int w = 0; w < WAYS; w++) {
		std::vector<float> &t = us[w];
		std::sort(t.begin(), t.end());
		size_t m = t.size();
		float q1 = t[m / 4], med = t[m / 2], q3 = t[3 * m / 4];
		std::printf("%-7s min %6.2f  q1 %6.2f  median %6.2f  q3 %6.2f  max %6.2f us  IQR %.2f%%\n",
		    names[w], t[0], q1, med, q3, t[m - 1], 100 * (q3 - q1) / med);
	}
	return 0;
}
