/* Hardware counters per step: the metrics shown, Nsight Compute as their collector, its CSV. */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "i18n.h"
#include "metrics.h"
#include "paths.h"
#include "sass.h"
#include "toolkit.h"

extern char **environ;

#define STALL(reason) "smsp__warp_issue_stalled_" reason "_per_warp_active.pct"

/*
 * What the tutor shows, one row per metric.  The Nsight Compute names are
 * those of its "nvprof metric comparison" table where nvprof had the
 * metric; they exist on every GPU from Volta on.  Stall reasons are the
 * share of the active warps' cycles spent in each state, so with "issuing"
 * they add up to about 100 %, like nvprof's stall_* percentages did.
 */
const struct metric_def metrics_table[] = {
	/* ---- DRAM ---- */
	{ N_("DRAM read throughput"), "dram__bytes_read.sum.per_second", NULL, NULL, 0,
	  MU_BYTES_PER_SECOND, MG_DRAM, "dram_read_throughput", "rd GB/s",
	  N_("bytes read from device memory per second while the kernel ran; rises as a memory-bound kernel gets faster") },
	{ N_("DRAM read, share of peak"), "dram__bytes_read.sum.pct_of_peak_sustained_elapsed", NULL, NULL, 0,
	  MU_PERCENT, MG_DRAM, NULL, "rd %pk",
	  N_("read throughput as a share of what this GPU's memory can sustain") },
	{ N_("DRAM write throughput"), "dram__bytes_write.sum.per_second", NULL, NULL, 0,
	  MU_BYTES_PER_SECOND, MG_DRAM, "dram_write_throughput", NULL,
	  N_("bytes written to device memory per second while the kernel ran") },
	{ N_("DRAM write, share of peak"), "dram__bytes_write.sum.pct_of_peak_sustained_elapsed", NULL, NULL, 0,
	  MU_PERCENT, MG_DRAM, NULL, NULL,
	  N_("write throughput as a share of what this GPU's memory can sustain") },
	{ N_("DRAM busy, share of peak"), "dram__throughput.avg.pct_of_peak_sustained_elapsed", NULL, NULL, 0,
	  MU_PERCENT, MG_DRAM, "dram_utilization", NULL,
	  N_("how busy device memory was overall, reads and writes (nvprof gave 0 to 10, this is 0 to 100 %)") },
	{ N_("bytes read from DRAM"), "dram__bytes_read.sum", NULL, NULL, 0,
	  MU_BYTES, MG_DRAM, "dram_read_bytes", NULL,
	  N_("all bytes the kernel read from device memory; a reduction of n ints needs at least 4n") },
	{ N_("bytes written to DRAM"), "dram__bytes_write.sum", NULL, NULL, 0,
	  MU_BYTES, MG_DRAM, "dram_write_bytes", NULL,
	  N_("all bytes the kernel wrote to device memory") },

	/* ---- global loads and stores ---- */
	{ N_("global load efficiency"), "smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct", NULL, NULL, 0,
	  MU_PERCENT, MG_GLOBAL, "gld_efficiency", "ld eff",
	  N_("bytes the threads asked for, as a share of the 32-byte sectors moved for them; 100 % when every loaded byte is used") },
	{ N_("global store efficiency"), "smsp__sass_average_data_bytes_per_sector_mem_global_op_st.pct", NULL, NULL, 0,
	  MU_PERCENT, MG_GLOBAL, "gst_efficiency", "st eff",
	  N_("bytes the threads stored, as a share of the 32-byte sectors written for them") },
	{ N_("sectors per global load"), "l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_ld.ratio", NULL, NULL, 0,
	  MU_RATIO, MG_GLOBAL, "gld_transactions_per_request", NULL,
	  N_("32-byte sectors one warp-wide load touches: 4 when 32 threads read 32 consecutive ints, up to 32 when they are scattered") },
	{ N_("sectors per global store"), "l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_st.ratio", NULL, NULL, 0,
	  MU_RATIO, MG_GLOBAL, "gst_transactions_per_request", NULL,
	  N_("32-byte sectors one warp-wide store touches") },

	/* ---- shared memory ---- */
	{ N_("shared loads (warp instructions)"), "smsp__sass_inst_executed_op_shared_ld.sum", NULL, NULL, 0,
	  MU_COUNT, MG_SHARED, "inst_executed_shared_loads", NULL,
	  N_("warp-wide shared-memory load instructions executed: the least number of wavefronts they could take") },
	{ N_("shared load wavefronts"), "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", NULL, NULL, 0,
	  MU_COUNT, MG_SHARED, "shared_load_transactions", NULL,
	  N_("passes the shared-memory pipeline needed for those loads; each bank conflict adds one") },
	{ N_("shared load bank conflicts"), "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", NULL, NULL, 0,
	  MU_COUNT, MG_SHARED, "shared_ld_bank_conflict (event)", "ld confl",
	  N_("times two threads of a warp loaded different words of the same bank, so the load was split") },
	{ N_("extra wavefronts per shared load"), NULL,
	  "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", "smsp__sass_inst_executed_op_shared_ld.sum", 1,
	  MU_RATIO, MG_SHARED, "shared_load_transactions_per_request - 1", "sh+wf",
	  N_("wavefronts beyond one per warp-wide load: 0 without conflicts, 31 when all 32 threads hit one bank (64- and 128-bit loads need 1 and 3 more by nature)") },
	{ N_("shared stores (warp instructions)"), "smsp__sass_inst_executed_op_shared_st.sum", NULL, NULL, 0,
	  MU_COUNT, MG_SHARED, "inst_executed_shared_stores", NULL,
	  N_("warp-wide shared-memory store instructions executed") },
	{ N_("shared store wavefronts"), "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum", NULL, NULL, 0,
	  MU_COUNT, MG_SHARED, "shared_store_transactions", NULL,
	  N_("passes the shared-memory pipeline needed for those stores") },
	{ N_("shared store bank conflicts"), "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum", NULL, NULL, 0,
	  MU_COUNT, MG_SHARED, "shared_st_bank_conflict (event)", NULL,
	  N_("times a warp's store was split because two threads wrote different words of one bank") },
	{ N_("extra wavefronts per shared store"), NULL,
	  "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum", "smsp__sass_inst_executed_op_shared_st.sum", 1,
	  MU_RATIO, MG_SHARED, "shared_store_transactions_per_request - 1", NULL,
	  N_("wavefronts beyond one per warp-wide store: 0 without conflicts") },

	/* ---- warps ---- */
	{ N_("achieved occupancy"), "sm__warps_active.avg.pct_of_peak_sustained_active", NULL, NULL, 0,
	  MU_PERCENT, MG_WARPS, "achieved_occupancy", "occup",
	  N_("warps resident on a multiprocessor on average, as a share of the most it holds (nvprof gave 0 to 1)") },
	{ N_("active threads per warp instruction"), "smsp__thread_inst_executed_per_inst_executed.ratio", NULL, NULL, 0,
	  MU_RATIO, MG_WARPS, "warp_execution_efficiency", NULL,
	  N_("threads doing work in each instruction a warp issued, of 32; divergent branches lower it") },
	{ N_("branch uniformity"), "smsp__sass_average_branch_targets_threads_uniform.pct", NULL, NULL, 0,
	  MU_PERCENT, MG_WARPS, "branch_efficiency", NULL,
	  N_("branches where all threads of the warp went the same way") },

	/* ---- instructions ---- */
	{ N_("warp instructions executed"), "smsp__inst_executed.sum", NULL, NULL, 0,
	  MU_COUNT, MG_INST, "inst_executed", "inst",
	  N_("instructions issued, counted once per warp; unrolling removes loop and barrier instructions") },

	/* ---- tensor cores ---- */
	{ N_("tensor pipe busy"), "sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active", NULL, NULL, 0,
	  MU_PERCENT, MG_INST, "tensor_precision_fu_utilization", NULL,
	  N_("share of the cycles the tensor cores were busy, of the most they can be: mma.sync and WMMA (HMMA) count, and on Hopper wgmma (HGMMA) too") },
	{ N_("tensor instructions"), "sm__inst_executed_pipe_tensor_op_hmma.sum", NULL, NULL, 0,
	  MU_COUNT, MG_INST, NULL, NULL,
	  N_("matrix instructions the tensor pipe executed, counted once per warp (a warpgroup's HGMMA four times); larger instructions do the same work in fewer") },

	/* ---- stall reasons ---- */
	{ N_("waiting at a barrier"), STALL("barrier"), NULL, NULL, 0,
	  MU_PERCENT, MG_STALL, "stall_sync (with membar)", NULL,
	  N_("share of the warps' time spent waiting at __syncthreads() for the rest of the block") },
	{ N_("waiting at a memory fence"), STALL("membar"), NULL, NULL, 0,
	  MU_PERCENT, MG_STALL, "stall_sync (with barrier)", NULL,
	  N_("share of the warps' time spent waiting for a memory fence") },
	{ N_("waiting for global memory"), STALL("long_scoreboard"), NULL, NULL, 0,
	  MU_PERCENT, MG_STALL, "stall_memory_dependency", NULL,
	  N_("share of the warps' time spent waiting for data from global or local memory") },
	{ N_("waiting for shared memory or a slow unit"), STALL("short_scoreboard"), NULL, NULL, 0,
	  MU_PERCENT, MG_STALL, "stall_exec_dependency (with wait)", NULL,
	  N_("share of the warps' time spent waiting for shared memory or a special-function result") },
	{ N_("waiting a fixed latency"), STALL("wait"), NULL, NULL, 0,
	  MU_PERCENT, MG_STALL, "stall_exec_dependency (with short scoreboard)", NULL,
	  N_("share of the warps' time spent waiting the fixed cycles before a dependent instruction") },
	{ N_("ready, another warp chosen"), STALL("not_selected"), NULL, NULL, 0,
	  MU_PERCENT, MG_STALL, "stall_not_selected", NULL,
	  N_("share of the warps' time ready to go while the scheduler issued for another warp: a sign of plenty of warps") },
	{ N_("issuing"), STALL("selected"), NULL, NULL, 0,
	  MU_PERCENT, MG_STALL, NULL, NULL,
	  N_("share of the warps' time spent issuing an instruction: not a stall") },
	{ N_("math pipe busy"), STALL("math_pipe_throttle"), NULL, NULL, 0,
	  MU_PERCENT, MG_STALL, "stall_pipe_busy (with mio throttle)", NULL,
	  N_("share of the warps' time waiting for a busy arithmetic pipe") },
	{ N_("shared-memory queue full"), STALL("mio_throttle"), NULL, NULL, 0,
	  MU_PERCENT, MG_STALL, "stall_pipe_busy (with math pipe)", NULL,
	  N_("share of the warps' time waiting for room in the shared-memory and special-instruction queue") },
	{ N_("global-memory queue full"), STALL("lg_throttle"), NULL, NULL, 0,
	  MU_PERCENT, MG_STALL, "stall_memory_throttle (with drain)", NULL,
	  N_("share of the warps' time waiting for room in the global and local memory queue") },
	{ N_("draining stores at exit"), STALL("drain"), NULL, NULL, 0,
	  MU_PERCENT, MG_STALL, "stall_memory_throttle (with lg throttle)", NULL,
	  N_("share of the warps' time after exit waiting for their stores to be written") },
	{ N_("waiting for instructions"), STALL("no_instruction"), NULL, NULL, 0,
	  MU_PERCENT, MG_STALL, "stall_inst_fetch (with branch resolving)", NULL,
	  N_("share of the warps' time waiting for instructions to be fetched") },
	{ N_("waiting for a branch"), STALL("branch_resolving"), NULL, NULL, 0,
	  MU_PERCENT, MG_STALL, "stall_inst_fetch (with no instruction)", NULL,
	  N_("share of the warps' time waiting for a branch target to be computed") },
	{ N_("waiting for constant memory"), STALL("imc_miss"), NULL, NULL, 0,
	  MU_PERCENT, MG_STALL, "stall_constant_memory_dependency", NULL,
	  N_("share of the warps' time waiting for the constant cache") },
	{ N_("dispatch stall"), STALL("dispatch_stall"), NULL, NULL, 0,
	  MU_PERCENT, MG_STALL, "stall_other (with misc)", NULL,
	  N_("share of the warps' time the dispatcher held an instruction back") },
	{ N_("other"), STALL("misc"), NULL, NULL, 0,
	  MU_PERCENT, MG_STALL, "stall_other (with dispatch)", NULL,
	  N_("share of the warps' time stalled for other reasons") },
	{ N_("texture queue full"), STALL("tex_throttle"), NULL, NULL, 0,
	  MU_PERCENT, MG_STALL, "stall_texture", NULL,
	  N_("share of the warps' time waiting for room in the texture queue") },
	{ N_("sleeping"), STALL("sleeping"), NULL, NULL, 0,
	  MU_PERCENT, MG_STALL, "stall_sleeping", NULL,
	  N_("share of the warps' time asleep (__nanosleep) or waiting for the rest of the warp") },
};

