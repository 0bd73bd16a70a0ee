/* The experiments' CPU references and checks, without a GPU. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check_main.h"
#include "experiments/experiments.h"
#include "gpu.h"
#include "host_buffer.h"
#include "measure.h"
#include "paths.h"
#include "registry.h"

START_TEST(reduce_reference_is_exact)
{
	int data[1000];

	reduce_fill(data, 1000, 42);
	for (int i = 0; i < 1000; i++)
		ck_assert(data[i] >= 0 && data[i] <= 255);
	{
		int64_t sum = 0;
		for (int i = 0; i < 1000; i++)
			sum += data[i];
		ck_assert_int_eq(reduce_reference(data, 1000), sum);
	}
	/* the same seed gives the same data */
	{
		int again[1000];
		reduce_fill(again, 1000, 42);
		ck_assert_mem_eq(data, again, sizeof data);
	}
}
END_TEST

START_TEST(reduce_partials_that_add_up_pass)
{
	int partials[] = { 100, 200, 300 };
	struct check_result r;

	reduce_check_partials(partials, 3, 600, &r);
	ck_assert(r.correct);
	reduce_check_partials(partials, 3, 601, &r);
	ck_assert(!r.correct);
	ck_assert_ptr_nonnull(strstr(r.detail, "601"));
}
END_TEST

START_TEST(reduce_poisoned_partial_fails)
{
	/* A block that never wrote its partial leaves the 0xab poison. */
	int partials[] = { 100, (int)0xabababab, 300 };
	struct check_result r;

	reduce_check_partials(partials, 3, 100 + 250 + 300, &r);
	ck_assert(!r.correct);
}
END_TEST

START_TEST(reduce_sums_wrap_like_the_gpu)
{
	/* Partials summed modulo 2^32 agree with a 64-bit reference mod 2^32. */
	int partials[] = { 0x7fffffff, 0x7fffffff, 4 };
	struct check_result r;

	reduce_check_partials(partials, 3, 2LL * 0x7fffffff + 4, &r);
	ck_assert(r.correct);
	reduce_check_total(2LL * 0x7fffffff + 4, 2LL * 0x7fffffff + 4, &r);
	ck_assert(r.correct);
	reduce_check_total(3, 4, &r);
	ck_assert(!r.correct);
}
END_TEST

START_TEST(vec_add_check_is_bitwise)
{
	float x[64], y[64], z[64], ref[64];
	struct check_result r;

	vec_add_fill(x, y, 64, 7);
	vec_add_reference(x, y, ref, 64);
	memcpy(z, ref, sizeof z);
	vec_add_check(z, ref, 64, &r);
	ck_assert(r.correct);

	z[17] = nextafterf(z[17], 2.0f);	/* one ulp off */
	vec_add_check(z, ref, 64, &r);
	ck_assert(!r.correct);
	ck_assert_ptr_nonnull(strstr(r.detail, "17"));

	memcpy(z, ref, sizeof z);
	memset(&z[63], 0xff, sizeof z[63]);	/* the NaN poison, unwritten */
	vec_add_check(z, ref, 64, &r);
	ck_assert(!r.correct);
}
END_TEST

START_TEST(vec_add_inputs_are_in_range)
{
	float x[4096], y[4096];

	vec_add_fill(x, y, 4096, 1);
	for (int i = 0; i < 4096; i++) {
		ck_assert(x[i] >= -1.0f && x[i] < 1.0f);
		ck_assert(y[i] >= -1.0f && y[i] < 1.0f);
	}
	ck_assert(x[0] != x[1]);
}
END_TEST

/*
 * Inputs filled in bands, one per processor, are the numbers one loop
 * would give; a check in bands counts every mismatch and names the first.
 */
START_TEST(bands_give_what_one_loop_gives)
{
	const unsigned long long n = (3ULL << 20) + 7;	/* several bands, one odd */
	float *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y), *z = malloc(n * sizeof *z);
	int *data = malloc(n * sizeof *data);
	unsigned long long state = 5;
	int64_t sum = 0;
	struct check_result r;

	ck_assert(x != NULL && y != NULL && z != NULL && data != NULL);
	vec_add_fill(x, y, n, 5);
	for (unsigned long long i = 0; i < n; i++) {
		float wx = (float)((int)(experiment_random(&state) >> 8) - (1 << 23)) / (float)(1 << 23);
		float wy = (float)((int)(experiment_random(&state) >> 8) - (1 << 23)) / (float)(1 << 23);
		if (x[i] != wx || y[i] != wy)
			ck_abort_msg("vec_add_fill differs from one loop at %llu", i);
	}
	reduce_fill(data, n, 9);
	state = 9;
	for (unsigned long long i = 0; i < n; i++) {
		int want = (int)(experiment_random(&state) & 0xff);
		if (data[i] != want)
			ck_abort_msg("reduce_fill differs from one loop at %llu", i);
		sum += want;
	}
	ck_assert(reduce_reference(data, n) == sum);

	vec_add_reference(x, y, z, n);
	vec_add_check(z, z, n, &r);
	ck_assert(r.correct);
	memcpy(y, z, n * sizeof *z);
	y[n - 1] += 1.0f;	/* in the last band */
	y[n / 2] = -y[n / 2] - 3.0f;	/* in a middle one */
	vec_add_check(y, z, n, &r);
	ck_assert(!r.correct);
	ck_assert_str_eq(r.detail, "2 of 3145735 elements differ, the first at index 1572867");
	free(x);
	free(y);
	free(z);
	free(data);
}
END_TEST

