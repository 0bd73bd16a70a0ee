/* Counters: the table, ncu's CSV, its errors (locked counters, unknown metrics), a fake ncu end to end. */
#include "config.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check_main.h"
#include "metrics.h"
#include "paths.h"
#include "registry.h"
#include "results.h"
#include "sass.h"
#include "toolkit.h"

/* The start of a real log: ncu 2025.3 on an NVIDIA H200, one metric per launch. */
static const char real_log[] =
	"==WARNING== Note: Running with unmodified GPU clocks. If not controlled otherwise, profiling results may be inconsistent.\n"
	"==PROF== Connected to process 541 (/work/main/build/cudatutor)\n"
	"==PROF== Disconnected from process 541\n"
	"\"ID\",\"Process ID\",\"Process Name\",\"Host Name\",\"Kernel Name\",\"Context\",\"Stream\",\"Block Size\",\"Grid Size\",\"Device\",\"CC\",\"Section Name\",\"Metric Name\",\"Metric Unit\",\"Metric Value\"\n"
	"\"0\",\"541\",\"cudatutor\",\"127.0.0.1\",\"reduce_unroll8\",\"1\",\"13\",\"(1024, 1, 1)\",\"(32768, 1, 1)\",\"0\",\"9.0\",\"Command line profiler metrics\",\"gpu__time_duration.sum\",\"ns\",\"325,664\"\n"
	"\"1\",\"541\",\"cudatutor\",\"127.0.0.1\",\"reduce_unroll8\",\"1\",\"13\",\"(1024, 1, 1)\",\"(32768, 1, 1)\",\"0\",\"9.0\",\"Command line profiler metrics\",\"gpu__time_duration.sum\",\"ns\",\"318,560\"\n"
	"\"2\",\"541\",\"cudatutor\",\"127.0.0.1\",\"reduce_unroll8\",\"1\",\"13\",\"(1024, 1, 1)\",\"(32768, 1, 1)\",\"0\",\"9.0\",\"Command line profiler metrics\",\"gpu__time_duration.sum\",\"ns\",\"318,976\"\n";

#define HEAD "\"ID\",\"Process ID\",\"Process Name\",\"Host Name\",\"Kernel Name\",\"Context\",\"Stream\",\"Block Size\",\"Grid Size\",\"Device\",\"CC\",\"Section Name\",\"Metric Name\",\"Metric Unit\",\"Metric Value\"\n"
#define ROW(id, metric, unit, value) \
	"\"" id "\",\"77\",\"cudatutor\",\"127.0.0.1\",\"reduce_strided\",\"1\",\"13\",\"(1024, 1, 1)\",\"(16384, 1, 1)\",\"0\",\"9.0\",\"Command line profiler metrics\",\"" metric "\",\"" unit "\",\"" value "\"\n"

/*
 * ncu's output for a kernel with 32-way shared-load conflicts, in the form
 * of the real log above (the values are made up for the parser, not measured).
 */