const int metrics_count = (int)ARRAY_LEN(metrics_table);

_Static_assert(ARRAY_LEN(metrics_table) <= METRICS_MAX, "metrics_table outgrew METRICS_MAX");

int metrics_find(const char *ncu)
{
	for (int i = 0; i < metrics_count; i++)
		if (metrics_table[i].ncu != NULL && strcmp(metrics_table[i].ncu, ncu) == 0)
			return i;
	return -1;
}

const char *metrics_group_label(enum metric_group g)
{
	switch (g) {
	case MG_DRAM:
		return N_("Device memory (DRAM)");
	case MG_GLOBAL:
		return N_("Global loads and stores");
	case MG_SHARED:
		return N_("Shared memory");
	case MG_WARPS:
		return N_("Warps");
	case MG_INST:
		return N_("Instructions");
	case MG_STALL:
		return N_("Warp stall reasons (share of the warps' time)");
	}
	return "";
}

bool metrics_no_global_loads(const struct step_metrics *m)
{
	int k = metrics_find("l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_ld.ratio");

	return m->collected && k >= 0 && m->have[k] && m->value[k] == 0;
}

const char *metrics_no_global_loads_note(void)
{
	return _("no global load instruction ran: the kernel loads nothing from global memory, or copies "
	    "with the TMA or cp.async, which are not LDG loads");
}

int metrics_value(const struct step_metrics *m, int i, double *v)
{
	const struct metric_def *d = &metrics_table[i];

	if (!m->collected)
		return -1;
	if (d->ncu != NULL) {
		if (!m->have[i])
			return -1;
		/* no global load ran (a TMA or cp.async kernel): its efficiency is no 0 %, it is nothing */
		if (strstr(d->ncu, "mem_global_op_ld") != NULL && metrics_no_global_loads(m))
			return -1;
		*v = m->value[i];
		return 0;
	}
	{
		int n = metrics_find(d->num), q = metrics_find(d->den);
		/* No shared loads at all: nothing to divide, and nothing to say. */
		if (n < 0 || q < 0 || !m->have[n] || !m->have[q] || m->value[q] <= 0)
			return -1;
		*v = m->value[n] / m->value[q] - d->minus;
		return 0;
	}
}

static int is_issuing(const struct metric_def *d)
{
	return d->ncu != NULL && strcmp(d->ncu, STALL("selected")) == 0;
}

int metrics_top_stalls(const struct step_metrics *m, int *idx, int max)
{
	int all[METRICS_MAX], n = 0;
	double val[METRICS_MAX];

	for (int i = 0; i < metrics_count; i++) {
		double v;
		int j;
		if (metrics_table[i].group != MG_STALL || is_issuing(&metrics_table[i]) ||
		    metrics_value(m, i, &v) != 0)
			continue;
		/* insertion sort, largest first; ties keep the table's order */
		for (j = n; j > 0 && val[j - 1] < v; j--) {
			val[j] = val[j - 1];
			all[j] = all[j - 1];
		}
		val[j] = v;
		all[j] = i;
		n++;
	}
	if (n > max)
		n = max;
	memcpy(idx, all, (size_t)n * sizeof *idx);
	return n;
}

int metrics_stalls_shown(const struct step_metrics *m, int top, int *idx, int max)
{
	int n = metrics_top_stalls(m, idx, top < max ? top : max), barrier = 0;

	for (int j = 0; j < n; j++)
		barrier |= strstr(metrics_table[idx[j]].ncu, "_barrier_") != NULL;
	/* Barriers are what the reduction lessons remove: always shown, and "issuing" to compare. */
	for (int i = 0; i < metrics_count && n < max; i++) {
		const struct metric_def *d = &metrics_table[i];
		if (d->ncu != NULL && d->group == MG_STALL &&
		    ((!barrier && strstr(d->ncu, "_barrier_") != NULL) || is_issuing(d)))
			idx[n++] = i;
	}
	return n;
}

const char *metrics_unit_name(enum metric_unit u)
{
	switch (u) {
	case MU_BYTES_PER_SECOND:
		return "GB/s";
	case MU_BYTES:
		return "bytes";
	case MU_PERCENT:
		return "%";
	case MU_COUNT:
	case MU_RATIO:
		return "";
	}
	return "";
}

/* 16777216 -> "16,777,216" */
static void group_digits(double v, char *buf, size_t len)
{
	char digits[32];
	size_t n, o = 0;

	snprintf(digits, sizeof digits, "%.0f", v < 0 ? 0 : v);
	n = strlen(digits);
	for (size_t i = 0; i < n && o + 2 < len; i++) {
		if (i > 0 && (n - i) % 3 == 0)
			buf[o++] = ',';
		buf[o++] = digits[i];
	}
	buf[o] = '\0';
}

const char *metrics_format(const struct metric_def *d, double v, char *buf, size_t len)
{
	switch (d->unit) {
	case MU_BYTES_PER_SECOND:
		snprintf(buf, len, "%.1f GB/s", v / 1e9);
		break;
	case MU_BYTES:
		format_bytes(v, buf, len);
		break;
	case MU_PERCENT:
		snprintf(buf, len, "%.1f %%", v);
		break;
	case MU_COUNT:
		group_digits(v, buf, len);
		break;
	case MU_RATIO:
		snprintf(buf, len, "%.2f", v);
		break;
	}
	return buf;
}

/* ---- ncu's CSV ------------------------------------------------------------ */

/* Split one CSV line into fields (quotes, doubled quotes); returns the count. */
static int csv_split(const char *line, size_t len, char fields[][256], int max)
{
	int n = 0;
	size_t i = 0;

	while (i <= len && n < max) {
		size_t o = 0;
		char *f = fields[n];

		if (i < len && line[i] == '"') {
			i++;
			while (i < len) {
				if (line[i] == '"') {
					if (i + 1 < len && line[i + 1] == '"') {
						if (o + 1 < 256)
							f[o++] = '"';
						i += 2;
						continue;
					}
					i++;
					break;
				}
				if (o + 1 < 256)
					f[o++] = line[i];
				i++;
			}
			while (i < len && line[i] != ',')
				i++;
		} else {
			while (i < len && line[i] != ',') {
				if (o + 1 < 256)
					f[o++] = line[i];
				i++;
			}
		}
		f[o] = '\0';
		n++;
		i++;	/* past the comma, or past the end */
	}
	return n;
}