/* half_from_float rounds to nearest, ties to even, with subnormals, overflow and NaN. */
START_TEST(half_rounding_by_hand)
{
	ck_assert_uint_eq(half_from_float(1.0f), 0x3c00);
	ck_assert_uint_eq(half_from_float(-2.0f), 0xc000);
	ck_assert_uint_eq(half_from_float(0.0f), 0x0000);
	ck_assert_uint_eq(half_from_float(-0.0f), 0x8000);
	/* 1 + 2^-11 is halfway between 1 and 1 + 2^-10: to the even one, 1 */
	ck_assert_uint_eq(half_from_float(1.0f + 0x1p-11f), 0x3c00);
	/* 1 + 3 * 2^-11 is halfway between 0x3c01 and 0x3c02: to the even one */
	ck_assert_uint_eq(half_from_float(1.0f + 3 * 0x1p-11f), 0x3c02);
	/* just above halfway rounds up */
	ck_assert_uint_eq(half_from_float(1.0f + 0x1p-11f + 0x1p-20f), 0x3c01);
	/* the largest half, and what rounds to infinity */
	ck_assert_uint_eq(half_from_float(65504.0f), 0x7bff);
	ck_assert_uint_eq(half_from_float(65519.0f), 0x7bff);
	ck_assert_uint_eq(half_from_float(65520.0f), 0x7c00);
	ck_assert_uint_eq(half_from_float(1e10f), 0x7c00);
	ck_assert_uint_eq(half_from_float(-INFINITY), 0xfc00);
	ck_assert_uint_eq(half_from_float(NAN) & 0x7c00, 0x7c00);
	ck_assert_uint_ne(half_from_float(NAN) & 0x3ff, 0);
	/* subnormals: 2^-24 is the smallest; 2^-25 is halfway to 0, and 0 is even */
	ck_assert_uint_eq(half_from_float(0x1p-24f), 0x0001);
	ck_assert_uint_eq(half_from_float(0x1p-25f), 0x0000);
	ck_assert_uint_eq(half_from_float(3 * 0x1p-26f), 0x0001);
	ck_assert_uint_eq(half_from_float(3 * 0x1p-25f), 0x0002);	/* 1.5 ulp: to even */
	ck_assert_uint_eq(half_from_float(0x1p-14f), 0x0400);	/* the smallest normal */
	ck_assert_uint_eq(half_from_float(0x1p-14f - 0x1p-25f), 0x0400);	/* rounds up into it */
	/* every finite half survives the trip through float */
	for (uint32_t h = 0; h < 0x10000; h++) {
		if ((h & 0x7c00) == 0x7c00)
			continue;
		ck_assert_uint_eq(half_from_float(half_to_float((uint16_t)h)), h);
	}
	ck_assert(half_to_float(0x3555) > 0.333f && half_to_float(0x3555) < 0.3334f);
	ck_assert(half_to_float(0x0001) == 0x1p-24f);
}
END_TEST

/* The half reference rounds like __hadd: the exact sum, rounded once. */
START_TEST(half_add_rounds_once)
{
	uint16_t x[4], y[4], z[4];

	x[0] = 0x3c00; y[0] = 0x1000;	/* 1 + 2^-11: a tie, stays 1 */
	x[1] = 0x3c01; y[1] = 0x1000;	/* (1 + 2^-10) + 2^-11: a tie, to even 0x3c02 */
	x[2] = 0x7bff; y[2] = 0x5000;	/* 65504 + 32 = 65536: past the largest half, infinity */
	x[3] = 0x4000; y[3] = 0xc000;	/* 2 + -2 = +0 */
	vec_add_half_reference(x, y, z, 4);
	ck_assert_uint_eq(z[0], 0x3c00);
	ck_assert_uint_eq(z[1], 0x3c02);
	ck_assert_uint_eq(z[2], 0x7c00);
	ck_assert_uint_eq(z[3], 0x0000);
}
END_TEST

/*
 * The inputs of each type, and no poison can pass: chars over their whole
 * range, so that about a quarter of the sums wrap (a saturating add is
 * wrong); ints and halves where no sum overflows.
 */
START_TEST(vec_add_types_inputs_and_poison)
{
	enum { N = 4096 };
	static signed char cx[N], cy[N], cz[N];
	static int32_t ix[N], iy[N], iz[N];
	static uint16_t hx[N], hy[N], hz[N];
	struct check_result r;

	int wrapped = 0, lowest = 0, highest = 0;

	vec_add_char_fill(cx, cy, N, 3);
	vec_add_char_reference(cx, cy, cz, N);
	for (int i = 0; i < N; i++) {
		int sum = cx[i] + cy[i];

		ck_assert_int_eq(cz[i], sum > 127 ? sum - 256 : sum < -128 ? sum + 256 : sum);
		wrapped += sum > 127 || sum < -128;
		lowest |= cx[i] == -128;
		highest |= cx[i] == 127;
	}
	ck_assert(lowest && highest);
	ck_assert_int_gt(wrapped, N / 8);
	vec_add_int_fill(ix, iy, N, 3);
	vec_add_int_reference(ix, iy, iz, N);
	for (int i = 0; i < N; i++) {
		ck_assert_int_eq((int64_t)iz[i], (int64_t)ix[i] + iy[i]);
		ck_assert_int_ne(iz[i], 0x7f7f7f7f);
	}
	vec_add_half_fill(hx, hy, N, 3);
	vec_add_half_reference(hx, hy, hz, N);
	{
		int rounded = 0;
		for (int i = 0; i < N; i++) {
			float a = half_to_float(hx[i]), b = half_to_float(hy[i]);
			ck_assert(fabsf(a) >= 0x1p-4f && fabsf(a) < 1024.0f);
			ck_assert(fabsf(b) >= 0x1p-4f && fabsf(b) < 1024.0f);
			ck_assert_uint_ne(hz[i] & 0x7c00, 0x7c00);	/* finite: never the NaN poison */
			rounded += half_to_float(hz[i]) != a + b;
		}
		ck_assert_int_gt(rounded, N / 4);	/* the rounding is really tested */
	}
	/* the generic check: bit for bit, at any element size */
	memcpy(hx, hz, sizeof hz);
	vec_add_check_bytes(hx, hz, N, sizeof hz[0], &r);
	ck_assert(r.correct);
	hx[N - 1] ^= 1;
	vec_add_check_bytes(hx, hz, N, sizeof hz[0], &r);
	ck_assert(!r.correct);
	ck_assert_ptr_nonnull(strstr(r.detail, "4095"));
}
END_TEST

