/* Experiments: z = x + y over n elements of one type (float, char, half, int). */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "experiments/experiments.h"
#include "gpu.h"
#include "host_buffer.h"
#include "i18n.h"
#include "kernel_def.h"

#define VEC_ADD_SEED 20200702ULL

/*
 * One experiment per element type, all run by the same code: the type
 * says how big an element is, how to fill the inputs, and how the GPU's
 * add rounds.  The vector width lives only in the kernels.  Fills and
 * references work on a band [lo, hi) of the elements, so that all the
 * processors share them (see experiment_parallel): each element takes two
 * random numbers, x's then y's, so band lo starts 2 * lo calls on.
 */
struct vec_add_type {
	size_t bytes;			/* of one element */
	int poison;			/* byte an unwritten output keeps: never a right answer */
	void (*fill)(void *x, void *y, unsigned long long lo, unsigned long long hi,
	    unsigned long long seed);
	void (*reference)(const void *x, const void *y, void *z, unsigned long long lo,
	    unsigned long long hi);
};

struct vec_add_state {
	struct experiment_run run;	/* first: see experiment.h */
	const struct kernel_def *k;
	const struct vec_add_type *t;
	struct step_params p;
	void *d_x, *d_y, *d_z;
	const void *reference;		/* in a host buffer (see host_buffer.h), not ours to free */
	/*
	 * With a seed (an exercise's check), every run changes x at one
	 * element (experiment_changed_element) by flipping its sign bit, and
	 * puts the one before back: z there must be what the run's x gives
	 * (changed_z), so a kernel that keeps its last output is wrong.
	 */
	const unsigned char *x, *y;	/* the inputs as drawn, in host buffers */
	unsigned long long runs, changed;
	bool has_changed;
	unsigned char changed_z[8];
};

/* ---- float ---------------------------------------------------------------- */

static void fill_float(void *vx, void *vy, unsigned long long lo, unsigned long long hi,
    unsigned long long seed)
{
	float *x = vx, *y = vy;
	unsigned long long state = experiment_random_skip(seed, 2 * lo);

	for (unsigned long long i = lo; i < hi; i++) {
		/* uniform in [-1, 1), exactly representable */
		x[i] = (float)((int)(experiment_random(&state) >> 8) - (1 << 23)) / (float)(1 << 23);
		y[i] = (float)((int)(experiment_random(&state) >> 8) - (1 << 23)) / (float)(1 << 23);
	}
}

static void reference_float(const void *vx, const void *vy, void *vz, unsigned long long lo,
    unsigned long long hi)
{
	const float *x = vx, *y = vy;
	float *z = vz;

	for (unsigned long long i = lo; i < hi; i++)
		z[i] = x[i] + y[i];
}

/* ---- char: every value from -128 to 127, so that sums wrap ---------------- */

/*
 * A char's whole range: about a quarter of the sums leave it and wrap
 * modulo 256, as C's char arithmetic does, so an add that saturates (or
 * works in wider lanes that carry into the next byte) is wrong.
 */
static void fill_char(void *vx, void *vy, unsigned long long lo, unsigned long long hi,
    unsigned long long seed)
{
	signed char *x = vx, *y = vy;
	unsigned long long state = experiment_random_skip(seed, 2 * lo);

	for (unsigned long long i = lo; i < hi; i++) {
		x[i] = (signed char)(experiment_random(&state) >> 24);
		y[i] = (signed char)(experiment_random(&state) >> 24);
	}
}

static void reference_char(const void *vx, const void *vy, void *vz, unsigned long long lo,
    unsigned long long hi)
{
	const signed char *x = vx, *y = vy;
	signed char *z = vz;

	for (unsigned long long i = lo; i < hi; i++)
		z[i] = (signed char)(uint8_t)((unsigned)x[i] + (unsigned)y[i]);	/* wraps modulo 256 */
}

/* ---- int: in [-2^29, 2^29), so that no sum overflows ---------------------- */

static void fill_int(void *vx, void *vy, unsigned long long lo, unsigned long long hi,
    unsigned long long seed)
{
	int32_t *x = vx, *y = vy;
	unsigned long long state = experiment_random_skip(seed, 2 * lo);

	for (unsigned long long i = lo; i < hi; i++) {
		x[i] = (int32_t)(experiment_random(&state) >> 2) - (1 << 29);
		y[i] = (int32_t)(experiment_random(&state) >> 2) - (1 << 29);
	}
}