/* How many base units one of this (prefixed) unit is: "Gbyte" 1e9, "ns" 1e-9. */
static double unit_part_scale(const char *u, size_t n)
{
	static const struct { const char *name; double scale; } time_short[] = {
		{ "ns", 1e-9 }, { "us", 1e-6 }, { "ms", 1e-3 }, { "s", 1 },
		{ "nsecond", 1e-9 }, { "usecond", 1e-6 }, { "msecond", 1e-3 },
	};
	static const char big[] = "KMGTP";
	const char *p;

	for (size_t i = 0; i < ARRAY_LEN(time_short); i++)
		if (strlen(time_short[i].name) == n && strncmp(u, time_short[i].name, n) == 0)
			return time_short[i].scale;
	if (n >= 2 && (p = strchr(big, u[0])) != NULL && islower((unsigned char)u[1])) {
		double s = 1;
		for (long k = 0; k <= p - big; k++)
			s *= 1e3;
		return s;
	}
	return 1;
}

static double unit_scale(const char *unit)
{
	const char *slash = strchr(unit, '/');

	if (slash == NULL)
		return unit_part_scale(unit, strlen(unit));
	return unit_part_scale(unit, (size_t)(slash - unit)) /
	    unit_part_scale(slash + 1, strlen(slash + 1));
}

/* "325,664" -> 325664; "n/a" and anything else not a number -> -1. */
static int parse_value(const char *s, double *v)
{
	char clean[64];
	size_t o = 0;
	char *end;

	while (isspace((unsigned char)*s))
		s++;
	for (; *s != '\0' && o + 1 < sizeof clean; s++)
		if (*s != ',')
			clean[o++] = *s;
	while (o > 0 && isspace((unsigned char)clean[o - 1]))
		o--;
	clean[o] = '\0';
	if (o == 0)
		return -1;
	errno = 0;
	*v = strtod(clean, &end);
	if (*end != '\0' || errno != 0 || !isfinite(*v))
		return -1;
	return 0;
}

void metrics_rows_free(struct ncu_rows *r)
{
	free(r->rows);
	r->rows = NULL;
	r->count = 0;
}

/*
 * The next row of ncu's CSV from *at, its length without the \r in *len,
 * and *at moved past it; NULL when none is left.  Lines that do not start
 * with a quote (==PROF==, ==WARNING==, the program's own output) are not
 * rows.
 */
static const char *next_csv_row(const char **at, size_t *len)
{
	while (*at != NULL && **at != '\0') {
		const char *line = *at, *nl = strchr(line, '\n');

		*len = nl ? (size_t)(nl - line) : strlen(line);
		*at = nl ? nl + 1 : NULL;
		if (*len > 0 && line[*len - 1] == '\r')
			(*len)--;
		if (*len > 0 && line[0] == '"')
			return line;
	}
	return NULL;
}

int metrics_parse_csv(const char *text, struct ncu_rows *out, struct error *e)
{
	enum { MAXF = 32 };
	char fields[MAXF][256];
	int col_id = -1, col_kernel = -1, col_metric = -1, col_unit = -1, col_value = -1;
	int have_header = 0, cap = 0;
	const char *at = text, *line;
	size_t len;

	out->count = 0;
	out->rows = NULL;
	while ((line = next_csv_row(&at, &len)) != NULL) {
		int n = csv_split(line, len, fields, MAXF);

		if (!have_header) {
			for (int i = 0; i < n; i++) {
				if (strcmp(fields[i], "ID") == 0)
					col_id = i;
				else if (strcmp(fields[i], "Kernel Name") == 0)
					col_kernel = i;
				else if (strcmp(fields[i], "Metric Name") == 0)
					col_metric = i;
				else if (strcmp(fields[i], "Metric Unit") == 0)
					col_unit = i;
				else if (strcmp(fields[i], "Metric Value") == 0)
					col_value = i;
			}
			have_header = col_metric >= 0 && col_value >= 0;
			continue;
		}
		if (n > col_metric && n > col_value) {
			struct ncu_row *r;
			if (out->count == cap) {
				cap = cap ? 2 * cap : 64;
				out->rows = xrealloc(out->rows, (size_t)cap * sizeof *out->rows);
			}
			r = &out->rows[out->count++];
			memset(r, 0, sizeof *r);
			r->id = col_id >= 0 && col_id < n ? atoi(fields[col_id]) : 0;
			if (col_kernel >= 0 && col_kernel < n)
				snprintf(r->kernel, sizeof r->kernel, "%s", fields[col_kernel]);
			snprintf(r->metric, sizeof r->metric, "%s", fields[col_metric]);
			if (col_unit >= 0 && col_unit < n)
				snprintf(r->unit, sizeof r->unit, "%s", fields[col_unit]);
			r->have = parse_value(fields[col_value], &r->value) == 0;
			if (r->have)
				r->value *= unit_scale(r->unit);
		}
	}
	if (!have_header) {
		error_set(e, _("ncu wrote no table of counters"));
		return -1;
	}
	return 0;
}

/* m from the rows of the launch numbered id (none collected when there are none). */
static void metrics_of_launch(const struct ncu_rows *rows, int id, struct step_metrics *m)
{
	memset(m->have, 0, sizeof m->have);
	m->collected = false;
	for (int i = 0; i < rows->count; i++) {
		const struct ncu_row *r = &rows->rows[i];
		int k;
		if (r->id != id)
			continue;
		k = metrics_find(r->metric);
		m->collected = true;
		if (k < 0)
			continue;
		m->have[k] = r->have;
		m->value[k] = r->have ? r->value : 0;
	}
}

void metrics_from_rows(const struct ncu_rows *rows, struct step_metrics *m)
{
	metrics_of_launch(rows, rows->count > 0 ? rows->rows[0].id : -1, m);
}

/* "reduce_unroll8" is the kernel named "reduce_unroll8" or "reduce_unroll8(int *, ...)". */
static bool name_is_kernel(const char *kernel, const char *symbol)
{
	size_t n = strlen(symbol);

	return strncmp(kernel, symbol, n) == 0 && (kernel[n] == '\0' || kernel[n] == '(');
}

static bool row_is_kernel(const struct ncu_row *r, const char *symbol)
{
	return name_is_kernel(r->kernel, symbol);
}

/*
 * Fill m[i] for the steps whose kernels are symbols[0..n) (NULL: a step
 * not profiled), which launched in that order: the launches are matched
 * to the steps one by one.  A step that launched nothing leaves its
 * m->collected false; further launches of a step's kernel before the next
 * step's (a warm-up, then the timed run) leave m with the last of them.
 */
static void metrics_from_rows_in_order(const struct ncu_rows *rows, const char *const *symbols, int n,
    struct step_metrics *m)
{
	/* The first row of each launch, in the order they were profiled. */
	const struct ncu_row **launch = xcalloc((size_t)rows->count + 1, sizeof *launch);
	int nlaunch = 0, next = 0, prev = -1;

	for (int i = 0; i < rows->count; i++)
		if (nlaunch == 0 || rows->rows[i].id != launch[nlaunch - 1]->id)
			launch[nlaunch++] = &rows->rows[i];
	for (int i = 0; i < n; i++) {
		m[i].collected = false;
		if (symbols[i] == NULL)
			continue;
		/* More launches of the step before: the last of them is its own. */
		while (next < nlaunch && prev >= 0 && !row_is_kernel(launch[next], symbols[i]) &&
		    row_is_kernel(launch[next], symbols[prev]))
			metrics_of_launch(rows, launch[next++]->id, &m[prev]);
		if (next < nlaunch && row_is_kernel(launch[next], symbols[i])) {
			metrics_of_launch(rows, launch[next++]->id, &m[i]);
			prev = i;
		}
	}
	while (next < nlaunch && prev >= 0 && row_is_kernel(launch[next], symbols[prev]))
		metrics_of_launch(rows, launch[next++]->id, &m[prev]);
	free(launch);
}

/* ---- where the warps wait: ncu's source page ----------------------------------------- */

/* ncu's instruction text: its indent gone, one space between words, branch targets made offsets. */
static void stall_sass_text(const char *in, unsigned long long base, char *out, size_t len)
{
	size_t o = 0;

	while (*in == ' ')
		in++;
	while (*in != '\0' && o + 1 < len) {
		if (in[0] == '0' && in[1] == 'x') {
			char *end;
			unsigned long long v = strtoull(in, &end, 16);

			/* an address inside the kernel: as cuobjdump writes it, from its start */
			if (v >= base && v - base < (1ULL << 24)) {
				o += (size_t)snprintf(out + o, len - o, "0x%llx", v - base);
				if (o >= len)
					o = len - 1;
				in = end;
				continue;
			}
		}
		if (*in == ' ' && (o == 0 || out[o - 1] == ' ')) {
			in++;
			continue;
		}
		out[o++] = *in++;
	}
	while (o > 0 && out[o - 1] == ' ')
		o--;
	out[o] = '\0';
}

static int stall_line_order(const void *a, const void *b)
{
	const struct stall_line *x = a, *y = b;

	return (y->samples > x->samples) - (y->samples < x->samples);
}

/* One kernel's block of the source page, from its header row to the next "Kernel Name" row. */
struct stall_block {
	char kernel[256];
	struct stall_profile p;
};

enum { STALL_COLUMNS = 96 };