/* The reference, bit by bit, on thresholds chosen by hand. */
/*
 * A check's inputs come from its seed: the lesson's own without one (every
 * step sees the same), other thresholds with each seed, so a kernel with
 * the lesson's thresholds written in is wrong on the next check.  Each run
 * of a check changes its input at a place that moves from run to run.
 */
START_TEST(inputs_follow_the_seed)
{
	struct step_params lesson = { .size = 1000, .block = 256 }, a = lesson, b = lesson;
	uint32_t t0[32], ta[32], tb[32];
	unsigned long long at[8];
	int moved = 0;

	a.seed = 17;
	b.seed = 18;
	ck_assert_uint_eq(experiment_seed(&lesson, BITPACK_SEED), BITPACK_SEED);
	ck_assert_uint_ne(experiment_seed(&a, BITPACK_SEED), BITPACK_SEED);
	ck_assert_uint_ne(experiment_seed(&a, BITPACK_SEED), experiment_seed(&b, BITPACK_SEED));
	bitpack_fill_thresholds(t0, experiment_seed(&lesson, BITPACK_SEED));
	bitpack_fill_thresholds(ta, experiment_seed(&a, BITPACK_SEED));
	bitpack_fill_thresholds(tb, experiment_seed(&b, BITPACK_SEED));
	ck_assert(memcmp(t0, ta, sizeof t0) != 0 && memcmp(ta, tb, sizeof ta) != 0);
	for (int r = 0; r < 8; r++) {
		at[r] = experiment_changed_element(&a, (unsigned long long)r);
		ck_assert_uint_lt(at[r], a.size);
		moved += r > 0 && at[r] != at[r - 1];
	}
	ck_assert_int_ge(moved, 6);
	ck_assert_uint_ne(experiment_changed_element(&a, 0), experiment_changed_element(&b, 0));
}
END_TEST

START_TEST(bitpack_expected_by_hand)
{
	uint32_t t[BITPACK_FLAGS];

	for (int b = 0; b < BITPACK_FLAGS; b++)
		t[b] = 0;
	ck_assert_uint_eq(bitpack_expected(12345, t), 0xffffffffu);	/* every value reaches 0 */
	for (int b = 0; b < BITPACK_FLAGS; b++)
		t[b] = 0xffffffffu;
	ck_assert_uint_eq(bitpack_expected(0, t), 0);
	/* threshold b = b * 2^27: bit b set when the value is at least that */
	for (int b = 0; b < BITPACK_FLAGS; b++)
		t[b] = (uint32_t)b << 27;
	for (uint32_t tid = 0; tid < 1000; tid++) {
		uint32_t v = bitpack_value(tid), want = 0;
		for (int b = 0; b < BITPACK_FLAGS; b++)
			if (v >= (uint32_t)b << 27)
				want |= 1u << b;
		ck_assert_uint_eq(bitpack_expected(tid, t), want);
	}
	/* the value is the index times 2654435761, modulo 2^32, as on the GPU */
	ck_assert_uint_eq(bitpack_value(0), 0);
	ck_assert_uint_eq(bitpack_value(1), 2654435761u);
	ck_assert_uint_eq(bitpack_value(2), (uint32_t)(2ULL * 2654435761ULL));
}
END_TEST

/* The check's fast path agrees with the plain reference, ties in the thresholds included. */
START_TEST(bitpack_check_agrees_with_reference)
{
	enum { N = 100000 };
	static uint32_t out[N];
	uint32_t t[BITPACK_FLAGS];
	struct check_result r;

	bitpack_fill_thresholds(t, BITPACK_SEED);
	t[7] = t[3];			/* equal thresholds */
	t[9] = bitpack_value(5);	/* a value exactly at a threshold */
	for (uint32_t i = 0; i < N; i++)
		out[i] = bitpack_expected(i, t);
	bitpack_check(out, N, t, &r);
	ck_assert_msg(r.correct, "%s", r.detail);

	out[4321] ^= 1u << 17;
	bitpack_check(out, N, t, &r);
	ck_assert(!r.correct);
	ck_assert_ptr_nonnull(strstr(r.detail, "1 of 100000"));
	ck_assert_ptr_nonnull(strstr(r.detail, "4321"));
}
END_TEST

