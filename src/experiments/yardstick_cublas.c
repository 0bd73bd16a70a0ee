/* cuBLAS as a yardstick, loaded at run time so the tutor starts without it. */
#include "config.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "experiments/yardsticks.h"
#include "i18n.h"
#include "toolkit.h"

/*
 * cuBLAS's C API, declared here rather than taken from cublas_api.h so the
 * tutor builds where the header is missing.  Its enums are ints; the
 * values are those of cublas_api.h (CUDA 12 and 13 alike).
 */
enum {
	BLAS_STATUS_SUCCESS = 0,
	BLAS_OP_N = 0,
	BLAS_OP_T = 1,
	/* cudaDataType (library_types.h) and cublasComputeType_t, GemmEx's */
	BLAS_R_32F = 0,
	BLAS_R_16BF = 14,
	BLAS_COMPUTE_32F = 68,
	BLAS_GEMM_DEFAULT = -1,
	BLAS_DEFAULT_MATH = 0,		/* FP32 stays FP32: no TF32 tensor cores */
};

typedef int (*blas_create_fn)(void **handle);
typedef int (*blas_destroy_fn)(void *handle);
typedef int (*blas_set_stream_fn)(void *handle, void *stream);
typedef int (*blas_set_math_mode_fn)(void *handle, int mode);
typedef int (*blas_sgemm_fn)(void *handle, int transa, int transb, int m, int n, int k,
    const float *alpha, const float *a, int lda, const float *b, int ldb, const float *beta,
    float *c, int ldc);
typedef int (*blas_gemm_ex_fn)(void *handle, int transa, int transb, int m, int n, int k,
    const void *alpha, const void *a, int atype, int lda, const void *b, int btype, int ldb,
    const void *beta, void *c, int ctype, int ldc, int compute, int algo);
typedef const char *(*blas_status_string_fn)(int status);

static struct {
	void *lib;
	char name[64];
	blas_create_fn create;
	blas_destroy_fn destroy;
	blas_set_stream_fn set_stream;
	blas_set_math_mode_fn set_math_mode;
	blas_sgemm_fn sgemm;
	blas_gemm_ex_fn gemm_ex;	/* NULL: no BF16 step, SGEMM still works */
	blas_status_string_fn status_string;
	struct error error;		/* why it did not load */
	int tried;
} blas;
static pthread_mutex_t blas_lock = PTHREAD_MUTEX_INITIALIZER;

struct yardstick_cublas {
	void *handle;
};

static int load_locked(void)
{
	if (blas.tried)
		return blas.lib != NULL ? 0 : -1;
	blas.tried = 1;
	blas.lib = toolkit_library(TOOLKIT_CUBLAS, blas.name, sizeof blas.name, &blas.error);
	if (blas.lib == NULL)
		return -1;
	blas.create = (blas_create_fn)dlsym(blas.lib, "cublasCreate_v2");
	blas.destroy = (blas_destroy_fn)dlsym(blas.lib, "cublasDestroy_v2");
	blas.set_stream = (blas_set_stream_fn)dlsym(blas.lib, "cublasSetStream_v2");
	blas.set_math_mode = (blas_set_math_mode_fn)dlsym(blas.lib, "cublasSetMathMode");
	blas.sgemm = (blas_sgemm_fn)dlsym(blas.lib, "cublasSgemm_v2");
	blas.gemm_ex = (blas_gemm_ex_fn)dlsym(blas.lib, "cublasGemmEx");
	blas.status_string = (blas_status_string_fn)dlsym(blas.lib, "cublasGetStatusString");
	if (blas.create == NULL || blas.destroy == NULL || blas.set_stream == NULL ||
	    blas.set_math_mode == NULL || blas.sgemm == NULL) {
		error_set(&blas.error,
		    _("cuBLAS not found: %s lacks cublasCreate_v2, cublasSgemm_v2 or another function the tutor needs; "
		    "install cuBLAS 12 or newer"), blas.name);
		dlclose(blas.lib);
		blas.lib = NULL;
		return -1;
	}
	return 0;
}

static void status_error(struct error *e, const char *call, int status)
{
	const char *text = blas.status_string != NULL ? blas.status_string(status) : NULL;

	error_set(e, _("cuBLAS error in %s: %s (status %d)"), call, text ? text : _("unknown"), status);
}

struct yardstick_cublas *yardstick_cublas_open(void *stream, struct error *e)
{
	struct yardstick_cublas *y;
	int rc;

	pthread_mutex_lock(&blas_lock);
	rc = load_locked();
	pthread_mutex_unlock(&blas_lock);
	if (rc != 0) {
		error_set(e, "%s", blas.error.msg);
		return NULL;
	}
	y = xcalloc(1, sizeof *y);
	if ((rc = blas.create(&y->handle)) != BLAS_STATUS_SUCCESS) {
		status_error(e, "cublasCreate", rc);
		free(y);
		return NULL;
	}
	if ((rc = blas.set_stream(y->handle, stream)) != BLAS_STATUS_SUCCESS) {
		status_error(e, "cublasSetStream", rc);
		yardstick_cublas_close(y);
		return NULL;
	}
	if ((rc = blas.set_math_mode(y->handle, BLAS_DEFAULT_MATH)) != BLAS_STATUS_SUCCESS) {
		status_error(e, "cublasSetMathMode", rc);
		yardstick_cublas_close(y);
		return NULL;
	}
	return y;
}

int yardstick_cublas_sgemm(struct yardstick_cublas *y, int n, const float *a, const float *b,
    float *c, struct error *e)
{
	const float one = 1.0f, zero = 0.0f;
	int rc;

	/*
	 * cuBLAS is column-major: it reads our row-major A as A^T.  Asking it
	 * for B^T * A^T = (A * B)^T, with the operands swapped, leaves
	 * (A * B)^T in column-major order, which is A * B in row-major order.
	 */
	rc = blas.sgemm(y->handle, BLAS_OP_N, BLAS_OP_N, n, n, n, &one, b, n, a, n, &zero, c, n);
	if (rc != BLAS_STATUS_SUCCESS) {
		status_error(e, "cublasSgemm", rc);
		return -1;
	}
	return 0;
}

int yardstick_cublas_gemm_bf16(struct yardstick_cublas *y, int n, int ld, const void *a,
    const void *bt, float *c, struct error *e)
{
	const float one = 1.0f, zero = 0.0f;
	int rc;

	if (blas.gemm_ex == NULL) {
		error_set(e, _("cuBLAS not found: %s lacks cublasGemmEx; install cuBLAS 12 or newer"), blas.name);
		return -1;
	}
	/*
	 * Column-major, our row-major C is C^T = B^T A^T.  Bt's buffer read
	 * column-major is B itself (its element (k, j) is B[k][j]), so op T
	 * on it gives B^T; A's buffer read column-major is A^T, taken as is.
	 */
	rc = blas.gemm_ex(y->handle, BLAS_OP_T, BLAS_OP_N, n, n, n, &one, bt, BLAS_R_16BF, ld, a, BLAS_R_16BF, ld,
	    &zero, c, BLAS_R_32F, ld, BLAS_COMPUTE_32F, BLAS_GEMM_DEFAULT);
	if (rc != BLAS_STATUS_SUCCESS) {
		status_error(e, "cublasGemmEx", rc);
		return -1;
	}
	return 0;
}

void yardstick_cublas_close(struct yardstick_cublas *y)
{
	if (y == NULL)
		return;
	if (y->handle != NULL)
		blas.destroy(y->handle);
	free(y);
}
