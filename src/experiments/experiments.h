/* The experiment families, and the pure pieces of each that tests call. */
#ifndef CUDATUTOR_EXPERIMENTS_H
#define CUDATUTOR_EXPERIMENTS_H

#include <stdbool.h>
#include <stdint.h>

#include "experiment.h"

extern const struct experiment experiment_reduce;
extern const struct experiment experiment_vec_add;	/* floats */
extern const struct experiment experiment_vec_add_char;
extern const struct experiment experiment_vec_add_half;
extern const struct experiment experiment_vec_add_int;
extern const struct experiment experiment_bitpack;
extern const struct experiment experiment_pitch;
extern const struct experiment experiment_matmul;
extern const struct experiment experiment_regtile;	/* matmul, blocks of 256 by default */
extern const struct experiment experiment_smem_sweep;
extern const struct experiment experiment_stream;
extern const struct experiment experiment_tensor;	/* BF16 inputs, FP32 sums, on tensor cores */

/* reduce: fill n ints in [0, 255] from a seed; their exact sum. */
void reduce_fill(int *data, unsigned long long n, unsigned long long seed);
int64_t reduce_reference(const int *data, unsigned long long n);
/*
 * Partial sums add up as the GPU adds ints: modulo 2^32.  Correct when
 * that equals the exact reference modulo 2^32.
 */
void reduce_check_partials(const int *partials, unsigned int count, int64_t reference,
    struct check_result *out);
void reduce_check_total(int64_t total, int64_t reference, struct check_result *out);

/* vec_add: z = x + y on floats; the check is exact (one IEEE add). */
void vec_add_fill(float *x, float *y, unsigned long long n, unsigned long long seed);
void vec_add_reference(const float *x, const float *y, float *z, unsigned long long n);
void vec_add_check(const float *z, const float *reference, unsigned long long n,
    struct check_result *out);
/* The same over chars, ints and halves (IEEE binary16 bit patterns). */
void vec_add_char_fill(signed char *x, signed char *y, unsigned long long n,
    unsigned long long seed);
void vec_add_char_reference(const signed char *x, const signed char *y, signed char *z,
    unsigned long long n);
void vec_add_int_fill(int32_t *x, int32_t *y, unsigned long long n, unsigned long long seed);
void vec_add_int_reference(const int32_t *x, const int32_t *y, int32_t *z, unsigned long long n);
void vec_add_half_fill(uint16_t *x, uint16_t *y, unsigned long long n, unsigned long long seed);
/* __hadd's answer: the exact sum rounded to half once, to nearest, ties to even. */
void vec_add_half_reference(const uint16_t *x, const uint16_t *y, uint16_t *z,
    unsigned long long n);
float half_to_float(uint16_t h);
uint16_t half_from_float(float f);	/* to nearest, ties to even */
/* Bit for bit, n elements of the given size. */
void vec_add_check_bytes(const void *z, const void *reference, unsigned long long n,
    size_t bytes, struct check_result *out);

/*
 * bitpack: thread tid's word has bit b set when bitpack_value(tid) reaches
 * thresholds[b]; the kernels read the thresholds from constant memory.
 */
#define BITPACK_FLAGS 32
#define BITPACK_SEED 20120601ULL	/* the thresholds the experiment uses */
void bitpack_fill_thresholds(uint32_t *thresholds, unsigned long long seed);
uint32_t bitpack_value(uint32_t tid);
uint32_t bitpack_expected(uint32_t tid, const uint32_t *thresholds);
void bitpack_check(const uint32_t *out, unsigned long long n, const uint32_t *thresholds,
    struct check_result *r);

/*
 * pitch: C = A B for n x n floats holding eighths from -4 to 4 (k / 8 for
 * k from -32 to 32): not whole numbers, so that a multiply that rounds
 * its operands to integers fails, yet every product is a multiple of 1/64
 * and every sum exact in float in any order.  The check is Freivalds':
 * 64 C r = (8 A) ((8 B) r) in exact integers, for PITCH_CHECK_VECTORS
 * random vectors r of n entries each (r and expected hold them one after
 * another).
 */
#define PITCH_SCALE 8		/* the inputs are multiples of 1 / PITCH_SCALE */
#define PITCH_MAX_N 8192
#define PITCH_CHECK_VECTORS 2
void pitch_fill(float *a, float *b, unsigned long long n, unsigned long long seed);
void pitch_check_vectors(const float *a, const float *b, unsigned long long n,
    unsigned long long seed, int64_t *r, int64_t *expected);
void pitch_check(const float *c, unsigned long long n, const int64_t *r,
    const int64_t *expected, struct check_result *out);

/*
 * matmul: C = A * B, n x n row-major floats in [-1, 1).  The reference is
 * computed in double (on every CPU core) with, for each element, the sum
 * of the magnitudes of its products; the check allows fp32 rounding
 * against that scale (matmul_tolerance).  For large n (see
 * matmul_reference_on_gpu) cuBLAS computes both instead, in float, and
 * the check allows the rounding of both products.
 */
void matmul_fill(float *m, unsigned long long count, unsigned long long seed);
void matmul_reference(const float *a, const float *b, int n, float *reference, float *scale);
double matmul_tolerance(float scale, int n);
void matmul_check(const float *c, const float *reference, const float *scale, int n,
    bool reference_on_gpu, struct check_result *out);