/* The words differ from thread to thread, and the poison is never a right answer. */
START_TEST(bitpack_answers_vary_and_poison_fails)
{
	uint32_t t[BITPACK_FLAGS], seen[64];
	int distinct = 0;
	struct check_result r;

	bitpack_fill_thresholds(t, BITPACK_SEED);
	for (uint32_t tid = 0; tid < 4096; tid++) {
		uint32_t w = bitpack_expected(tid, t);
		int known = 0;
		for (int i = 0; i < distinct; i++)
			known |= seen[i] == w;
		if (!known && distinct < 64)
			seen[distinct++] = w;
	}
	ck_assert_int_gt(distinct, 16);
	/*
	 * A word is settled by how many thresholds its value reaches: 33
	 * possible words.  Prove 0xabababab (the poison) is none of them by
	 * trying a value at and just below each threshold, and 0 and 2^32-1.
	 */
	for (int b = 0; b < BITPACK_FLAGS; b++) {
		uint32_t v[] = { t[b], t[b] - 1, 0, 0xffffffffu };
		for (int j = 0; j < 4; j++) {
			uint32_t word = 0;
			for (int c = 0; c < BITPACK_FLAGS; c++)
				if (v[j] >= t[c])
					word |= 1u << c;
			ck_assert_uint_ne(word, 0xababababu);
		}
	}
	{
		uint32_t poisoned[3] = { bitpack_expected(0, t), 0xababababu, bitpack_expected(2, t) };
		bitpack_check(poisoned, 3, t, &r);
		ck_assert(!r.correct);
	}
}
END_TEST

/*
 * What the racy step does to its answers: every thread's word ORed with
 * other threads' bits.  The check must fail for that, and pass for one thread.
 */
START_TEST(bitpack_race_is_caught)
{
	enum { N = 1024 };
	uint32_t t[BITPACK_FLAGS], out[N], shared = 0;
	struct check_result r;

	bitpack_fill_thresholds(t, BITPACK_SEED);
	for (uint32_t i = 0; i < N; i++) {
		shared |= bitpack_expected(i, t);
		out[i] = shared;
	}
	bitpack_check(out, N, t, &r);
	ck_assert(!r.correct);
	bitpack_check(out, 1, t, &r);
	ck_assert(r.correct);
}
END_TEST

/* C = A B on the CPU, the slow way, for the pitch tests. */
static void matmul_cpu(const float *a, const float *b, float *c, int n)
{
	for (int i = 0; i < n; i++)
		for (int j = 0; j < n; j++) {
			float s = 0;
			for (int k = 0; k < n; k++)
				s += a[i * n + k] * b[k * n + j];
			c[i * n + j] = s;
		}
}

/*
 * Eighths from -4 to 4, every one of them drawn: most are no whole number,
 * so a multiply that rounds its operands to integers gets most answers
 * wrong (an integer-only multiply passed when the inputs were whole).
 */
START_TEST(pitch_inputs_are_eighths)
{
	enum { N = 64 };
	static float a[N * N], b[N * N];
	int seen[65] = { 0 }, whole = 0;

	pitch_fill(a, b, N, 5);
	for (int i = 0; i < N * N; i++) {
		ck_assert(a[i] * 8 == (float)(int)(a[i] * 8) && a[i] >= -4 && a[i] <= 4);
		ck_assert(b[i] * 8 == (float)(int)(b[i] * 8) && b[i] >= -4 && b[i] <= 4);
		seen[(int)(a[i] * 8) + 32] = 1;
		whole += a[i] == (float)(int)a[i];
	}
	for (int v = 0; v < 65; v++)
		ck_assert_msg(seen[v], "%d/8 never drawn", v - 32);
	ck_assert_int_lt(whole, N * N / 4);
}
END_TEST

/* A multiply that truncates its operands to whole numbers is caught. */
START_TEST(pitch_check_fails_an_integer_multiply)
{
	enum { N = 19 };
	static float a[N * N], b[N * N], c[N * N];
	int64_t r[PITCH_CHECK_VECTORS * N], expected[PITCH_CHECK_VECTORS * N];
	struct check_result res;

	pitch_fill(a, b, N, 21);
	pitch_check_vectors(a, b, N, 22, r, expected);
	for (int i = 0; i < N; i++)
		for (int j = 0; j < N; j++) {
			float s = 0;
			for (int k = 0; k < N; k++)
				s += (float)(int)a[i * N + k] * (float)(int)b[k * N + j];
			c[i * N + j] = s;
		}
	pitch_check(c, N, r, expected, &res);
	ck_assert(!res.correct);
}
END_TEST

/* The right product passes; one element off by one, a NaN, or a fraction fails. */
START_TEST(pitch_check_finds_wrong_elements)
{
	enum { N = 37 };
	static float a[N * N], b[N * N], c[N * N];
	int64_t r[PITCH_CHECK_VECTORS * N], expected[PITCH_CHECK_VECTORS * N];
	struct check_result res;

	pitch_fill(a, b, N, 11);
	pitch_check_vectors(a, b, N, 12, r, expected);
	matmul_cpu(a, b, c, N);
	pitch_check(c, N, r, expected, &res);
	ck_assert_msg(res.correct, "%s", res.detail);

	c[20 * N + 3] += 1;
	pitch_check(c, N, r, expected, &res);
	ck_assert(!res.correct);
	ck_assert_ptr_nonnull(strstr(res.detail, "row 20"));
	c[20 * N + 3] -= 1;

	/* two errors that cancel in a plain row sum are still caught */
	c[5 * N + 1] += 1;
	c[5 * N + 2] -= 1;
	pitch_check(c, N, r, expected, &res);
	ck_assert(!res.correct);
	c[5 * N + 1] -= 1;
	c[5 * N + 2] += 1;

	memset(&c[N * N - 1], 0xff, sizeof c[0]);	/* the NaN poison: never written */
	pitch_check(c, N, r, expected, &res);
	ck_assert(!res.correct);
	ck_assert_ptr_nonnull(strstr(res.detail, "row 36, column 36"));

	matmul_cpu(a, b, c, N);
	c[0] += 0.5f;
	pitch_check(c, N, r, expected, &res);
	ck_assert(!res.correct);
	/* a value no product of eighths can have: off by 1/128 */
	matmul_cpu(a, b, c, N);
	c[N + 1] += 1.0f / 128;
	pitch_check(c, N, r, expected, &res);
	ck_assert(!res.correct);
	ck_assert_ptr_nonnull(strstr(res.detail, "row 1, column 1"));

	/* a 1 x 1 product */
	pitch_fill(a, b, 1, 13);
	pitch_check_vectors(a, b, 1, 14, r, expected);
	c[0] = a[0] * b[0];
	pitch_check(c, 1, r, expected, &res);
	ck_assert_msg(res.correct, "%s", res.detail);
	c[0] += 1;
	pitch_check(c, 1, r, expected, &res);
	ck_assert(!res.correct);
}
END_TEST

