/* Results of a lesson's steps: live or recorded, derived figures, JSON. */
#include "config.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "diagnosis.h"
#include "i18n.h"
#include "paths.h"
#include "registry.h"
#include "results.h"

#define RESULTS_FORMAT "cudatutor-results"
#define RESULTS_VERSION 1

void run_report_free(struct run_report *r)
{
	if (r == NULL)
		return;
	free(r->steps);
	r->steps = NULL;
	r->nsteps = 0;
}

const char *results_unit_name(enum experiment_unit u)
{
	return u == UNIT_GFLOPS ? "GFLOP/s" : u == UNIT_SHARED_GBPS ? "shared GB/s" : "GB/s";
}

enum result_yardstick results_yardstick(enum experiment_unit u)
{
	/* bytes to device memory against copying them; arithmetic against the library */
	return u == UNIT_GBPS ? YARDSTICK_COPY : u == UNIT_GFLOPS ? YARDSTICK_LIBRARY : YARDSTICK_NONE;
}

const char *results_yardstick_name(enum result_yardstick y)
{
	return y == YARDSTICK_COPY ? "copy" : y == YARDSTICK_LIBRARY ? "library" : "none";
}

bool results_dram_caveat(const struct step_result *s)
{
	return s->ran && s->roof.have && s->roof.limiter == ROOF_DRAM && (s->l2_sized || s->short_run);
}

const char *results_pct_of_roof(const struct step_result *s, char *buf, size_t len)
{
	if (s->ran && s->roof.have && s->roof.roof_exceeded)
		snprintf(buf, len, "!");
	else if (s->ran && s->roof.have && s->roof.pct_of_roof > 0)
		/* ~: L2-sized or short, the diagnosis says which */
		snprintf(buf, len, "%.1f%s", s->roof.pct_of_roof, results_dram_caveat(s) ? "~" : "");
	else
		snprintf(buf, len, "-");
	return buf;
}

/* The bytes DRAM read and wrote in the step's counters (taken at its size); 0: not read. */
static double step_dram_bytes(const struct step_result *s)
{
	int rd = metrics_find("dram__bytes_read.sum"), wr = metrics_find("dram__bytes_write.sum");
	const struct step_metrics *m = &s->metrics;

	if (!m->collected || rd < 0 || wr < 0 || !m->have[rd] || !m->have[wr])
		return 0;
	return m->value[rd] + m->value[wr];
}

bool results_counter(const struct step_result *s, const char *ncu, double *v)
{
	int i = metrics_find(ncu);

	return s->metrics.collected && i >= 0 && metrics_value(&s->metrics, i, v) == 0;
}

static int busier(const void *a, const void *b)
{
	double x = ((const struct busy_unit *)a)->pct, y = ((const struct busy_unit *)b)->pct;

	return (x < y) - (x > y);
}

/*
 * The units s keeps busy, each as a share of its peak: DRAM and the tensor
 * pipe as the profiler measured them, instruction issue and shared memory
 * (wavefronts of loads and stores, one a clock per SM) over the step's
 * time against their theoretical roofs.
 */
