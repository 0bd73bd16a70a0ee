/* Experiment: the sum of n ints, by the reduction kernels and by CUB. */
#include "config.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "experiments/experiments.h"
#include "experiments/yardsticks.h"
#include "gpu.h"
#include "host_buffer.h"
#include "i18n.h"
#include "kernel_def.h"

#define REDUCE_SEED 20180419ULL

struct reduce_state {
	struct experiment_run run;	/* first: see experiment.h */
	const struct kernel_def *k;
	struct step_params p;
	unsigned long long capacity;	/* ints in d_in: whole chunks */
	int *d_in, *d_pristine, *d_out;
	long long *d_total;		/* CUB's answer, or a one-pass kernel's */
	unsigned int *d_blocks_done;	/* a one-pass kernel's count of finished blocks */
	void *d_tmp;
	size_t tmp_bytes;
	int64_t reference;		/* the sum of the input as drawn */
	/*
	 * With a seed (an exercise's check), every run changes one element of
	 * its input (experiment_changed_element): expected is the sum of the
	 * last run's input, host the input as drawn.
	 */
	const int *host;
	unsigned long long runs;
	int64_t expected;
};

/* Over every processor (see experiment_parallel): one random number an int. */
struct reduce_job {
	int *data;
	unsigned long long seed;
	int64_t sums[EXPERIMENT_MAX_BANDS];
};

static void fill_band(void *ctx, int band, unsigned long long lo, unsigned long long hi)
{
	struct reduce_job *j = ctx;
	unsigned long long state = experiment_random_skip(j->seed, lo);

	(void)band;
	for (unsigned long long i = lo; i < hi; i++)
		j->data[i] = (int)(experiment_random(&state) & 0xff);
}

static void sum_band(void *ctx, int band, unsigned long long lo, unsigned long long hi)
{
	struct reduce_job *j = ctx;
	int64_t sum = 0;

	for (unsigned long long i = lo; i < hi; i++)
		sum += j->data[i];
	j->sums[band] = sum;
}

void reduce_fill(int *data, unsigned long long n, unsigned long long seed)
{
	struct reduce_job j = { .data = data, .seed = seed };

	experiment_parallel(n, fill_band, &j);
}

int64_t reduce_reference(const int *data, unsigned long long n)
{
	struct reduce_job j = { .data = (int *)data };
	int bands = experiment_parallel(n, sum_band, &j);
	int64_t sum = 0;

	for (int b = 0; b < bands; b++)
		sum += j.sums[b];
	return sum;
}

void reduce_check_partials(const int *partials, unsigned int count, int64_t reference,
    struct check_result *out)
{
	uint32_t sum = 0;

	for (unsigned int i = 0; i < count; i++)
		sum += (uint32_t)partials[i];
	out->correct = sum == (uint32_t)reference;
	if (out->correct)
		snprintf(out->detail, sizeof out->detail, _("sum of %u partials = %" PRId64 ", as on the CPU"),
		    count, reference);
	else
		snprintf(out->detail, sizeof out->detail,
		    _("sum of %u partials is %" PRIu32 " (mod 2^32), the CPU says %" PRIu32),
		    count, sum, (uint32_t)reference);
}

void reduce_check_total(int64_t total, int64_t reference, struct check_result *out)
{
	out->correct = total == reference;
	if (out->correct)
		snprintf(out->detail, sizeof out->detail, _("sum = %" PRId64 ", as on the CPU"), total);
	else
		snprintf(out->detail, sizeof out->detail, _("sum is %" PRId64 ", the CPU says %" PRId64),
		    total, reference);
}

static double reduce_work_bytes(const struct step_params *p)
{
	return (double)p->size * sizeof(int);	/* every int read once */
}

/*
 * The arithmetic a sum needs, for its place on the roofline: one add per
 * element (n - 1 for the whole sum; n counted, as the other experiments
 * count per element).  Integer adds, counted as operations like FLOPs: at
 * a quarter of an operation per byte the step sits far below the ridge
 * point, DRAM-bound, whatever unit counts them.
 */
static double sum_ops(const struct step_params *p)
{
	return (double)p->size;
}