/* The check's integers cannot overflow at the largest size the lesson takes. */
START_TEST(pitch_check_fits_in_64_bits)
{
	/* |64 C| <= 1024 n, r < 2^20: each row sum of 64 C r stays below 2^63 */
	double worst = 16.0 * PITCH_SCALE * PITCH_SCALE * PITCH_MAX_N * PITCH_MAX_N * (double)(1 << 20);

	ck_assert(worst < 0x1p62);
	ck_assert(16.0 * PITCH_MAX_N * PITCH_SCALE * PITCH_SCALE < 0x1p24);	/* every element exact in a float */
}
END_TEST

/* ---- matmul ---------------------------------------------------------------- */

static void small_matrices(int n, float **a, float **b, float **ref, float **scale)
{
	*a = malloc((size_t)n * n * sizeof(float));
	*b = malloc((size_t)n * n * sizeof(float));
	*ref = malloc((size_t)n * n * sizeof(float));
	*scale = malloc((size_t)n * n * sizeof(float));
	matmul_fill(*a, (unsigned long long)n * n, 3);
	matmul_fill(*b, (unsigned long long)n * n, 4);
	matmul_reference(*a, *b, n, *ref, *scale);
}

START_TEST(matmul_reference_is_the_product)
{
	/*
	 * Not multiples of the tile: 37 rows are one band of work; 160 rows,
	 * four million multiply-adds, a band per processor.
	 */
	static const int sides[] = { 37, 160 };
	int n = sides[_i];
	float *a, *b, *ref, *scale;

	small_matrices(n, &a, &b, &ref, &scale);
	for (int i = 0; i < n; i++)
		for (int j = 0; j < n; j++) {
			double sum = 0, mag = 0;
			for (int k = 0; k < n; k++) {
				sum += (double)a[i * n + k] * b[k * n + j];
				mag += fabs((double)a[i * n + k] * b[k * n + j]);
			}
			ck_assert_float_eq(ref[i * n + j], (float)sum);
			ck_assert_double_eq_tol(scale[i * n + j], mag, mag * 1e-6);
		}
	for (int i = 0; i < n * n; i++)
		ck_assert(a[i] >= -1.0f && a[i] < 1.0f);
	free(a), free(b), free(ref), free(scale);
}
END_TEST

/* A float sum in any order passes; a missing term, a NaN or the poison fails. */
START_TEST(matmul_check_allows_fp32_rounding_only)
{
	int n = 256;
	float *a, *b, *ref, *scale, *c;
	struct check_result r;

	small_matrices(n, &a, &b, &ref, &scale);
	c = malloc((size_t)n * n * sizeof(float));
	for (int pass = 0; pass < 2; pass++) {
		/* as a GPU thread would: float fused multiply-adds, forwards or backwards */
		for (int i = 0; i < n; i++)
			for (int j = 0; j < n; j++) {
				float sum = 0;
				for (int t = 0; t < n; t++) {
					int k = pass ? n - 1 - t : t;
					sum = fmaf(a[i * n + k], b[k * n + j], sum);
				}
				c[i * n + j] = sum;
			}
		matmul_check(c, ref, scale, n, false, &r);
		ck_assert_msg(r.correct, "%s", r.detail);
	}
	{
		/* drop the largest term of one element */
		int i = 17, j = 200, worst = 0;
		for (int k = 1; k < n; k++)
			if (fabsf(a[i * n + k] * b[k * n + j]) > fabsf(a[i * n + worst] * b[worst * n + j]))
				worst = k;
		c[i * n + j] -= a[i * n + worst] * b[worst * n + j];
		matmul_check(c, ref, scale, n, false, &r);
		ck_assert(!r.correct);
		ck_assert_ptr_nonnull(strstr(r.detail, "row 17, column 200"));
		c[i * n + j] += a[i * n + worst] * b[worst * n + j];
	}
	memset(&c[n * n - 1], 0xff, sizeof(float));	/* the NaN poison, unwritten */
	matmul_check(c, ref, scale, n, false, &r);
	ck_assert(!r.correct);
	ck_assert_ptr_nonnull(strstr(r.detail, "1 of 65536"));
	free(a), free(b), free(ref), free(scale), free(c);
}
END_TEST

/*
 * Against cuBLAS's float answer (here: a float sum in the other order),
 * each side may carry its own rounding; a dropped term still fails, and
 * the detail names cuBLAS, not the CPU.
 */