/* Whether kernel k's run at side n is checked against cuBLAS (where it loads) rather than the CPU. */
bool matmul_reference_on_gpu(const struct kernel_def *k, unsigned long long n);
/*
 * Whether it is checked at MATMUL_SAMPLES elements of each row, computed on
 * the CPU in double (cuBLAS's own step at large n): column
 * matmul_sample_column(row, n, 0..MATMUL_SAMPLES-1) of each row; the
 * reference and scale hold them row by row.
 */
#define MATMUL_SAMPLES 2
bool matmul_reference_sampled(const struct kernel_def *k, unsigned long long n);
unsigned int matmul_sample_column(unsigned int row, unsigned int n, int which);
void matmul_reference_samples(const float *a, const float *b, int n, float *reference, float *scale);
void matmul_check_samples(const float *c, const float *reference, const float *scale, int n,
    struct check_result *out);
/* Blocks of a launch: tiles 32 columns wide, (block / 32) * outputs rows tall. */
unsigned int matmul_grid(unsigned long long n, unsigned int block, unsigned int outputs_per_thread);
/*
 * SHAPE_TILES: the side of the square tile of C that block threads of
 * outputs_per_thread outputs each compute (0 if they make no square), and
 * the blocks that cover an n x n matrix with such tiles.
 */
unsigned int matmul_tile_side(unsigned int block, unsigned int outputs_per_thread);
unsigned int matmul_tiles_grid(unsigned long long n, unsigned int side);

/*
 * tensor: C = A * B with BF16 inputs and FP32 sums.  A is row-major, B
 * comes transposed (Bt row-major, Bt[j][k] = B[k][j]); both are padded
 * with zeros to a side of tensor_padded(n), the kernels' multiple, and C
 * has that side too: only its n x n corner is checked.  A BF16 is held
 * as its 16 bits.
 */
#define TENSOR_PAD 256
unsigned long long tensor_padded(unsigned long long n);
uint16_t bf16_from_float(float f);	/* to nearest, ties to even */
float bf16_to_float(uint16_t h);
/* The n x n corner uniform in [-1, 1) rounded to BF16, zeros up to np x np. */
void tensor_fill(uint16_t *m, int n, int np, unsigned long long seed);
/* The most an element of a K-term FP32 sum of exact products may be off, for this sum of magnitudes. */
double tensor_tolerance(float scale, int k);
/*
 * C (rows ld floats apart) against reference and scale (n x n, or
 * MATMUL_SAMPLES a row as matmul_reference_samples makes them).
 */
void tensor_check(const float *c, int ld, const float *reference, const float *scale, int n,
    bool reference_on_gpu, struct check_result *out);
void tensor_check_samples(const float *c, int ld, const float *reference, const float *scale, int n,
    struct check_result *out);
/* How a kernel launches: block tile of C, threads, dynamic shared memory bytes. */
struct tensor_launch {
	const char *kernel;
	unsigned int tile_m, tile_n, threads;
	size_t shared_bytes;
	/* 0: the kernel takes (a, bt, c, n); else (map_a, map_bt, c, n), tensor maps of boxes box_k along k */
	unsigned int box_k;
	/* one block per multiprocessor (at most one per tile), each looping over tiles */
	bool persistent;
	/*
	 * Blocks in clusters of two that share each tile of Bt, each copying
	 * half of it to both by TMA multicast: Bt's boxes are tile_n / 2 rows,
	 * and the grid as many whole clusters as the GPU holds at once.
	 */
	bool cluster_pairs;
	/*
	 * C leaves through shared memory, stored by the TMA: the kernel takes
	 * (map_a, map_bt, map_c, c, n), map_c of FP32 in boxes of 32 columns
	 * by 64 rows (TENSOR_C_BOX_ROWS).
	 */
	bool c_by_tma;
};
#define TENSOR_C_BOX_ROWS 64
const struct tensor_launch *tensor_launch_find(const char *kernel);

/*
 * smem_sweep: each thread reads SMEM_SWEEP_READS words of a shared array
 * of SMEM_SWEEP_WORDS (as kernels/banks.cu defines them), lane l starting
 * at word l * stride (+ one word per 32 when padded); each warp writes the
 * sum of its lanes' reads, counting threads past n as zero.
 */
#define SMEM_SWEEP_READS 64
#define SMEM_SWEEP_WORDS (32 * 33)
/* The stride a sweep kernel reads at; -1 for a kernel not in the sweep (or NULL). */
int smem_sweep_case(const struct kernel_def *k, unsigned int *stride, bool *padded);
void smem_sweep_fill(int *words, unsigned long long seed);
unsigned int smem_sweep_first_word(unsigned int lane, unsigned int stride, bool padded);
void smem_sweep_reference(const int *words, unsigned int stride, bool padded,
    unsigned long long threads, unsigned int warps, int *expected);
void smem_sweep_check(const int *sums, const int *expected, unsigned int warps,
    struct check_result *out);

/* stream: y = 2 * x on floats in [-1, 1); the check is exact. */
void stream_fill(float *x, unsigned long long n, unsigned long long seed);
void stream_check(const float *x, const float *y, unsigned long long n, struct check_result *out);

#endif