static void reference_int(const void *vx, const void *vy, void *vz, unsigned long long lo,
    unsigned long long hi)
{
	const int32_t *x = vx, *y = vy;
	int32_t *z = vz;

	for (unsigned long long i = lo; i < hi; i++)
		z[i] = x[i] + y[i];
}

/* ---- half: IEEE binary16, as bit patterns --------------------------------- */

float half_to_float(uint16_t h)
{
	uint32_t sign = (uint32_t)(h & 0x8000) << 16, e = (h >> 10) & 0x1f, m = h & 0x3ff, u;
	float f;

	if (e == 0) {			/* zero or subnormal: m * 2^-24, exact in a float */
		f = ldexpf((float)m, -24);
		return sign ? -f : f;
	}
	if (e == 31)
		u = sign | 0x7f800000u | (m << 13);
	else
		u = sign | ((e + 112) << 23) | (m << 13);
	memcpy(&f, &u, sizeof f);
	return f;
}

uint16_t half_from_float(float f)
{
	uint32_t u, sign, exp, mant;
	int e;

	memcpy(&u, &f, sizeof u);
	sign = (u >> 16) & 0x8000;
	exp = (u >> 23) & 0xff;
	mant = u & 0x7fffff;
	if (exp == 0xff)
		return (uint16_t)(sign | (mant ? 0x7e00 : 0x7c00));
	e = (int)exp - 112;		/* the exponent field a half would have */
	if (e >= 31)
		return (uint16_t)(sign | 0x7c00);
	if (e <= 0) {
		/* a subnormal half: round |f| * 2^24 to an integer, ties to even */
		int shift = 14 - e;
		uint32_t m, rem, halfway;

		if (e < -10)
			return (uint16_t)sign;	/* below half the smallest subnormal */
		mant |= 0x800000;
		m = mant >> shift;
		rem = mant & ((1u << shift) - 1);
		halfway = 1u << (shift - 1);
		if (rem > halfway || (rem == halfway && (m & 1)))
			m++;			/* may carry into the smallest normal: still right */
		return (uint16_t)(sign | m);
	}
	{
		/* drop 13 bits, ties to even; a carry moves the exponent on, up to infinity */
		uint32_t h = sign | ((uint32_t)e << 10) | (mant >> 13), rem = mant & 0x1fff;

		if (rem > 0x1000 || (rem == 0x1000 && (h & 1)))
			h++;
		return (uint16_t)h;
	}
}

static void fill_half(void *vx, void *vy, unsigned long long lo, unsigned long long hi,
    unsigned long long seed)
{
	uint16_t *x = vx, *y = vy;
	unsigned long long state = experiment_random_skip(seed, 2 * lo);

	/*
	 * Random normal halves from 2^-4 to just under 2^10, of either sign:
	 * their sums need rounding, yet never overflow or fall below 2^-14.
	 */
	for (unsigned long long i = lo; i < hi; i++) {
		uint32_t a = experiment_random(&state), b = experiment_random(&state);
		x[i] = (uint16_t)((a & 0x8000) | ((11 + (a >> 16) % 14) << 10) | (a & 0x3ff));
		y[i] = (uint16_t)((b & 0x8000) | ((11 + (b >> 16) % 14) << 10) | (b & 0x3ff));
	}
}

static void reference_half(const void *vx, const void *vy, void *vz, unsigned long long lo,
    unsigned long long hi)
{
	const uint16_t *x = vx, *y = vy;
	uint16_t *z = vz;

	/*
	 * __hadd rounds the exact sum to half once.  Adding in float first and
	 * rounding that to half gives the same result: a float holds 24 bits,
	 * at least 2 * 11 + 2, which makes the double rounding harmless.
	 */
	for (unsigned long long i = lo; i < hi; i++)
		z[i] = half_from_float(half_to_float(x[i]) + half_to_float(y[i]));
}

/* ---- the types ------------------------------------------------------------ */

/* Poison: NaN for float and half; 127 and 0x7f7f7f7f, out of the inputs' reach, for char and int. */
static const struct vec_add_type type_float = { sizeof(float), 0xff, fill_float, reference_float };
static const struct vec_add_type type_char = { 1, 0x7f, fill_char, reference_char };
static const struct vec_add_type type_half = { 2, 0x7f, fill_half, reference_half };
static const struct vec_add_type type_int = { sizeof(int32_t), 0x7f, fill_int, reference_int };