START_TEST(matmul_check_against_a_float_reference)
{
	int n = 256, i = 40, j = 3, worst = 0;
	float *a, *b, *ref, *scale, *c, *blas;
	struct check_result r;

	small_matrices(n, &a, &b, &ref, &scale);
	c = malloc((size_t)n * n * sizeof(float));
	blas = malloc((size_t)n * n * sizeof(float));
	for (int row = 0; row < n; row++)
		for (int col = 0; col < n; col++) {
			float fwd = 0, bwd = 0;
			for (int k = 0; k < n; k++) {
				fwd = fmaf(a[row * n + k], b[k * n + col], fwd);
				bwd = fmaf(a[row * n + n - 1 - k], b[(n - 1 - k) * n + col], bwd);
			}
			c[row * n + col] = fwd;
			blas[row * n + col] = bwd;
		}
	matmul_check(c, blas, scale, n, true, &r);
	ck_assert_msg(r.correct, "%s", r.detail);
	ck_assert_ptr_nonnull(strstr(r.detail, "cuBLAS"));
	for (int k = 1; k < n; k++)
		if (fabsf(a[i * n + k] * b[k * n + j]) > fabsf(a[i * n + worst] * b[worst * n + j]))
			worst = k;
	c[i * n + j] -= a[i * n + worst] * b[worst * n + j];
	matmul_check(c, blas, scale, n, true, &r);
	ck_assert(!r.correct);
	ck_assert_ptr_nonnull(strstr(r.detail, "row 40, column 3"));
	ck_assert_ptr_nonnull(strstr(r.detail, "cuBLAS says"));
	free(a), free(b), free(ref), free(scale), free(c), free(blas);
}
END_TEST

/* The CPU up to 512, cuBLAS above; never cuBLAS checked against itself. */
START_TEST(matmul_reference_moves_to_the_gpu_when_large)
{
	const struct kernel_def *naive = registry_find("matmul_naive");
	const struct kernel_def *tiled = registry_find("matmul_tiled_4x");
	const struct kernel_def *blas = registry_find("cublas_sgemm");

	ck_assert(!matmul_reference_on_gpu(naive, 67));
	ck_assert(!matmul_reference_on_gpu(tiled, 512));
	ck_assert(matmul_reference_on_gpu(tiled, 513));
	ck_assert(matmul_reference_on_gpu(naive, 1000));
	ck_assert(matmul_reference_on_gpu(naive, 4096));
	ck_assert(!matmul_reference_on_gpu(blas, 4096));
	/* cuBLAS's own step: all of C on the CPU up to 512, two elements a row above */
	ck_assert(!matmul_reference_sampled(blas, 512));
	ck_assert(matmul_reference_sampled(blas, 513));
	ck_assert(matmul_reference_sampled(blas, 4096));
	ck_assert(!matmul_reference_sampled(naive, 4096));
}
END_TEST

/* The samples are the full reference's elements at their places, and every column has one. */
START_TEST(matmul_samples_are_the_reference_at_their_places)
{
	int n = 37;
	float *a, *b, *ref, *scale, sref[37 * MATMUL_SAMPLES], sscale[37 * MATMUL_SAMPLES];
	bool column_seen[37] = { false };

	small_matrices(n, &a, &b, &ref, &scale);
	matmul_reference_samples(a, b, n, sref, sscale);
	for (int i = 0; i < n; i++)
		for (int w = 0; w < MATMUL_SAMPLES; w++) {
			unsigned int c = matmul_sample_column((unsigned int)i, (unsigned int)n, w);

			ck_assert_uint_lt(c, (unsigned int)n);
			ck_assert_float_eq(sref[i * MATMUL_SAMPLES + w], ref[i * n + c]);
			ck_assert_float_eq(sscale[i * MATMUL_SAMPLES + w], scale[i * n + c]);
			column_seen[c] = true;
		}
	for (int c = 0; c < n; c++)
		ck_assert(column_seen[c]);
	free(a), free(b), free(ref), free(scale);
}
END_TEST

/* A right C passes the sampled check; a wrong element where a sample falls fails it, by place. */
START_TEST(matmul_sampled_check_finds_a_wrong_sample)
{
	int n = 37;
	float *a, *b, *ref, *scale, sref[37 * MATMUL_SAMPLES], sscale[37 * MATMUL_SAMPLES];
	struct check_result r;
	char where[64];
	unsigned int c = matmul_sample_column(5, (unsigned int)n, 1);

	small_matrices(n, &a, &b, &ref, &scale);
	matmul_reference_samples(a, b, n, sref, sscale);
	matmul_check_samples(ref, sref, sscale, n, &r);
	ck_assert_msg(r.correct, "%s", r.detail);
	ck_assert_ptr_nonnull(strstr(r.detail, "74 elements, two of every row"));
	ref[5 * n + c] += 0.5f;
	matmul_check_samples(ref, sref, sscale, n, &r);
	ck_assert(!r.correct);
	snprintf(where, sizeof where, "row 5, column %u", c);
	ck_assert_msg(strstr(r.detail, where) != NULL, "%s", r.detail);
	free(a), free(b), free(ref), free(scale);
}
END_TEST

/*
 * Host buffers remember what they hold: the same key is ready, another
 * key or a forgotten one is not, scratch never is, and a bigger request
 * gets a buffer big enough.
 */
