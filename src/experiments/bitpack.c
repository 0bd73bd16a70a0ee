/* Experiment: each of n threads packs 32 threshold flags into one 32-bit word. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "experiments/experiments.h"
#include "gpu.h"
#include "i18n.h"
#include "kernel_def.h"

struct bitpack_state {
	struct experiment_run run;	/* first: see experiment.h */
	const struct kernel_def *k;
	struct step_params p;
	uint32_t thresholds[BITPACK_FLAGS];
	uint32_t *d_out;
	uint32_t *d_shared_word;	/* the first step's one accumulator */
};

void bitpack_fill_thresholds(uint32_t *thresholds, unsigned long long seed)
{
	for (int b = 0; b < BITPACK_FLAGS; b++)
		thresholds[b] = experiment_random(&seed);
}

uint32_t bitpack_value(uint32_t tid)
{
	return tid * 2654435761u;	/* as the kernels compute it, modulo 2^32 */
}

uint32_t bitpack_expected(uint32_t tid, const uint32_t *thresholds)
{
	uint32_t v = bitpack_value(tid), word = 0;

	for (int b = 0; b < BITPACK_FLAGS; b++)
		if (v >= thresholds[b])
			word |= 1u << b;
	return word;
}

static int compare_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return (x > y) - (x < y);
}

/*
 * The flags of a value are those of the thresholds it reaches, so a word
 * is settled by how many thresholds that is: 33 possible words.  Sorting
 * the thresholds once makes checking 2^28 words a matter of seconds.
 */
struct bitpack_table {
	uint32_t sorted[BITPACK_FLAGS];
	uint32_t word[BITPACK_FLAGS + 1];	/* word[k]: the k smallest thresholds reached */
};

static void table_build(const uint32_t *thresholds, struct bitpack_table *t)
{
	memcpy(t->sorted, thresholds, sizeof t->sorted);
	qsort(t->sorted, BITPACK_FLAGS, sizeof t->sorted[0], compare_u32);
	t->word[0] = 0;
	for (int k = 1; k <= BITPACK_FLAGS; k++) {
		t->word[k] = t->word[k - 1];
		for (int b = 0; b < BITPACK_FLAGS; b++)
			if (thresholds[b] == t->sorted[k - 1])
				t->word[k] |= 1u << b;	/* equal thresholds join together */
	}
}

static uint32_t table_lookup(const struct bitpack_table *t, uint32_t tid)
{
	uint32_t v = bitpack_value(tid);
	int lo = 0, hi = BITPACK_FLAGS;

	/* how many thresholds are <= v */
	while (lo < hi) {
		int mid = (lo + hi) / 2;
		if (t->sorted[mid] <= v)
			lo = mid + 1;
		else
			hi = mid;
	}
	return t->word[lo];
}

/* The check over every processor (see experiment_parallel). */
struct bitpack_job {
	struct bitpack_table table;
	const uint32_t *out;
	struct experiment_mismatch found[EXPERIMENT_MAX_BANDS];
};

static void check_band(void *ctx, int band, unsigned long long lo, unsigned long long hi)
{
	struct bitpack_job *j = ctx;
	struct experiment_mismatch *m = &j->found[band];

	m->bad = 0;
	for (unsigned long long i = lo; i < hi; i++) {
		if (j->out[i] != table_lookup(&j->table, (uint32_t)i)) {
			if (m->bad == 0)
				m->first = i;
			m->bad++;
		}
	}
}

void bitpack_check(const uint32_t *out, unsigned long long n, const uint32_t *thresholds,
    struct check_result *r)
{
	struct bitpack_job *j = xcalloc(1, sizeof *j);
	struct experiment_mismatch m;

	table_build(thresholds, &j->table);
	j->out = out;
	m = experiment_mismatch_merge(j->found, experiment_parallel(n, check_band, j));
	r->correct = m.bad == 0;
	if (r->correct)
		snprintf(r->detail, sizeof r->detail, _("all %llu words equal the CPU's"), n);
	else
		snprintf(r->detail, sizeof r->detail,
		    _("%llu of %llu words differ, the first at index %llu: 0x%08x, the CPU says 0x%08x"),
		    m.bad, n, m.first, out[m.first], table_lookup(&j->table, (uint32_t)m.first));
	free(j);
}

