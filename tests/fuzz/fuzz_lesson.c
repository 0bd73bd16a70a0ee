/* libFuzzer target: any bytes given to the lesson loader end in a lesson or one error, never a crash. */
#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "lesson.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct lesson l;
	struct error e = { "" };

	if (lesson_load_buffer((const char *)data, size, "fuzz.md", "fuzz", &l, &e) == 0) {
		/* a loaded lesson is whole: a title and steps with kernels */
		if (l.title == NULL || l.nsteps < 1)
			__builtin_trap();
		for (int i = 0; i < l.nsteps; i++)
			if (l.steps[i].kernel == NULL || l.steps[i].heading == NULL)
				__builtin_trap();
		/* and exercises whole: a row of the table, a task, every hint, a place */
		for (int i = 0; i < l.nexercises; i++) {
			const struct lesson_exercise *x = &l.exercises[i];
			if (x->def == NULL || x->id == NULL || x->task == NULL || x->heading == NULL ||
			    x->before_step < 0 || x->before_step > l.nsteps)
				__builtin_trap();
			for (int k = 0; k < x->nhints; k++)
				if (x->hints[k] == NULL)
					__builtin_trap();
		}
	} else if (strncmp(e.msg, "fuzz.md:", 8) != 0) {
		__builtin_trap();	/* every error names the file */
	}
	lesson_free(&l);
	return 0;
}