START_TEST(host_buffers_know_what_they_hold)
{
	struct error e;
	bool ready = true;
	char *p = host_buffer(HOST_INPUT_A, "x 10", 10, &ready, &e), *q;

	ck_assert_ptr_nonnull(p);
	ck_assert(!ready);
	memcpy(p, "0123456789", 10);
	q = host_buffer(HOST_INPUT_A, "x 10", 10, &ready, &e);
	ck_assert(ready);
	ck_assert_ptr_eq(p, q);
	ck_assert_mem_eq(q, "0123456789", 10);
	host_buffer(HOST_INPUT_A, "y 10", 10, &ready, &e);
	ck_assert(!ready);
	host_buffer(HOST_INPUT_A, "x 10", 10, &ready, &e);
	ck_assert(!ready);		/* y's contents replaced x's */
	host_buffer_forget(HOST_INPUT_A);
	host_buffer(HOST_INPUT_A, "x 10", 10, &ready, &e);
	ck_assert(!ready);
	host_buffer(HOST_INPUT_B, "x 10", 10, &ready, &e);
	ck_assert(!ready);		/* slots are apart */
	host_buffer(HOST_RESULT, NULL, 10, &ready, &e);
	ck_assert(!ready);
	host_buffer(HOST_RESULT, NULL, 10, &ready, &e);
	ck_assert(!ready);
	q = host_buffer(HOST_INPUT_A, "big", 1 << 20, &ready, &e);
	ck_assert_ptr_nonnull(q);
	memset(q, 1, 1 << 20);		/* all of it ours (valgrind and ASan watch) */
	host_buffers_release();
	host_buffer(HOST_INPUT_A, "big", 1 << 20, &ready, &e);
	ck_assert(!ready);
	host_buffers_release();
}
END_TEST

START_TEST(matmul_tolerance_grows_slowly)
{
	/* one product: within a few roundings of itself */
	ck_assert(matmul_tolerance(1.0f, 1) < 1e-6);
	ck_assert(matmul_tolerance(512.0f, 2048) < 1e-2);
	ck_assert(matmul_tolerance(512.0f, 2048) > matmul_tolerance(512.0f, 1024));
}
END_TEST

START_TEST(matmul_grid_covers_the_matrix)
{
	/* 32 x 32 tiles at 1024 threads; 4 outputs per thread make tiles 128 tall */
	ck_assert_uint_eq(matmul_grid(2048, 1024, 1), 64 * 64);
	ck_assert_uint_eq(matmul_grid(2048, 1024, 4), 64 * 16);
	ck_assert_uint_eq(matmul_grid(2048, 256, 1), 64 * 256);
	/* 33 columns need 2 tiles; 3 rows of threads need 11 tiles for 33 rows */
	ck_assert_uint_eq(matmul_grid(33, 96, 1), 2 * 11);
	ck_assert_uint_eq(matmul_grid(1, 32, 1), 1);
}
END_TEST

START_TEST(matmul_tiles_cover_the_matrix)
{
	/* 256 threads of 16 outputs: 64 x 64 tiles; of 64 outputs: 128 x 128 */
	ck_assert_uint_eq(matmul_tile_side(256, 16), 64);
	ck_assert_uint_eq(matmul_tile_side(256, 64), 128);
	ck_assert_uint_eq(matmul_tile_side(256, 8), 0);		/* 2048 outputs: no square */
	ck_assert_uint_eq(matmul_tile_side(1, 1), 1);
	ck_assert_uint_eq(matmul_tiles_grid(4096, 128), 32 * 32);
	/* a partial tile at each edge */
	ck_assert_uint_eq(matmul_tiles_grid(1000, 128), 8 * 8);
	ck_assert_uint_eq(matmul_tiles_grid(4095, 128), 32 * 32);
	ck_assert_uint_eq(matmul_tiles_grid(129, 64), 3 * 3);
	ck_assert_uint_eq(matmul_tiles_grid(1, 128), 1);
}
END_TEST

/* ---- the shared-memory sweep ------------------------------------------------- */

START_TEST(smem_sweep_reference_counts_valid_threads)
{
	int words[SMEM_SWEEP_WORDS], expected[3];
	int lane_sum[32], full = 0;
	struct check_result r;

	smem_sweep_fill(words, 9);
	for (int l = 0; l < 32; l++) {
		lane_sum[l] = 0;
		for (int k = 0; k < SMEM_SWEEP_READS; k++)
			lane_sum[l] += words[32 * l + k % 32];
		full += lane_sum[l];
	}
	/* 70 threads: two full warps, then 6 lanes of the third */
	smem_sweep_reference(words, 32, false, 70, 3, expected);
	ck_assert_int_eq(expected[0], full);
	ck_assert_int_eq(expected[1], full);
	ck_assert_int_eq(expected[2], lane_sum[0] + lane_sum[1] + lane_sum[2] + lane_sum[3] +
	    lane_sum[4] + lane_sum[5]);
	{
		int sums[3] = { expected[0], expected[1], expected[2] };
		smem_sweep_check(sums, expected, 3, &r);
		ck_assert(r.correct);
		sums[2] = (int)0xabababab;	/* the poison of an unwritten sum */
		smem_sweep_check(sums, expected, 3, &r);
		ck_assert(!r.correct);
		ck_assert_ptr_nonnull(strstr(r.detail, "warp 2"));
	}
	/* the broadcast: every lane reads the same 32 words */
	smem_sweep_reference(words, 0, false, 32, 1, expected);
	{
		int one = 0;
		for (int k = 0; k < SMEM_SWEEP_READS; k++)
			one += words[k % 32];
		ck_assert_int_eq(expected[0], 32 * one);
	}
	/* padded stride 32 reads the last word of the 32 x 33 array */
	ck_assert_uint_eq(smem_sweep_first_word(31, 32, true) + 31, SMEM_SWEEP_WORDS - 2);
}
END_TEST