static void busy_units(const struct gpu_roofs *roofs, struct step_result *s)
{
	double seconds = s->median_ms * 1e-3, v, ld, st;
	int n = 0;

	s->nbusy = 0;
	if (!s->metrics.collected || seconds <= 0)
		return;
	if (results_counter(s, "dram__throughput.avg.pct_of_peak_sustained_elapsed", &v))
		s->busy[n++] = (struct busy_unit){ N_("DRAM"), v };
	if (roofs_issue_ginst(roofs) > 0 && results_counter(s, "smsp__inst_executed.sum", &v))
		s->busy[n++] = (struct busy_unit){ N_("instruction issue"), v / seconds / 1e9 / roofs_issue_ginst(roofs) * 100 };
	if (roofs_shared_gbps(roofs) > 0 && results_counter(s, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", &ld) &&
	    results_counter(s, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum", &st))
		s->busy[n++] = (struct busy_unit){ N_("shared memory"),
		    (ld + st) * ROOFS_SHARED_BYTES_PER_CLOCK_SM / seconds / 1e9 / roofs_shared_gbps(roofs) * 100 };
	if (results_counter(s, "sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active", &v) && v > 0)
		s->busy[n++] = (struct busy_unit){ N_("tensor cores"), v };
	qsort(s->busy, (size_t)n, sizeof s->busy[0], busier);
	s->nbusy = n;
}

/*
 * Where a step's counters show another roof binds than the one its bytes
 * and FLOPs place it under, hold it to that one: an instruction-bound step
 * under DRAM's roof to the issue roof (its warp instructions a second);
 * an FP32 step whose shared memory is busier, as a share of its roof, than
 * its FP32 lanes to the shared-memory roof (128 bytes a wavefront, loads
 * and stores).
 */
static void hold_to_counters(const struct gpu_roofs *roofs, struct step_result *s)
{
	double seconds = s->median_ms * 1e-3, insts, ld, st, busy, memory, shared;

	if (!s->roof.have || s->roof.tensor || seconds <= 0)
		return;
	if (s->roof.limiter == ROOF_DRAM && diagnosis_instruction_bound(s, &busy, &memory) &&
	    results_counter(s, "smsp__inst_executed.sum", &insts))
		roofs_hold(roofs, ROOF_ISSUE, insts / seconds / 1e9, &s->roof);
	else if (s->roof.limiter == ROOF_FP32 && roofs_shared_gbps(roofs) > 0 &&
	    results_counter(s, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", &ld) &&
	    results_counter(s, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum", &st) &&
	    (shared = (ld + st) * ROOFS_SHARED_BYTES_PER_CLOCK_SM / seconds / 1e9) / roofs_shared_gbps(roofs) * 100 >
	    s->roof.pct_of_roof)
		roofs_hold(roofs, ROOF_SHARED, shared, &s->roof);
}

void results_derive(struct run_report *r)
{
	for (int i = 0; i < r->nsteps; i++) {
		struct step_result *s = &r->steps[i];
		const struct kernel_def *k = registry_find(s->kernel);
		struct step_params p = { .size = s->size, .block = s->block };

		s->gbps = s->gflops = s->pct_copy = s->pct_library = s->rate = s->pct = 0;
		memset(&s->roof, 0, sizeof s->roof);
		s->speedup_first = s->speedup_prev = 0;
		s->in_flight_per_sm = (double)s->metrics.load_bytes_in_flight * s->blocks_per_sm * s->block;
		s->l2_sized = s->short_run = false;
		s->nbusy = 0;
		s->in_flight_need = roofs_in_flight_per_sm(&r->roofs);
		s->unit = k != NULL ? k->experiment->unit : UNIT_GBPS;
		s->complete = k == NULL || registry_is_complete(k);
		s->yardstick = results_yardstick(s->unit);
		if (!s->ran || s->median_ms <= 0 || k == NULL)
			continue;
		s->gbps = k->experiment->work_bytes(&p) / (s->median_ms * 1e-3) / 1e9;
		/* what a kernel that only reads leaves in L2 costs nothing: its output, written back later, does */
		s->l2_sized = r->gpu.l2_bytes > 0 && k->experiment->mix != MIX_READ &&
		    k->experiment->work_bytes(&p) <= (double)RESULTS_L2_SIZED_TIMES * r->gpu.l2_bytes;
		s->short_run = s->median_ms < RESULTS_SHORT_MS;
		s->l2_bytes = r->gpu.l2_bytes;
		s->gflops = k->experiment->work_flops(&p) / (s->median_ms * 1e-3) / 1e9;
		if (r->copy_gbps > 0 && k->experiment->unit == UNIT_GBPS)
			s->pct_copy = s->gbps / r->copy_gbps * 100.0;
		for (int j = 0; j < r->nsteps; j++) {
			const struct step_result *lib = &r->steps[j];
			const struct kernel_def *kl = registry_find(lib->kernel);
			/* only a step that finishes the same answer is compared with the library */
			if (kl != NULL && registry_is_library(kl) && experiment_same_work(kl->experiment, k->experiment) &&
			    s->complete &&
			    lib->ran && lib->median_ms > 0) {
				s->pct_library = lib->median_ms / s->median_ms * 100.0;
				break;
			}
		}

		const struct step_result *first = NULL, *prev = NULL;
		for (int j = 0; j < i; j++) {
			const struct kernel_def *kj = registry_find(r->steps[j].kernel);
			/* a wrong answer (a racy step) is no baseline to be faster than */
			if (kj == NULL || !experiment_same_work(kj->experiment, k->experiment) || !r->steps[j].ran ||
			    !r->steps[j].correct || r->steps[j].median_ms <= 0 || r->steps[j].control)
				continue;
			if (first == NULL)
				first = &r->steps[j];
			prev = &r->steps[j];
		}
		s->speedup_first = first ? first->median_ms / s->median_ms : 1.0;
		s->speedup_prev = prev ? prev->median_ms / s->median_ms : 1.0;
		s->rate = s->unit == UNIT_GFLOPS ? s->gflops : s->gbps;
		/* shared-memory bytes never reach DRAM: the shared-memory roof holds them */
		if (s->unit == UNIT_SHARED_GBPS) {
			roofs_place_shared(&r->roofs, k->experiment->work_bytes(&p), s->median_ms, &s->roof);
		} else {
			struct roof_traffic t = { step_dram_bytes(s), k->experiment->mix,
				strcmp(k->experiment->name, "tensor") == 0 };

			roofs_place_step(&r->roofs, k->experiment->work_bytes(&p), k->experiment->work_flops(&p),
			    s->median_ms, &t, &s->roof);
			hold_to_counters(&r->roofs, s);
		}
		busy_units(&r->roofs, s);
		s->pct = s->yardstick == YARDSTICK_COPY ? s->pct_copy :
		    s->yardstick == YARDSTICK_LIBRARY ? s->pct_library : 0;
	}
}

const struct step_result *results_step_of(const struct run_report *r, const char *kernel)
{
	for (int i = 0; i < r->nsteps; i++)
		if (strcmp(r->steps[i].kernel, kernel) == 0)
			return &r->steps[i];
	return NULL;
}

bool results_has_tensor_steps(const struct run_report *r)
{
	for (int i = 0; i < r->nsteps; i++)
		if (r->steps[i].roof.have && r->steps[i].roof.tensor)
			return true;
	return false;
}

void results_compare(const struct run_report *a, const struct run_report *b,
    struct results_comparison *c)
{
	c->count = a->nsteps;
	c->pairs = xcalloc((size_t)a->nsteps + 1, sizeof *c->pairs);
	c->copy_ratio = a->copy_gbps > 0 && b->copy_gbps > 0 ? b->copy_gbps / a->copy_gbps : 0;
	for (int i = 0; i < a->nsteps; i++) {
		struct results_pair *p = &c->pairs[i];

		p->a = &a->steps[i];
		p->b = results_step_of(b, a->steps[i].kernel);
		/* a wrong answer is not a time to compare */
		if (p->b != NULL && p->a->ran && p->b->ran && p->a->median_ms > 0 && p->b->median_ms > 0 &&
		    (p->a->correct || p->a->wrong_by_design) && (p->b->correct || p->b->wrong_by_design))
			p->speedup = p->a->median_ms / p->b->median_ms;
		p->follows_copy = results_follows_copy(p->speedup, c->copy_ratio);
	}
}

/* Within a tenth of the bandwidth ratio: memory is what sets the pace. */
static bool near_ratio(double speedup, double copy_ratio)
{
	return speedup > copy_ratio * 0.9 && speedup < copy_ratio * 1.1;
}

bool results_block_per_kernel(const struct run_report *r)
{
	bool own = false;

	for (int i = 0; i < r->nsteps; i++) {
		const struct kernel_def *k = registry_find(r->steps[i].kernel);

		if (r->steps[i].library)
			continue;
		if (k == NULL || k->shape != SHAPE_TABLE)
			return false;
		own = true;
	}
	return own;
}

bool results_copy_ratio_tells(double copy_ratio)
{
	/* a step that runs as fast on both follows a ratio near 1 whatever bounds it */
	return copy_ratio > 0 && !near_ratio(1.0, copy_ratio);
}

bool results_follows_copy(double speedup, double copy_ratio)
{
	return speedup > 0 && results_copy_ratio_tells(copy_ratio) && near_ratio(speedup, copy_ratio);
}

void results_comparison_free(struct results_comparison *c)
{
	free(c->pairs);
	c->pairs = NULL;
	c->count = 0;
}

/* ---- to JSON ----------------------------------------------------------- */

json_t *results_gpu_to_json(const struct gpu_desc *g)
{
	json_t *o = json_pack("{s:s, s:s, s:s, s:s, s:i, s:I}",
	    "name", g->name, "compute_capability", g->arch, "driver", g->driver,
	    "cuda", g->cuda, "sm_count", g->sm_count,
	    "memory_bytes", (json_int_t)g->memory_bytes);

	/* unknown in files recorded before it was kept: left out rather than 0 */
	if (g->l2_bytes > 0)
		json_object_set_new(o, "l2_bytes", json_integer((json_int_t)g->l2_bytes));
	return o;
}

/* Where the warps wait: the kernel's samples, and its lines with most, each with its largest reasons. */
static json_t *stalls_to_json(const struct stall_profile *p)
{
	json_t *lines = json_array();

	for (int i = 0; i < p->nlines; i++) {
		const struct stall_line *l = &p->lines[i];
		json_t *reasons = json_object();

		for (int k = 0; k < l->nreasons; k++)
			json_object_set_new(reasons, l->reasons[k].name, json_integer(l->reasons[k].samples));
		json_array_append_new(lines, json_pack("{s:I, s:s, s:i, s:o}", "offset", (json_int_t)l->offset,
		    "sass", l->sass, "samples", l->samples, "reasons", reasons));
	}
	return json_pack("{s:s, s:I, s:o}", "date", p->date, "samples", (json_int_t)p->samples, "lines", lines);
}

/* Counters by their Nsight Compute names, in base units; null where n/a. */
static json_t *metrics_to_json(const struct step_metrics *m)
{
	json_t *values = json_object();

	for (int i = 0; i < metrics_count; i++) {
		if (metrics_table[i].ncu == NULL)
			continue;	/* derived: computed again when shown */
		json_object_set_new(values, metrics_table[i].ncu,
		    m->have[i] ? json_real(m->value[i]) : json_null());
	}
	json_t *o = json_pack("{s:s, s:o}", "tool", m->tool, "values", values);

	if (m->stalls.have)
		json_object_set_new(o, "stalls", stalls_to_json(&m->stalls));
	if (m->load_bytes_in_flight > 0)
		json_object_set_new(o, "load_bytes_in_flight", json_integer(m->load_bytes_in_flight));
	return o;
}

/* The step against the roofs: null where the roofs, or the step's time, are unknown. */
static void roof_to_json(json_t *o, const struct roof_point *p)
{
	const char *limiter = p->have ? roofs_limiter_name(p->limiter) : NULL;

	json_object_set_new(o, "intensity", p->have ? json_real(p->intensity) : json_null());
	json_object_set_new(o, "limiter", limiter ? json_string(limiter) : json_null());
	json_object_set_new(o, "roof", p->have && p->roof > 0 ? json_real(p->roof) : json_null());
	json_object_set_new(o, "roof_unit", limiter ? json_string(roofs_limiter_unit(p->limiter)) : json_null());
	/* faster than the roof allows: a measurement error, not a figure to show */
	json_object_set_new(o, "pct_of_roof", p->have && p->roof > 0 && !p->roof_exceeded ?
	    json_real(p->pct_of_roof) : json_null());
	json_object_set_new(o, "pct_of_theoretical", p->have && p->roof_theoretical > 0 && !p->roof_exceeded ?
	    json_real(p->pct_of_theoretical) : json_null());
	json_object_set_new(o, "roof_exceeded", p->have ? json_boolean(p->roof_exceeded) : json_null());
}

static json_t *step_to_json(const struct step_result *s)
{
	json_t *o = json_object();

	json_object_set_new(o, "step", json_integer(s->step));
	json_object_set_new(o, "title", json_string(s->title));
	json_object_set_new(o, "kernel", json_string(s->kernel));
	json_object_set_new(o, "size", json_integer((json_int_t)s->size));
	json_object_set_new(o, "block", json_integer(s->block));
	json_object_set_new(o, "grid", s->grid ? json_integer(s->grid) : json_null());
	json_object_set_new(o, "library", json_boolean(s->library));
	json_object_set_new(o, "complete", json_boolean(s->complete));
	json_object_set_new(o, "ran", json_boolean(s->ran));
	if (s->ran) {
		json_object_set_new(o, "reps", json_integer(s->reps));
		json_object_set_new(o, "median_ms", json_real(s->median_ms));
		json_object_set_new(o, "q1_ms", json_real(s->q1_ms));
		json_object_set_new(o, "q3_ms", json_real(s->q3_ms));
		json_object_set_new(o, "min_ms", json_real(s->min_ms));
		json_object_set_new(o, "max_ms", json_real(s->max_ms));
		json_object_set_new(o, "spread_pct", json_real(s->spread_pct));
		json_object_set_new(o, "registers", json_integer(s->registers));
		if (s->sm_clock_mhz > 0)
			json_object_set_new(o, "sm_clock_mhz", json_integer(s->sm_clock_mhz));
		json_object_set_new(o, "blocks_per_sm", json_integer(s->blocks_per_sm));
		json_object_set_new(o, "occupancy_pct", json_real(s->occupancy_pct));
		json_object_set_new(o, "gbps", json_real(s->gbps));
		json_object_set_new(o, "gflops", json_real(s->gflops));
		json_object_set_new(o, "pct_copy", json_real(s->pct_copy));
		json_object_set_new(o, "pct_library", json_real(s->pct_library));
		json_object_set_new(o, "unit", json_string(results_unit_name(s->unit)));
		json_object_set_new(o, "yardstick", json_string(results_yardstick_name(s->yardstick)));
		json_object_set_new(o, "speedup_first", json_real(s->speedup_first));
		json_object_set_new(o, "speedup_prev", json_real(s->speedup_prev));
		json_object_set_new(o, "correct", json_boolean(s->correct));
		json_object_set_new(o, "check", json_string(s->check_detail));
	} else {
		json_object_set_new(o, "correct", json_null());
		json_object_set_new(o, "error", json_string(s->error));
	}
	json_object_set_new(o, "wrong_by_design", json_boolean(s->wrong_by_design));
	json_object_set_new(o, "control", json_boolean(s->control));
	roof_to_json(o, &s->roof);
	if (s->metrics.collected)
		json_object_set_new(o, "metrics", metrics_to_json(&s->metrics));
	return o;
}

json_t *results_report_json_head(const struct run_report *r)
{
	json_t *o = json_object();

	json_object_set_new(o, "lesson", json_string(r->lesson));
	json_object_set_new(o, "gpu", results_gpu_to_json(&r->gpu));
	if (r->recorded)
		json_object_set_new(o, "recorded", json_pack("{s:s, s:s}",
		    "date", r->recorded_date, "file", r->recorded_file));
	else
		json_object_set_new(o, "recorded", json_null());
	return o;
}

json_t *results_report_to_json(const struct run_report *r)
{
	json_t *o = results_report_json_head(r), *steps = json_array();

	json_object_set_new(o, "copy_gbps", json_real(r->copy_gbps));
	json_object_set_new(o, "roofs", roofs_to_json(&r->roofs));
	json_object_set_new(o, "clocks", r->clocks_start.have || r->clocks_end.have ?
	    json_pack("{s:o, s:o}", "start", roofs_clocks_to_json(&r->clocks_start),
	    "end", roofs_clocks_to_json(&r->clocks_end)) : json_null());
	json_object_set_new(o, "size", json_integer((json_int_t)r->size));
	json_object_set_new(o, "block", json_integer(r->block));
	for (int i = 0; i < r->nsteps; i++)
		json_array_append_new(steps, step_to_json(&r->steps[i]));
	json_object_set_new(o, "steps", steps);
	return o;
}

/* ---- from JSON --------------------------------------------------------- */

/* Typed field readers: each fills e with where and what on a mismatch. */
struct reader {
	const char *file;
	char where[128];
	struct error *e;
};

static int get_string(struct reader *rd, json_t *o, const char *key, char *buf, size_t len)
{
	json_t *v = json_object_get(o, key);

	if (!json_is_string(v)) {
		error_set(rd->e, _("%s: %s: '%s' must be a string: the file is damaged; record it again"),
		    rd->file, rd->where, key);
		return -1;
	}
	utf8_copy(buf, len, json_string_value(v));
	return 0;
}

static int get_number(struct reader *rd, json_t *o, const char *key, double *out)
{
	json_t *v = json_object_get(o, key);

	if (!json_is_number(v)) {
		error_set(rd->e, _("%s: %s: '%s' must be a number: the file is damaged; record it again"),
		    rd->file, rd->where, key);
		return -1;
	}
	*out = json_number_value(v);
	return 0;
}

/* A whole number from 0 to max, else the file is damaged: the same message for both. */
static int get_count_up_to(struct reader *rd, json_t *o, const char *key, unsigned long long max,
    unsigned long long *out)
{
	json_t *v = json_object_get(o, key);

	if (!json_is_integer(v) || json_integer_value(v) < 0 ||
	    (unsigned long long)json_integer_value(v) > max) {
		error_set(rd->e, _("%s: %s: '%s' must be a whole number: the file is damaged; record it again"),
		    rd->file, rd->where, key);
		return -1;
	}
	*out = (unsigned long long)json_integer_value(v);
	return 0;
}

static int get_count(struct reader *rd, json_t *o, const char *key, unsigned long long *out)
{
	return get_count_up_to(rd, o, key, ULLONG_MAX, out);
}

/* A count kept in an int: one past INT_MAX would come back negative and not read again. */
static int get_int_count(struct reader *rd, json_t *o, const char *key, int *out)
{
	unsigned long long v = 0;

	if (get_count_up_to(rd, o, key, INT_MAX, &v) != 0)
		return -1;
	*out = (int)v;
	return 0;
}

/* The same for an unsigned int. */
static int get_uint_count(struct reader *rd, json_t *o, const char *key, unsigned int *out)
{
	unsigned long long v = 0;

	if (get_count_up_to(rd, o, key, UINT_MAX, &v) != 0)
		return -1;
	*out = (unsigned int)v;
	return 0;
}

static int get_bool(struct reader *rd, json_t *o, const char *key, bool *out)
{
	json_t *v = json_object_get(o, key);

	if (!json_is_boolean(v)) {
		error_set(rd->e, _("%s: %s: '%s' must be true or false: the file is damaged; record it again"),
		    rd->file, rd->where, key);
		return -1;
	}
	*out = json_is_true(v);
	return 0;
}

static int gpu_from_json(struct reader *rd, json_t *o, struct gpu_desc *g)
{
	snprintf(rd->where, sizeof rd->where, "gpu");
	if (!json_is_object(o)) {
		error_set(rd->e, _("%s: 'gpu' is missing: the file is damaged; record it again"), rd->file);
		return -1;
	}
	if (get_string(rd, o, "name", g->name, sizeof g->name) ||
	    get_string(rd, o, "compute_capability", g->arch, sizeof g->arch) ||
	    get_string(rd, o, "driver", g->driver, sizeof g->driver) ||
	    get_string(rd, o, "cuda", g->cuda, sizeof g->cuda) ||
	    get_int_count(rd, o, "sm_count", &g->sm_count) ||
	    get_count(rd, o, "memory_bytes", &g->memory_bytes))
		return -1;
	/* optional: files recorded before it was kept have none */
	if (json_object_get(o, "l2_bytes") != NULL && get_count(rd, o, "l2_bytes", &g->l2_bytes))
		return -1;
	return 0;
}

/* Optional, and absent from files recorded before counters were: then not collected. */
/* The samples read back: what is damaged is named, as for the counters. */
static int stalls_from_json(struct reader *rd, json_t *o, struct stall_profile *p)
{
	json_t *lines = json_object_get(o, "lines"), *l;
	size_t i;

	memset(p, 0, sizeof *p);
	if (o == NULL || json_is_null(o))
		return 0;
	if (!json_is_object(o) || !json_is_integer(json_object_get(o, "samples")) || !json_is_array(lines))
		goto damaged;
	p->samples = json_integer_value(json_object_get(o, "samples"));
	if (json_is_string(json_object_get(o, "date")))
		utf8_copy(p->date, sizeof p->date, json_string_value(json_object_get(o, "date")));
	json_array_foreach(lines, i, l) {
		struct stall_line *x;
		json_t *reasons = json_object_get(l, "reasons"), *v;
		const char *key;

		if (p->nlines == STALL_LINES_MAX)
			break;
		x = &p->lines[p->nlines];
		if (!json_is_integer(json_object_get(l, "offset")) || !json_is_string(json_object_get(l, "sass")) ||
		    !json_is_integer(json_object_get(l, "samples")) || !json_is_object(reasons) ||
		    json_integer_value(json_object_get(l, "offset")) < 0 || json_integer_value(json_object_get(l, "samples")) < 0)
			goto damaged;
		x->offset = (unsigned int)json_integer_value(json_object_get(l, "offset"));
		x->samples = (int)json_integer_value(json_object_get(l, "samples"));
		utf8_copy(x->sass, sizeof x->sass, json_string_value(json_object_get(l, "sass")));
		json_object_foreach(reasons, key, v) {
			if (!json_is_integer(v))
				goto damaged;
			if (x->nreasons < STALL_REASONS_MAX) {
				utf8_copy(x->reasons[x->nreasons].name, sizeof x->reasons[0].name, key);
				x->reasons[x->nreasons++].samples = (int)json_integer_value(v);
			}
		}
		/* largest first, whatever order the file keeps */
		for (int a = 1; a < x->nreasons; a++)
			for (int b = a; b > 0 && x->reasons[b].samples > x->reasons[b - 1].samples; b--) {
				__typeof__(x->reasons[0]) t = x->reasons[b];
				x->reasons[b] = x->reasons[b - 1];
				x->reasons[b - 1] = t;
			}
		p->nlines++;
	}
	p->have = true;
	return 0;
damaged:
	error_set(rd->e, _("%s: %s: 'stalls' must hold 'samples' and 'lines' of offset, sass, samples and reasons: the file is damaged; record it again"),
	    rd->file, rd->where);
	return -1;
}

static int metrics_from_json(struct reader *rd, json_t *o, struct step_metrics *m)
{
	json_t *values, *v;
	const char *key;

	if (o == NULL || json_is_null(o))
		return 0;
	values = json_object_get(o, "values");
	if (!json_is_object(o) || !json_is_object(values)) {
		error_set(rd->e, _("%s: %s: 'metrics' must hold an object of 'values': the file is damaged; record it again"),
		    rd->file, rd->where);
		return -1;
	}
	if (json_is_string(json_object_get(o, "tool")))
		utf8_copy(m->tool, sizeof m->tool, json_string_value(json_object_get(o, "tool")));
	json_object_foreach(values, key, v) {
		int i = metrics_find(key);
		if (i < 0)
			continue;	/* a metric this version does not show */
		if (!json_is_number(v) && !json_is_null(v)) {
			error_set(rd->e, _("%s: %s: metric '%s' must be a number or null: the file is damaged; record it again"),
			    rd->file, rd->where, key);
			return -1;
		}
		m->have[i] = json_is_number(v);
		m->value[i] = m->have[i] ? json_number_value(v) : 0;
	}
	if (stalls_from_json(rd, json_object_get(o, "stalls"), &m->stalls) != 0)
		return -1;
	v = json_object_get(o, "load_bytes_in_flight");
	if (v != NULL && (!json_is_integer(v) || json_integer_value(v) < 0 || json_integer_value(v) > 1 << 20)) {
		error_set(rd->e, _("%s: %s: 'load_bytes_in_flight' must be a count of bytes: the file is damaged; record it again"),
		    rd->file, rd->where);
		return -1;
	}
	m->load_bytes_in_flight = v != NULL ? (int)json_integer_value(v) : 0;
	m->collected = true;
	return 0;
}

static int step_from_json(struct reader *rd, json_t *o, struct step_result *s)
{
	json_t *jgrid;

	if (!json_is_object(o)) {
		error_set(rd->e, _("%s: %s is not an object: the file is damaged; record it again"),
		    rd->file, rd->where);
		return -1;
	}
	memset(s, 0, sizeof *s);
	if (get_int_count(rd, o, "step", &s->step) || get_string(rd, o, "kernel", s->kernel, sizeof s->kernel) ||
	    get_count(rd, o, "size", &s->size) || get_uint_count(rd, o, "block", &s->block) ||
	    get_bool(rd, o, "ran", &s->ran) || get_bool(rd, o, "library", &s->library) ||
	    get_bool(rd, o, "wrong_by_design", &s->wrong_by_design))
		return -1;
	/* files recorded before control steps existed have none */
	s->control = json_is_true(json_object_get(o, "control"));
	if (json_is_string(json_object_get(o, "title")))
		utf8_copy(s->title, sizeof s->title, json_string_value(json_object_get(o, "title")));
	jgrid = json_object_get(o, "grid");
	if (!json_is_null(jgrid) && get_uint_count(rd, o, "grid", &s->grid))
		return -1;
	if (metrics_from_json(rd, json_object_get(o, "metrics"), &s->metrics) != 0)
		return -1;
	if (!s->ran)
		return get_string(rd, o, "error", s->error, sizeof s->error);
	if (get_int_count(rd, o, "reps", &s->reps) || get_number(rd, o, "median_ms", &s->median_ms) ||
	    get_number(rd, o, "q1_ms", &s->q1_ms) || get_number(rd, o, "q3_ms", &s->q3_ms) ||
	    get_number(rd, o, "min_ms", &s->min_ms) || get_number(rd, o, "max_ms", &s->max_ms) ||
	    get_number(rd, o, "spread_pct", &s->spread_pct) ||
	    get_bool(rd, o, "correct", &s->correct) ||
	    get_string(rd, o, "check", s->check_detail, sizeof s->check_detail))
		return -1;
	if (get_int_count(rd, o, "registers", &s->registers) ||
	    get_int_count(rd, o, "blocks_per_sm", &s->blocks_per_sm) ||
	    get_number(rd, o, "occupancy_pct", &s->occupancy_pct))
		return -1;
	if (json_object_get(o, "sm_clock_mhz") != NULL && get_int_count(rd, o, "sm_clock_mhz", &s->sm_clock_mhz))
		return -1;
	if (!(s->median_ms > 0) || !isfinite(s->median_ms)) {
		error_set(rd->e, _("%s: %s: 'median_ms' must be above zero: the file is damaged; record it again"),
		    rd->file, rd->where);
		return -1;
	}
	{
		const char *keys[] = { "q1_ms", "q3_ms", "min_ms", "max_ms" };
		const double values[] = { s->q1_ms, s->q3_ms, s->min_ms, s->max_ms };

		for (size_t i = 0; i < ARRAY_LEN(keys); i++)
			if (!(values[i] >= 0) || !isfinite(values[i])) {
				error_set(rd->e, _("%s: %s: '%s' must be a time (milliseconds, not below zero): the file "
				    "is damaged; record it again"), rd->file, rd->where, keys[i]);
				return -1;
			}
	}
	return 0;
}

static int run_from_json(struct reader *rd, json_t *o, struct run_report *r)
{
	json_t *steps;
	char where[64];
	size_t i;

	json_t *clocks;

	if (get_string(rd, o, "lesson", r->lesson, sizeof r->lesson) ||
	    get_count(rd, o, "size", &r->size) || get_uint_count(rd, o, "block", &r->block))
		return -1;
	/* when this run was recorded; files from before runs had dates have only the file's */
	if (json_is_string(json_object_get(o, "date")))
		utf8_copy(r->recorded_date, sizeof r->recorded_date, json_string_value(json_object_get(o, "date")));
	/* what the clocks were is a note beside the times: one unreadable is left out, not fatal */
	clocks = json_object_get(o, "clocks");
	if (json_is_object(clocks) &&
	    (roofs_clocks_from_json(json_object_get(clocks, "start"), &r->clocks_start) != 0 ||
	    roofs_clocks_from_json(json_object_get(clocks, "end"), &r->clocks_end) != 0))
		r->clocks_start.have = r->clocks_end.have = false;
	snprintf(where, sizeof where, "%.63s", rd->where);
	steps = json_object_get(o, "steps");
	if (!json_is_array(steps)) {
		error_set(rd->e, _("%s: %s: 'steps' must be a list: the file is damaged; record it again"),
		    rd->file, rd->where);
		return -1;
	}
	r->nsteps = (int)json_array_size(steps);
	r->steps = xcalloc((size_t)r->nsteps, sizeof *r->steps);
	for (i = 0; i < json_array_size(steps); i++) {
		snprintf(rd->where, sizeof rd->where, "%s.steps[%zu]", where, i);
		if (step_from_json(rd, json_array_get(steps, i), &r->steps[i]) != 0)
			return -1;
	}
	return 0;
}

int results_report_from_json(json_t *o, const char *file, struct run_report *r, struct error *e)
{
	struct reader rd = { file, "report", e };
	json_t *rec;

	memset(r, 0, sizeof *r);
	if (!json_is_object(o)) {
		error_set(e, _("%s: a report is not an object: the file is damaged"), file);
		return -1;
	}
	if (gpu_from_json(&rd, json_object_get(o, "gpu"), &r->gpu) != 0)
		goto fail;
	snprintf(rd.where, sizeof rd.where, "report");
	if (get_number(&rd, o, "copy_gbps", &r->copy_gbps) != 0 || run_from_json(&rd, o, r) != 0 ||
	    roofs_from_json(json_object_get(o, "roofs"), file, &r->roofs, e) != 0)
		goto fail;
	rec = json_object_get(o, "recorded");
	if (json_is_object(rec)) {
		snprintf(rd.where, sizeof rd.where, "recorded");
		if (get_string(&rd, rec, "date", r->recorded_date, sizeof r->recorded_date) ||
		    get_string(&rd, rec, "file", r->recorded_file, sizeof r->recorded_file))
			goto fail;
		r->recorded = true;
	}
	results_derive(r);
	return 0;
fail:
	run_report_free(r);
	return -1;
}

void results_file_free(struct results_file *f)
{
	for (int i = 0; i < f->nruns; i++)
		run_report_free(&f->runs[i]);
	free(f->runs);
	f->runs = NULL;
	f->nruns = 0;
	json_decref(f->sweeps);
	f->sweeps = NULL;
}

/* Larger than any recording of every lesson at several sizes: not ours. */
#define RESULTS_MAX_BYTES (64u << 20)

static void link_large_sizes(struct results_file *f);

int results_file_load(const char *path, struct results_file *f, struct error *e)
{
	struct stat st;
	size_t len = 0;
	char *text;
	int rc;

	memset(f, 0, sizeof *f);
	/* A device or a pipe (/dev/zero) would be read for ever: files only. */
	if (stat(path, &st) != 0) {
		error_set(e, _("%s: cannot read the results file (%s)"), path, strerror(errno));
		return -1;
	}
	if (!S_ISREG(st.st_mode)) {
		error_set(e, _("%s: cannot read the results file (%s)"), path,
		    S_ISDIR(st.st_mode) ? strerror(EISDIR) : _("not a regular file"));
		return -1;
	}
	if ((unsigned long long)st.st_size > RESULTS_MAX_BYTES) {
		error_set(e, _("%s: %lld bytes is too large for a results file (at most %u MiB): "
		    "record it again with 'cudatutor record'"), path, (long long)st.st_size,
		    RESULTS_MAX_BYTES >> 20);
		return -1;
	}
	text = file_read(path, &len);
	if (text == NULL) {
		error_set(e, _("%s: cannot read the results file (%s)"), path, strerror(errno));
		return -1;
	}
	rc = results_file_load_buffer(text, len, path, f, e);
	free(text);
	return rc;
}

/* The file's "format" and "version": ours, and one this cudatutor reads. */
static int check_format(json_t *root, const char *path, struct error *e)
{
	json_t *fmt = json_object_get(root, "format"), *version = json_object_get(root, "version");

	if (!json_is_string(fmt) || strcmp(json_string_value(fmt), RESULTS_FORMAT) != 0) {
		error_set(e, _("%s: not a cudatutor results file (no \"format\": \"%s\")"), path, RESULTS_FORMAT);
		return -1;
	}
	if (!json_is_integer(version) || json_integer_value(version) < 1) {
		error_set(e, _("%s: 'version' must be a format version (1, 2, ...): the file is damaged; record it again"),
		    path);
		return -1;
	}
	if (json_integer_value(version) > RESULTS_VERSION) {
		error_set(e, _("%s: written by a newer cudatutor (format version %lld): update cudatutor to read it"),
		    path, (long long)json_integer_value(version));
		return -1;
	}
	return 0;
}

int results_file_load_buffer(const char *text, size_t len, const char *path,
    struct results_file *f, struct error *e)
{
	struct reader rd = { path, "", e };
	json_error_t jerr;
	json_t *root, *runs, *rec;
	int rc = -1;

	memset(f, 0, sizeof *f);
	error_clear(e);
	snprintf(f->path, sizeof f->path, "%s", path);
	root = json_loadb(text, len, 0, &jerr);
	if (root == NULL) {
		error_set(e, _("%s:%d: not a valid results file (%s): record it again with 'cudatutor record'"),
		    path, jerr.line > 0 ? jerr.line : 1, jerr.text);
		return -1;
	}
	if (check_format(root, path, e) != 0)
		goto out;
	if (gpu_from_json(&rd, json_object_get(root, "gpu"), &f->gpu) != 0)
		goto out;
	rec = json_object_get(root, "recorded");
	snprintf(rd.where, sizeof rd.where, "recorded");
	if (!json_is_object(rec) || get_string(&rd, rec, "date", f->date, sizeof f->date) ||
	    get_string(&rd, rec, "cudatutor", f->version, sizeof f->version)) {
		if (e->msg[0] == '\0' || !json_is_object(rec))
			error_set(e, _("%s: 'recorded' is missing: the file is damaged; record it again"), path);
		goto out;
	}
	snprintf(rd.where, sizeof rd.where, "top level");
	if (get_number(&rd, root, "copy_gbps", &f->copy_gbps) != 0)
		goto out;
	/* files recorded before the roofs have none: every roof figure is then unknown */
	if (roofs_from_json(json_object_get(root, "roofs"), path, &f->roofs, e) != 0)
		goto out;
	/* the sweeps are sweep.c's to read: kept as they are, for a save to write back */
	if (json_is_array(json_object_get(root, "sweeps")))
		f->sweeps = json_incref(json_object_get(root, "sweeps"));
	runs = json_object_get(root, "runs");
	if (!json_is_array(runs)) {
		error_set(e, _("%s: 'runs' must be a list: the file is damaged; record it again"), path);
		goto out;
	}
	f->runs = xcalloc(json_array_size(runs) + 1, sizeof *f->runs);
	for (size_t i = 0; i < json_array_size(runs); i++) {
		struct run_report *r = &f->runs[i];

		f->nruns = (int)i + 1;
		snprintf(rd.where, sizeof rd.where, "runs[%zu]", i);
		if (run_from_json(&rd, json_array_get(runs, i), r) != 0)
			goto out;
		r->gpu = f->gpu;
		r->copy_gbps = f->copy_gbps;
		r->roofs = f->roofs;
		r->recorded = true;
		if (r->recorded_date[0] == '\0')
			snprintf(r->recorded_date, sizeof r->recorded_date, "%s", f->date);
		utf8_copy(r->recorded_file, sizeof r->recorded_file, path);
		results_derive(r);
	}
	link_large_sizes(f);
	rc = 0;
out:
	json_decref(root);
	if (rc != 0)
		results_file_free(f);
	return rc;
}

/*
 * What results_derive computes from a step's measurements and the file's
 * roofs: shown and printed, never kept in a results file, where a figure
 * would go stale as soon as the way it is derived changes.
 */
static const char *const derived_keys[] = {
	"complete", "gbps", "gflops", "pct_copy", "pct_library", "unit", "yardstick", "speedup_first",
	"speedup_prev", "intensity", "limiter", "roof", "roof_unit", "pct_of_roof", "pct_of_theoretical",
	"roof_exceeded",
};

/*
 * Each DRAM step of f that is L2-sized or short, beside the same kernel at
 * the largest size of its lesson in f, where that one is placed under its
 * roof and is neither: what the kernel does once the data are DRAM's.
 */
static void link_large_sizes(struct results_file *f)
{
	for (int i = 0; i < f->nruns; i++)
		for (int j = 0; j < f->runs[i].nsteps; j++) {
			struct step_result *s = &f->runs[i].steps[j];

			s->large_size = 0;
			s->large_pct = 0;
			if (!results_dram_caveat(s))
				continue;
			for (int k = 0; k < f->nruns; k++) {
				const struct step_result *t = results_step_of(&f->runs[k], s->kernel);

				if (strcmp(f->runs[k].lesson, f->runs[i].lesson) != 0 || f->runs[k].size <= s->size ||
				    f->runs[k].size <= s->large_size || t == NULL || !t->ran || !t->roof.have ||
				    t->roof.roof_exceeded || t->roof.pct_of_roof <= 0 || results_dram_caveat(t))
					continue;
				s->large_size = f->runs[k].size;
				s->large_pct = t->roof.pct_of_roof;
			}
		}
}

/* Run i of f as the file holds it: without what the file says once, at the top; with its date. */
static json_t *run_to_file_json(const struct results_file *f, int i)
{
	json_t *r = results_report_to_json(&f->runs[i]), *run = json_object(), *step;
	const char *date = f->runs[i].recorded_date[0] != '\0' ? f->runs[i].recorded_date : f->date;
	size_t k;

	json_object_del(r, "gpu");
	json_object_del(r, "recorded");
	json_object_del(r, "copy_gbps");
	json_object_del(r, "roofs");
	json_array_foreach(json_object_get(r, "steps"), k, step)
		for (size_t d = 0; d < sizeof derived_keys / sizeof derived_keys[0]; d++)
			json_object_del(step, derived_keys[d]);
	/* each run's own date, after its lesson: a partial record makes some newer */
	json_object_set_new(run, "lesson", json_string(f->runs[i].lesson));
	json_object_set_new(run, "date", json_string(date));
	json_object_update(run, r);
	json_decref(r);
	return run;
}

/* root written to path as every results file is, atomically; root is consumed. */
static int save_json(json_t *root, const char *path, struct error *e)
{
	char *text = json_dumps(root, JSON_INDENT(1) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(8));
	char *with_nl;
	size_t n;
	int rc;

	json_decref(root);
	if (text == NULL) {
		error_set(e, _("cannot format the results as JSON"));
		return -1;
	}
	n = strlen(text);
	with_nl = xmalloc(n + 2);
	memcpy(with_nl, text, n);
	with_nl[n] = '\n';
	with_nl[n + 1] = '\0';
	rc = file_write_atomic(path, with_nl, n + 1, e);
	free(with_nl);
	free(text);
	return rc;
}

int results_file_save(const struct results_file *f, const char *path, struct error *e)
{
	json_t *root = json_object(), *runs = json_array();

	json_object_set_new(root, "format", json_string(RESULTS_FORMAT));
	json_object_set_new(root, "version", json_integer(RESULTS_VERSION));
	json_object_set_new(root, "gpu", results_gpu_to_json(&f->gpu));
	json_object_set_new(root, "recorded", json_pack("{s:s, s:s}", "date", f->date,
	    "cudatutor", f->version));
	json_object_set_new(root, "copy_gbps", json_real(f->copy_gbps));
	if (f->roofs.have)
		json_object_set_new(root, "roofs", roofs_to_json(&f->roofs));
	for (int i = 0; i < f->nruns; i++)
		json_array_append_new(runs, run_to_file_json(f, i));
	json_object_set_new(root, "runs", runs);
	if (f->sweeps != NULL)
		json_object_set(root, "sweeps", f->sweeps);
	return save_json(root, path, e);
}

/* The run of runs (a file's JSON list) of this lesson at this size, or -1. */
static int run_index(json_t *runs, const char *lesson, unsigned long long size)
{
	size_t i;
	json_t *r;

	json_array_foreach(runs, i, r) {
		json_t *l = json_object_get(r, "lesson"), *n = json_object_get(r, "size");

		if (json_is_string(l) && strcmp(json_string_value(l), lesson) == 0 && json_is_integer(n) &&
		    (unsigned long long)json_integer_value(n) == size)
			return (int)i;
	}
	return -1;
}

int results_file_merge_save(const char *base_path, const struct results_file *add, const char *path,
    struct error *e)
{
	struct results_file base;
	json_error_t jerr;
	json_t *root, *runs;
	bool same;

	/* through the loader first: a file it cannot read is never written */
	if (results_file_load(base_path, &base, e) != 0)
		return -1;
	same = strcmp(base.gpu.name, add->gpu.name) == 0;
	results_file_free(&base);
	if (!same) {
		error_set(e, _("%s was recorded on %s, not on %s: record every lesson into a file of its own"),
		    base_path, base.gpu.name, add->gpu.name);
		return -1;
	}
	/* the other runs as the file holds them, byte for byte: never read back and written anew */
	root = json_load_file(base_path, 0, &jerr);
	runs = root != NULL ? json_object_get(root, "runs") : NULL;
	if (!json_is_array(runs)) {
		error_set(e, _("%s: cannot read the results file (%s)"), base_path, jerr.text);
		json_decref(root);
		return -1;
	}
	for (int i = 0; i < add->nruns; i++) {
		int at = run_index(runs, add->runs[i].lesson, add->runs[i].size);

		/* in the place of the run it replaces, so the file keeps its order */
		if (at >= 0)
			json_array_set_new(runs, (size_t)at, run_to_file_json(add, i));
		else
			json_array_append_new(runs, run_to_file_json(add, i));
	}
	return save_json(root, path, e);
}

int results_file_set_roofs(const char *path, const struct gpu_desc *g, const struct gpu_roofs *r,
    struct error *e)
{
	struct results_file f;
	int rc;

	/* through the loader: a file it cannot read is never written */
	if (results_file_load(path, &f, e) != 0)
		return -1;
	if (strcmp(f.gpu.name, g->name) != 0 || strcmp(f.gpu.arch, g->arch) != 0) {
		error_set(e, _("%s was recorded on %s (%s), not on this %s (%s): its roofs are that GPU's"),
		    path, f.gpu.name, f.gpu.arch, g->name, g->arch);
		results_file_free(&f);
		return -1;
	}
	f.roofs = *r;
	rc = results_file_save(&f, path, e);
	results_file_free(&f);
	return rc;
}

/* ---- finding a recorded run -------------------------------------------- */

static const struct run_report *pick_run(const struct results_file *f, const char *lesson,
    unsigned long long size, unsigned int block)
{
	unsigned long long want_size = size ? size : RESULTS_DEFAULT_SIZE;
	unsigned int want_block = block ? block : RESULTS_DEFAULT_BLOCK;

	for (int i = 0; i < f->nruns; i++) {
		const struct run_report *r = &f->runs[i];
		if (strcmp(r->lesson, lesson) == 0 && r->size == want_size && r->block == want_block)
			return r;
	}
	return NULL;
}

/* What f has for this lesson, "2^24 and 2^28 (block 1024)", for messages. */
static void describe_sizes(const struct results_file *f, const char *lesson, struct strbuf *b)
{
	for (int i = 0; i < f->nruns; i++) {
		if (strcmp(f->runs[i].lesson, lesson) != 0)
			continue;
		strbuf_addf(b, "%s%llu (block %u)", b->len ? ", " : "", f->runs[i].size,
		    f->runs[i].block);
	}
}

static void copy_run(const struct run_report *src, struct run_report *dst)
{
	*dst = *src;
	dst->steps = xcalloc((size_t)src->nsteps + 1, sizeof *dst->steps);
	memcpy(dst->steps, src->steps, (size_t)src->nsteps * sizeof *dst->steps);
}

static int compare_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * The .json files of data/results/, sorted, into *names_out, and the
 * directory's path into *dir_out (free both); -1 and e if it cannot be read.
 */
static int recorded_files(char ***names_out, size_t *count, char **dir_out, struct error *e)
{
	char *dir = paths_source("data/results");
	DIR *d = opendir(dir);
	struct dirent *ent;
	char **names = NULL;

	*count = 0;
	*dir_out = dir;
	*names_out = NULL;
	if (d == NULL) {
		error_set(e, _("no recorded results: %s cannot be read (%s)"), dir, strerror(errno));
		return -1;
	}
	while ((ent = readdir(d)) != NULL) {
		size_t n = strlen(ent->d_name);
		if (n > 5 && strcmp(ent->d_name + n - 5, ".json") == 0) {
			names = xrealloc(names, (*count + 1) * sizeof *names);
			names[(*count)++] = xasprintf("%s/%s", dir, ent->d_name);
		}
	}
	closedir(d);
	if (*count > 1)
		qsort(names, *count, sizeof *names, compare_names);
	*names_out = names;
	return 0;
}

static void free_names(char **names, size_t count)
{
	for (size_t i = 0; i < count; i++)
		free(names[i]);
	free(names);
}

int results_next_file(const char *after, const char *except, char *path, size_t len,
    struct error *e)
{
	size_t count, i;
	char *dir, **names;
	int rc = -1;

	if (recorded_files(&names, &count, &dir, e) != 0) {
		free(dir);
		return -1;
	}
	e->msg[0] = '\0';
	if (count == 0)
		error_set(e, _("no recorded results in %s"), dir);
	/* names are sorted: the first past `after`, so a file that went away ends nothing */
	for (i = 0; i < count && rc != 0; i++) {
		if ((after != NULL && after[0] != '\0' && strcmp(names[i], after) <= 0) ||
		    (except != NULL && strcmp(names[i], except) == 0))
			continue;
		snprintf(path, len, "%s", names[i]);
		rc = 0;
	}
	free_names(names, count);
	free(dir);
	return rc;
}

int results_newest_gpu(struct gpu_desc *g, struct error *e)
{
	size_t count;
	char *dir, newest[40] = "", **names;
	struct results_file f;

	if (recorded_files(&names, &count, &dir, e) != 0) {
		free(dir);
		return -1;
	}
	for (size_t i = 0; i < count; i++) {
		if (results_file_load(names[i], &f, e) != 0)
			continue;
		if (strcmp(f.date, newest) > 0) {
			snprintf(newest, sizeof newest, "%s", f.date);
			*g = f.gpu;
		}
		results_file_free(&f);
	}
	free_names(names, count);
	if (newest[0] == '\0')
		error_set(e, _("no recorded results in %s"), dir);
	free(dir);
	return newest[0] != '\0' ? 0 : -1;
}

int results_find_recorded(const char *file, const char *lesson, unsigned long long size,
    unsigned int block, struct run_report *r, struct error *e)
{
	struct results_file best = { 0 }, f;
	struct strbuf have = { 0 };
	struct error first_bad = { "" };
	char *dir;
	char **names = NULL;
	size_t count = 0;
	int found = 0;

	memset(r, 0, sizeof *r);
	e->msg[0] = '\0';
	if (file != NULL) {
		const struct run_report *run;

		if (results_file_load(file, &f, e) != 0)
			return -1;
		run = pick_run(&f, lesson, size, block);
		if (run == NULL) {
			describe_sizes(&f, lesson, &have);
			error_set(e, _("%s has no run of lesson '%s' at size %llu, block %u (it has: %s)"),
			    file, lesson, size ? size : RESULTS_DEFAULT_SIZE,
			    block ? block : RESULTS_DEFAULT_BLOCK, have.len ? have.s : _("none"));
			strbuf_free(&have);
			results_file_free(&f);
			return -1;
		}
		copy_run(run, r);
		results_file_free(&f);
		return 0;
	}

	if (recorded_files(&names, &count, &dir, e) != 0) {
		free(dir);
		return -1;
	}
	for (size_t i = 0; i < count; i++) {
		struct error why;
		if (results_file_load(names[i], &f, &why) != 0) {
			if (first_bad.msg[0] == '\0')
				first_bad = why;
			continue;
		}
		if (pick_run(&f, lesson, size, block) != NULL &&
		    (!found || strcmp(f.date, best.date) > 0)) {
			if (found)
				results_file_free(&best);
			best = f;
			found = 1;
			continue;
		}
		describe_sizes(&f, lesson, &have);
		results_file_free(&f);
	}
	free_names(names, count);

	if (found) {
		copy_run(pick_run(&best, lesson, size, block), r);
		results_file_free(&best);
		strbuf_free(&have);
		free(dir);
		return 0;
	}
	if (first_bad.msg[0] != '\0' && have.len == 0)
		*e = first_bad;
	else
		error_set(e, _("no recorded results for lesson '%s' at size %llu, block %u in %s (recorded: %s)"),
		    lesson, size ? size : RESULTS_DEFAULT_SIZE, block ? block : RESULTS_DEFAULT_BLOCK,
		    dir, have.len ? have.s : _("none"));
	strbuf_free(&have);
	free(dir);
	return -1;
}

void results_slug(const char *name, char *buf, size_t len)
{
	size_t o = 0;
	int dash = 0;

	for (const char *p = name; *p != '\0' && o + 1 < len; p++) {
		if (isalnum((unsigned char)*p)) {
			if (dash && o > 0 && o + 1 < len)
				buf[o++] = '-';
			dash = 0;
			if (o + 1 < len)
				buf[o++] = (char)tolower((unsigned char)*p);
		} else {
			dash = 1;
		}
	}
	buf[o] = '\0';
	if (o == 0)
		snprintf(buf, len, "gpu");
}

const char *results_count(unsigned long long n, char *buf, size_t len)
{
	/* 2^24, but 2048: small sizes are mostly matrix dimensions, read as numbers */
	if (n != 0 && (n & (n - 1)) == 0 && n >= 65536) {
		int k = 0;
		while ((1ULL << k) != n)
			k++;
		snprintf(buf, len, "2^%d", k);
	} else {
		snprintf(buf, len, "%llu", n);
	}
	return buf;
}