static double bitpack_work_bytes(const struct step_params *p)
{
	return (double)p->size * sizeof(uint32_t);	/* one word written per thread */
}

/*
 * The arithmetic a word needs, for its place on the roofline: 32
 * comparisons with the thresholds, one per flag (the shifts and ors that
 * pack them are not counted).  Integer operations, counted like FLOPs.
 */
static double bitpack_flops(const struct step_params *p)
{
	return (double)p->size * BITPACK_FLAGS;
}

static size_t bitpack_device_bytes(const struct kernel_def *k, const struct step_params *p)
{
	(void)k;
	return (size_t)(p->size * sizeof(uint32_t));
}

static void bitpack_teardown(void *state)
{
	struct bitpack_state *s = state;

	if (s == NULL)
		return;
	gpu_free(s->d_out);
	free(s);
}

static void *bitpack_setup(const struct kernel_def *k, const struct step_params *p, struct error *e)
{
	struct bitpack_state *s = xcalloc(1, sizeof *s);
	void *d_thresholds = NULL;
	size_t bytes = 0;
	char symbol[128];

	s->k = k;
	s->p = *p;
	registry_symbol(k, p->block, symbol, sizeof symbol);
	if (gpu_kernel(k->module, symbol, &s->run.kernel, e) != 0 ||
	    experiment_grid(k, p, s->run.kernel, &s->run.grid, e) != 0)
		goto fail;
	if (gpu_malloc((void **)&s->d_out, p->size * sizeof(uint32_t), e) != 0)
		goto fail;

	/* The constant table the kernels read, and the first step's shared word. */
	bitpack_fill_thresholds(s->thresholds, experiment_seed(p, BITPACK_SEED));
	if (gpu_global(k->module, "bitpack_thresholds", &d_thresholds, &bytes, e) != 0)
		goto fail;
	if (bytes != sizeof s->thresholds) {
		error_set(e, _("bitpack_thresholds in kernels/%s.fatbin has %zu bytes, not %zu: rebuild the kernels"),
		    k->module, bytes, sizeof s->thresholds);
		goto fail;
	}
	if (gpu_copy_to_device(d_thresholds, s->thresholds, sizeof s->thresholds, e) != 0 ||
	    gpu_global(k->module, "bitpack_shared_word", (void **)&s->d_shared_word, &bytes, e) != 0)
		goto fail;
	return s;
fail:
	bitpack_teardown(s);
	return NULL;
}

static int bitpack_prepare(void *state, struct error *e)
{
	struct bitpack_state *s = state;

	/* An unwritten word keeps 0xabababab, which is no thread's answer (a test checks it). */
	if (gpu_fill(s->d_shared_word, 0, sizeof(uint32_t), e) != 0)
		return -1;
	return gpu_fill(s->d_out, 0xab, s->p.size * sizeof(uint32_t), e);
}

static int bitpack_launch(void *state, struct error *e)
{
	struct bitpack_state *s = state;
	unsigned int n = (unsigned int)s->p.size;
	void *args[] = { &s->d_out, &n };

	return gpu_launch(s->run.kernel, s->run.grid, s->p.block, 0, args, e);
}

static int bitpack_check_run(void *state, struct check_result *out, struct error *e)
{
	struct bitpack_state *s = state;
	uint32_t *words = experiment_download(s->d_out, s->p.size, sizeof(uint32_t), _("words"), e);

	if (words == NULL)
		return -1;
	bitpack_check(words, s->p.size, s->thresholds, out);
	return 0;
}

const struct experiment experiment_bitpack = {
	.name = "bitpack",
	.element = "word",
	.unit = UNIT_GBPS,
	.max_size = 1ULL << 31,	/* thread indices are 32-bit */
	.work_bytes = bitpack_work_bytes,
	.work_flops = bitpack_flops,
	.device_bytes = bitpack_device_bytes,
	.setup = bitpack_setup,
	.prepare = bitpack_prepare,
	.launch = bitpack_launch,
	.check = bitpack_check_run,
	.teardown = bitpack_teardown,
};
