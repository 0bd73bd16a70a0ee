/* Two kernels compared: their SASS for one architecture, instruction mixes, resources and aligned diff. */
#include "config.h"

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

int compare_load(struct compare *c, const char *arch, struct error *e)
{
	snprintf(c->arch, sizeof c->arch, "%s", arch);
	if ((c->text_a = inspect_sass(&c->a, arch, e)) == NULL ||
	    (c->text_b = inspect_sass(&c->b, arch, e)) == NULL)
		return -1;
	sass_parse(c->text_a, &c->la);
	sass_parse(c->text_b, &c->lb);
	sass_mix_of(&c->la, &c->ma);
	sass_mix_of(&c->lb, &c->mb);
	sass_diff(&c->la, &c->lb, &c->diff);
	{
		/* Resources are a bonus: the SASS alone makes the comparison. */
		struct error none;
		c->have_res = inspect_resources(&c->a, arch, &c->ra, &none) == 0 &&
		    inspect_resources(&c->b, arch, &c->rb, &none) == 0;
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
