/* Shared-memory banks: which bank each lane of a warp reads, and how many passes that takes. */
#include "config.h"

#include <string.h>

#include "banks.h"
#include "experiments/experiments.h"
#include "registry.h"

static unsigned int padded_word(unsigned int w, bool padded)
{
	return padded ? w + w / BANKS : w;
}

int banks_compute(unsigned int stride, unsigned int element_bytes, bool padded,
    struct banks_access *a)
{
	unsigned int lanes_per_phase;

	if (element_bytes != 1 && element_bytes != 2 && element_bytes != 4 &&
	    element_bytes != 8 && element_bytes != 16)
		return -1;
	memset(a, 0, sizeof *a);
	a->stride = stride;
	a->element_bytes = element_bytes;
	a->padded = padded;
	a->words_per_lane = element_bytes >= 4 ? element_bytes / 4 : 1;
	a->phases = element_bytes > 4 ? (int)(element_bytes / 4) : 1;
	lanes_per_phase = BANKS_WARP / (unsigned int)a->phases;

	for (unsigned int lane = 0; lane < BANKS_WARP; lane++) {
		/* the words of one element are consecutive before padding */
		unsigned int plain = (unsigned int)((unsigned long long)lane * stride * element_bytes / 4);

		for (unsigned int k = 0; k < a->words_per_lane; k++)
			a->word[lane][k] = padded_word(plain + k, padded);
		a->bank[lane] = (int)(a->word[lane][0] % BANKS);
	}

	{
		bool used[BANKS] = { false };

		for (int phase = 0; phase < a->phases; phase++) {
			/* the distinct words of this phase, per bank */
			unsigned int words[BANKS][BANKS_WARP * 4];
			int count[BANKS] = { 0 }, most = 0;

			for (unsigned int l = 0; l < lanes_per_phase; l++) {
				unsigned int lane = (unsigned int)phase * lanes_per_phase + l;
				for (unsigned int k = 0; k < a->words_per_lane; k++) {
					unsigned int w = a->word[lane][k];
					int b = (int)(w % BANKS), seen = 0;

					used[b] = true;
					for (int i = 0; i < count[b]; i++)
						if (words[b][i] == w)
							seen = 1;
					if (!seen)
						words[b][count[b]++] = w;
				}
			}
			for (int b = 0; b < BANKS; b++)
				if (count[b] > most)
					most = count[b];
			a->wavefronts += most;
			if (most > a->ways)
				a->ways = most;
		}
		for (int b = 0; b < BANKS; b++)
			a->banks_used += used[b];
	}
	return 0;
}

int banks_of_kernel(const char *kernel, struct banks_access *a)
{
	unsigned int stride;
	bool padded;

	/* The sweep's own table says which stride each kernel reads at. */
	if (smem_sweep_case(registry_find(kernel), &stride, &padded) != 0)
		return -1;
	return banks_compute(stride, 4, padded, a);
}

int banks_waves(const struct banks_access *a, struct banks_wave *w, int max)
{
	unsigned int lanes_per_phase = BANKS_WARP / (unsigned int)a->phases;
	int n = 0;

	for (int phase = 0; phase < a->phases; phase++) {
		/* each bank's distinct words in lane order, with the first lane and the lanes reading each */
		unsigned int words[BANKS][BANKS_WARP * 4];
		int first[BANKS][BANKS_WARP * 4], sharing[BANKS][BANKS_WARP * 4];
		int count[BANKS] = { 0 }, most = 0;

		for (unsigned int l = 0; l < lanes_per_phase; l++) {
			unsigned int lane = (unsigned int)phase * lanes_per_phase + l;
			for (unsigned int k = 0; k < a->words_per_lane; k++) {
				unsigned int word = a->word[lane][k];
				int b = (int)(word % BANKS), i;

				for (i = 0; i < count[b] && words[b][i] != word; i++)
					;
				if (i == count[b]) {
					words[b][i] = word;
					first[b][i] = (int)lane;
					sharing[b][i] = 0;
					count[b]++;
				}
				sharing[b][i]++;
			}
		}
		for (int b = 0; b < BANKS; b++)
			if (count[b] > most)
				most = count[b];
		for (int i = 0; i < most; i++, n++) {
			if (n >= max)
				continue;
			for (int b = 0; b < BANKS; b++) {
				w[n].lane[b] = i < count[b] ? first[b][i] : -1;
				w[n].lanes[b] = i < count[b] ? sharing[b][i] : 0;
			}
		}
	}
	return n;
}
