/* Two kernels compared: their SASS for one architecture, instruction mixes, resources and aligned diff. */
#include "config.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"

int compare_resolve(struct compare *c, const char *name_a, const char *name_b, unsigned int block,
    struct error *e)
{
	memset(c, 0, sizeof *c);
	if (inspect_resolve(name_a, block, &c->a, e) != 0 || inspect_resolve(name_b, block, &c->b, e) != 0)
		return -1;
	return 0;
}

/*
 * The same GPU's code in t's module: arch itself, or its variant with or
 * without the architecture-specific "a" where the module was built for
 * that one alone (the Hopper kernels: sm_90a beside others' sm_90).
 */
static const char *same_gpu(const struct inspect_target *t, const char *arch, char *buf, size_t len)
{
	struct error none;
	char *archs = inspect_sass_archs(t->kernel->module, &none);
	size_t n = strlen(arch);
	bool exact = false, other = false;

	if (n > 0 && arch[n - 1] == 'a')
		snprintf(buf, len, "%.*s", (int)(n - 1), arch);
	else
		snprintf(buf, len, "%sa", arch);
	for (char *tok = archs != NULL ? strtok(archs, " ") : NULL; tok != NULL; tok = strtok(NULL, " ")) {
		exact |= strcmp(tok, arch) == 0;
		other |= strcmp(tok, buf) == 0;
	}
	free(archs);
	return !exact && other ? buf : arch;
}

int compare_load(struct compare *c, const char *arch, struct error *e)
{
	char buf_a[16], buf_b[16];
	const char *arch_a = same_gpu(&c->a, arch, buf_a, sizeof buf_a);
	const char *arch_b = same_gpu(&c->b, arch, buf_b, sizeof buf_b);

	snprintf(c->arch, sizeof c->arch, "%s", arch);
	if ((c->text_a = inspect_sass(&c->a, arch_a, e)) == NULL ||
	    (c->text_b = inspect_sass(&c->b, arch_b, e)) == NULL)
		return -1;
	sass_parse(c->text_a, &c->la);
	sass_parse(c->text_b, &c->lb);
	sass_mix_of(&c->la, &c->ma);
	sass_mix_of(&c->lb, &c->mb);
	sass_diff(&c->la, &c->lb, &c->diff);
	{
		/* Resources are a bonus: the SASS alone makes the comparison. */
		struct error none;
		c->have_res = inspect_resources(&c->a, arch_a, &c->ra, &none) == 0 &&
		    inspect_resources(&c->b, arch_b, &c->rb, &none) == 0;
	}
	return 0;
}

int compare_load_text(struct compare *c, const char *arch, const char *text_b,
    const struct kernel_resources *rb, struct error *e)
{
	struct error none;

	snprintf(c->arch, sizeof c->arch, "%s", arch);
	if ((c->text_a = inspect_sass(&c->a, arch, e)) == NULL)
		return -1;
	c->text_b = xstrdup(text_b);
	sass_parse(c->text_a, &c->la);
	sass_parse(c->text_b, &c->lb);
	sass_mix_of(&c->la, &c->ma);
	sass_mix_of(&c->lb, &c->mb);
	sass_diff(&c->la, &c->lb, &c->diff);
	if (rb != NULL && inspect_resources(&c->a, arch, &c->ra, &none) == 0) {
		c->rb = *rb;
		c->have_res = true;
	}
	return 0;
}

void compare_free(struct compare *c)
{
	sass_diff_free(&c->diff);
	sass_listing_free(&c->la);
	sass_listing_free(&c->lb);
	free(c->text_a);
	free(c->text_b);
	memset(c, 0, sizeof *c);
}
