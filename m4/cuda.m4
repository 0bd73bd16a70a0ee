# CUDATUTOR_CHECK_CUDA: find nvcc and the CUDA runtime, pick the GPU
# architectures the kernels are built for, and find cuobjdump/nvdisasm.
#
# --with-cuda=DIR     toolkit root (else nvcc on PATH, else /usr/local/cuda)
# --with-cuda-arch=L  SASS targets, e.g. "75 80 86 89 90 100 120" (the last
#                     one also gets PTX, so newer GPUs can JIT it)
# NVCC, NVCCFLAGS, CUOBJDUMP, NVDISASM may be set by the user.
AC_DEFUN([CUDATUTOR_CHECK_CUDA], [
  AC_ARG_WITH([cuda],
    [AS_HELP_STRING([--with-cuda=DIR], [CUDA toolkit root (default: nvcc on PATH, else /usr/local/cuda)])],
    [], [with_cuda=guess])
  AC_ARG_WITH([cuda-arch],
    [AS_HELP_STRING([--with-cuda-arch=LIST], [GPU architectures to build SASS for (default: 75 80 86 89 90 100 120)])],
    [], [with_cuda_arch="75 80 86 89 90 100 120"])
  AC_ARG_VAR([NVCC], [CUDA compiler])
  AC_ARG_VAR([NVCCFLAGS], [extra flags for nvcc])
  AC_ARG_VAR([CUOBJDUMP], [cuobjdump, to extract SASS from the fatbins])
  AC_ARG_VAR([NVDISASM], [nvdisasm, for source-line mapping of SASS])

  AS_CASE([$with_cuda],
    [no], [AC_MSG_ERROR([cudatutor needs the CUDA toolkit: it cannot be built --without-cuda])],
    [guess|yes], [cuda_path="$PATH$PATH_SEPARATOR/usr/local/cuda/bin"],
    [cuda_path="$with_cuda/bin"])
  AS_IF([test -z "$NVCC"], [AC_PATH_PROG([NVCC], [nvcc], [], [$cuda_path])])
  AS_IF([test -z "$NVCC"],
    [AC_MSG_ERROR([nvcc not found: install the CUDA toolkit (Debian: nvidia-cuda-toolkit) or pass --with-cuda=DIR])])
  AS_IF([test "$with_cuda" = guess || test "$with_cuda" = yes],
    [CUDA_ROOT=`dirname "$NVCC"`; CUDA_ROOT=`dirname "$CUDA_ROOT"`],
    [CUDA_ROOT=$with_cuda])
  AC_SUBST([CUDA_ROOT])

  AC_MSG_CHECKING([the GPU architectures to build for])
  CUDA_ARCHS=`echo "$with_cuda_arch" | sed -e 's/,/ /g' -e 's/sm_//g' -e 's/compute_//g'`
  CUDA_PTX_ARCH=
  NVCC_GENCODE=
  for a in $CUDA_ARCHS; do
    AS_CASE([$a], [[[1-9][0-9]|[1-9][0-9][0-9]]], [],
      [AC_MSG_ERROR([--with-cuda-arch: '$a' is not an architecture number such as 90 or sm_90])])
    NVCC_GENCODE="$NVCC_GENCODE -gencode=arch=compute_$a,code=sm_$a"
    CUDA_PTX_ARCH=$a
  done
  AS_IF([test -z "$CUDA_PTX_ARCH"], [AC_MSG_ERROR([--with-cuda-arch: the list is empty])])
  NVCC_GENCODE="$NVCC_GENCODE -gencode=arch=compute_$CUDA_PTX_ARCH,code=compute_$CUDA_PTX_ARCH"
  CUDA_ARCHS=`echo $CUDA_ARCHS`
  AC_MSG_RESULT([$CUDA_ARCHS])
  AC_SUBST([CUDA_ARCHS])
  AC_SUBST([CUDA_PTX_ARCH])
  AC_SUBST([NVCC_GENCODE])

  AC_MSG_CHECKING([whether nvcc compiles a kernel for these architectures])
  cat > conftest.cu <<_CUEOF
extern "C" __global__ void conftest_kernel(int *p) { p[[threadIdx.x]] = 1; }
_CUEOF
  AS_IF([$NVCC $NVCCFLAGS $NVCC_GENCODE -fatbin -o conftest.fatbin conftest.cu >&AS_MESSAGE_LOG_FD 2>&1],
    [AC_MSG_RESULT([yes])],
    [AC_MSG_RESULT([no])
     AC_MSG_ERROR([nvcc cannot build for '$CUDA_ARCHS': choose others with --with-cuda-arch (see nvcc --list-gpu-arch)])])
  rm -f conftest.cu conftest.fatbin

  CUDA_CPPFLAGS="-I$CUDA_ROOT/include"
  AS_IF([test -d "$CUDA_ROOT/lib64"], [cuda_libdir="$CUDA_ROOT/lib64"], [cuda_libdir="$CUDA_ROOT/lib"])
  CUDA_LIBS="-L$cuda_libdir -lcudart_static -ldl -lrt -lpthread"
  save_CPPFLAGS=$CPPFLAGS; save_LIBS=$LIBS
  CPPFLAGS="$CUDA_CPPFLAGS $CPPFLAGS"; LIBS="$CUDA_LIBS $LIBS -lstdc++"
  AC_CHECK_HEADER([cuda_runtime_api.h], [],
    [AC_MSG_ERROR([cuda_runtime_api.h not found under $CUDA_ROOT/include: pass --with-cuda=DIR])])
  AC_MSG_CHECKING([for the static CUDA runtime with library management (CUDA 12 or newer)])
  AC_LINK_IFELSE([AC_LANG_PROGRAM([[#include <cuda_runtime_api.h>]],
      [[cudaLibrary_t lib; return cudaLibraryLoadFromFile(&lib, "x", 0, 0, 0, 0, 0, 0) == cudaSuccess;]])],
    [AC_MSG_RESULT([yes])],
    [AC_MSG_RESULT([no])
     AC_MSG_ERROR([libcudart_static with cudaLibraryLoadFromFile not found in $cuda_libdir: CUDA 12 or newer is needed])])
  CPPFLAGS=$save_CPPFLAGS; LIBS=$save_LIBS
  AC_SUBST([CUDA_CPPFLAGS])
  AC_SUBST([CUDA_LIBS])

  AC_PATH_PROG([CUOBJDUMP], [cuobjdump], [], [$PATH$PATH_SEPARATOR$CUDA_ROOT/bin])
  AC_PATH_PROG([NVDISASM], [nvdisasm], [], [$PATH$PATH_SEPARATOR$CUDA_ROOT/bin])
  AM_CONDITIONAL([HAVE_CUOBJDUMP], [test -n "$CUOBJDUMP"])
  AS_IF([test -n "$CUOBJDUMP"],
    [AC_DEFINE([HAVE_CUOBJDUMP], [1], [Define if the build extracts SASS with cuobjdump])])
  AM_CONDITIONAL([HAVE_LINE_MAP], [test -n "$CUOBJDUMP" && test -n "$NVDISASM"])
  AS_IF([test -n "$CUOBJDUMP" && test -n "$NVDISASM"],
    [AC_DEFINE([HAVE_LINE_MAP], [1], [Define if the build maps SASS to source lines with nvdisasm])])
  dnl The exercises run them on cubins NVRTC made, so the program keeps their paths.
  AC_DEFINE_UNQUOTED([CUDATUTOR_CUOBJDUMP], ["$CUOBJDUMP"], [cuobjdump as configured, or empty])
  AC_DEFINE_UNQUOTED([CUDATUTOR_NVDISASM], ["$NVDISASM"], [nvdisasm as configured, or empty])
  AC_DEFINE_UNQUOTED([CUDATUTOR_CUDA_ARCHS], ["$CUDA_ARCHS"], [GPU architectures the kernels carry SASS for])
])
