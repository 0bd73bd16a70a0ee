#!/bin/sh
# The figures the lessons quote from a recorded GPU, checked against its file
# in data/results (see figures.py).
: "${CUDATUTOR_SRCDIR:?run the tests through make check}"
ls "$CUDATUTOR_SRCDIR"/data/results/*.json > /dev/null 2>&1 || { echo "skip: data/results is empty"; exit 77; }
exec python3 "$CUDATUTOR_SRCDIR/tests/lessons/figures.py" "$CUDATUTOR_SRCDIR"
