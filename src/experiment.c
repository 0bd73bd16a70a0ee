/* Shared host-side pieces of the experiments: launch grids, random inputs. */
#include "config.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "experiment.h"
#include "gpu.h"
#include "host_buffer.h"
#include "i18n.h"
#include "kernel_def.h"

int experiment_grid(const struct kernel_def *k, const struct step_params *p, void *kernel,
    unsigned int *grid, struct error *e)
{
	unsigned long long per_block = (unsigned long long)p->block * (k->per_thread ? k->per_thread : 1);
	unsigned long long chunks = (p->size + per_block - 1) / per_block;

	if (chunks == 0)
		chunks = 1;
	if (k->shape == SHAPE_GRID_STRIDE) {
		int per_sm = 0;
		unsigned long long fit;

		if (gpu_blocks_per_sm(kernel, p->block, 0, &per_sm, e) != 0)
			return -1;
		if (per_sm < 1)
			per_sm = 1;
		fit = (unsigned long long)gpu_info()->sm_count * (unsigned long long)per_sm;
		if (chunks > fit)
			chunks = fit;
	}
	if (chunks > 0x7fffffffULL) {
		error_set(e, _("size %llu needs %llu blocks, more than a grid can hold: use a larger --block or a smaller --size"),
		    p->size, chunks);
		return -1;
	}
	*grid = (unsigned int)chunks;
	return 0;
}

unsigned int experiment_random(unsigned long long *state)
{
	/* splitmix64: fast, and the same sequence everywhere */
	unsigned long long z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return (unsigned int)((z ^ (z >> 31)) >> 32);
}

unsigned long long experiment_random_skip(unsigned long long seed, unsigned long long calls)
{
	/* each call adds the same constant to the state (mod 2^64) */
	return seed + calls * 0x9e3779b97f4a7c15ULL;
}

struct band_job {
	experiment_band_fn fn;
	void *ctx;
	int band;
	unsigned long long lo, hi;
};

static void *band_thread(void *arg)
{
	struct band_job *j = arg;

	j->fn(j->ctx, j->band, j->lo, j->hi);
	return NULL;
}

int experiment_parallel(unsigned long long n, experiment_band_fn fn, void *ctx)
{
	return experiment_parallel_work(n, 1, fn, ctx);
}

int experiment_parallel_work(unsigned long long n, unsigned long long work, experiment_band_fn fn,
    void *ctx)
{
	struct band_job jobs[EXPERIMENT_MAX_BANDS];
	pthread_t tid[EXPERIMENT_MAX_BANDS];
	bool started[EXPERIMENT_MAX_BANDS] = { false };
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	int bands = cpus < 1 ? 1 : cpus > EXPERIMENT_MAX_BANDS ? EXPERIMENT_MAX_BANDS : (int)cpus;

	/* below a million elements' work a thread costs more than it saves */
	if (n * work < (1ULL << 20))
		bands = 1;
	if ((unsigned long long)bands > n && n > 0)
		bands = (int)n;
	for (int b = 0; b < bands; b++)
		jobs[b] = (struct band_job){ fn, ctx, b, n * b / bands, n * (b + 1) / bands };
	for (int b = 1; b < bands; b++)
		started[b] = pthread_create(&tid[b], NULL, band_thread, &jobs[b]) == 0;
	band_thread(&jobs[0]);
	for (int b = 1; b < bands; b++) {
		if (started[b])
			pthread_join(tid[b], NULL);
		else
			band_thread(&jobs[b]);	/* no thread: its band is done here */
	}
	return bands;
}

struct experiment_mismatch experiment_mismatch_merge(const struct experiment_mismatch *bands, int n)
{
	struct experiment_mismatch m = { 0, 0 };

	for (int b = 0; b < n; b++) {
		if (m.bad == 0 && bands[b].bad > 0)
			m.first = bands[b].first;
		m.bad += bands[b].bad;
	}
	return m;
}

void experiment_mismatch_report(struct experiment_mismatch m, unsigned long long n,
    struct check_result *out)
{
	out->correct = m.bad == 0;
	if (out->correct)
		snprintf(out->detail, sizeof out->detail, _("all %llu elements equal the CPU's"), n);
	else
		snprintf(out->detail, sizeof out->detail,
		    _("%llu of %llu elements differ, the first at index %llu"), m.bad, n, m.first);
}

void *experiment_download(const void *dev, unsigned long long count, size_t size, const char *what,
    struct error *e)
{
	size_t bytes = (size_t)(count * size);
	void *host = host_buffer(HOST_RESULT, NULL, bytes, NULL, e);

	if (host == NULL) {
		error_set(e, _("cannot allocate %llu %s on the host: try a smaller --size"), count, what);
		return NULL;
	}
	if (gpu_copy_to_host(host, dev, bytes, e) != 0)
		return NULL;
	return host;
}

bool experiment_same_work(const struct experiment *a, const struct experiment *b)
{
	return a == b || strcmp(a->work ? a->work : a->name, b->work ? b->work : b->name) == 0;
}

void experiment_tally_add(struct experiment_tally *t, unsigned long long i, double got, double want, double tol)
{
	double err = fabs(got - want);

	if (!(err <= tol)) {	/* NaN, the poison, fails too */
		if (t->bad++ == 0)
			t->first = i;
	} else if (err / tol > t->worst) {
		t->worst = err / tol;
	}
}