/* The C side of the sweep agrees with kernels/banks.cu on its sizes. */
START_TEST(smem_sweep_matches_its_kernels)
{
	char *path = paths_source("kernels/banks.cu"), *text = file_read(path, NULL);
	char want[64];

	ck_assert_msg(text != NULL, "cannot read %s", path);
	snprintf(want, sizeof want, "#define SWEEP_READS %d\n", SMEM_SWEEP_READS);
	ck_assert_ptr_nonnull(strstr(text, want));
	ck_assert_ptr_nonnull(strstr(text, "#define SWEEP_WORDS (32 * 33)\n"));
	for (int i = 0; i < registry_kernel_count; i++) {
		unsigned int stride;
		bool padded;
		if (registry_kernels[i].experiment == &experiment_smem_sweep)
			ck_assert_msg(smem_sweep_case(&registry_kernels[i], &stride, &padded) == 0,
			    "%s has no stride", registry_kernels[i].name);
	}
	ck_assert_int_eq(smem_sweep_case(registry_find("reduce_unroll8"), &(unsigned int){ 0 }, &(bool){ false }), -1);
	free(text);
	free(path);
}
END_TEST

/* ---- stream ------------------------------------------------------------------ */

START_TEST(stream_check_is_exact)
{
	float x[100], y[100];
	struct check_result r;

	stream_fill(x, 100, 5);
	for (int i = 0; i < 100; i++)
		y[i] = 2.0f * x[i];
	stream_check(x, y, 100, &r);
	ck_assert(r.correct);
	y[99] = nextafterf(y[99], 3.0f);
	stream_check(x, y, 100, &r);
	ck_assert(!r.correct);
	ck_assert_ptr_nonnull(strstr(r.detail, "index 99"));
}
END_TEST

/* A write past a buffer's end is named by the element written, in the buffer's own elements. */
START_TEST(guard_hit_names_the_element)
{
	struct gpu_guard_hit hit = { true, 1000003 * 4, 1000003 * 4 };
	char text[256];

	ck_assert_uint_eq(measure_element_bytes(&experiment_vec_add), 4);
	ck_assert_uint_eq(measure_element_bytes(&experiment_vec_add_char), 1);
	measure_guard_detail(&hit, measure_element_bytes(&experiment_vec_add), text, sizeof text);
	ck_assert_ptr_nonnull(strstr(text, "element 1000003 of a buffer of 1000003"));
	hit.offset = 1000003 + 7;
	hit.buffer_bytes = 1000003;
	measure_guard_detail(&hit, measure_element_bytes(&experiment_vec_add_char), text, sizeof text);
	ck_assert_ptr_nonnull(strstr(text, "element 1000010 of a buffer of 1000003 (1-byte"));
}
END_TEST

/* Every check's tally: an error exactly at the tolerance passes, the next double past it fails, NaN fails. */
START_TEST(tally_at_the_tolerance)
{
	struct experiment_tally t = { 0, 0, 0 };

	experiment_tally_add(&t, 0, 0.5, 0.0, 0.5);
	ck_assert(t.bad == 0 && t.worst == 1.0);
	experiment_tally_add(&t, 1, 0.25, 0.0, 0.5);
	ck_assert(t.bad == 0 && t.worst == 1.0);
	experiment_tally_add(&t, 7, -0.5, 0.0, nextafter(0.5, 0));
	ck_assert(t.bad == 1 && t.first == 7);
	experiment_tally_add(&t, 9, NAN, 0.0, 1e30);
	ck_assert(t.bad == 2 && t.first == 7 && t.worst == 1.0);
}
END_TEST

static Suite *make_suite(void)
{
	Suite *s = suite_create("experiments");
	TCase *tc = tcase_create("references");

	tcase_add_test(tc, tally_at_the_tolerance);
	tcase_add_test(tc, reduce_reference_is_exact);
	tcase_add_test(tc, reduce_partials_that_add_up_pass);
	tcase_add_test(tc, reduce_poisoned_partial_fails);
	tcase_add_test(tc, reduce_sums_wrap_like_the_gpu);
	tcase_add_test(tc, vec_add_check_is_bitwise);
	tcase_add_test(tc, vec_add_inputs_are_in_range);
	tcase_add_test(tc, half_rounding_by_hand);
	tcase_add_test(tc, half_add_rounds_once);
	tcase_add_test(tc, vec_add_types_inputs_and_poison);
	tcase_add_test(tc, bitpack_expected_by_hand);
	tcase_add_test(tc, bitpack_check_agrees_with_reference);
	tcase_add_test(tc, bitpack_answers_vary_and_poison_fails);
	tcase_add_test(tc, bitpack_race_is_caught);
	tcase_add_test(tc, pitch_inputs_are_eighths);
	tcase_add_test(tc, inputs_follow_the_seed);
	tcase_add_test(tc, pitch_check_fails_an_integer_multiply);
	tcase_add_test(tc, pitch_check_finds_wrong_elements);
	tcase_add_test(tc, pitch_check_fits_in_64_bits);
	tcase_add_loop_test(tc, matmul_reference_is_the_product, 0, 2);
	tcase_add_test(tc, matmul_check_allows_fp32_rounding_only);
	tcase_add_test(tc, matmul_tolerance_grows_slowly);
	tcase_add_test(tc, matmul_grid_covers_the_matrix);
	tcase_add_test(tc, matmul_check_against_a_float_reference);
	tcase_add_test(tc, matmul_reference_moves_to_the_gpu_when_large);
	tcase_add_test(tc, matmul_samples_are_the_reference_at_their_places);
	tcase_add_test(tc, matmul_sampled_check_finds_a_wrong_sample);
	tcase_add_test(tc, host_buffers_know_what_they_hold);
	tcase_add_test(tc, matmul_tiles_cover_the_matrix);
	tcase_add_test(tc, smem_sweep_reference_counts_valid_threads);
	tcase_add_test(tc, smem_sweep_matches_its_kernels);
	tcase_add_test(tc, stream_check_is_exact);
	tcase_add_test(tc, bands_give_what_one_loop_gives);
	tcase_add_test(tc, guard_hit_names_the_element);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(make_suite)
