/* Statistics of repeated timings: median, quartiles, extremes. */
#ifndef CUDATUTOR_STATS_H
#define CUDATUTOR_STATS_H

struct stats {
	int n;
	double median, q1, q3, min, max;
};

/* From n samples (not modified).  n == 0 gives all zeros. */
void stats_compute(const double *samples, int n, struct stats *out);

/* The interquartile range as a percentage of the median. */
double stats_spread_pct(const struct stats *s);

#endif