static unsigned long long chunk_capacity(const struct kernel_def *k, const struct step_params *p)
{
	unsigned long long per_block = (unsigned long long)p->block * (k->per_thread ? k->per_thread : 1);

	if (k->shape != SHAPE_CHUNKS)
		return p->size;
	return (p->size + per_block - 1) / per_block * per_block;
}

static size_t reduce_device_bytes(const struct kernel_def *k, const struct step_params *p)
{
	unsigned long long cap = chunk_capacity(k, p);
	unsigned long long blocks = cap / p->block + 1;

	return (size_t)((cap + p->size + blocks) * sizeof(int) + (64u << 20));
}

static void reduce_teardown(void *state)
{
	struct reduce_state *s = state;

	if (s == NULL)
		return;
	gpu_free(s->d_in);
	gpu_free(s->d_pristine);
	gpu_free(s->d_out);
	gpu_free(s->d_total);
	gpu_free(s->d_blocks_done);
	gpu_free(s->d_tmp);
	free(s);
}

static void *reduce_setup(const struct kernel_def *k, const struct step_params *p, struct error *e)
{
	struct reduce_state *s = xcalloc(1, sizeof *s);
	char key[2][96];
	bool ready[2];
	long long *total;
	int *host;

	s->k = k;
	s->p = *p;
	if (registry_is_library(k)) {
		s->run.grid = 0;	/* a library call: no grid of ours */
		if (yardstick_cub_sum(NULL, NULL, (unsigned int)p->size, NULL, &s->tmp_bytes,
		    gpu_stream()) != 0) {
			error_set(e, _("CUB could not size its scratch space for %llu ints"), p->size);
			goto fail;
		}
		if (gpu_malloc((void **)&s->d_total, sizeof(long long), e) != 0 ||
		    gpu_malloc(&s->d_tmp, s->tmp_bytes ? s->tmp_bytes : 1, e) != 0)
			goto fail;
	} else {
		char symbol[128];

		registry_symbol(k, p->block, symbol, sizeof symbol);
		if (gpu_kernel(k->module, symbol, &s->run.kernel, e) != 0 ||
		    experiment_grid(k, p, s->run.kernel, &s->run.grid, e) != 0)
			goto fail;
		if (gpu_malloc((void **)&s->d_out, s->run.grid * sizeof(int), e) != 0)
			goto fail;
		/* the kernel resets the count itself after each launch: zero it once */
		if ((k->flags & KF_ONE_PASS) &&
		    (gpu_malloc((void **)&s->d_total, sizeof(long long), e) != 0 ||
		     gpu_malloc((void **)&s->d_blocks_done, sizeof(unsigned int), e) != 0 ||
		     gpu_fill(s->d_blocks_done, 0, sizeof(unsigned int), e) != 0))
			goto fail;
	}
	s->capacity = chunk_capacity(k, p);
	if (gpu_malloc((void **)&s->d_in, s->capacity * sizeof(int), e) != 0 ||
	    gpu_malloc((void **)&s->d_pristine, p->size * sizeof(int), e) != 0)
		goto fail;

	/* the input and its sum, made once for all the steps of a run at this size */
	snprintf(key[0], sizeof key[0], "reduce %llu input %llx", p->size, p->seed);
	snprintf(key[1], sizeof key[1], "reduce %llu total %llx", p->size, p->seed);
	host = host_buffer(HOST_INPUT_A, key[0], p->size * sizeof(int), &ready[0], e);
	total = host == NULL ? NULL : host_buffer(HOST_REFERENCE, key[1], sizeof *total, &ready[1], e);
	if (total == NULL) {
		host_buffer_forget(HOST_INPUT_A);
		error_set(e, _("cannot allocate %llu ints on the host: try a smaller --size"), p->size);
		goto fail;
	}
	if (!ready[0] || !ready[1]) {
		reduce_fill(host, p->size, experiment_seed(p, REDUCE_SEED));
		*total = reduce_reference(host, p->size);
	}
	s->reference = s->expected = *total;
	s->host = host;
	if (gpu_copy_to_device(s->d_pristine, host, p->size * sizeof(int), e) != 0)
		goto fail;
	return s;
fail:
	reduce_teardown(s);
	return NULL;
}

