/* Host buffers kept from one step to the next (see host_buffer.h). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "gpu.h"
#include "host_buffer.h"
#include "i18n.h"

static struct {
	void *p;
	size_t bytes;
	bool locked;		/* from gpu_host_alloc, not malloc */
	char key[128];		/* what it holds; "" for nothing known */
} slots[HOST_SLOTS];

static void slot_free(enum host_slot s)
{
	if (slots[s].locked)
		gpu_host_free(slots[s].p);
	else
		free(slots[s].p);
	memset(&slots[s], 0, sizeof slots[s]);
}

void *host_buffer(enum host_slot slot, const char *key, size_t bytes, bool *ready,
    struct error *e)
{
	bool same;

	if (bytes == 0)
		bytes = 1;
	same = key != NULL && slots[slot].p != NULL && slots[slot].bytes >= bytes &&
	    strcmp(slots[slot].key, key) == 0;
	if (ready != NULL)
		*ready = same;
	if (same)
		return slots[slot].p;
	if (slots[slot].bytes < bytes) {
		slot_free(slot);
		if (gpu_host_alloc(&slots[slot].p, bytes) == 0) {
			slots[slot].locked = true;
		} else if ((slots[slot].p = malloc(bytes)) == NULL) {
			char need[32];

			error_set(e, _("cannot allocate %s on the host: try a smaller --size"),
			    format_bytes((double)bytes, need, sizeof need));
			return NULL;
		}
		slots[slot].bytes = bytes;
	}
	snprintf(slots[slot].key, sizeof slots[slot].key, "%s", key != NULL ? key : "");
	return slots[slot].p;
}

void host_buffer_forget(enum host_slot slot)
{
	slots[slot].key[0] = '\0';
}

void host_buffers_release(void)
{
	for (int s = 0; s < HOST_SLOTS; s++)
		slot_free((enum host_slot)s);
}
