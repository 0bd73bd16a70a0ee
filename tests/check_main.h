/* The main() every Check test program shares: run one suite, exit 0 or 1. */
#ifndef CUDATUTOR_CHECK_MAIN_H
#define CUDATUTOR_CHECK_MAIN_H

#include <check.h>
#include <stdlib.h>

#define CHECK_MAIN(make_suite)                                          \
	int main(void)                                                  \
	{                                                               \
		SRunner *sr = srunner_create(make_suite());             \
		int failed;                                             \
		srunner_run_all(sr, CK_NORMAL);                         \
		failed = srunner_ntests_failed(sr);                     \
		srunner_free(sr);                                       \
		return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;       \
	}

#endif