static void stall_row(char fields[][256], int nf, const int *reason_col, int nreasons, char names[][24],
    int col_addr, int col_sass, int col_all, unsigned long long *base, struct stall_block *b)
{
	struct stall_line l = { 0 };
	unsigned long long addr;
	double v;
	char *end;

	if (col_addr >= nf || col_sass >= nf || col_all >= nf)
		return;
	addr = strtoull(fields[col_addr], &end, 16);
	if (end == fields[col_addr] || parse_value(fields[col_all], &v) != 0)
		return;
	if (*base == 0)
		*base = addr;	/* the first row is the kernel's first instruction */
	b->p.have = true;
	b->p.samples += (long long)v;
	if (v <= 0)
		return;
	l.offset = (unsigned int)(addr - *base);
	stall_sass_text(fields[col_sass], *base, l.sass, sizeof l.sass);
	l.samples = (int)v;
	for (int k = 0; k < nreasons; k++) {
		double r;
		int at;

		if (reason_col[k] >= nf || parse_value(fields[reason_col[k]], &r) != 0 || r <= 0)
			continue;
		/* kept largest first, at most STALL_REASONS_MAX */
		for (at = l.nreasons; at > 0 && l.reasons[at - 1].samples < (int)r; at--)
			if (at < STALL_REASONS_MAX)
				l.reasons[at] = l.reasons[at - 1];
		if (at < STALL_REASONS_MAX) {
			snprintf(l.reasons[at].name, sizeof l.reasons[at].name, "%s", names[k]);
			l.reasons[at].samples = (int)r;
			if (l.nreasons < STALL_REASONS_MAX)
				l.nreasons++;
		}
	}
	/* the lines with most samples: the last kept gives way to a larger one */
	if (b->p.nlines < STALL_LINES_MAX) {
		b->p.lines[b->p.nlines++] = l;
	} else if (l.samples > b->p.lines[STALL_LINES_MAX - 1].samples) {
		b->p.lines[STALL_LINES_MAX - 1] = l;
	} else {
		return;
	}
	qsort(b->p.lines, (size_t)b->p.nlines, sizeof b->p.lines[0], stall_line_order);
}

int metrics_parse_stalls(const char *text, const char *const *symbols, int n, struct stall_profile *out,
    struct error *e)
{
	char (*fields)[256] = xcalloc(STALL_COLUMNS, sizeof *fields);
	char (*names)[24] = xcalloc(STALL_COLUMNS, sizeof *names);
	int reason_col[STALL_COLUMNS];
	struct stall_block *blocks = NULL;
	int nblocks = 0, cap = 0, nreasons = 0, col_addr = -1, col_sass = -1, col_all = -1, next = 0;
	unsigned long long base = 0;
	const char *at = text, *line;
	size_t len;

	for (int i = 0; i < n; i++)
		memset(&out[i], 0, sizeof out[i]);
	while ((line = next_csv_row(&at, &len)) != NULL) {
		int nf = csv_split(line, len, fields, STALL_COLUMNS);

		if (nf >= 2 && strcmp(fields[0], "Kernel Name") == 0) {
			if (nblocks == cap) {
				cap = cap ? cap * 2 : 8;
				blocks = xrealloc(blocks, (size_t)cap * sizeof *blocks);
			}
			memset(&blocks[nblocks], 0, sizeof blocks[nblocks]);
			snprintf(blocks[nblocks++].kernel, sizeof blocks[0].kernel, "%s", fields[1]);
			col_addr = col_sass = col_all = -1;
			base = 0;
		} else if (nf >= 3 && strcmp(fields[0], "Address") == 0) {
			nreasons = 0;
			for (int k = 0; k < nf; k++) {
				if (strcmp(fields[k], "Address") == 0)
					col_addr = k;
				else if (strcmp(fields[k], "Source") == 0)
					col_sass = k;
				else if (strcmp(fields[k], "Warp Stall Sampling (All Samples)") == 0)
					col_all = k;
				else if (strncmp(fields[k], "stall_", 6) == 0 && strchr(fields[k], ' ') == NULL) {
					reason_col[nreasons] = k;
					snprintf(names[nreasons++], sizeof names[0], "%s", fields[k] + 6);
				}
			}
		} else if (nblocks > 0 && col_addr >= 0 && col_all >= 0) {
			stall_row(fields, nf, reason_col, nreasons, names, col_addr, col_sass, col_all, &base,
			    &blocks[nblocks - 1]);
		}
	}
	free(fields);
	free(names);
	if (nblocks == 0 || col_all < 0) {
		error_set(e, "%s", _("ncu printed no source page with warp-state samples (is its SourceCounters section there?)"));
		free(blocks);
		return -1;
	}
	/*
	 * The launches, in order, to the steps whose kernels they ran, as the
	 * counters are matched: more launches of a step's kernel before the
	 * next step's leave the step with the last of them.
	 */
	for (int i = 0, prev = -1; i < n; i++) {
		if (symbols == NULL) {
			if (next < nblocks)
				out[i] = blocks[next++].p;
			continue;
		}
		if (symbols[i] == NULL)
			continue;
		while (next < nblocks && prev >= 0 && !name_is_kernel(blocks[next].kernel, symbols[i]) &&
		    name_is_kernel(blocks[next].kernel, symbols[prev]))
			out[prev] = blocks[next++].p;
		if (next < nblocks && name_is_kernel(blocks[next].kernel, symbols[i])) {
			out[i] = blocks[next++].p;
			prev = i;
		}
	}
	free(blocks);
	return 0;
}

double metrics_stall_pct(const struct stall_profile *p, const struct stall_line *l)
{
	return p->samples > 0 ? 100.0 * l->samples / (double)p->samples : 0;
}

/* The opcode of ncu's text, past a predicate: "WARPGROUP.DEPBAR.LE" of "@P0 WARPGROUP.DEPBAR.LE gsb0, 0x0". */
static const char *stall_opcode(const char *sass)
{
	if (sass[0] == '@')
		while (*sass != '\0' && *sass++ != ' ')
			;
	return sass;
}

bool metrics_stall_is(const struct stall_line *l, const char *opcode)
{
	return strncmp(stall_opcode(l->sass), opcode, strlen(opcode)) == 0;
}

const char *metrics_stall_meaning(const struct stall_line *l)
{
	/* the instruction first: it names the wait a reason can only class */
	static const struct { const char *opcode, *meaning; } by_opcode[] = {
		{ "WARPGROUP.DEPBAR", N_("its warpgroup's own wgmma to finish (wgmma.wait_group)") },
		{ "WARPGROUP.ARRIVE", N_("its registers to be ready for a wgmma (wgmma.fence)") },
		{ "BAR.", N_("the other warps of its block (a barrier: __syncthreads)") },
		{ "SYNCS.", N_("an mbarrier: a stage the TMA fills, or one a consumer frees") },
		{ "WARPSYNC", N_("the other threads of its warp (__syncwarp)") },
		{ "NANOSLEEP", N_("its own sleep (__nanosleep)") },
		{ "HGMMA", N_("a tensor core free to take its wgmma") },
	};
	static const struct { const char *reason, *meaning; } by_reason[] = {
		{ "long_sb", N_("data from global or local memory (or a texture) that an earlier load asked for") },
		{ "short_sb", N_("a result from shared memory or another slow unit (MIO)") },
		{ "mio", N_("room in the queue of shared-memory and other MIO instructions") },
		{ "lg", N_("room in the queue of global and local memory instructions") },
		{ "barrier", N_("the other warps of its block at a barrier") },
		{ "wait", N_("a fixed latency: the result of the instruction before") },
		{ "math", N_("a busy math pipe") },
		{ "branch_resolving", N_("its branch target to be worked out") },
		{ "membar", N_("a memory fence") },
		{ "selected", N_("nothing: it was issuing") },
		{ "not_selected", N_("its turn: another warp was picked to issue") },
	};
	for (size_t i = 0; i < ARRAY_LEN(by_opcode); i++)
		if (metrics_stall_is(l, by_opcode[i].opcode))
			return _(by_opcode[i].meaning);
	for (size_t i = 0; l->nreasons > 0 && i < ARRAY_LEN(by_reason); i++)
		if (strcmp(l->reasons[0].name, by_reason[i].reason) == 0)
			return _(by_reason[i].meaning);
	return NULL;
}

/* Instructions whose result a scoreboard stall waits for, by kind of scoreboard. */
static const struct {
	const char *reason, *prefix, *meaning;
} stall_producers[] = {
	{ "long_sb", "SYNCS.", N_("an mbarrier's phase: a stage the TMA fills, or one a consumer frees") },
	{ "long_sb", "LDG", N_("global memory") },
	{ "long_sb", "LDL", N_("local memory (registers spilled)") },
	{ "long_sb", "LD.", N_("memory through a generic pointer") },
	{ "long_sb", "ATOMG", N_("a global atomic") },
	{ "long_sb", "TEX", N_("a texture") },
	{ "short_sb", "LDSM", N_("shared memory (ldmatrix)") },
	{ "short_sb", "LDS", N_("shared memory") },
	{ "short_sb", "ATOMS", N_("a shared-memory atomic") },
	{ "short_sb", "SHFL", N_("a shuffle") },
	{ "short_sb", "MUFU", N_("a special function (MUFU)") },
	{ "short_sb", "S2R", N_("a special register") },
	{ "short_sb", "S2UR", N_("a special register") },
};

/* How many instructions back a scoreboard stall's producer is looked for. */
#define STALL_PRODUCER_REACH 16

static int holds_name(const char *hay, const char *name, size_t n, int full);

/*
 * Does the stalled instruction read what p writes (its first operand)?
 * A wide load writes a run of registers from its first: R12 of LD.E.64
 * is R12 and R13, so up to the next three count.
 */
