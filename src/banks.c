/* Shared-memory banks: which bank each lane of a warp reads, and how many passes that takes. */
#include "config.h"

#include <string.h>

#include "banks.h"

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