static const struct vec_add_type *type_of(const struct experiment *x)
{
	if (x == &experiment_vec_add_char)
		return &type_char;
	if (x == &experiment_vec_add_half)
		return &type_half;
	if (x == &experiment_vec_add_int)
		return &type_int;
	return &type_float;
}

/* ---- over every processor: fill, reference, check ------------------------- */

struct vec_add_job {
	const struct vec_add_type *t;
	const void *x, *y;
	void *fx, *fy, *z;
	const void *want;
	size_t bytes;
	unsigned long long seed;
	struct experiment_mismatch found[EXPERIMENT_MAX_BANDS];
};

static void fill_band(void *ctx, int band, unsigned long long lo, unsigned long long hi)
{
	struct vec_add_job *j = ctx;

	(void)band;
	j->t->fill(j->fx, j->fy, lo, hi, j->seed);
}

static void reference_band(void *ctx, int band, unsigned long long lo, unsigned long long hi)
{
	struct vec_add_job *j = ctx;

	(void)band;
	j->t->reference(j->x, j->y, j->z, lo, hi);
}

static void check_band(void *ctx, int band, unsigned long long lo, unsigned long long hi)
{
	struct vec_add_job *j = ctx;
	const unsigned char *got = j->x, *want = j->want;
	struct experiment_mismatch *m = &j->found[band];

	m->bad = 0;
	/* Bit for bit: one add, rounded the same way on both sides. */
	if (memcmp(got + lo * j->bytes, want + lo * j->bytes, (hi - lo) * j->bytes) == 0)
		return;
	for (unsigned long long i = lo; i < hi; i++) {
		if (memcmp(got + i * j->bytes, want + i * j->bytes, j->bytes) != 0) {
			if (m->bad == 0)
				m->first = i;
			m->bad++;
		}
	}
}

static void type_fill(const struct vec_add_type *t, void *x, void *y, unsigned long long n,
    unsigned long long seed)
{
	struct vec_add_job j = { .t = t, .fx = x, .fy = y, .seed = seed };

	experiment_parallel(n, fill_band, &j);
}

static void type_reference(const struct vec_add_type *t, const void *x, const void *y, void *z,
    unsigned long long n)
{
	struct vec_add_job j = { .t = t, .x = x, .y = y, .z = z };

	experiment_parallel(n, reference_band, &j);
}

void vec_add_fill(float *x, float *y, unsigned long long n, unsigned long long seed)
{
	type_fill(&type_float, x, y, n, seed);
}

void vec_add_reference(const float *x, const float *y, float *z, unsigned long long n)
{
	type_reference(&type_float, x, y, z, n);
}

void vec_add_char_fill(signed char *x, signed char *y, unsigned long long n,
    unsigned long long seed)
{
	type_fill(&type_char, x, y, n, seed);
}

void vec_add_char_reference(const signed char *x, const signed char *y, signed char *z,
    unsigned long long n)
{
	type_reference(&type_char, x, y, z, n);
}

void vec_add_int_fill(int32_t *x, int32_t *y, unsigned long long n, unsigned long long seed)
{
	type_fill(&type_int, x, y, n, seed);
}

void vec_add_int_reference(const int32_t *x, const int32_t *y, int32_t *z, unsigned long long n)
{
	type_reference(&type_int, x, y, z, n);
}

void vec_add_half_fill(uint16_t *x, uint16_t *y, unsigned long long n, unsigned long long seed)
{
	type_fill(&type_half, x, y, n, seed);
}

void vec_add_half_reference(const uint16_t *x, const uint16_t *y, uint16_t *z,
    unsigned long long n)
{
	type_reference(&type_half, x, y, z, n);
}

void vec_add_check_bytes(const void *z, const void *reference, unsigned long long n,
    size_t bytes, struct check_result *out)
{
	struct vec_add_job *j = xcalloc(1, sizeof *j);
	struct experiment_mismatch m;
	int bands;

	j->x = z;
	j->want = reference;
	j->bytes = bytes;
	bands = experiment_parallel(n, check_band, j);
	m = experiment_mismatch_merge(j->found, bands);
	free(j);
	experiment_mismatch_report(m, n, out);
}

void vec_add_check(const float *z, const float *reference, unsigned long long n,
    struct check_result *out)
{
	vec_add_check_bytes(z, reference, n, sizeof(float), out);
}

/* ---- the experiment ---------------------------------------------------------- */

static double work_bytes_float(const struct step_params *p)
{
	return (double)p->size * 3 * sizeof(float);	/* read x and y, write z */
}