static bool reads_result_of(const char *stalled, const struct sass_insn *p)
{
	char text[160], dest[16];
	const char *ops;
	size_t n = 0;
	char *end;
	long first;

	sass_insn_text(p, text, sizeof text);
	ops = strchr(text, ' ');
	if (ops == NULL)
		return false;
	while (*ops == ' ')
		ops++;
	while (ops[n] != '\0' && ops[n] != ',' && ops[n] != ' ' && n + 1 < sizeof dest)
		n++;
	memcpy(dest, ops, n);
	dest[n] = '\0';
	if (dest[0] == 'P' || strncmp(dest, "UP", 2) == 0)
		return holds_name(stalled, dest, strlen(dest), 0);
	if (dest[0] != 'R' && strncmp(dest, "UR", 2) != 0)
		return false;
	first = strtol(dest + (dest[0] == 'U' ? 2 : 1), &end, 10);
	if (end == dest + (dest[0] == 'U' ? 2 : 1))
		return false;
	for (long r = first; r < first + 4; r++) {
		char name[16];

		snprintf(name, sizeof name, "%s%ld", dest[0] == 'U' ? "UR" : "R", r);
		/* a register name as a word of its own: R13 in "R13.64", not in "UR13" or "R130" */
		if (holds_name(stalled, name, strlen(name), 0))
			return true;
	}
	return false;
}

void metrics_stall_explain(const struct stall_line *l, const struct sass_listing *sass, char *buf, size_t len)
{
	const char *meaning = metrics_stall_meaning(l);
	int at = -1;

	snprintf(buf, len, "%s", meaning != NULL ? meaning : "");
	if (sass == NULL || l->nreasons == 0 ||
	    (strcmp(l->reasons[0].name, "long_sb") != 0 && strcmp(l->reasons[0].name, "short_sb") != 0))
		return;
	for (int i = 0; i < sass->count && at < 0; i++)
		if (sass->insns[i].addr == l->offset)
			at = i;
	for (int i = at - 1; at > 0 && i >= 0 && i >= at - STALL_PRODUCER_REACH; i--) {
		const struct sass_insn *p = &sass->insns[i];

		for (size_t k = 0; k < ARRAY_LEN(stall_producers); k++)
			if (strcmp(stall_producers[k].reason, l->reasons[0].name) == 0 &&
			    strncmp(p->opcode, stall_producers[k].prefix, strlen(stall_producers[k].prefix)) == 0 &&
			    reads_result_of(l->sass, p)) {
				snprintf(buf, len, _("the result of %s at /*%04x*/: %s"), p->opcode, p->addr,
				    _(stall_producers[k].meaning));
				return;
			}
	}
}

/* The message for counters locked by the driver: how to allow them. */
static void metrics_locked_message(struct error *e)
{
	error_set(e, _("this GPU's performance counters are open to administrators only (ERR_NVGPUCTRPERM): "
	    "to open them to every user, put the line 'options nvidia NVreg_RestrictProfilingToAdminUsers=0' "
	    "in a file in /etc/modprobe.d/ (e.g. nvidia-profiling.conf) and reboot (or reload the nvidia driver), "
	    "or run cudatutor as root; on a rented or shared GPU ask its administrator; "
	    "see https://developer.nvidia.com/ERR_NVGPUCTRPERM"));
}

/* The line of text that holds at, without its newline, into buf. */
static void line_at(const char *text, const char *at, char *buf, size_t len)
{
	const char *start = at, *end = strchr(at, '\n');
	size_t n;

	while (start > text && start[-1] != '\n')
		start--;
	n = end ? (size_t)(end - start) : strlen(start);
	if (n > 0 && start[n - 1] == '\r')
		n--;
	if (n >= len)
		n = len - 1;
	memcpy(buf, start, n);
	buf[n] = '\0';
}

/*
 * Does hay hold the n characters of name as a whole word?  A full metric
 * name must not run on into a longer one ("x.sum" is not in "x.sum.per_second");
 * a base name may be followed by its suffixes.
 */
static int holds_name(const char *hay, const char *name, size_t n, int full)
{
	for (const char *p = hay; (p = strstr(p, name)) != NULL; p++) {
		char after = p[n], before = p > hay ? p[-1] : ' ';
		int word_after = isalnum((unsigned char)after) || after == '_' || (full && after == '.');
		int word_before = isalnum((unsigned char)before) || before == '_' || before == '.';
		if (strncmp(p, name, n) == 0 && !word_after && !word_before)
			return 1;
	}
	return 0;
}

/*
 * Which of our metrics one "Failed to find metric" line names.  ncu
 * writes a regular expression ("regex:^dram__bytes_read\.sum$"): the
 * backslashes go, then full names are looked for, else base names (the
 * part before the first dot), which stand for every metric built on them.
 */
static int mark_unknown(const char *line, bool *unknown)
{
	char plain[1024], base[128];
	size_t o = 0;
	int found = 0;

	for (const char *p = line; *p != '\0' && o + 1 < sizeof plain; p++)
		if (*p != '\\')
			plain[o++] = *p;
	plain[o] = '\0';
	for (int i = 0; i < metrics_count; i++) {
		const char *name = metrics_table[i].ncu;
		if (name != NULL && holds_name(plain, name, strlen(name), 1)) {
			unknown[i] = true;
			found = 1;
		}
	}
	if (found)
		return 1;
	for (int i = 0; i < metrics_count; i++) {
		const char *name = metrics_table[i].ncu;
		size_t n;
		if (name == NULL)
			continue;
		n = strcspn(name, ".");
		snprintf(base, sizeof base, "%.*s", (int)n, name);
		if (holds_name(plain, base, n, 0)) {
			unknown[i] = true;
			found = 1;
		}
	}
	return found;
}

/*
 * What ncu wrote, for one step (symbols NULL: the first launch into m[0])
 * or for a lesson's steps.
 */
static enum metrics_status read_ncu(const char *output, const char *const *symbols, int n,
    struct step_metrics *m, bool *unknown, struct error *e)
{
	struct ncu_rows rows;
	const char *p;
	char line[512];
	int any_unknown = 0;

	if (strstr(output, "ERR_NVGPUCTRPERM") != NULL) {
		metrics_locked_message(e);
		return METRICS_LOCKED;
	}
	for (p = output; (p = strstr(p, "Failed to find metric")) != NULL; p++) {
		line_at(output, p, line, sizeof line);
		if (!mark_unknown(line, unknown)) {
			error_set(e, _("ncu: %s"), line);
			return METRICS_FAILED;
		}
		any_unknown = 1;
	}
	if (any_unknown)
		return METRICS_UNKNOWN;
	if (metrics_parse_csv(output, &rows, e) == 0 && rows.count > 0) {
		if (symbols == NULL)
			metrics_from_rows(&rows, m);
		else
			metrics_from_rows_in_order(&rows, symbols, n, m);
		metrics_rows_free(&rows);
		return METRICS_OK;
	}
	metrics_rows_free(&rows);
	if ((p = strstr(output, "==ERROR==")) != NULL) {
		line_at(output, p, line, sizeof line);
		error_set(e, _("ncu failed: %s"), line);
	} else if (strstr(output, "No kernels were profiled") != NULL) {
		error_set(e, _("ncu profiled no kernel: the step did not launch its kernel (did it fail? try cudatutor run with --step)"));
	} else {
		error_set(e, _("ncu wrote no counters (its output: %.200s)"), output);
	}
	return METRICS_FAILED;
}

enum metrics_status metrics_read_ncu(const char *output, struct step_metrics *m, bool *unknown,
    struct error *e)
{
	return read_ncu(output, NULL, 1, m, unknown, e);
}

enum metrics_status metrics_read_ncu_lesson(const char *output, const char *const *symbols, int n,
    struct step_metrics *m, bool *unknown, struct error *e)
{
	return read_ncu(output, symbols, n, m, unknown, e);
}

int metrics_parse_version(const char *text, char *buf, size_t len)
{
	const char *p = strstr(text, "Version ");
	size_t n;

	if (p == NULL)
		return -1;
	p += strlen("Version ");
	n = strspn(p, "0123456789.");
	if (n == 0)
		return -1;
	snprintf(buf, len, "Nsight Compute %.*s", (int)n, p);
	return 0;
}

/* ---- running ncu ------------------------------------------------------------- */

/* This program's own path, to run a step under ncu. */
static char *self_path(void)
{
	char buf[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);

	if (n <= 0)
		return NULL;
	buf[n] = '\0';
	return xstrdup(buf);
}

/*
 * environ with LC_ALL=C, so ncu writes numbers one way whatever the user's
 * locale, CUDATUTOR_ISOLATE=0, and extra's variables (a NULL-terminated
 * list; extra NULL: nothing more).
 */
static char **child_environment(const char *const *extra)
{
	size_t n = 0, o = 0, more = 0;
	char **env;

	while (environ[n] != NULL)
		n++;
	while (extra != NULL && extra[more] != NULL)
		more++;
	env = xcalloc(n + more + 3, sizeof *env);
	for (size_t i = 0; i < n; i++)
		if (strncmp(environ[i], "LC_ALL=", 7) != 0 &&
		    strncmp(environ[i], "CUDATUTOR_ISOLATE=", 18) != 0 &&
		    strncmp(environ[i], "CUDATUTOR_WARMUP=", 17) != 0)
			env[o++] = environ[i];
	env[o++] = "LC_ALL=C";
	/* the kernel ncu profiles must run in the process ncu started */
	env[o++] = "CUDATUTOR_ISOLATE=0";
	for (size_t i = 0; i < more; i++)
		env[o++] = (char *)extra[i];
	env[o] = NULL;
	return env;
}

/*
 * Stop a child and what it started: its process group when it has one of
 * its own (ncu's target runs there too), asking first, then for good.
 */