static int reduce_prepare(void *state, struct error *e)
{
	struct reduce_state *s = state;

	/* Most kernels reduce in place: give each run the original input. */
	if (gpu_copy_on_device(s->d_in, s->d_pristine, s->p.size * sizeof(int), e) != 0)
		return -1;
	/* an exercise's check: this run's input is not the last run's (a remembered sum is wrong) */
	if (s->p.seed != 0) {
		unsigned long long at = experiment_changed_element(&s->p, s->runs++);
		int v = (s->host[at] + 1 + (int)(s->runs % 255)) & 0xff;

		if (gpu_copy_to_device(s->d_in + at, &v, sizeof v, e) != 0)
			return -1;
		s->expected = s->reference - s->host[at] + v;
	}
	/* Garbage past the end: a kernel that reads it gets a wrong sum. */
	if (s->capacity > s->p.size &&
	    gpu_fill(s->d_in + s->p.size, 0x7f, (s->capacity - s->p.size) * sizeof(int), e) != 0)
		return -1;
	if (s->d_out != NULL && gpu_fill(s->d_out, 0xab, s->run.grid * sizeof(int), e) != 0)
		return -1;
	if (s->d_total != NULL)
		return gpu_fill(s->d_total, 0xab, sizeof(long long), e);
	return 0;
}

static int reduce_launch(void *state, struct error *e)
{
	struct reduce_state *s = state;
	unsigned int n = (unsigned int)s->p.size;

	if (registry_is_library(s->k)) {
		int rc = yardstick_cub_sum(s->d_in, s->d_total, n, s->d_tmp, &s->tmp_bytes,
		    gpu_stream());
		if (rc != 0) {
			char text[256];
			error_set(e, _("CUDA error in cub::DeviceReduce::Sum: %s"),
			    gpu_error_text(rc, text, sizeof text));
			return -1;
		}
		return 0;
	}
	if (s->k->flags & KF_ONE_PASS) {
		void *args[] = { &s->d_in, &s->d_out, &n, &s->d_total, &s->d_blocks_done };
		return gpu_launch(s->run.kernel, s->run.grid, s->p.block, 0, args, e);
	}
	void *args[] = { &s->d_in, &s->d_out, &n };
	return gpu_launch(s->run.kernel, s->run.grid, s->p.block, 0, args, e);
}

static int reduce_check(void *state, struct check_result *out, struct error *e)
{
	struct reduce_state *s = state;

	if (s->d_total != NULL) {
		long long total = 0;
		if (gpu_copy_to_host(&total, s->d_total, sizeof total, e) != 0)
			return -1;
		reduce_check_total(total, s->expected, out);
		/*
		 * A one-pass kernel leaves its count of finished blocks at 0 for
		 * the next launch, as its last block resets it.  One that resets
		 * it when block 0 starts instead is right while block 0 goes
		 * first, which nothing promises, and leaves the count at the grid.
		 */
		if (out->correct && s->d_blocks_done != NULL) {
			unsigned int left = 0;

			if (gpu_copy_to_host(&left, s->d_blocks_done, sizeof left, e) != 0)
				return -1;
			if (left != 0) {
				out->correct = false;
				snprintf(out->detail, sizeof out->detail, _("sum = %" PRId64 ", as on the CPU, but the count "
				    "of finished blocks is left at %u, not 0: the last block sets it back to 0, for the "
				    "next launch"), (int64_t)total, left);
			}
		}
		return 0;
	}
	int *partials = experiment_download(s->d_out, s->run.grid, sizeof(int), _("partial sums"), e);

	if (partials == NULL)
		return -1;
	reduce_check_partials(partials, s->run.grid, s->expected, out);
	return 0;
}

const struct experiment experiment_reduce = {
	.name = "reduce",
	.element = "int",
	.unit = UNIT_GBPS,
	.max_size = 1ULL << 31,
	.mix = MIX_READ,
	.work_bytes = reduce_work_bytes,
	.work_flops = sum_ops,
	.device_bytes = reduce_device_bytes,
	.setup = reduce_setup,
	.prepare = reduce_prepare,
	.launch = reduce_launch,
	.check = reduce_check,
	.teardown = reduce_teardown,
};