static const char counters_log[] =
	"==PROF== Connected to process 77 (/usr/bin/cudatutor)\n"
	"==PROF== Profiling \"reduce_strided\" - 0: 0%....50%....100% - 12 passes\n"
	"==PROF== Disconnected from process 77\n"
	HEAD
	ROW("0", "dram__bytes_read.sum.per_second", "Gbyte/second", "1,234.5")
	ROW("0", "dram__bytes_read.sum", "Mbyte", "67.11")
	ROW("0", "dram__bytes_write.sum", "byte", "65,536")
	ROW("0", "smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct", "%", "99.71")
	ROW("0", "smsp__sass_inst_executed_op_shared_ld.sum", "inst", "1,000")
	ROW("0", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", "", "32,000")
	ROW("0", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", "", "31,000")
	ROW("0", "smsp__sass_inst_executed_op_shared_st.sum", "inst", "0")
	ROW("0", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum", "", "0")
	ROW("0", "sm__warps_active.avg.pct_of_peak_sustained_active", "%", "87.5")
	ROW("0", "smsp__warp_issue_stalled_barrier_per_warp_active.pct", "%", "41.25")
	ROW("0", "smsp__warp_issue_stalled_long_scoreboard_per_warp_active.pct", "%", "22.5")
	ROW("0", "smsp__warp_issue_stalled_selected_per_warp_active.pct", "%", "50")
	ROW("0", "smsp__warp_issue_stalled_wait_per_warp_active.pct", "%", "n/a")
	ROW("0", "smsp__inst_executed.sum", "inst", "16,777,216")
	ROW("1", "smsp__inst_executed.sum", "inst", "5")
	"==WARNING== something after the table\n";

static const char locked_log[] =
	"==PROF== Connected to process 1234 (/usr/bin/cudatutor)\n"
	"==ERROR== ERR_NVGPUCTRPERM - The user does not have permission to access NVIDIA GPU Performance Counters on the target device 0. For instructions on enabling permissions and to get more information see https://developer.nvidia.com/ERR_NVGPUCTRPERM\n"
	"==PROF== Disconnected from process 1234\n"
	"==WARNING== No kernels were profiled.\n";

static int row_of(const char *ncu)
{
	int i = metrics_find(ncu);

	ck_assert_msg(i >= 0, "%s is not in metrics_table", ncu);
	return i;
}

START_TEST(table_is_whole)
{
	/* what the reference texts' nvprof tables showed, each with a row */
	static const char *const nvprof[] = { "dram_read_throughput", "dram_write_throughput",
	    "gld_efficiency", "gst_efficiency", "achieved_occupancy", "inst_executed",
	    "stall_sync (with membar)", "shared_load_transactions" };

	ck_assert_int_le(metrics_count, METRICS_MAX);
	for (int i = 0; i < metrics_count; i++) {
		const struct metric_def *d = &metrics_table[i];
		ck_assert(d->label != NULL && *d->label && d->meaning != NULL && *d->meaning);
		if (d->ncu != NULL) {
			ck_assert_msg(d->num == NULL && d->den == NULL, "%s is raw and derived", d->ncu);
			ck_assert_int_eq(metrics_find(d->ncu), i);	/* no name twice */
			ck_assert_msg(strchr(d->ncu, ',') == NULL && strchr(d->ncu, ' ') == NULL, "%s", d->ncu);
		} else {
			ck_assert_msg(metrics_find(d->num) >= 0 && metrics_find(d->den) >= 0,
			    "%s is derived from metrics not in the table", d->label);
		}
	}
	for (size_t j = 0; j < sizeof nvprof / sizeof nvprof[0]; j++) {
		int found = 0;
		for (int i = 0; i < metrics_count; i++)
			found |= metrics_table[i].nvprof && strcmp(metrics_table[i].nvprof, nvprof[j]) == 0;
		ck_assert_msg(found, "no row for nvprof's %s", nvprof[j]);
	}
	row_of("dram__bytes_read.sum.pct_of_peak_sustained_elapsed");
	row_of("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum");
	row_of("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum");
	row_of("smsp__sass_inst_executed_op_shared_ld.sum");
	row_of("sm__warps_active.avg.pct_of_peak_sustained_active");
	row_of("smsp__warp_issue_stalled_barrier_per_warp_active.pct");
}
END_TEST

START_TEST(parse_real_log)
{
	struct ncu_rows rows;
	struct error e = { "" };

	ck_assert_int_eq(metrics_parse_csv(real_log, &rows, &e), 0);
	ck_assert_int_eq(rows.count, 3);
	ck_assert_int_eq(rows.rows[2].id, 2);
	ck_assert_str_eq(rows.rows[0].kernel, "reduce_unroll8");
	ck_assert_str_eq(rows.rows[0].metric, "gpu__time_duration.sum");
	ck_assert_str_eq(rows.rows[0].unit, "ns");
	ck_assert(rows.rows[0].have);
	/* "325,664" ns, in seconds */
	ck_assert_double_eq_tol(rows.rows[0].value, 325664e-9, 1e-15);
	ck_assert_double_eq_tol(rows.rows[1].value, 318560e-9, 1e-15);
	metrics_rows_free(&rows);
}
END_TEST

START_TEST(parse_counters)
{
	struct ncu_rows rows;
	struct step_metrics m = { 0 };
	struct error e = { "" };
	double v;

	ck_assert_int_eq(metrics_parse_csv(counters_log, &rows, &e), 0);
	ck_assert_int_eq(rows.count, 16);
	metrics_from_rows(&rows, &m);
	metrics_rows_free(&rows);
	ck_assert(m.collected);

	ck_assert_int_eq(metrics_value(&m, row_of("dram__bytes_read.sum.per_second"), &v), 0);
	ck_assert_double_eq_tol(v, 1234.5e9, 1);			/* Gbyte/second -> byte/s */
	ck_assert_int_eq(metrics_value(&m, row_of("dram__bytes_read.sum"), &v), 0);
	ck_assert_double_eq_tol(v, 67.11e6, 1e-3);			/* Mbyte -> byte */
	ck_assert_int_eq(metrics_value(&m, row_of("dram__bytes_write.sum"), &v), 0);
	ck_assert_double_eq_tol(v, 65536, 1e-9);
	ck_assert_int_eq(metrics_value(&m, row_of("smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct"), &v), 0);
	ck_assert_double_eq_tol(v, 99.71, 1e-9);
	/* the first launch's value, not the second's */
	ck_assert_int_eq(metrics_value(&m, row_of("smsp__inst_executed.sum"), &v), 0);
	ck_assert_double_eq_tol(v, 16777216, 1e-6);
	/* "n/a", and a metric ncu did not write */
	ck_assert_int_eq(metrics_value(&m, row_of("smsp__warp_issue_stalled_wait_per_warp_active.pct"), &v), -1);
	ck_assert_int_eq(metrics_value(&m, row_of("dram__bytes_write.sum.per_second"), &v), -1);

	/* derived: 32,000 wavefronts for 1,000 loads is 31 extra each */
	for (int i = 0; i < metrics_count; i++) {
		const struct metric_def *d = &metrics_table[i];
		if (d->ncu != NULL || d->group != MG_SHARED)
			continue;
		if (strstr(d->num, "_op_ld") != NULL) {
			ck_assert_int_eq(metrics_value(&m, i, &v), 0);
			ck_assert_double_eq_tol(v, 31.0, 1e-12);
		} else {
			/* no shared stores: nothing to divide */
			ck_assert_int_eq(metrics_value(&m, i, &v), -1);
		}
	}
}
END_TEST

START_TEST(no_table)
{
	struct ncu_rows rows;
	struct error e = { "" };

	ck_assert_int_eq(metrics_parse_csv("==PROF== Connected\n==WARNING== No kernels were profiled.\n", &rows, &e), -1);
	ck_assert_ptr_nonnull(strstr(e.msg, "no table"));
	metrics_rows_free(&rows);
}
END_TEST

START_TEST(top_stalls)
{
	struct ncu_rows rows;
	struct step_metrics m = { 0 };
	struct error e;
	int top[3], n;

	ck_assert_int_eq(metrics_parse_csv(counters_log, &rows, &e), 0);
	metrics_from_rows(&rows, &m);
	metrics_rows_free(&rows);
	n = metrics_top_stalls(&m, top, 3);
	/* issuing (50 %) is not a stall; wait is n/a */
	ck_assert_int_eq(n, 2);
	ck_assert_str_eq(metrics_table[top[0]].ncu, "smsp__warp_issue_stalled_barrier_per_warp_active.pct");
	ck_assert_str_eq(metrics_table[top[1]].ncu, "smsp__warp_issue_stalled_long_scoreboard_per_warp_active.pct");
	ck_assert_int_eq(metrics_top_stalls(&m, top, 1), 1);
	ck_assert_str_eq(metrics_table[top[0]].ncu, "smsp__warp_issue_stalled_barrier_per_warp_active.pct");
}
END_TEST

/* What the step views list: the top reasons, the barrier whatever its rank, then issuing. */
START_TEST(stalls_shown)
{
	struct ncu_rows rows;
	struct step_metrics m = { 0 };
	struct error e;
	int idx[METRICS_MAX], n;

	ck_assert_int_eq(metrics_parse_csv(counters_log, &rows, &e), 0);
	metrics_from_rows(&rows, &m);
	metrics_rows_free(&rows);
	n = metrics_stalls_shown(&m, 2, idx, METRICS_MAX);
	ck_assert_int_eq(n, 3);
	ck_assert_str_eq(metrics_table[idx[0]].ncu, "smsp__warp_issue_stalled_barrier_per_warp_active.pct");
	ck_assert_str_eq(metrics_table[idx[1]].ncu, "smsp__warp_issue_stalled_long_scoreboard_per_warp_active.pct");
	ck_assert_str_eq(metrics_table[idx[2]].ncu, "smsp__warp_issue_stalled_selected_per_warp_active.pct");
	/* none of the top asked for: the barrier still comes, then issuing */
	n = metrics_stalls_shown(&m, 0, idx, METRICS_MAX);
	ck_assert_int_eq(n, 2);
	ck_assert_str_eq(metrics_table[idx[0]].ncu, "smsp__warp_issue_stalled_barrier_per_warp_active.pct");
	ck_assert_str_eq(metrics_table[idx[1]].ncu, "smsp__warp_issue_stalled_selected_per_warp_active.pct");
	ck_assert_int_eq(metrics_stalls_shown(&m, 6, idx, 1), 1);
}
END_TEST

START_TEST(formats)
{
	char buf[64];

	ck_assert_str_eq(metrics_format(&metrics_table[row_of("smsp__inst_executed.sum")], 16777216, buf, sizeof buf),
	    "16,777,216");
	ck_assert_str_eq(metrics_format(&metrics_table[row_of("smsp__inst_executed.sum")], 999, buf, sizeof buf), "999");
	ck_assert_str_eq(metrics_format(&metrics_table[row_of("dram__bytes_read.sum.per_second")], 3.1204e12, buf,
	    sizeof buf), "3120.4 GB/s");
	ck_assert_str_eq(metrics_format(&metrics_table[row_of("sm__warps_active.avg.pct_of_peak_sustained_active")],
	    87.54, buf, sizeof buf), "87.5 %");
}
END_TEST

START_TEST(locked)
{
	struct step_metrics m = { 0 };
	bool unknown[METRICS_MAX] = { false };
	struct error e = { "" };

	ck_assert_int_eq(metrics_read_ncu(locked_log, &m, unknown, &e), METRICS_LOCKED);
	ck_assert(!m.collected);
	/* the way out, exactly */
	ck_assert_ptr_nonnull(strstr(e.msg, "ERR_NVGPUCTRPERM"));
	ck_assert_ptr_nonnull(strstr(e.msg, "options nvidia NVreg_RestrictProfilingToAdminUsers=0"));
	ck_assert_ptr_nonnull(strstr(e.msg, "/etc/modprobe.d/"));
	ck_assert_ptr_nonnull(strstr(e.msg, "reboot"));
	ck_assert_ptr_nonnull(strstr(e.msg, "as root"));
	ck_assert_ptr_nonnull(strstr(e.msg, "https://developer.nvidia.com/ERR_NVGPUCTRPERM"));
	ck_assert_ptr_null(strchr(e.msg, '\n'));
}
END_TEST

START_TEST(unknown_metrics)
{
	struct step_metrics m = { 0 };
	bool unknown[METRICS_MAX] = { false };
	struct error e = { "" };
	int imc = row_of("smsp__warp_issue_stalled_imc_miss_per_warp_active.pct"), marked = 0;

	ck_assert_int_eq(metrics_read_ncu("==PROF== Connected\n"
	    "==ERROR== Failed to find metric regex:^smsp__warp_issue_stalled_imc_miss_per_warp_active\\.pct$\n",
	    &m, unknown, &e), METRICS_UNKNOWN);
	for (int i = 0; i < metrics_count; i++)
		marked += unknown[i];
	ck_assert_int_eq(marked, 1);
	ck_assert(unknown[imc]);

	/* a full name marks that metric only, not the longer ones built on it */
	memset(unknown, 0, sizeof unknown);
	ck_assert_int_eq(metrics_read_ncu("==ERROR== Failed to find metric regex:^dram__bytes_read\\.sum$\n",
	    &m, unknown, &e), METRICS_UNKNOWN);
	ck_assert(unknown[row_of("dram__bytes_read.sum")]);
	ck_assert(!unknown[row_of("dram__bytes_read.sum.per_second")]);
	ck_assert(!unknown[row_of("dram__bytes_write.sum")]);

	/* a base name stands for every metric built on it */
	memset(unknown, 0, sizeof unknown);
	ck_assert_int_eq(metrics_read_ncu("==ERROR== Failed to find metric regex:^dram__bytes_read\\.(sum|avg|max)$\n",
	    &m, unknown, &e), METRICS_UNKNOWN);
	ck_assert(unknown[row_of("dram__bytes_read.sum")]);
	ck_assert(unknown[row_of("dram__bytes_read.sum.per_second")]);
	ck_assert(!unknown[row_of("dram__bytes_write.sum")]);

	/* a metric the tutor never asked for: a plain failure, with ncu's words */
	memset(unknown, 0, sizeof unknown);
	ck_assert_int_eq(metrics_read_ncu("==ERROR== Failed to find metric regex:^nothing_like_ours$\n",
	    &m, unknown, &e), METRICS_FAILED);
	ck_assert_ptr_nonnull(strstr(e.msg, "nothing_like_ours"));
}
END_TEST

START_TEST(nothing_profiled)
{
	struct step_metrics m = { 0 };
	bool unknown[METRICS_MAX] = { false };
	struct error e = { "" };

	ck_assert_int_eq(metrics_read_ncu("==PROF== Connected to process 9\n==PROF== Disconnected from process 9\n"
	    "==WARNING== No kernels were profiled.\n", &m, unknown, &e), METRICS_FAILED);
	ck_assert_ptr_nonnull(strstr(e.msg, "no kernel"));
	ck_assert_int_eq(metrics_read_ncu("==ERROR== The application returned an error code (1).\n", &m, unknown, &e),
	    METRICS_FAILED);
	ck_assert_ptr_nonnull(strstr(e.msg, "returned an error code"));
}
END_TEST

START_TEST(version)
{
	char buf[64];

	ck_assert_int_eq(metrics_parse_version("NVIDIA (R) Nsight Compute Command Line Profiler\n"
	    "Copyright (c) 2018-2025 NVIDIA Corporation\nVersion 2025.3.1.0 (build 36398880) (public-release)\n",
	    buf, sizeof buf), 0);
	ck_assert_str_eq(buf, "Nsight Compute 2025.3.1.0");
	ck_assert_int_eq(metrics_parse_version("ncu: command not found\n", buf, sizeof buf), -1);
}
END_TEST

static int has_pair(char **argv, const char *a, const char *b)
{
	for (char **p = argv; *p != NULL && p[1] != NULL; p++)
		if (strcmp(p[0], a) == 0 && strcmp(p[1], b) == 0)
			return 1;
	return 0;
}

START_TEST(command_line)
{
	struct metrics_session s = { .ncu = "/opt/ncu", .program = "/usr/bin/cudatutor" };
	const struct kernel_def *k = registry_find("reduce_complete_unroll_template");
	char symbol[128];
	struct metrics_target t = { "unrolling", "en", 7, 1ULL << 24, 512,
	    registry_symbol(k, 512, symbol, sizeof symbol) };
	int imc = row_of("smsp__warp_issue_stalled_imc_miss_per_warp_active.pct");
	char **argv, *list = NULL, **p;

	s.unknown[imc] = true;
	argv = metrics_ncu_argv(&s, &t, "/tmp/x/ncu.log");
	ck_assert_str_eq(argv[0], "/opt/ncu");
	ck_assert(has_pair(argv, "--log-file", "/tmp/x/ncu.log"));
	/* the template kernel's own name at this block size */
	ck_assert(has_pair(argv, "--kernel-name", "regex:^reduce_complete_unroll_template_512$"));
	ck_assert(has_pair(argv, "--launch-skip", "1"));
	ck_assert(has_pair(argv, "--launch-count", "1"));
	ck_assert(has_pair(argv, "--cache-control", "all"));
	ck_assert(has_pair(argv, "--clock-control", "none"));
	ck_assert(has_pair(argv, "--print-units", "base"));
	ck_assert(has_pair(argv, "/usr/bin/cudatutor", "run"));
	ck_assert(has_pair(argv, "run", "unrolling"));
	ck_assert(has_pair(argv, "--step", "7"));
	ck_assert(has_pair(argv, "--size", "16777216"));
	ck_assert(has_pair(argv, "--block", "512"));
	ck_assert(has_pair(argv, "--runs", "1"));
	for (p = argv; *p != NULL; p++)
		if (strcmp(*p, "--metrics") == 0)
			list = p[1];
	ck_assert_ptr_nonnull(list);
	ck_assert_ptr_nonnull(strstr(list, "dram__bytes_read.sum.per_second,"));
	ck_assert_ptr_null(strstr(list, "imc_miss"));	/* ncu said it has none */
	ck_assert_ptr_null(strstr(list, " "));
	metrics_argv_free(argv);
}
END_TEST

/* A lesson in one ncu run: each kernel's last launch (the timed one), library steps skipped. */
#define KROW(id, kernel, metric, value) \
	"\"" id "\",\"77\",\"cudatutor\",\"127.0.0.1\",\"" kernel "\",\"1\",\"13\",\"(1024, 1, 1)\",\"(16384, 1, 1)\",\"0\",\"9.0\",\"Command line profiler metrics\",\"" metric "\",\"inst\",\"" value "\"\n"

START_TEST(a_lesson_in_one_run)
{
	static const char log[] = HEAD
		KROW("0", "reduce_unroll2", "smsp__inst_executed.sum", "100")
		KROW("1", "reduce_unroll2", "smsp__inst_executed.sum", "200")
		KROW("2", "reduce_unroll4(int *, int *, unsigned int)", "smsp__inst_executed.sum", "300")
		KROW("3", "reduce_unroll4(int *, int *, unsigned int)", "smsp__inst_executed.sum", "400");
	const char *const symbols[] = { "reduce_unroll2", NULL, "reduce_unroll4", "reduce_unroll8" };
	struct step_metrics m[4];
	bool unknown[METRICS_MAX] = { false };
	struct metrics_session s = { .ncu = "/opt/ncu", .program = "/usr/bin/cudatutor" };
	struct metrics_target t = { .lesson = "unrolling", .lang = "en", .step = 0,
	    .size = 1ULL << 24, .block = 1024, .symbols = symbols, .nsymbols = 4 };
	struct error e = { "" };
	int inst = row_of("smsp__inst_executed.sum");
	char **argv;
	double v;

	memset(m, 0, sizeof m);
	ck_assert_int_eq(metrics_read_ncu_lesson(log, symbols, 4, m, unknown, &e), METRICS_OK);
	ck_assert(m[0].collected && m[2].collected);
	ck_assert(!m[1].collected && !m[3].collected);
	ck_assert_int_eq(metrics_value(&m[0], inst, &v), 0);
	ck_assert_double_eq(v, 200);	/* the timed launch, after the warm-up */
	ck_assert_int_eq(metrics_value(&m[2], inst, &v), 0);
	ck_assert_double_eq(v, 400);

	argv = metrics_ncu_argv(&s, &t, "/tmp/x/ncu.log");
	ck_assert(has_pair(argv, "--kernel-name", "regex:^(reduce_unroll2|reduce_unroll4|reduce_unroll8)$"));
	ck_assert(has_pair(argv, "run", "unrolling"));
	for (char **p = argv; *p != NULL; p++) {
		ck_assert_str_ne(*p, "--step");
		ck_assert_str_ne(*p, "--launch-count");
	}
	metrics_argv_free(argv);
}
END_TEST

/*
 * Several lessons in one ncu run: ncu is given every lesson, no size or
 * block (each lesson's own), and the launches are matched to the steps in
 * order, so a kernel that two lessons share (shared-memory's last step is
 * register-tiling's first) gives each lesson its own launch, and a step
 * that launched nothing takes no other step's launch.
 */
START_TEST(lessons_in_one_run)
{
	static const char log[] = HEAD
		KROW("0", "matmul_tiled", "smsp__inst_executed.sum", "10")
		KROW("1", "matmul_tiled_4x(const float *, float *)", "smsp__inst_executed.sum", "20")
		KROW("2", "matmul_tiled_4x", "smsp__inst_executed.sum", "30")
		KROW("3", "matmul_regtile_1d", "smsp__inst_executed.sum", "40")
		KROW("4", "matmul_regtile_2d", "smsp__inst_executed.sum", "50");
	/* shared-memory: tiled, tiled_4x, cuBLAS; register-tiling: tiled_4x, 1d, 1d again (failed), 2d */
	const char *const symbols[] = { "matmul_tiled", "matmul_tiled_4x", NULL,
	    "matmul_tiled_4x", "matmul_regtile_1d", "matmul_regtile_vec", "matmul_regtile_2d" };
	const char *const lessons[] = { "shared-memory", "register-tiling" };
	struct step_metrics m[7];
	bool unknown[METRICS_MAX] = { false };
	struct metrics_session s = { .ncu = "/opt/ncu", .program = "/usr/bin/cudatutor" };
	struct metrics_target t = { .lesson = "shared-memory", .lang = "en", .step = 0,
	    .symbols = symbols, .nsymbols = 7, .lessons = lessons, .nlessons = 2 };
	struct error e = { "" };
	int inst = row_of("smsp__inst_executed.sum");
	const double want[] = { 10, 20, -1, 30, 40, -1, 50 };
	char **argv;
	bool seen_size = false;
	double v;

	memset(m, 0, sizeof m);
	ck_assert_int_eq(metrics_read_ncu_lesson(log, symbols, 7, m, unknown, &e), METRICS_OK);
	for (int i = 0; i < 7; i++) {
		ck_assert_msg(m[i].collected == (want[i] >= 0), "step %d", i + 1);
		if (want[i] >= 0) {
			ck_assert_int_eq(metrics_value(&m[i], inst, &v), 0);
			ck_assert_double_eq(v, want[i]);
		}
	}

	argv = metrics_ncu_argv(&s, &t, "/tmp/x/ncu.log");
	ck_assert(has_pair(argv, "run", "shared-memory"));
	ck_assert(has_pair(argv, "shared-memory", "register-tiling"));
	ck_assert(has_pair(argv, "register-tiling", "--runs"));
	for (char **p = argv; *p != NULL; p++)
		seen_size |= strcmp(*p, "--size") == 0 || strcmp(*p, "--block") == 0;
	ck_assert(!seen_size);
	metrics_argv_free(argv);
}
END_TEST

START_TEST(ncu_not_an_executable)
{
	struct error e = { "" };

	setenv("NCU", "/nonexistent/ncu", 1);
	ck_assert_ptr_null(toolkit_program(TOOLKIT_NCU, &e));
	ck_assert_ptr_nonnull(strstr(e.msg, "/nonexistent/ncu"));
	ck_assert_ptr_nonnull(strstr(e.msg, "NCU"));
}
END_TEST

START_TEST(ncu_missing)
{
	struct error e = { "" };
	char *path;

	unsetenv("NCU");
	unsetenv("CUDA_HOME");
	unsetenv("CUDA_ROOT");
	unsetenv("CUDA_PATH");
	setenv("PATH", "/nonexistent", 1);
	path = toolkit_program(TOOLKIT_NCU, &e);
	if (path != NULL) {
		/* this machine has Nsight Compute where the tutor looks without the PATH */
		ck_assert(access(path, X_OK) == 0);
		free(path);
		return;
	}
	/* where to get it, and how to point the tutor at one */
	ck_assert_ptr_nonnull(strstr(e.msg, "ncu was not found"));
	ck_assert_ptr_nonnull(strstr(e.msg, "cuda-nsight-compute"));
	ck_assert_ptr_nonnull(strstr(e.msg, "https://developer.nvidia.com/nsight-compute"));
	ck_assert_ptr_nonnull(strstr(e.msg, "set NCU"));
}
END_TEST

/* ---- a fake ncu, end to end ---------------------------------------------- */

static char fake_dir[64];

/*
 * A shell script standing in for ncu: --version answers like ncu 2025.3;
 * otherwise it writes reply.txt to the --log-file it is given, or
 * unknown.txt while it is still asked for the imc_miss stall, and ends
 * with the status in exit.txt if there is one (as ncu ends as the program
 * it ran).  calls.txt gets a line a run: CUDATUTOR_CHECK_DRAM, then the
 * arguments.
 */
static char *make_fake(const char *reply, const char *unknown)
{
	char *path, *file;
	FILE *f;

	snprintf(fake_dir, sizeof fake_dir, "/tmp/cudatutor-test-ncu-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(fake_dir));
	file = malloc(strlen(fake_dir) + 32);
	sprintf(file, "%s/reply.txt", fake_dir);
	f = fopen(file, "w");
	fputs(reply, f);
	fclose(f);
	if (unknown != NULL) {
		sprintf(file, "%s/unknown.txt", fake_dir);
		f = fopen(file, "w");
		fputs(unknown, f);
		fclose(f);
	}
	free(file);
	path = malloc(strlen(fake_dir) + 16);
	sprintf(path, "%s/ncu", fake_dir);
	f = fopen(path, "w");
	fprintf(f, "#!/bin/sh\n"
	    "dir=%s\n"
	    "if [ \"$1\" = --version ]; then echo 'NVIDIA (R) Nsight Compute Command Line Profiler'; "
	    "echo 'Version 2025.3.1.0 (build 1) (public-release)'; exit 0; fi\n"
	    "echo \"CUDATUTOR_CHECK_DRAM=$CUDATUTOR_CHECK_DRAM $*\" >> $dir/calls.txt\n"
	    "log=; metrics=\n"
	    "while [ $# -gt 0 ]; do case $1 in --log-file) log=$2;; --metrics) metrics=$2;; esac; shift; done\n"
	    "if [ -f $dir/unknown.txt ] && echo \"$metrics\" | grep -q imc_miss; then cat $dir/unknown.txt > \"$log\"; exit 1; fi\n"
	    "cat $dir/reply.txt > \"$log\"\n"
	    "if [ -f $dir/exit.txt ]; then exit \"$(cat $dir/exit.txt)\"; fi\n", fake_dir);
	fclose(f);
	chmod(path, 0755);
	setenv("NCU", path, 1);
	return path;
}

static void fake_cleanup(char *ncu)
{
	static const char *const files[] = { "ncu", "reply.txt", "unknown.txt", "calls.txt", "exit.txt" };
	char path[128];

	for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
		snprintf(path, sizeof path, "%s/%s", fake_dir, files[i]);
		unlink(path);
	}
	rmdir(fake_dir);
	free(ncu);
}

static int calls(void)
{
	char path[128], line[4096];
	FILE *f;
	int n = 0;

	snprintf(path, sizeof path, "%s/calls.txt", fake_dir);
	f = fopen(path, "r");
	if (f == NULL)
		return 0;
	while (fgets(line, sizeof line, f) != NULL)
		n++;
	fclose(f);
	return n;
}

static const struct metrics_target target = { "reduction", "en", 1, 1ULL << 24, 1024, "reduce_neighbored" };

/* What the fake was last run with: the last line of calls.txt, into buf. */
static const char *last_call(char *buf, size_t len)
{
	char path[128];
	FILE *f;

	buf[0] = '\0';
	snprintf(path, sizeof path, "%s/calls.txt", fake_dir);
	if ((f = fopen(path, "r")) != NULL) {
		while (fgets(buf, (int)len, f) != NULL)
			;
		fclose(f);
	}
	return buf;
}

/* The dram rows ncu writes for a check of device-memory reads: the student's two launches, then ours. */
#define DRAM_ROW(id, value) ROW(id, "dram__bytes_read.sum", "Gbyte", value)
static const char dram_log[] =
	"==PROF== Connected to process 77 (/usr/bin/cudatutor)\n"
	HEAD DRAM_ROW("0", "2.18") DRAM_ROW("1", "2.39") DRAM_ROW("2", "1.39") DRAM_ROW("3", "1.50");
static const char dram_short_log[] = HEAD DRAM_ROW("0", "2.18") DRAM_ROW("1", "2.39") DRAM_ROW("2", "1.39");

/*
 * The device-memory reads of a check, from a fake ncu: the check asked for
 * at both sizes, each launch flushed of the caches; the launches read in
 * the order they ran (the student's at each size, then ours); one missing
 * is said, not guessed; how the check ended comes back (3: wrong answers).
 */
START_TEST(fake_ncu_dram_reads)
{
	static const char *const args[] = { "tile-order", "--seed", "7", NULL };
	static const unsigned long long sizes[2] = { 7936, 8192 };
	struct metrics_session s;
	struct error e = { "" };
	char *ncu = make_fake(dram_log, NULL), call[4096], path[128];
	double yours[2], ours[2];
	int status;
	FILE *f;

	ck_assert_msg(metrics_session_begin(&s, &e) == 0, "%s", e.msg);
	ck_assert_int_eq(metrics_dram_reads(&s, "tc_wgmma_grouped", args, sizes, 2, yours, ours, &status, &e), METRICS_OK);
	ck_assert_double_eq_tol(yours[0], 2.18e9, 1);
	ck_assert_double_eq_tol(yours[1], 2.39e9, 1);
	ck_assert_double_eq_tol(ours[0], 1.39e9, 1);
	ck_assert_double_eq_tol(ours[1], 1.50e9, 1);
	ck_assert_int_eq(status, 0);
	last_call(call, sizeof call);
	ck_assert_msg(strncmp(call, "CUDATUTOR_CHECK_DRAM=7936,8192 ", 31) == 0, "%s", call);
	ck_assert_msg(strstr(call, "--metrics dram__bytes_read.sum") && strstr(call, "--cache-control all") &&
	    strstr(call, "regex:^tc_wgmma_grouped$") && strstr(call, " check tile-order --seed 7"), "%s", call);

	snprintf(path, sizeof path, "%s/reply.txt", fake_dir);
	f = fopen(path, "w");
	fputs(dram_short_log, f);
	fclose(f);
	ck_assert_int_eq(metrics_dram_reads(&s, "tc_wgmma_grouped", args, sizes, 2, yours, ours, &status, &e),
	    METRICS_FAILED);
	ck_assert_msg(strstr(e.msg, "3 launches") && strstr(e.msg, "not 4"), "%s", e.msg);

	snprintf(path, sizeof path, "%s/exit.txt", fake_dir);
	f = fopen(path, "w");
	fputs("3\n", f);
	fclose(f);
	metrics_dram_reads(&s, "tc_wgmma_grouped", args, sizes, 2, yours, ours, &status, &e);
	ck_assert_int_eq(status, 3);
	metrics_session_end(&s);
	fake_cleanup(ncu);
}
END_TEST

START_TEST(fake_ncu_counters)
{
	struct metrics_session s;
	struct step_metrics m;
	struct error e = { "" };
	char *ncu = make_fake(counters_log, NULL);
	double v;

	ck_assert_msg(metrics_session_begin(&s, &e) == 0, "%s", e.msg);
	ck_assert_str_eq(s.ncu, ncu);
	ck_assert_str_eq(s.tool, "Nsight Compute 2025.3.1.0");
	ck_assert_msg(metrics_collect(&s, &target, &m, &e) == METRICS_OK, "%s", e.msg);
	ck_assert(m.collected);
	ck_assert_str_eq(m.tool, "Nsight Compute 2025.3.1.0");
	ck_assert_int_eq(metrics_value(&m, row_of("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"), &v), 0);
	ck_assert_double_eq_tol(v, 31000, 1e-9);
	ck_assert_int_eq(calls(), 1);
	metrics_session_end(&s);
	fake_cleanup(ncu);
}
END_TEST

START_TEST(fake_ncu_locked)
{
	struct metrics_session s;
	struct step_metrics m;
	struct error e = { "" };
	char *ncu = make_fake(locked_log, NULL);

	ck_assert_msg(metrics_session_begin(&s, &e) == 0, "%s", e.msg);
	ck_assert_int_eq(metrics_collect(&s, &target, &m, &e), METRICS_LOCKED);
	ck_assert(!m.collected);
	ck_assert_ptr_nonnull(strstr(e.msg, "NVreg_RestrictProfilingToAdminUsers=0"));
	metrics_session_end(&s);
	fake_cleanup(ncu);
}
END_TEST

START_TEST(fake_ncu_unknown_metric)
{
	struct metrics_session s;
	struct step_metrics m;
	struct error e = { "" };
	int imc = row_of("smsp__warp_issue_stalled_imc_miss_per_warp_active.pct");
	char *ncu = make_fake(counters_log,
	    "==ERROR== Failed to find metric regex:^smsp__warp_issue_stalled_imc_miss_per_warp_active\\.pct$\n");
	double v;

	ck_assert_msg(metrics_session_begin(&s, &e) == 0, "%s", e.msg);
	/* asked again without it: the rest are read, that one is n/a */
	ck_assert_msg(metrics_collect(&s, &target, &m, &e) == METRICS_OK, "%s", e.msg);
	ck_assert_int_eq(calls(), 2);
	ck_assert(s.unknown[imc]);
	ck_assert_int_eq(metrics_value(&m, imc, &v), -1);
	ck_assert_int_eq(metrics_value(&m, row_of("sm__warps_active.avg.pct_of_peak_sustained_active"), &v), 0);
	/* the next step is not asked for it at all */
	ck_assert_msg(metrics_collect(&s, &target, &m, &e) == METRICS_OK, "%s", e.msg);
	ck_assert_int_eq(calls(), 3);
	metrics_session_end(&s);
	fake_cleanup(ncu);
}
END_TEST

/*
 * Cancelling a collection stops ncu and what it started: a fake ncu that
 * starts a long sleep (as ncu starts the step), says where, and waits.
 */
struct canceller {
	char pid_file[128];
	volatile int flag;
};

static void *cancel_when_started(void *arg)
{
	struct canceller *c = arg;

	/* until the fake has started its child, for at most a minute */
	for (int i = 0; i < 6000 && access(c->pid_file, R_OK) != 0; i++)
		nanosleep(&(struct timespec){ 0, 10 * 1000 * 1000 }, NULL);
	c->flag = 1;
	return NULL;
}

/* Whether process pid has ended (gone, or a zombie no one has reaped yet). */
static int ended(long pid)
{
	char path[64], stat[512];
	FILE *f;
	const char *p;
	int gone;

	snprintf(path, sizeof path, "/proc/%ld/stat", pid);
	f = fopen(path, "r");
	if (f == NULL)
		return 1;
	gone = fgets(stat, sizeof stat, f) == NULL;
	fclose(f);
	p = strrchr(stat, ')');
	return gone || (p != NULL && (p[2] == 'Z' || p[2] == 'X'));
}

START_TEST(fake_ncu_cancelled)
{
	struct metrics_session s;
	struct step_metrics m;
	struct error e = { "" };
	struct canceller c = { "", 0 };
	char dir[] = "/tmp/cudatutor-test-ncu-XXXXXX", path[128];
	pthread_t th;
	long pid = 0;
	FILE *f;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/ncu", dir);
	snprintf(c.pid_file, sizeof c.pid_file, "%s/child.pid", dir);
	f = fopen(path, "w");
	fprintf(f, "#!/bin/sh\n"
	    "if [ \"$1\" = --version ]; then echo 'Version 2025.3.1.0 (build 1)'; exit 0; fi\n"
	    "sleep 600 &\n"
	    "echo $! > %s.tmp && mv %s.tmp %s\n"
	    "wait\n", c.pid_file, c.pid_file, c.pid_file);
	fclose(f);
	chmod(path, 0755);
	setenv("NCU", path, 1);

	ck_assert_msg(metrics_session_begin(&s, &e) == 0, "%s", e.msg);
	s.cancel = &c.flag;
	ck_assert_int_eq(pthread_create(&th, NULL, cancel_when_started, &c), 0);
	ck_assert_int_eq(metrics_collect(&s, &target, &m, &e), METRICS_CANCELLED);
	pthread_join(th, NULL);
	ck_assert(!m.collected);
	ck_assert_str_eq(e.msg, "cancelled");
	f = fopen(c.pid_file, "r");
	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(fscanf(f, "%ld", &pid), 1);
	fclose(f);
	/* the step ncu ran went with it (it may take a moment to be reaped) */
	for (int i = 0; i < 1000 && !ended(pid); i++)
		nanosleep(&(struct timespec){ 0, 10 * 1000 * 1000 }, NULL);
	ck_assert_msg(ended(pid), "the fake's child %ld outlived the cancel", pid);
	metrics_session_end(&s);
	unsetenv("NCU");
	unlink(c.pid_file);
	unlink(path);
	rmdir(dir);
}
END_TEST

/* ---- recorded with the results ------------------------------------------- */

START_TEST(recorded_round_trip)
{
	char dir[] = "/tmp/cudatutor-test-metrics-XXXXXX", path[128];
	struct results_file f = { 0 }, g;
	struct run_report r = { 0 };
	struct step_result *s;
	struct ncu_rows rows;
	struct error e = { "" };
	int bank = row_of("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum");
	double v;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/r.json", dir);
	snprintf(f.gpu.name, sizeof f.gpu.name, "Test GPU");
	snprintf(f.gpu.arch, sizeof f.gpu.arch, "sm_90");
	snprintf(f.date, sizeof f.date, "2000-01-01T00:00:00Z");
	f.copy_gbps = 1000;
	snprintf(r.lesson, sizeof r.lesson, "reduction");
	r.size = 1 << 20;
	r.block = 1024;
	r.nsteps = 2;
	r.steps = calloc(2, sizeof *r.steps);
	for (int i = 0; i < 2; i++) {
		s = &r.steps[i];
		s->step = i + 1;
		snprintf(s->kernel, sizeof s->kernel, "reduce_neighbored");
		s->size = r.size;
		s->block = 1024;
		s->reps = 20;
		s->median_ms = s->q1_ms = s->q3_ms = s->min_ms = s->max_ms = 1;
		s->ran = s->correct = true;
	}
	ck_assert_int_eq(metrics_parse_csv(counters_log, &rows, &e), 0);
	metrics_from_rows(&rows, &r.steps[0].metrics);
	metrics_rows_free(&rows);
	snprintf(r.steps[0].metrics.tool, sizeof r.steps[0].metrics.tool, "Nsight Compute 2025.3.1.0");
	f.nruns = 1;
	f.runs = &r;
	ck_assert_msg(results_file_save(&f, path, &e) == 0, "%s", e.msg);
	free(r.steps);

	ck_assert_msg(results_file_load(path, &g, &e) == 0, "%s", e.msg);
	s = &g.runs[0].steps[0];
	ck_assert(s->metrics.collected);
	ck_assert_str_eq(s->metrics.tool, "Nsight Compute 2025.3.1.0");
	ck_assert_int_eq(metrics_value(&s->metrics, bank, &v), 0);
	ck_assert_double_eq_tol(v, 31000, 1e-9);
	ck_assert_int_eq(metrics_value(&s->metrics, row_of("smsp__warp_issue_stalled_wait_per_warp_active.pct"), &v), -1);
	/* the step recorded without counters stays without */
	ck_assert(!g.runs[0].steps[1].metrics.collected);
	results_file_free(&g);
	unlink(path);
	rmdir(dir);
}
END_TEST

START_TEST(recorded_damaged)
{
	char dir[] = "/tmp/cudatutor-test-metrics-XXXXXX", path[128];
	struct results_file g;
	struct error e = { "" };
	FILE *f;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/r.json", dir);
	f = fopen(path, "w");
	fputs("{\"format\": \"cudatutor-results\", \"version\": 1,\n"
	    " \"gpu\": {\"name\": \"G\", \"compute_capability\": \"sm_90\", \"driver\": \"1\", \"cuda\": \"13.0\","
	    " \"sm_count\": 1, \"memory_bytes\": 1},\n"
	    " \"recorded\": {\"date\": \"2000-01-01T00:00:00Z\", \"cudatutor\": \"0.1.0\"}, \"copy_gbps\": 1.0,\n"
	    " \"runs\": [{\"lesson\": \"reduction\", \"size\": 1024, \"block\": 1024, \"steps\": [\n"
	    "  {\"step\": 1, \"kernel\": \"reduce_neighbored\", \"size\": 1024, \"block\": 1024, \"grid\": 1,"
	    "   \"library\": false, \"ran\": true, \"reps\": 1, \"median_ms\": 1.0, \"q1_ms\": 1.0, \"q3_ms\": 1.0,"
	    "   \"min_ms\": 1.0, \"max_ms\": 1.0, \"spread_pct\": 0.0, \"registers\": 1, \"blocks_per_sm\": 1,"
	    "   \"occupancy_pct\": 1.0, \"correct\": true, \"check\": \"ok\", \"wrong_by_design\": false,"
	    "   \"metrics\": {\"tool\": \"x\", \"values\": {\"smsp__inst_executed.sum\": \"many\"}}}]}]}\n", f);
	fclose(f);
	ck_assert_int_eq(results_file_load(path, &g, &e), -1);
	ck_assert_ptr_nonnull(strstr(e.msg, "smsp__inst_executed.sum"));
	ck_assert_ptr_nonnull(strstr(e.msg, "record it again"));
	unlink(path);
	rmdir(dir);
}
END_TEST

/*
 * ncu's source page: the instructions executed at least once, as SASS
 * text.  A float4 load in a branch never taken is in the compiled code,
 * not in what ran, and the checks of what ran see that.
 */
START_TEST(executed_instructions)
{
	static const char page[] =
	    "==PROF== Connected to process 123\n"
	    "\"Kernel Name\",\"vec_add_float4\"\n"
	    "\"# Address\",\"Source\",\"Warp Stall Sampling (All Samples)\",\"Instructions Executed\","
	    "\"Thread Instructions Executed\"\n"
	    "\"0x7f0000000000\",\"MOV R1, c[0x0][0x28]\",\"0\",\"1,024\",\"32,768\"\n"
	    "\"0x7f0000000010\",\"@P0 BRA 0x7f0000000040\",\"0\",\"1,024\",\"32,768\"\n"
	    "\"0x7f0000000020\",\"LDG.E.128 R4, desc[UR4][R2.64]\",\"0\",\"0\",\"0\"\n"
	    "\"0x7f0000000030\",\"LDG.E R4, desc[UR4][R2.64]\",\"3\",\"2,048\",\"65,536\"\n"
	    "\"0x7f0000000040\",\"FADD R5, R4, R6\",\"1\",\"2,048\",\"65,536\"\n"
	    "\"0x7f0000000050\",\"STG.E desc[UR4][R8.64], R5\",\"0\",\"2,048\",\"65,536\"\n"
	    "\"0x7f0000000060\",\"EXIT\",\"0\",\"1,024\",\"32,768\"\n"
	    "\"0x7f0000000070\",\"BRA 0x7f0000000070\",\"0\",\"0\",\"0\"\n";
	struct sass_listing l;
	struct error e;
	char *sass;
	int rows;

	ck_assert_int_eq(metrics_executed_from_csv(page, &sass, NULL, &rows, &e), 0);
	ck_assert_int_eq(rows, 8);
	sass_parse(sass, &l);
	ck_assert_int_eq(l.count, 6);
	ck_assert_int_eq(sass_count(&l, "LDG.E.128"), 0);
	ck_assert_int_eq(sass_count(&l, "LDG"), 1);
	ck_assert_int_eq(sass_count(&l, "BRA"), 1);
	ck_assert_str_eq(l.insns[1].pred, "@P0");
	sass_listing_free(&l);
	free(sass);
	/* no source page: said, not taken for a kernel that ran nothing */
	ck_assert_int_eq(metrics_executed_from_csv("==PROF== nothing\n\"ID\",\"Kernel Name\"\n", &sass, NULL, &rows, &e), -1);
	ck_assert_ptr_nonnull(strstr(e.msg, "source page"));
}
END_TEST

/*
 * A technique under a predicate that is always false (a counting game):
 * every warp issues the "@P0 LDG.E.128", no thread loads anything.  With
 * the predicated-on column the line counts as not executed; the warp's
 * count alone would take it.
 */
START_TEST(executed_counts_predicated_on)
{
	static const char page[] =
	    "\"# Address\",\"Source\",\"Instructions Executed\",\"Thread Instructions Executed\","
	    "\"Predicated-On Thread Instructions Executed\"\n"
	    "\"0x7f0000000000\",\"ISETP.NE.AND P0, PT, R0, 0x7, PT\",\"1,024\",\"32,768\",\"32,768\"\n"
	    "\"0x7f0000000010\",\"@P0 LDG.E.128 R4, desc[UR4][R2.64]\",\"1,024\",\"32,768\",\"0\"\n"
	    "\"0x7f0000000020\",\"@!P0 LDG.E R4, desc[UR4][R2.64]\",\"1,024\",\"32,768\",\"32,768\"\n"
	    "\"0x7f0000000030\",\"EXIT\",\"1,024\",\"32,768\",\"32,768\"\n";
	struct sass_listing l;
	struct error e;
	char *sass;
	int rows;

	double *counts;

	ck_assert_int_eq(metrics_executed_from_csv(page, &sass, &counts, &rows, &e), 0);
	ck_assert_int_eq(rows, 4);
	sass_parse(sass, &l);
	ck_assert_int_eq(l.count, 3);
	/* each line's count is the predicated-on one, in the listing's order */
	ck_assert_double_eq(counts[0], 32768);
	ck_assert_double_eq(counts[1], 32768);
	ck_assert_ptr_nonnull(strstr(l.insns[1].text, "@!P0 LDG.E R4"));
	free(counts);
	ck_assert_int_eq(sass_count(&l, "LDG.E.128"), 0);
	ck_assert_int_eq(sass_count(&l, "LDG.E"), 1);
	sass_listing_free(&l);
	free(sass);
}
END_TEST


/* A fixture of tests/fixtures/ncu/, read whole. */
static char *ncu_fixture(const char *name)
{
	char *rel = xasprintf("tests/fixtures/ncu/%s", name), *path = paths_source(rel), *text = file_read(path, NULL);

	ck_assert_msg(text != NULL, "cannot read %s", path);
	free(rel);
	free(path);
	return text;
}

/*
 * ncu's source page of step 13 of the tensor lesson on an H200 (its rows
 * trimmed to the first three and the sixteen with most samples): the warps
 * wait at WARPGROUP.DEPBAR, for their own wgmma, which ncu files as a
 * "barrier" stall.
 */
START_TEST(stalls_of_a_real_source_page)
{
	char *text = ncu_fixture("stalls-tc_wgmma_tma.csv");
	const char *symbols[] = { "tc_wgmma_tma" };
	struct stall_profile p;
	struct error e;
	long long sum = 0;

	ck_assert_int_eq(metrics_parse_stalls(text, symbols, 1, &p, &e), 0);
	ck_assert(p.have);
	ck_assert_int_eq(p.nlines, STALL_LINES_MAX);
	/* the line with most samples, its offset as cuobjdump numbers it */
	ck_assert_str_eq(p.lines[0].sass, "WARPGROUP.DEPBAR.LE gsb0, 0x0");
	ck_assert_uint_eq(p.lines[0].offset, 0x10a0);
	ck_assert_str_eq(p.lines[0].reasons[0].name, "barrier");
	ck_assert_int_eq(p.lines[0].reasons[0].samples, 15032);
	ck_assert_int_le(p.lines[0].nreasons, STALL_REASONS_MAX);
	/* largest first, lines and reasons */
	for (int i = 1; i < p.nlines; i++)
		ck_assert_int_ge(p.lines[i - 1].samples, p.lines[i].samples);
	for (int k = 1; k < p.lines[0].nreasons; k++)
		ck_assert_int_ge(p.lines[0].reasons[k - 1].samples, p.lines[0].reasons[k].samples);
	/* a branch's target is an offset too, as in cuobjdump's listing */
	for (int i = 0; i < p.nlines; i++) {
		ck_assert_ptr_null(strstr(p.lines[i].sass, "0x7f"));
		if (p.lines[i].offset == 0xb30)
			ck_assert_str_eq(p.lines[i].sass, "@!P0 BRA 0x1840");
	}
	/* the kernel's samples are every row's, kept lines or not */
	for (int i = 0; i < p.nlines; i++)
		sum += p.lines[i].samples;
	ck_assert_int_gt(p.samples, sum - 1);
	ck_assert_int_gt(p.lines[0].samples * 2, (int)(p.samples * 0.9));	/* nearly half of them */
	free(text);
}
END_TEST

/* Two kernels of a lesson in one run: each block to its step, in order; a library step skipped. */
START_TEST(stalls_matched_to_steps)
{
	char *text = ncu_fixture("stalls-two-kernels.csv");
	const char *symbols[] = { "smem_stride_32", NULL, "reduce_unroll8", "never_launched" };
	struct stall_profile p[4];
	struct error e;

	ck_assert_int_eq(metrics_parse_stalls(text, symbols, 4, p, &e), 0);
	ck_assert(p[0].have && !p[1].have && p[2].have && !p[3].have);
	ck_assert_str_eq(p[0].lines[0].sass, "LDG.E R4, desc[UR6][R4.64]");
	ck_assert_str_eq(p[0].lines[0].reasons[0].name, "mio");
	ck_assert_str_eq(p[2].lines[0].sass, "IADD3 R6, R18, R13, R6");
	ck_assert_str_eq(p[2].lines[0].reasons[0].name, "long_sb");
	/* a second launch of the first step's kernel (a warm-up): the step keeps the last, the next still matches */
	{
		char *first = strstr(text, "\"Kernel Name\",\"reduce_unroll8\"");
		struct strbuf twice = { 0 };

		ck_assert_ptr_nonnull(first);
		strbuf_addf(&twice, "%.*s%.*s%s", (int)(first - text), text, (int)(first - text), text, first);
		ck_assert_int_eq(metrics_parse_stalls(twice.s, symbols, 4, p, &e), 0);
		ck_assert(p[0].have && p[2].have && !p[3].have);
		ck_assert_str_eq(p[2].lines[0].sass, "IADD3 R6, R18, R13, R6");
		strbuf_free(&twice);
	}
	/* the counters' table is no source page */
	ck_assert_int_eq(metrics_parse_stalls(real_log, symbols, 1, p, &e), -1);
	ck_assert_ptr_nonnull(strstr(e.msg, "source page"));
	free(text);
}
END_TEST

/*
 * What a line waits for: the instruction before it whose result it
 * reads (lines of tc_wgmma_tma's SASS for sm_90a), else what its own
 * instruction or reason says.
 */
START_TEST(stalls_explained_by_the_instruction_waited_for)
{
	static const char sass_text[] =
	    "        /*0af0*/                   IMAD.U32 R3, RZ, RZ, UR13 ;  /* 0x0000000dff037e24 */\n"
	    "        /*0b00*/                   LDG.E R40, desc[UR6][R4.64] ;  /* 0x0000000000000000 */\n"
	    "        /*0b10*/                   ULOP3.LUT UR6, UR6, 0x6000, URZ, 0xc0, !UPT ;  /* 0x0000600006067892 */\n"
	    "        /*0b20*/                   SYNCS.PHASECHK.TRANS64.TRYWAIT P0, [R3+UR5], R0 ;  /* 0x00000000030075a7 */\n"
	    "        /*0b30*/              @!P0 BRA 0x1840 ;  /* 0x0000000c00408947 */\n"
	    "        /*0b40*/                   LDG.E.64 R12, desc[UR6][R4.64] ;  /* 0x0000000000000000 */\n"
	    "        /*0b50*/                   FADD R8, R13, R2 ;  /* 0x0000000000000000 */\n"
	    "        /*0b60*/                   WARPGROUP.DEPBAR.LE gsb0, 0x0 ;  /* 0x00008000000079c5 */\n";
	struct stall_line branch = { .offset = 0xb30, .sass = "@!P0 BRA 0x1840", .samples = 10, .nreasons = 1,
	    .reasons = { { "long_sb", 10 } } };
	struct stall_line add = { .offset = 0xb50, .sass = "FADD R8, R13, R2", .samples = 10, .nreasons = 1,
	    .reasons = { { "long_sb", 10 } } };
	struct stall_line wait = { .offset = 0xb60, .sass = "WARPGROUP.DEPBAR.LE gsb0, 0x0", .samples = 10,
	    .nreasons = 1, .reasons = { { "barrier", 10 } } };
	struct sass_listing l;
	char buf[256];

	sass_parse(sass_text, &l);
	/* the branch reads P0: the mbarrier's wait gives it, not the load of R40 just before */
	metrics_stall_explain(&branch, &l, buf, sizeof buf);
	ck_assert_msg(strstr(buf, "SYNCS.PHASECHK.TRANS64.TRYWAIT at /*0b20*/") != NULL && strstr(buf, "mbarrier"), "%s", buf);
	/* R13 is the second register of LDG.E.64 R12 */
	metrics_stall_explain(&add, &l, buf, sizeof buf);
	ck_assert_msg(strstr(buf, "LDG.E.64 at /*0b40*/: global memory") != NULL, "%s", buf);
	/* no load before it gives R2: what the reason says, nothing named */
	add.offset = 0xb50;
	snprintf(add.sass, sizeof add.sass, "FADD R8, R2, R2");
	metrics_stall_explain(&add, &l, buf, sizeof buf);
	ck_assert_msg(strstr(buf, " at /*") == NULL && strstr(buf, "global or local memory") != NULL, "%s", buf);
	/* a "barrier" stall at WARPGROUP.DEPBAR is the wgmma's wait: the instruction says so */
	metrics_stall_explain(&wait, &l, buf, sizeof buf);
	ck_assert_msg(strstr(buf, "wgmma") != NULL, "%s", buf);
	ck_assert_ptr_null(strstr(buf, "__syncthreads"));
	/* without the SASS: the reason's meaning */
	metrics_stall_explain(&branch, NULL, buf, sizeof buf);
	ck_assert_msg(strstr(buf, "SYNCS") == NULL && buf[0] != '\0', "%s", buf);
	sass_listing_free(&l);
}
END_TEST

/* A kernel with no global load (fed by the TMA): its load efficiency is n/a, not 0 %; a store's stays. */
START_TEST(no_global_loads_no_efficiency)
{
	struct step_metrics m = { .collected = true };
	int eff = metrics_find("smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct");
	int per = metrics_find("l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_ld.ratio");
	int st = metrics_find("smsp__sass_average_data_bytes_per_sector_mem_global_op_st.pct");
	double v;

	ck_assert(eff >= 0 && per >= 0 && st >= 0);
	m.have[eff] = m.have[per] = m.have[st] = true;
	m.value[eff] = 0;
	m.value[per] = 0;
	m.value[st] = 100;
	ck_assert(metrics_no_global_loads(&m));
	ck_assert_int_eq(metrics_value(&m, eff, &v), -1);
	ck_assert_int_eq(metrics_value(&m, per, &v), -1);
	ck_assert_int_eq(metrics_value(&m, st, &v), 0);
	/* one sector a request: loads ran, and 0 % would be a figure */
	m.value[per] = 1;
	ck_assert(!metrics_no_global_loads(&m));
	ck_assert_int_eq(metrics_value(&m, eff, &v), 0);
	ck_assert(v == 0);
}
END_TEST

/*
 * The section the exercise check hands ncu (metrics_executed_sass) asks
 * for the two counts metrics_executed_from_csv reads, under the labels it
 * looks for in ncu's columns: rename one and the check reads nothing.
 */
START_TEST(the_executed_section_names_the_columns_read)
{
	char *path = paths_source("data/ncu/CudatutorExecuted.section");
	char *text = file_read(path, NULL);

	ck_assert_msg(text != NULL, "%s cannot be read", path);
	ck_assert_ptr_nonnull(strstr(text, "Identifier: \"CudatutorExecuted\""));
	ck_assert_ptr_nonnull(strstr(text, "Label: \"Instructions Executed\"\n    Name: \"inst_executed\""));
	ck_assert_ptr_nonnull(strstr(text, "Label: \"Predicated-On Thread Instructions Executed\"\n"
	    "    Name: \"thread_inst_executed_true\""));
	/* nothing sampled: a stall-sampling metric would cost ncu its most expensive pass */
	ck_assert_ptr_null(strstr(text, "pcsamp"));
	free(text);
	free(path);
}
END_TEST

static Suite *metrics_suite(void)
{
	Suite *s = suite_create("metrics");
	TCase *t = tcase_create("metrics");

	tcase_add_test(t, table_is_whole);
	tcase_add_test(t, parse_real_log);
	tcase_add_test(t, parse_counters);
	tcase_add_test(t, no_table);
	tcase_add_test(t, executed_counts_predicated_on);
	tcase_add_test(t, top_stalls);
	tcase_add_test(t, stalls_shown);
	tcase_add_test(t, formats);
	tcase_add_test(t, locked);
	tcase_add_test(t, unknown_metrics);
	tcase_add_test(t, nothing_profiled);
	tcase_add_test(t, version);
	tcase_add_test(t, command_line);
	tcase_add_test(t, a_lesson_in_one_run);
	tcase_add_test(t, lessons_in_one_run);
	tcase_add_test(t, ncu_not_an_executable);
	tcase_add_test(t, ncu_missing);
	tcase_add_test(t, fake_ncu_counters);
	tcase_add_test(t, fake_ncu_locked);
	tcase_add_test(t, fake_ncu_unknown_metric);
	tcase_add_test(t, fake_ncu_dram_reads);
	tcase_add_test(t, fake_ncu_cancelled);
	tcase_add_test(t, recorded_round_trip);
	tcase_add_test(t, recorded_damaged);
	tcase_add_test(t, executed_instructions);
	tcase_add_test(t, stalls_of_a_real_source_page);
	tcase_add_test(t, stalls_matched_to_steps);
	tcase_add_test(t, no_global_loads_no_efficiency);
	tcase_add_test(t, stalls_explained_by_the_instruction_waited_for);
	tcase_add_test(t, the_executed_section_names_the_columns_read);
	suite_add_tcase(s, t);
	return s;
}

CHECK_MAIN(metrics_suite)