static void stop_child(pid_t pid, int group, int *status)
{
	pid_t target = group ? -pid : pid;
	double until = now_seconds() + 2.0;

	kill(target, SIGTERM);
	while (waitpid(pid, status, WNOHANG) == 0 && now_seconds() < until)
		nanosleep(&(struct timespec){ 0, 20 * 1000 * 1000 }, NULL);
	kill(target, SIGKILL);
	while (waitpid(pid, status, 0) < 0 && errno == EINTR)
		;
}

/*
 * Run argv with its output and errors into out_path; wait at most
 * timeout_s.  0 and *status (as from waitpid), or -1 and e; -2 when
 * *cancel turned non-zero (cancel may be NULL).  With cancel, the child
 * gets a process group of its own, so that stopping it stops what it runs.
 */
static int run_to_file(char *const argv[], const char *const *extra_env, const char *out_path,
    int timeout_s, int *status, volatile int *cancel, struct error *e)
{
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t attr;
	char **env = child_environment(extra_env);
	double deadline = now_seconds() + timeout_s;
	pid_t pid;
	int rc;

	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_addopen(&fa, STDOUT_FILENO, out_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	posix_spawn_file_actions_adddup2(&fa, STDOUT_FILENO, STDERR_FILENO);
	posix_spawnattr_init(&attr);
	if (cancel != NULL) {
		/*
		 * Only then: from a shell, Ctrl-C must reach ncu and its
		 * target, which it does while they share our group.
		 */
		posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);
		posix_spawnattr_setpgroup(&attr, 0);
	}
	rc = posix_spawn(&pid, argv[0], &fa, &attr, argv, env);
	posix_spawnattr_destroy(&attr);
	posix_spawn_file_actions_destroy(&fa);
	free(env);
	if (rc != 0) {
		error_set(e, _("cannot run %s: %s"), argv[0], strerror(rc));
		return -1;
	}
	for (;;) {
		pid_t w = waitpid(pid, status, WNOHANG);
		if (w == pid) {
			/* what ncu started may outlive it: nothing of ours stays behind */
			if (cancel != NULL)
				kill(-pid, SIGKILL);
			return 0;
		}
		if (w < 0 && errno != EINTR) {
			error_set(e, _("lost track of %s: %s"), argv[0], strerror(errno));
			return -1;
		}
		if (cancel != NULL && *cancel) {
			stop_child(pid, 1, status);
			error_set(e, "%s", _("cancelled"));
			return -2;
		}
		if (now_seconds() > deadline) {
			stop_child(pid, cancel != NULL, status);
			error_set(e, _("%s did not finish within %d seconds and was stopped"), argv[0], timeout_s);
			return -1;
		}
		nanosleep(&(struct timespec){ 0, 50 * 1000 * 1000 }, NULL);
	}
}

static char *make_temp_dir(struct error *e)
{
	const char *tmp = getenv("TMPDIR");
	char *dir = xasprintf("%s/cudatutor-ncu.XXXXXX", tmp && *tmp ? tmp : "/tmp");

	if (mkdtemp(dir) == NULL) {
		error_set(e, _("cannot make a temporary directory in %s: %s"), tmp && *tmp ? tmp : "/tmp",
		    strerror(errno));
		free(dir);
		return NULL;
	}
	return dir;
}

static void remove_temp_dir(char *dir, const char *const *files, int n)
{
	for (int i = 0; i < n; i++) {
		char *p = xasprintf("%s/%s", dir, files[i]);
		unlink(p);
		free(p);
	}
	rmdir(dir);
	free(dir);
}

int metrics_session_begin(struct metrics_session *s, struct error *e)
{
	static const char *const files[] = { "version.txt" };
	char *dir, *out, *text;
	char *argv[3];
	int status = 0;

	memset(s, 0, sizeof *s);
	s->ncu = toolkit_program(TOOLKIT_NCU, e);
	if (s->ncu == NULL)
		return -1;
	s->program = self_path();
	if (s->program == NULL) {
		error_set(e, _("cannot find this program's own path in /proc/self/exe, to run a step under ncu"));
		metrics_session_end(s);
		return -1;
	}
	snprintf(s->tool, sizeof s->tool, "Nsight Compute");
	if ((dir = make_temp_dir(e)) == NULL) {
		metrics_session_end(s);
		return -1;
	}
	out = xasprintf("%s/version.txt", dir);
	argv[0] = s->ncu;
	argv[1] = "--version";
	argv[2] = NULL;
	if (run_to_file(argv, NULL, out, 60, &status, NULL, e) != 0) {
		free(out);
		remove_temp_dir(dir, files, 1);
		metrics_session_end(s);
		return -1;
	}
	text = file_read(out, NULL);
	if (text != NULL)
		metrics_parse_version(text, s->tool, sizeof s->tool);
	free(text);
	free(out);
	remove_temp_dir(dir, files, 1);
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		error_set(e, _("%s --version failed: is it Nsight Compute's ncu? (set NCU to choose another)"), s->ncu);
		metrics_session_end(s);
		return -1;
	}
	return 0;
}

void metrics_session_end(struct metrics_session *s)
{
	free(s->ncu);
	free(s->program);
	s->ncu = s->program = NULL;
}

void metrics_argv_free(char **argv)
{
	if (argv == NULL)
		return;
	for (char **p = argv; *p != NULL; p++)
		free(*p);
	free(argv);
}

/*
 * ncu's command line for t: its counters into log_path, or (report not
 * NULL) its warp-state samples at each instruction into the report file
 * report.ncu-rep, read with ncu --import afterwards.
 */
static char **ncu_argv(const struct metrics_session *s, const struct metrics_target *t,
    const char *log_path, const char *report)
{
	struct strbuf list = { 0 };
	char **argv = xcalloc(48 + (size_t)t->nlessons, sizeof *argv);
	int n = 0;

#define ARG(x) (argv[n++] = xstrdup(x))
#define ARGF(...) (argv[n++] = xasprintf(__VA_ARGS__))
	for (int i = 0; i < metrics_count; i++)
		if (metrics_table[i].ncu != NULL && !s->unknown[i])
			strbuf_addf(&list, "%s%s", list.len ? "," : "", metrics_table[i].ncu);
	ARG(s->ncu);
	if (report != NULL) {
		ARG("--section");
		ARG("SourceCounters");
		ARG("--import-source");
		ARG("no");
		ARG("-f");
		ARG("-o");
		ARG(report);
	} else {
		ARG("--csv");
		ARG("--log-file");
		ARG(log_path);
		ARG("--print-units");
		ARG("base");
		ARG("--metrics");
		ARG(list.len ? list.s : "");
	}
	ARG("--kernel-name");
	if (t->step > 0) {
		ARGF("regex:^%s$", t->symbol);
		/* Past the warm-up launches of `run --runs 1`: its one timed run. */
		ARG("--launch-skip");
		ARGF("%d", METRICS_SKIP_LAUNCHES);
		ARG("--launch-count");
		ARG("1");
	} else {
		/*
		 * Whole lessons in one run: every launch of their kernels, one
		 * a step with CUDATUTOR_WARMUP=0, matched to the steps in order.
		 */
		struct strbuf names = { 0 };
		for (int i = 0; i < t->nsymbols; i++)
			if (t->symbols[i] != NULL)
				strbuf_addf(&names, "%s%s", names.len ? "|" : "", t->symbols[i]);
		ARGF("regex:^(%s)$", names.len ? names.s : "");
		strbuf_free(&names);
	}
	/* Caches flushed before every pass, as the tutor flushes L2 before every timed run. */
	ARG("--cache-control");
	ARG("all");
	ARG("--clock-control");
	ARG("none");
	ARG(s->program);
	ARG("run");
	if (t->nlessons > 0) {
		for (int i = 0; i < t->nlessons; i++)
			ARG(t->lessons[i]);
	} else {
		ARG(t->lesson);
	}
	if (t->step > 0) {
		ARG("--step");
		ARGF("%d", t->step);
	}
	if (t->size > 0) {
		ARG("--size");
		ARGF("%llu", t->size);
	}
	if (t->block > 0) {
		ARG("--block");
		ARGF("%u", t->block);
	}
	ARG("--runs");
	ARG("1");
	if (t->lang != NULL) {
		ARG("--lang");
		ARG(t->lang);
	}
	ARG("--format");
	ARG("json");
	argv[n] = NULL;
#undef ARG
#undef ARGF
	strbuf_free(&list);
	return argv;
}

char **metrics_ncu_argv(const struct metrics_session *s, const struct metrics_target *t,
    const char *log_path)
{
	return ncu_argv(s, t, log_path, NULL);
}

/*
 * Where the warps wait: a second ncu run over the target with its
 * warp-state sampling into a report in dir, its source page printed by
 * ncu --import and read into m[].stalls.  Counters already read stay as
 * they are: a failure here only notes itself in e.
 */
static enum metrics_status collect_stalls(struct metrics_session *s, const struct metrics_target *t,
    const char *dir, struct step_metrics *m, struct error *e)
{
	int n = t->step > 0 ? 1 : t->nsymbols, status = 0, rc;
	char *report = xasprintf("%s/stalls", dir), *file = xasprintf("%s/stalls.ncu-rep", dir);
	char *out = xasprintf("%s/stalls.txt", dir), *page = xasprintf("%s/source.csv", dir);
	char **argv = ncu_argv(s, t, NULL, report);
	struct stall_profile *p = xcalloc((size_t)n, sizeof *p);
	enum metrics_status st = METRICS_FAILED;
	char *text;

	rc = run_to_file(argv, t->step > 0 ? NULL : (const char *const[]){ "CUDATUTOR_WARMUP=0", NULL }, out, 900,
	    &status, s->cancel, e);
	metrics_argv_free(argv);
	if (rc == 0 && status == 0) {
		char *import[] = { s->ncu, "--import", file, "--page", "source", "--csv", "--print-source", "sass",
		    NULL };

		rc = run_to_file(import, NULL, page, 300, &status, s->cancel, e);
		if (rc == 0 && (text = file_read(page, NULL)) != NULL) {
			if (metrics_parse_stalls(text, t->step > 0 ? (const char *const[]){ t->symbol } : t->symbols,
			    n, p, e) == 0) {
				time_t now = time(NULL);
				char date[40];

				strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
				for (int i = 0; i < n; i++) {
					m[i].stalls = p[i];
					snprintf(m[i].stalls.date, sizeof m[i].stalls.date, "%s", date);
				}
				st = METRICS_OK;
			}
			free(text);
		}
	} else if (rc == 0) {
		error_set(e, _("ncu's run for the warp-state samples failed (exit %d)"), status);
	}
	if (rc == -2)
		st = METRICS_CANCELLED;
	unlink(file), unlink(out), unlink(page);
	free(report), free(file), free(out), free(page), free(p);
	return st;
}

