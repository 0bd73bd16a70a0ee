/* Experiment: threads that read shared memory at a fixed stride, for the time of each stride. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "experiments/experiments.h"
#include "gpu.h"
#include "i18n.h"
#include "kernel_def.h"

#define SWEEP_SEED 20210304ULL

/* The size of this experiment is the number of threads; each reads SMEM_SWEEP_READS words. */
struct smem_sweep_state {
	struct experiment_run run;	/* first: see experiment.h */
	const struct kernel_def *k;
	struct step_params p;
	unsigned int warps;		/* outputs: one sum per warp of the grid */
	int *d_words, *d_sums;
	int *expected;
};

int smem_sweep_case(const struct kernel_def *k, unsigned int *stride, bool *padded)
{
	/* the stride and padding are the registry row's own fields */
	if (k == NULL || k->experiment != &experiment_smem_sweep)
		return -1;
	*stride = k->stride;
	*padded = k->padded;
	return 0;
}

void smem_sweep_fill(int *words, unsigned long long seed)
{
	/* small enough that a warp's 64 * 32 reads add up without overflow */
	for (int i = 0; i < SMEM_SWEEP_WORDS; i++)
		words[i] = (int)(experiment_random(&seed) & 0xffff);
}

unsigned int smem_sweep_first_word(unsigned int lane, unsigned int stride, bool padded)
{
	unsigned int first = lane * stride;

	return padded ? first + first / 32 : first;
}

void smem_sweep_reference(const int *words, unsigned int stride, bool padded,
    unsigned long long threads, unsigned int warps, int *expected)
{
	int lane_sum[32];

	for (unsigned int lane = 0; lane < 32; lane++) {
		unsigned int first = smem_sweep_first_word(lane, stride, padded);
		lane_sum[lane] = 0;
		for (int r = 0; r < SMEM_SWEEP_READS; r++)
			lane_sum[lane] += words[first + r % 32];
	}
	for (unsigned int w = 0; w < warps; w++) {
		int sum = 0;
		for (unsigned int lane = 0; lane < 32; lane++)
			if ((unsigned long long)w * 32 + lane < threads)
				sum += lane_sum[lane];
		expected[w] = sum;
	}
}

void smem_sweep_check(const int *sums, const int *expected, unsigned int warps,
    struct check_result *out)
{
	unsigned int bad = 0, first = 0;

	for (unsigned int w = 0; w < warps; w++)
		if (sums[w] != expected[w]) {
			if (bad == 0)
				first = w;
			bad++;
		}
	out->correct = bad == 0;
	if (out->correct)
		snprintf(out->detail, sizeof out->detail, _("all %u warp sums equal the CPU's"), warps);
	else
		snprintf(out->detail, sizeof out->detail,
		    _("%u of %u warp sums differ, the first of warp %u (%d, the CPU says %d)"),
		    bad, warps, first, sums[first], expected[first]);
}

static double smem_sweep_work_bytes(const struct step_params *p)
{
	/* what the lanes ask shared memory for: 4 bytes per read */
	return (double)p->size * SMEM_SWEEP_READS * sizeof(int);
}

static double no_flops(const struct step_params *p)
{
	(void)p;
	return 0;
}

static unsigned int warps_of(const struct step_params *p)
{
	unsigned long long blocks = (p->size + p->block - 1) / p->block;

	return (unsigned int)(blocks * p->block / 32);
}

static size_t smem_sweep_device_bytes(const struct kernel_def *k, const struct step_params *p)
{
	(void)k;
	return SMEM_SWEEP_WORDS * sizeof(int) + (size_t)warps_of(p) * sizeof(int);
}

static void smem_sweep_teardown(void *state)
{
	struct smem_sweep_state *s = state;

	if (s == NULL)
		return;
	gpu_free(s->d_words);
	gpu_free(s->d_sums);
	free(s->expected);
	free(s);
}

static void *smem_sweep_setup(const struct kernel_def *k, const struct step_params *p, struct error *e)
{
	struct smem_sweep_state *s = xcalloc(1, sizeof *s);
	int words[SMEM_SWEEP_WORDS];
	unsigned int stride;
	bool padded;
	char symbol[128];

	s->k = k;
	s->p = *p;
	if (smem_sweep_case(k, &stride, &padded) != 0) {
		error_set(e, _("%s has no stride in the shared-memory sweep's table (src/experiments/smem_sweep.c)"),
		    k->name);
		goto fail;
	}
	registry_symbol(k, p->block, symbol, sizeof symbol);
	if (gpu_kernel(k->module, symbol, &s->run.kernel, e) != 0 ||
	    experiment_grid(k, p, s->run.kernel, &s->run.grid, e) != 0)
		goto fail;
	s->warps = s->run.grid * (p->block / 32);
	s->expected = malloc((size_t)s->warps * sizeof(int));
	if (s->expected == NULL) {
		error_set(e, _("cannot allocate %u ints on the host: try a smaller --size"), s->warps);
		goto fail;
	}
	if (gpu_malloc((void **)&s->d_words, sizeof words, e) != 0 ||
	    gpu_malloc((void **)&s->d_sums, (size_t)s->warps * sizeof(int), e) != 0)
		goto fail;
	smem_sweep_fill(words, experiment_seed(p, SWEEP_SEED));
	smem_sweep_reference(words, stride, padded, p->size, s->warps, s->expected);
	if (gpu_copy_to_device(s->d_words, words, sizeof words, e) != 0)
		goto fail;
	return s;
fail:
	smem_sweep_teardown(s);
	return NULL;
}

static int smem_sweep_prepare(void *state, struct error *e)
{
	struct smem_sweep_state *s = state;

	return gpu_fill(s->d_sums, 0xab, (size_t)s->warps * sizeof(int), e);
}

static int smem_sweep_launch(void *state, struct error *e)
{
	struct smem_sweep_state *s = state;
	unsigned int n = (unsigned int)s->p.size;
	void *args[] = { &s->d_words, &s->d_sums, &n };

	return gpu_launch(s->run.kernel, s->run.grid, s->p.block, 0, args, e);
}

static int smem_sweep_check_run(void *state, struct check_result *out, struct error *e)
{
	struct smem_sweep_state *s = state;
	int *sums = malloc((size_t)s->warps * sizeof(int));

	if (sums == NULL) {
		error_set(e, _("cannot allocate %u ints on the host: try a smaller --size"), s->warps);
		return -1;
	}
	if (gpu_copy_to_host(sums, s->d_sums, (size_t)s->warps * sizeof(int), e) != 0) {
		free(sums);
		return -1;
	}
	smem_sweep_check(sums, s->expected, s->warps, out);
	free(sums);
	return 0;
}

const struct experiment experiment_smem_sweep = {
	.name = "smem_sweep",
	.element = "thread",
	.unit = UNIT_SHARED_GBPS,
	.max_size = 1ULL << 30,		/* unsigned thread indices, and time: stride 32 is slow */
	.work_bytes = smem_sweep_work_bytes,
	.work_flops = no_flops,
	.device_bytes = smem_sweep_device_bytes,
	.setup = smem_sweep_setup,
	.prepare = smem_sweep_prepare,
	.launch = smem_sweep_launch,
	.check = smem_sweep_check_run,
	.teardown = smem_sweep_teardown,
};