static double work_bytes_char(const struct step_params *p)
{
	return (double)p->size * 3;
}

static double work_bytes_half(const struct step_params *p)
{
	return (double)p->size * 3 * 2;
}

static double work_bytes_int(const struct step_params *p)
{
	return (double)p->size * 3 * sizeof(int32_t);
}

/* One add per element: what the roofline places the step by (FLOP per byte moved). */
static double vec_add_flops(const struct step_params *p)
{
	return (double)p->size;
}

static size_t vec_add_device_bytes(const struct kernel_def *k, const struct step_params *p)
{
	return (size_t)(p->size * 3 * type_of(k->experiment)->bytes);
}

static void vec_add_teardown(void *state)
{
	struct vec_add_state *s = state;

	if (s == NULL)
		return;
	gpu_free(s->d_x);
	gpu_free(s->d_y);
	gpu_free(s->d_z);
	free(s);
}

/*
 * The inputs and reference, on the host, made once for all the steps of
 * a run that add this type at this size (see host_buffer.h).
 */
static int vec_add_inputs(const struct kernel_def *k, const struct step_params *p, void **x,
    void **y, void **reference, struct error *e)
{
	const struct vec_add_type *t = type_of(k->experiment);
	size_t bytes = p->size * t->bytes;
	char key[3][96];
	bool ready[3];

	for (int i = 0; i < 3; i++)
		snprintf(key[i], sizeof key[i], "vec_add %s %llu %s %llx", k->experiment->element, p->size,
		    (const char *[]){ "x", "y", "reference" }[i], p->seed);
	if ((*x = host_buffer(HOST_INPUT_A, key[0], bytes, &ready[0], e)) == NULL ||
	    (*y = host_buffer(HOST_INPUT_B, key[1], bytes, &ready[1], e)) == NULL ||
	    (*reference = host_buffer(HOST_REFERENCE, key[2], bytes, &ready[2], e)) == NULL) {
		for (int i = HOST_INPUT_A; i <= HOST_REFERENCE; i++)
			host_buffer_forget((enum host_slot)i);
		error_set(e, _("cannot allocate %llu %s elements on the host: try a smaller --size"), p->size,
		    k->experiment->element);
		return -1;
	}
	if (!ready[0] || !ready[1] || !ready[2]) {
		type_fill(t, *x, *y, p->size, experiment_seed(p, VEC_ADD_SEED));
		type_reference(t, *x, *y, *reference, p->size);
	}
	return 0;
}

static void *vec_add_setup(const struct kernel_def *k, const struct step_params *p, struct error *e)
{
	struct vec_add_state *s = xcalloc(1, sizeof *s);
	const struct vec_add_type *t = type_of(k->experiment);
	size_t bytes = p->size * t->bytes;
	void *x, *y, *reference;
	char symbol[128];

	s->k = k;
	s->t = t;
	s->p = *p;
	registry_symbol(k, p->block, symbol, sizeof symbol);
	if (gpu_kernel(k->module, symbol, &s->run.kernel, e) != 0 ||
	    experiment_grid(k, p, s->run.kernel, &s->run.grid, e) != 0)
		goto fail;
	if (gpu_malloc(&s->d_x, bytes, e) != 0 ||
	    gpu_malloc(&s->d_y, bytes, e) != 0 ||
	    gpu_malloc(&s->d_z, bytes, e) != 0)
		goto fail;
	if (vec_add_inputs(k, p, &x, &y, &reference, e) != 0 ||
	    gpu_copy_to_device(s->d_x, x, bytes, e) != 0 ||
	    gpu_copy_to_device(s->d_y, y, bytes, e) != 0)
		goto fail;
	s->reference = reference;
	s->x = x;
	s->y = y;
	return s;
fail:
	vec_add_teardown(s);
	return NULL;
}

/* This run's x differs from the last run's in one element (see vec_add_state). */
static int vec_add_change_input(struct vec_add_state *s, struct error *e)
{
	size_t b = s->t->bytes;
	unsigned char *d_x = s->d_x, x[8], z[8];

	if (s->has_changed && gpu_copy_to_device(d_x + s->changed * b, s->x + s->changed * b, b, e) != 0)
		return -1;
	/* a sign flipped changes the sum unless x is zero: then the next element */
	for (int tries = 0; tries < 64; tries++) {
		s->changed = (experiment_changed_element(&s->p, s->runs++) + (unsigned long long)tries) % s->p.size;
		memcpy(x, s->x + s->changed * b, b);
		x[b - 1] ^= 0x80;
		s->t->reference(x, s->y + s->changed * b, z, 0, 1);
		if (memcmp(z, (const unsigned char *)s->reference + s->changed * b, b) != 0)
			break;
	}
	memcpy(s->changed_z, z, b);
	s->has_changed = true;
	return gpu_copy_to_device(d_x + s->changed * b, x, b, e);
}

