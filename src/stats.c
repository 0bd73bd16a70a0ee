/* Statistics of repeated timings: median, quartiles, extremes. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "stats.h"
#include "util.h"

static int compare_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Quantile q of sorted v, interpolating between neighbours. */
static double quantile(const double *v, int n, double q)
{
	double pos = q * (n - 1);
	int lo = (int)pos;
	double frac = pos - lo;

	if (lo + 1 >= n)
		return v[n - 1];
	return v[lo] + (v[lo + 1] - v[lo]) * frac;
}

void stats_compute(const double *samples, int n, struct stats *out)
{
	double *v;

	memset(out, 0, sizeof *out);
	if (n <= 0)
		return;
	v = xmalloc((size_t)n * sizeof *v);
	memcpy(v, samples, (size_t)n * sizeof *v);
	qsort(v, (size_t)n, sizeof *v, compare_double);
	out->n = n;
	out->min = v[0];
	out->max = v[n - 1];
	out->median = quantile(v, n, 0.5);
	out->q1 = quantile(v, n, 0.25);
	out->q3 = quantile(v, n, 0.75);
	free(v);
}

double stats_spread_pct(const struct stats *s)
{
	if (s->median <= 0)
		return 0;
	return (s->q3 - s->q1) / s->median * 100.0;
}