/*
 * One ncu run over the target, what it printed (the log file, then the
 * output file) read into m; METRICS_UNKNOWN with unknown[] set where ncu
 * refused metrics it does not know.
 */
static enum metrics_status collect_pass(struct metrics_session *s, const struct metrics_target *t,
    const char *log, const char *out, struct step_metrics *m, bool *unknown, struct error *e)
{
	char **argv = metrics_ncu_argv(s, t, log);
	struct strbuf text = { 0 };
	enum metrics_status st;
	char *part;
	int status = 0, left = 0, rc;

	for (int i = 0; i < metrics_count; i++)
		left += metrics_table[i].ncu != NULL && !s->unknown[i];
	if (left == 0) {
		error_set(e, _("ncu knows none of the metrics the tutor shows"));
		metrics_argv_free(argv);
		return METRICS_FAILED;
	}
	unlink(log);
	/*
	 * A whole lesson: no warm-up launch, so that ncu profiles each
	 * kernel once, not twice (its replays make a launch costly).
	 */
	rc = run_to_file(argv, t->step > 0 ? NULL : (const char *const[]){ "CUDATUTOR_WARMUP=0", NULL }, out, 900,
	    &status, s->cancel, e);
	metrics_argv_free(argv);
	if (rc != 0)
		return rc == -2 ? METRICS_CANCELLED : METRICS_FAILED;
	if ((part = file_read(log, NULL)) != NULL) {
		strbuf_addf(&text, "%s\n", part);
		free(part);
	}
	if ((part = file_read(out, NULL)) != NULL) {
		strbuf_addf(&text, "%s\n", part);
		free(part);
	}
	if (t->step > 0)
		st = metrics_read_ncu(text.s ? text.s : "", m, unknown, e);
	else
		st = metrics_read_ncu_lesson(text.s ? text.s : "", t->symbols, t->nsymbols, m,
		    unknown, e);
	strbuf_free(&text);
	return st;
}

enum metrics_status metrics_collect(struct metrics_session *s, const struct metrics_target *t,
    struct step_metrics *m, struct error *e)
{
	static const char *const files[] = { "ncu.log", "out.txt" };
	enum metrics_status st = METRICS_FAILED;
	char *dir, *log, *out;

	memset(m, 0, (size_t)(t->step > 0 ? 1 : t->nsymbols) * sizeof *m);
	if ((dir = make_temp_dir(e)) == NULL)
		return METRICS_FAILED;
	log = xasprintf("%s/ncu.log", dir);
	out = xasprintf("%s/out.txt", dir);
	/* Each pass may learn of metrics ncu does not know; a few passes settle it. */
	for (int attempt = 0; attempt < 4; attempt++) {
		bool unknown[METRICS_MAX] = { false };
		int fresh = 0;

		st = collect_pass(s, t, log, out, m, unknown, e);
		if (st != METRICS_UNKNOWN)
			break;
		for (int i = 0; i < metrics_count; i++)
			if (unknown[i] && !s->unknown[i]) {
				s->unknown[i] = true;
				fresh = 1;
			}
		if (!fresh) {
			error_set(e, _("ncu keeps refusing metrics it was not asked for"));
			st = METRICS_FAILED;
			break;
		}
		st = METRICS_FAILED;
		error_set(e, _("ncu does not know too many of the tutor's metrics"));
	}
	for (int j = 0; st == METRICS_OK && j < (t->step > 0 ? 1 : t->nsymbols); j++) {
		snprintf(m[j].tool, sizeof m[j].tool, "%s", s->tool);
		for (int i = 0; i < metrics_count; i++)
			if (s->unknown[i])
				m[j].have[i] = false;
	}
	/* the samples are extra: without them the counters stand, and show --stalls says none were read */
	if (st == METRICS_OK && s->stalls) {
		struct error why;

		if (collect_stalls(s, t, dir, m, &why) == METRICS_CANCELLED)
			st = METRICS_CANCELLED;
	}
	free(log);
	free(out);
	remove_temp_dir(dir, files, 2);
	return st;
}

/* ---- compute-sanitizer over an exercise's check ---------------------------------- */