static int vec_add_prepare(void *state, struct error *e)
{
	struct vec_add_state *s = state;

	if (s->p.seed != 0 && vec_add_change_input(s, e) != 0)
		return -1;
	/* An element the kernel skips keeps a value no add can give, and fails the check. */
	return gpu_fill(s->d_z, s->t->poison, s->p.size * s->t->bytes, e);
}

static int vec_add_launch(void *state, struct error *e)
{
	struct vec_add_state *s = state;
	int n = (int)s->p.size;
	void *args[] = { &s->d_x, &s->d_y, &s->d_z, &n };

	return gpu_launch(s->run.kernel, s->run.grid, s->p.block, 0, args, e);
}

static int vec_add_check_run(void *state, struct check_result *out, struct error *e)
{
	struct vec_add_state *s = state;
	void *z = experiment_download(s->d_z, s->p.size, s->t->bytes, _("elements"), e);

	if (z == NULL)
		return -1;
	if (s->has_changed) {
		/* the changed element right for this run's x: as the reference has it; else never */
		unsigned char *at = (unsigned char *)z + s->changed * s->t->bytes;
		const unsigned char *ref = (const unsigned char *)s->reference + s->changed * s->t->bytes;

		if (memcmp(at, s->changed_z, s->t->bytes) == 0)
			memcpy(at, ref, s->t->bytes);
		else
			for (size_t i = 0; i < s->t->bytes; i++)
				at[i] = (unsigned char)~ref[i];
	}
	vec_add_check_bytes(z, s->reference, s->p.size, s->t->bytes, out);
	return 0;
}

/* int indices in the kernels: i + stride must not overflow */
#define VEC_ADD_MAX_SIZE (1ULL << 30)

const struct experiment experiment_vec_add = {
	.name = "vec_add",
	.element = "float",
	.unit = UNIT_GBPS,
	.mix = MIX_ADD,		/* two reads for one write */
	.max_size = VEC_ADD_MAX_SIZE,
	.work_bytes = work_bytes_float,
	.work_flops = vec_add_flops,
	.device_bytes = vec_add_device_bytes,
	.setup = vec_add_setup,
	.prepare = vec_add_prepare,
	.launch = vec_add_launch,
	.check = vec_add_check_run,
	.teardown = vec_add_teardown,
};

const struct experiment experiment_vec_add_char = {
	.name = "vec_add_char",
	.element = "char",
	.unit = UNIT_GBPS,
	.mix = MIX_ADD,		/* two reads for one write */
	.max_size = VEC_ADD_MAX_SIZE,
	.work_bytes = work_bytes_char,
	.work_flops = vec_add_flops,
	.device_bytes = vec_add_device_bytes,
	.setup = vec_add_setup,
	.prepare = vec_add_prepare,
	.launch = vec_add_launch,
	.check = vec_add_check_run,
	.teardown = vec_add_teardown,
};

const struct experiment experiment_vec_add_half = {
	.name = "vec_add_half",
	.element = "half",
	.unit = UNIT_GBPS,
	.mix = MIX_ADD,		/* two reads for one write */
	.max_size = VEC_ADD_MAX_SIZE,
	.work_bytes = work_bytes_half,
	.work_flops = vec_add_flops,
	.device_bytes = vec_add_device_bytes,
	.setup = vec_add_setup,
	.prepare = vec_add_prepare,
	.launch = vec_add_launch,
	.check = vec_add_check_run,
	.teardown = vec_add_teardown,
};

const struct experiment experiment_vec_add_int = {
	.name = "vec_add_int",
	.element = "int",
	.unit = UNIT_GBPS,
	.mix = MIX_ADD,		/* two reads for one write */
	.max_size = VEC_ADD_MAX_SIZE,
	.work_bytes = work_bytes_int,
	.work_flops = vec_add_flops,
	.device_bytes = vec_add_device_bytes,
	.setup = vec_add_setup,
	.prepare = vec_add_prepare,
	.launch = vec_add_launch,
	.check = vec_add_check_run,
	.teardown = vec_add_teardown,
};
