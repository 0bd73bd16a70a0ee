/* Shared-memory banks: which bank each lane of a warp reads, and how many passes that takes. */
#ifndef CUDATUTOR_BANKS_H
#define CUDATUTOR_BANKS_H

#include <stdbool.h>

/*
 * The model (NVIDIA GPUs since Maxwell): shared memory has 32 banks of
 * 4-byte words, word w in bank w % 32; a bank delivers one word per pass
 * (a wavefront), and lanes that read the same word share it (broadcast).
 * A warp's access needs as many wavefronts as its busiest bank has
 * different words.  Elements of 8 and 16 bytes are served a half or a
 * quarter of the warp at a time (each phase moves at most 128 bytes), so
 * they take at least 2 or 4 wavefronts; conflicts count within a phase.
 *
 * Lane l reads element l * stride (stride 0: every lane the same element)
 * of an array that starts at word 0.  padded: the array has one spare
 * word after every 32 words, as a row of 32 words stored 33 apart, so
 * word w of the unpadded array is at w + w / 32.
 */
#define BANKS 32
#define BANKS_WARP 32

struct banks_access {
	unsigned int stride, element_bytes;
	bool padded;
	unsigned int words_per_lane;		/* element_bytes / 4, at least 1 */
	unsigned int word[BANKS_WARP][4];	/* the words each lane touches */
	int bank[BANKS_WARP];			/* the bank of each lane's first word */
	int phases;				/* 1, or 2 / 4 for 8- / 16-byte elements */
	int wavefronts;				/* passes for the whole warp */
	int ways;				/* the most distinct words one bank serves in a phase */
	int banks_used;				/* banks touched at all */
};

/* Fills a; -1 if element_bytes is not 1, 2, 4, 8 or 16. */
int banks_compute(unsigned int stride, unsigned int element_bytes, bool padded,
    struct banks_access *a);

/*
 * The access a kernel of the bank-conflicts lesson's stride sweep makes
 * (4-byte ints, at the stride and padding of its row in the sweep's
 * table): 0, or -1 if the kernel is not one of the sweep's.
 */
int banks_of_kernel(const char *kernel, struct banks_access *a);

/*
 * The wavefronts of an access in the order they are served: in each, the
 * lane each bank delivers a word to (the lowest lane reading that word;
 * -1 where the bank is idle) and how many lanes share that word.  Phases
 * follow one another.  Fills at most max; returns a->wavefronts.
 */
struct banks_wave {
	int lane[BANKS];
	int lanes[BANKS];
};
int banks_waves(const struct banks_access *a, struct banks_wave *w, int max);

#endif