enum metrics_status metrics_sanitize(const char *tool, const char *const *args, bool small, char **report,
    bool *clean, volatile int *cancel, struct error *e)
{
	static const char *const files[] = { "out.txt" };
	const char *env[] = { "CUDATUTOR_NO_GUARD=1", "CUDATUTOR_CHECK_CORRECTNESS_ONLY=1",
	    small ? "CUDATUTOR_CHECK_SMALL=1" : NULL, NULL };
	char *sanitizer, *self, *dir, *out, *argv[32];
	int n = 0, status = 0, rc;
	enum metrics_status st = METRICS_FAILED;

	*report = NULL;
	*clean = false;
	if ((sanitizer = toolkit_program(TOOLKIT_SANITIZER, e)) == NULL)
		return METRICS_FAILED;
	if ((self = self_path()) == NULL || (dir = make_temp_dir(e)) == NULL) {
		if (self == NULL)
			error_set(e, "%s", _("cannot find this program's own path in /proc/self/exe, to run it under compute-sanitizer"));
		free(self);
		free(sanitizer);
		return METRICS_FAILED;
	}
	out = xasprintf("%s/out.txt", dir);
	argv[n++] = sanitizer;
	argv[n++] = "--tool";
	argv[n++] = (char *)tool;
	argv[n++] = "--error-exitcode";
	argv[n++] = "9";
	argv[n++] = "--show-backtrace";
	argv[n++] = "no";
	argv[n++] = self;
	argv[n++] = "check";
	for (int i = 0; args[i] != NULL && n < 30; i++)
		argv[n++] = (char *)args[i];
	argv[n] = NULL;
	/* the kernels must run in the process it starts: no step processes, and no guard zones past the ends */
	rc = run_to_file(argv, env, out, 300, &status, cancel, e);
	if (rc == 0) {
		*report = file_read(out, NULL);
		if (*report == NULL)
			*report = xstrdup("");
		if (WIFEXITED(status) && (WEXITSTATUS(status) == 0 || WEXITSTATUS(status) == 9)) {
			*clean = WEXITSTATUS(status) == 0;
			st = METRICS_OK;
		} else {
			error_set(e, _("compute-sanitizer --tool %s did not finish its run (exit %d)"), tool,
			    WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
		}
	} else if (rc == -2) {
		st = METRICS_CANCELLED;
	}
	free(out);
	remove_temp_dir(dir, files, 1);
	free(self);
	free(sanitizer);
	return st;
}

/* ---- the instructions that ran ---------------------------------------------------- */

/* An instruction's text with every address at or past base ("BRA 0x7f0000000040") made relative to it. */
static char *rebase_targets(const char *insn, unsigned long long base)
{
	struct strbuf b = { 0 };
	const char *q = insn;

	while (*q != '\0') {
		const char *hex = strstr(q, "0x");
		char *end;
		unsigned long long v;

		if (hex == NULL || base == 0) {
			strbuf_addf(&b, "%s", q);
			break;
		}
		v = strtoull(hex, &end, 16);
		strbuf_addf(&b, "%.*s", (int)(hex - q), q);
		if (v >= base)
			strbuf_addf(&b, "0x%llx", v - base);
		else
			strbuf_addf(&b, "%.*s", (int)(end - hex), hex);
		q = end > hex ? end : hex + 2;
	}
	return b.s ? b.s : xstrdup("");
}

int metrics_executed_from_csv(const char *text, char **sass, double **counts, int *rows, struct error *e)
{
	enum { MAXF = 48 };
	double *counted = NULL;
	size_t ncounted = 0, room = 0;
	char (*fields)[256] = xcalloc(MAXF, sizeof *fields);	/* the source page has some 40 columns */
	int col_source = -1, col_count = -1, col_addr = -1, width = 0, addr = 0;
	unsigned long long base = 0;
	struct strbuf b = { 0 };
	const char *at = text, *line;
	size_t len;

	*sass = NULL;
	*rows = 0;
	while ((line = next_csv_row(&at, &len)) != NULL) {
		int n = csv_split(line, len, fields, MAXF);

		if (col_source < 0 || n != width) {
			/* a header: the page of the next kernel, or the first */
			int s_col = -1, c_col = -1, pred_col = -1, a_col = -1;

			/*
			 * An instruction counts where a thread ran it with its
			 * predicate true: the warp's count takes one under an
			 * always-false predicate too (a technique written
			 * "@P0 LDG.E.128" that never loads).  Where ncu has no
			 * such column, the warp's count.
			 */
			for (int i = 0; i < n; i++) {
				if (strcmp(fields[i], "Source") == 0)
					s_col = i;
				else if (strcmp(fields[i], "Instructions Executed") == 0)
					c_col = i;
				else if (strcmp(fields[i], "Predicated-On Thread Instructions Executed") == 0)
					pred_col = i;
				else if (strcmp(fields[i], "# Address") == 0 || strcmp(fields[i], "Address") == 0)
					a_col = i;
			}
			if (pred_col >= 0)
				c_col = pred_col;
			if (s_col >= 0 && c_col >= 0) {
				if (col_source >= 0)
					break;	/* one kernel's page is enough */
				col_source = s_col;
				col_count = c_col;
				col_addr = a_col;
				width = n;
			}
			continue;
		}
		{
			char clean[64];
			size_t o = 0;
			double count;

			for (const char *q = fields[col_count]; *q != '\0' && o + 1 < sizeof clean; q++)
				if (*q != ',')
					clean[o++] = *q;
			clean[o] = '\0';
			count = strtod(clean, NULL);
			/*
			 * Addresses from the kernel's start, as cuobjdump gives
			 * them, branch targets too: where a loop begins and ends
			 * is then read as in the static listing.
			 */
			if (col_addr >= 0) {
				unsigned long long at = strtoull(fields[col_addr], NULL, 16);

				if (*rows == 0)
					base = at;
				addr = at >= base ? (int)(at - base) : addr;
			}
			(*rows)++;
			if (count > 0 && fields[col_source][0] != '\0') {
				char *text = rebase_targets(fields[col_source], base);

				strbuf_addf(&b, "        /*%04x*/                   %s ;\n", addr, text);
				free(text);
				if (ncounted == room) {
					room = room ? 2 * room : 64;
					counted = xrealloc(counted, room * sizeof *counted);
				}
				counted[ncounted++] = count;
			}
			addr += 16;
		}
	}
	free(fields);
	if (col_source < 0) {
		error_set(e, "%s", _("ncu printed no source page with instructions executed"));
		strbuf_free(&b);
		free(counted);
		return -1;
	}
	*sass = b.s ? b.s : xstrdup("");
	if (counts != NULL)
		*counts = counted != NULL ? counted : xcalloc(1, sizeof **counts);
	else
		free(counted);
	return 0;
}

/* What an ncu run wrote: its log, then the output of what it ran. */
static char *ncu_output(const char *log, const char *out)
{
	struct strbuf all = { 0 };
	char *part;

	if ((part = file_read(log, NULL)) != NULL) {
		strbuf_addf(&all, "%s\n", part);
		free(part);
	}
	if ((part = file_read(out, NULL)) != NULL) {
		strbuf_addf(&all, "%s\n", part);
		free(part);
	}
	return all.s ? all.s : xstrdup("");
}

/*
 * The end of ncu's command line, from argv[n]: this program's check with
 * args, profiled as its own process (it starts no other under ncu); argv
 * ends with NULL and holds at most 40.
 */
static void check_under_ncu(const struct metrics_session *s, char **argv, int n, const char *const *args)
{
	argv[n++] = "--target-processes";
	argv[n++] = "application-only";
	argv[n++] = s->program;
	argv[n++] = "check";
	for (int i = 0; args[i] != NULL && n < 39; i++)
		argv[n++] = (char *)args[i];
	argv[n] = NULL;
}

enum metrics_status metrics_executed_sass(struct metrics_session *s, const char *symbol,
    const char *const *args, char **sass, double **counts, struct error *e)
{
	static const char *const files[] = { "ncu.log", "out.txt" };
	char *dir = make_temp_dir(e), *log, *out, *text = NULL;
	char *section_dir, *kernel_name, *argv[40];
	int n = 0, status = 0, rows = 0, rc;
	enum metrics_status st = METRICS_FAILED;

	*sass = NULL;
	*counts = NULL;
	if (dir == NULL)
		return METRICS_FAILED;
	section_dir = paths_source("data/ncu");
	kernel_name = xasprintf("regex:^%s$", symbol);
	log = xasprintf("%s/ncu.log", dir);
	out = xasprintf("%s/out.txt", dir);
	argv[n++] = s->ncu;
	argv[n++] = "--csv";
	argv[n++] = "--log-file";
	argv[n++] = log;
	/*
	 * The two counts read, from a section of our own: SourceCounters
	 * samples stalls and counts memory per instruction too, passes that
	 * took 3.1 s of a check's 4.0 under ncu on an H200, against 1.8 s
	 * with this section and the caches left as they are (counts of
	 * instructions do not depend on them).  Only the check's own process:
	 * it reads no SASS under ncu, and starts no other.
	 */
	argv[n++] = "--section-folder";
	argv[n++] = section_dir;
	argv[n++] = "--section";
	argv[n++] = "CudatutorExecuted";
	argv[n++] = "--page";
	argv[n++] = "source";
	argv[n++] = "--print-source";
	argv[n++] = "sass";
	argv[n++] = "--kernel-name";
	argv[n++] = kernel_name;
	argv[n++] = "--launch-count";
	argv[n++] = "1";
	argv[n++] = "--clock-control";
	argv[n++] = "none";
	argv[n++] = "--cache-control";
	argv[n++] = "none";
	check_under_ncu(s, argv, n, args);
	rc = run_to_file(argv, (const char *const[]){ "CUDATUTOR_CHECK_EXECUTED=1", NULL }, out, 300, &status,
	    s->cancel, e);
	free(section_dir);
	free(kernel_name);
	if (rc == 0) {
		text = ncu_output(log, out);
		if (getenv("CUDATUTOR_TRACE") != NULL)
			fprintf(stderr, "trace: ncu source page:\n%.4000s\n", text);
		if (strstr(text, "ERR_NVGPUCTRPERM") != NULL) {
			metrics_locked_message(e);
			st = METRICS_LOCKED;
		} else if (metrics_executed_from_csv(text, sass, counts, &rows, e) == 0) {
			st = rows > 0 ? METRICS_OK : METRICS_FAILED;
			if (rows == 0) {
				error_set(e, _("ncu profiled no launch of %s"), symbol);
				free(*sass);
				*sass = NULL;
				free(*counts);
				*counts = NULL;
			}
		}
	} else if (rc == -2) {
		st = METRICS_CANCELLED;
	}
	free(text);
	free(log);
	free(out);
	remove_temp_dir(dir, files, 2);
	return st;
}

enum metrics_status metrics_dram_reads(struct metrics_session *s, const char *symbol, const char *const *args,
    const unsigned long long *sizes, int n, double *yours, double *ours, int *exit_status, struct error *e)
{
	static const char *const files[] = { "ncu.log", "out.txt" };
	char *dir = make_temp_dir(e), *log, *out, *text = NULL, *kernels;
	struct strbuf env = { 0 };
	char *argv[40];
	int argc = 0, status = 0, rc;
	enum metrics_status st = METRICS_FAILED;

	for (int i = 0; i < n; i++)
		yours[i] = ours[i] = 0;
	*exit_status = -1;
	if (dir == NULL)
		return METRICS_FAILED;
	kernels = xasprintf("regex:^%s$", symbol);
	strbuf_addf(&env, "CUDATUTOR_CHECK_DRAM=");
	for (int i = 0; i < n; i++)
		strbuf_addf(&env, "%s%llu", i ? "," : "", sizes[i]);
	log = xasprintf("%s/ncu.log", dir);
	out = xasprintf("%s/out.txt", dir);
	argv[argc++] = s->ncu;
	argv[argc++] = "--csv";
	argv[argc++] = "--log-file";
	argv[argc++] = log;
	argv[argc++] = "--metrics";
	argv[argc++] = "dram__bytes_read.sum";
	argv[argc++] = "--kernel-name";
	argv[argc++] = kernels;
	/* each launch starts from empty caches: what it reads is its own */
	argv[argc++] = "--cache-control";
	argv[argc++] = "all";
	argv[argc++] = "--clock-control";
	argv[argc++] = "none";
	check_under_ncu(s, argv, argc, args);
	rc = run_to_file(argv, (const char *const[]){ env.s, NULL }, out, 300, &status, s->cancel, e);
	if (rc == 0) {
		struct ncu_rows rows = { 0 };
		int got = 0;

		/* ncu ends as the program it ran ended */
		if (WIFEXITED(status))
			*exit_status = WEXITSTATUS(status);
		text = ncu_output(log, out);
		if (getenv("CUDATUTOR_TRACE") != NULL)
			fprintf(stderr, "trace: ncu device-memory reads:\n%.4000s\n", text);
		if (strstr(text, "ERR_NVGPUCTRPERM") != NULL) {
			metrics_locked_message(e);
			st = METRICS_LOCKED;
		} else if (metrics_parse_csv(text, &rows, e) == 0) {
			/* the launches in the order they ran: the student's at each size, then ours */
			for (int i = 0; i < rows.count; i++) {
				if (!rows.rows[i].have || strcmp(rows.rows[i].metric, "dram__bytes_read.sum") != 0)
					continue;
				if (got < 2 * n)
					(got < n ? yours : ours)[got % n] = rows.rows[i].value;
				got++;
			}
			st = got == 2 * n ? METRICS_OK : METRICS_FAILED;
			for (int i = 0; i < n && st == METRICS_OK; i++)
				if (!(yours[i] > 0 && ours[i] > 0))
					st = METRICS_FAILED;
			if (st != METRICS_OK)
				error_set(e, _("ncu read the device-memory bytes of %d launches of %s, not %d (the student's "
				    "kernel and ours at each size)"), got, symbol, 2 * n);
		}
		metrics_rows_free(&rows);
	} else if (rc == -2) {
		st = METRICS_CANCELLED;
	}
	free(text);
	free(log);
	free(out);
	strbuf_free(&env);
	free(kernels);
	remove_temp_dir(dir, files, 2);
	return st;
}
