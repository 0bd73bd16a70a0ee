/* NVRTC, loaded at run time: a student's CUDA C++ to PTX and a cubin, its errors as file:line:col. */
#include "config.h"

#include <ctype.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <errno.h>
#include <string.h>
#include <stdbool.h>
#include <sys/wait.h>
#include <unistd.h>

#include "i18n.h"
#include "isolate.h"
#include "nvrtc.h"
#include "textwrap.h"
#include "toolkit.h"

/*
 * NVRTC's C API, declared here rather than taken from nvrtc.h so the
 * tutor builds where the header is missing.  The values are nvrtc.h's
 * (CUDA 12 and 13 alike).
 */
typedef struct nvrtc_program *nvrtc_program;
enum {
	NVRTC_OK = 0,
	NVRTC_INVALID_OPTION = 5,
	NVRTC_COMPILATION = 6,
};

typedef const char *(*error_string_fn)(int result);
typedef int (*version_fn)(int *major, int *minor);
typedef int (*create_fn)(nvrtc_program *prog, const char *src, const char *name, int nheaders,
    const char *const *headers, const char *const *include_names);
typedef int (*destroy_fn)(nvrtc_program *prog);
typedef int (*compile_fn)(nvrtc_program prog, int noptions, const char *const *options);
typedef int (*size_fn)(nvrtc_program prog, size_t *size);
typedef int (*get_fn)(nvrtc_program prog, char *out);
typedef int (*num_archs_fn)(int *n);
typedef int (*archs_fn)(int *archs);

static struct {
	void *lib;
	error_string_fn error_string;
	version_fn version;
	create_fn create;
	destroy_fn destroy;
	compile_fn compile;
	size_fn log_size, ptx_size, cubin_size;
	get_fn log, ptx, cubin;
	num_archs_fn num_archs;		/* optional: only to say which architectures it knows */
	archs_fn archs;
} rtc;
static pthread_mutex_t rtc_lock = PTHREAD_MUTEX_INITIALIZER;

static int load_locked(struct error *e)
{
	char name[512];
	void *lib;

	if (rtc.lib != NULL)
		return 0;
	if ((lib = toolkit_library(TOOLKIT_NVRTC, name, sizeof name, e)) == NULL)
		return -1;
	rtc.error_string = (error_string_fn)dlsym(lib, "nvrtcGetErrorString");
	rtc.version = (version_fn)dlsym(lib, "nvrtcVersion");
	rtc.create = (create_fn)dlsym(lib, "nvrtcCreateProgram");
	rtc.destroy = (destroy_fn)dlsym(lib, "nvrtcDestroyProgram");
	rtc.compile = (compile_fn)dlsym(lib, "nvrtcCompileProgram");
	rtc.log_size = (size_fn)dlsym(lib, "nvrtcGetProgramLogSize");
	rtc.log = (get_fn)dlsym(lib, "nvrtcGetProgramLog");
	rtc.ptx_size = (size_fn)dlsym(lib, "nvrtcGetPTXSize");
	rtc.ptx = (get_fn)dlsym(lib, "nvrtcGetPTX");
	rtc.cubin_size = (size_fn)dlsym(lib, "nvrtcGetCUBINSize");
	rtc.cubin = (get_fn)dlsym(lib, "nvrtcGetCUBIN");
	rtc.num_archs = (num_archs_fn)dlsym(lib, "nvrtcGetNumSupportedArchs");
	rtc.archs = (archs_fn)dlsym(lib, "nvrtcGetSupportedArchs");
	if (rtc.error_string == NULL || rtc.version == NULL || rtc.create == NULL || rtc.destroy == NULL ||
	    rtc.compile == NULL || rtc.log_size == NULL || rtc.log == NULL || rtc.ptx_size == NULL ||
	    rtc.ptx == NULL || rtc.cubin_size == NULL || rtc.cubin == NULL) {
		error_set(e, "%s", _("the NVRTC found lacks nvrtcGetCUBIN or another function the tutor needs: "
		    "install NVRTC 12 or newer, or set CUDATUTOR_NVRTC to its path"));
		dlclose(lib);
		return -1;
	}
	rtc.lib = lib;
	return 0;
}

int nvrtc_load(struct error *e)
{
	int rc;

	pthread_mutex_lock(&rtc_lock);
	rc = load_locked(e);
	pthread_mutex_unlock(&rtc_lock);
	return rc;
}

int nvrtc_version(char *buf, size_t len, struct error *e)
{
	int major = 0, minor = 0;

	if (nvrtc_load(e) != 0)
		return -1;
	rtc.version(&major, &minor);
	snprintf(buf, len, "%d.%d", major, minor);
	return 0;
}

/* ---- the log ---------------------------------------------------------------- */

void nvrtc_diags_free(struct nvrtc_diags *d)
{
	for (int i = 0; i < d->count; i++) {
		free(d->d[i].file);
		free(d->d[i].message);
		free(d->d[i].source_line);
		free(d->d[i].note);
	}
	free(d->d);
	d->d = NULL;
	d->count = 0;
}

static struct nvrtc_diag *diag_add(struct nvrtc_diags *d)
{
	d->d = xrealloc(d->d, (size_t)(d->count + 1) * sizeof *d->d);
	memset(&d->d[d->count], 0, sizeof *d->d);
	return &d->d[d->count++];
}

static char *copy_n(const char *s, size_t n)
{
	char *c = xmalloc(n + 1);

	memcpy(c, s, n);
	c[n] = '\0';
	return c;
}

/* Line number'th (1-based) of text, without its newline; NULL past the end. */
static char *nth_line(const char *text, int number)
{
	const char *p = text;

	if (text == NULL || number < 1)
		return NULL;
	for (int i = 1; i < number; i++) {
		p = strchr(p, '\n');
		if (p == NULL)
			return NULL;
		p++;
	}
	if (*p == '\0' && number > 1)
		return NULL;
	{
		size_t n = strcspn(p, "\n");
		if (n > 0 && p[n - 1] == '\r')
			n--;
		return copy_n(p, n);
	}
}

/*
 * "file(12): error: message" or "file(3): warning #177-D: message" (also
 * "catastrophic error", "remark"): the parts, or 0 if the line is not one.
 */
static int header_line(const char *ln, size_t n, struct nvrtc_diag *d, int *severity)
{
	static const struct { const char *word; int severity; } kinds[] = {
		{ "catastrophic error", NVRTC_DIAG_ERROR },
		{ "error", NVRTC_DIAG_ERROR },
		{ "warning", NVRTC_DIAG_WARNING },
		{ "remark", -1 },
	};
	char *line = copy_n(ln, n), *close, *open, *rest, *number = NULL;
	size_t numlen = 0;

	for (close = strstr(line, "): "); close != NULL; close = strstr(close + 1, "): ")) {
		open = close;
		while (open > line && isdigit((unsigned char)open[-1]))
			open--;
		if (open < close && open > line && open[-1] == '(')
			break;
	}
	if (close == NULL) {
		free(line);
		return 0;
	}
	rest = close + 3;
	for (size_t k = 0; k < ARRAY_LEN(kinds); k++) {
		size_t w = strlen(kinds[k].word);
		char *p = rest + w;

		if (strncmp(rest, kinds[k].word, w) != 0)
			continue;
		if (*p == ' ' && p[1] == '#') {
			number = p + 1;
			numlen = strcspn(number, ":");
			p = number + numlen;
		}
		if (p[0] != ':' || p[1] != ' ')
			break;
		*severity = kinds[k].severity;
		d->file = copy_n(line, (size_t)(open - 1 - line));
		d->line = atoi(open);
		/* gcc's way: the number at the end, in brackets */
		d->message = number != NULL ? xasprintf("%s [%.*s]", p + 2, (int)numlen, number) :
		    xstrdup(p + 2);
		free(line);
		return 1;
	}
	free(line);
	return 0;
}

static int is_caret_line(const char *ln, size_t n)
{
	int caret = 0;

	for (size_t i = 0; i < n; i++) {
		if (ln[i] == '^')
			caret++;
		else if (ln[i] != ' ' && ln[i] != '\t')
			return 0;
	}
	return caret == 1;
}

static int is_blank(const char *ln, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!isspace((unsigned char)ln[i]))
			return 0;
	return 1;
}

/*
 * A host header NVRTC cannot open: a student who wants printf writes
 * #include <stdio.h> as on the host.  The note says what to do instead.
 */
static void host_header_note(struct nvrtc_diag *d)
{
	static const char *const printf_headers[] = { "\"stdio.h\"", "\"cstdio\"" };
	const char *hint = _("printf needs no #include in device code: NVRTC has no host headers; delete this line");

	if (strstr(d->message, "cannot open source file") == NULL)
		return;
	for (size_t k = 0; k < ARRAY_LEN(printf_headers); k++)
		if (strstr(d->message, printf_headers[k]) != NULL) {
			char *note = d->note != NULL ? xasprintf("%s; %s", d->note, hint) : xstrdup(hint);

			free(d->note);
			d->note = note;
			return;
		}
}

/* An indented line after a diagnostic, "detected during instantiation of ... at line 2": its note. */
static void add_note_line(struct nvrtc_diag *d, const char *ls, size_t n)
{
	const char *t = ls;
	size_t tn = n;

	while (tn > 0 && isspace((unsigned char)*t)) {
		t++;
		tn--;
	}
	if (d->note == NULL) {
		d->note = copy_n(t, tn);
	} else {
		char *joined = xasprintf("%s %.*s", d->note, (int)tn, t);
		free(d->note);
		d->note = joined;
	}
}

/* A failure with an error of its own form (a bad option, ptxas): one error, the log's text whole. */
static void add_whole_log(const char *log, const char *name, struct nvrtc_diags *errors)
{
	struct strbuf text = { 0 };
	struct nvrtc_diag *d;

	for (const char *ls = log ? log : ""; *ls != '\0';) {
		size_t n = strcspn(ls, "\n");
		if (!is_blank(ls, n))
			strbuf_addf(&text, "%s%.*s", text.len ? "; " : "", (int)n, ls);
		ls += n;
		if (*ls == '\n')
			ls++;
	}
	d = diag_add(errors);
	d->severity = NVRTC_DIAG_ERROR;
	d->file = xstrdup(name ? name : "");
	d->message = text.s ? text.s : xstrdup(_("NVRTC failed and said nothing"));
}

void nvrtc_parse_log(const char *log, const char *name, const char *source, int failed,
    struct nvrtc_diags *errors, struct nvrtc_diags *warnings)
{
	struct nvrtc_diag cur, *last = NULL;
	/* after a header: 1 the source line may come, 2 the caret, 3 notes */
	int state = 0;

	memset(errors, 0, sizeof *errors);
	memset(warnings, 0, sizeof *warnings);
	for (const char *ls = log ? log : ""; *ls != '\0';) {
		size_t n = strcspn(ls, "\n");
		int severity;

		memset(&cur, 0, sizeof cur);
		if (header_line(ls, n, &cur, &severity)) {
			if (severity < 0) {
				free(cur.file);
				free(cur.message);
				last = NULL;
				state = 0;
			} else {
				last = diag_add(severity == NVRTC_DIAG_ERROR ? errors : warnings);
				*last = cur;
				last->severity = severity;
				if (name != NULL && strcmp(last->file, name) == 0)
					last->source_line = nth_line(source, last->line);
				state = 1;
			}
		} else if (last != NULL && is_blank(ls, n)) {
			last = NULL;
			state = 0;
		} else if (last != NULL && state <= 2 && n >= 2 && ls[0] == ' ' && ls[1] == ' ' &&
		    is_caret_line(ls + 2, n - 2)) {
			last->column = (int)((const char *)memchr(ls, '^', n) - ls) - 2 + 1;
			state = 3;
		} else if (last != NULL && state == 1 && n >= 2 && ls[0] == ' ' && ls[1] == ' ') {
			if (last->source_line == NULL)
				last->source_line = copy_n(ls + 2, n - 2);
			state = 2;
		} else if (last != NULL && state >= 2 && ls[0] == ' ') {
			add_note_line(last, ls, n);
			state = 3;
		}
		ls += n;
		if (*ls == '\n')
			ls++;
	}
	for (int i = 0; i < errors->count; i++)
		host_header_note(&errors->d[i]);
	if (failed && errors->count == 0)
		add_whole_log(log, name, errors);
}

/*
 * A control character at s (an escape byte, a stray \r, a C1 control in
 * UTF-8) would act on the terminal that shows the diagnostic: it is shown
 * escaped, "\x1b", in buf.  Returns the bytes of s it takes, 0 when s[0]
 * is shown as it is (a tab too).
 */
static size_t escape_at(const char *s, size_t len, char buf[16])
{
	unsigned char c = (unsigned char)s[0];

	if ((c < 0x20 && c != '\t') || c == 0x7f) {
		snprintf(buf, 16, "\\x%02x", c);
		return 1;
	}
	if (c == 0xc2 && len > 1 && (unsigned char)s[1] >= 0x80 && (unsigned char)s[1] <= 0x9f) {
		snprintf(buf, 16, "\\x%02x\\x%02x", c, (unsigned char)s[1]);
		return 2;
	}
	return 0;
}

/* s, its control characters escaped. */
static void add_escaped(struct strbuf *out, const char *s)
{
	size_t len = strlen(s), from = 0;
	char buf[16];

	for (size_t i = 0; i < len;) {
		size_t n = escape_at(s + i, len - i, buf);

		if (n == 0) {
			i++;
			continue;
		}
		strbuf_add(out, s + from, i - from);
		strbuf_add(out, buf, strlen(buf));
		i += n;
		from = i;
	}
	strbuf_add(out, s + from, len - from);
}

/*
 * Under a line, the blanks that bring a caret to byte column col (tabs
 * kept, wide characters two, an escaped control character as wide as its
 * escape).
 */
static void caret_under(struct strbuf *out, const char *line, int col)
{
	size_t len = strlen(line), upto = col > 1 ? (size_t)(col - 1) : 0;
	char buf[16];

	if (upto > len)
		upto = len;
	for (size_t i = 0; i < upto;) {
		size_t used = escape_at(line + i, len - i, buf);
		unsigned int cp;

		if (used > 0) {
			for (size_t k = strlen(buf); k > 0; k--)
				strbuf_add(out, " ", 1);
			i += used;
			continue;
		}
		used = 1;
		cp = textwrap_decode(line + i, len - i, &used);
		if (cp == '\t')
			strbuf_add(out, "\t", 1);
		else
			strbuf_add(out, "  ", textwrap_is_wide(cp) ? 2 : 1);
		i += used ? used : 1;
	}
	strbuf_add(out, "^\n", 2);
}

void nvrtc_format_diag(const struct nvrtc_diag *d, struct strbuf *out)
{
	const char *kind = d->severity == NVRTC_DIAG_ERROR ? _("error") : _("warning");
	char where[64] = "";

	if (d->line > 0 && d->column > 0)
		snprintf(where, sizeof where, ":%d:%d", d->line, d->column);
	else if (d->line > 0)
		snprintf(where, sizeof where, ":%d", d->line);
	/* the student's bytes, escaped: a diagnostic never writes to the terminal's controls */
	add_escaped(out, d->file);
	strbuf_addf(out, "%s: %s: ", where, kind);
	add_escaped(out, d->message);
	strbuf_add(out, "\n", 1);
	if (d->source_line != NULL) {
		add_escaped(out, d->source_line);
		strbuf_add(out, "\n", 1);
		if (d->column > 0)
			caret_under(out, d->source_line, d->column);
	}
	if (d->note != NULL) {
		add_escaped(out, d->file);
		strbuf_addf(out, "%s: %s: ", where, _("note"));
		add_escaped(out, d->note);
		strbuf_add(out, "\n", 1);
	}
}

char *nvrtc_format_diags(const struct nvrtc_diags *d)
{
	struct strbuf out = { 0 };

	for (int i = 0; i < d->count; i++)
		nvrtc_format_diag(&d->d[i], &out);
	return out.s ? out.s : xstrdup("");
}

/* ---- compiling ------------------------------------------------------------------ */

void nvrtc_result_free(struct nvrtc_result *r)
{
	nvrtc_diags_free(&r->errors);
	nvrtc_diags_free(&r->warnings);
	free(r->log);
	free(r->ptx);
	free(r->cubin);
	memset(r, 0, sizeof *r);
}

/* "sm_90", "sm_90a", "sm_100f": the number and any suffix after "sm_". */
static int valid_arch(const char *arch)
{
	const char *p = arch;

	if (strncmp(p, "sm_", 3) != 0)
		return 0;
	p += 3;
	if (!isdigit((unsigned char)p[0]) || !isdigit((unsigned char)p[1]))
		return 0;
	while (isdigit((unsigned char)*p))
		p++;
	if (*p >= 'a' && *p <= 'z')
		p++;
	return *p == '\0' && p - arch <= 8;
}

/* The architectures this NVRTC compiles for, "75 80 86 ...", or "" when it cannot say. */
static char *supported_archs(void)
{
	struct strbuf b = { 0 };
	int n = 0, *list;

	if (rtc.num_archs == NULL || rtc.archs == NULL || rtc.num_archs(&n) != NVRTC_OK || n <= 0)
		return xstrdup("");
	list = xcalloc((size_t)n, sizeof *list);
	if (rtc.archs(list) == NVRTC_OK)
		for (int i = 0; i < n; i++)
			strbuf_addf(&b, "%s%d", b.len ? " " : "", list[i]);
	free(list);
	return b.s ? b.s : xstrdup("");
}

static char *program_log(nvrtc_program prog)
{
	size_t n = 0;
	char *log;

	if (rtc.log_size(prog, &n) != NVRTC_OK || n == 0)
		return xstrdup("");
	log = xcalloc(n + 1, 1);
	if (rtc.log(prog, log) != NVRTC_OK)
		log[0] = '\0';
	return log;
}

/*
 * The toolkit's include directories, as -I options: NVRTC itself knows
 * only its built-in headers (toolkit_nvrtc_includes says which, for the
 * libnvrtc loaded).  Found once, under rtc_lock.
 */
static struct {
	bool found;
	int count;
	char **options;
	/*
	 * <cub/cub.cuh> as NVRTC can take it: CUB's umbrella header without
	 * its device-wide algorithms (cub/device/, and the allocator they
	 * use), which are host code; or NULL where there is no CUB.
	 */
	char *cub_umbrella;
} includes;

static void find_cub(const char *dir)
{
	char *path = xasprintf("%s/cub/cub.cuh", dir), *text = file_read(path, NULL);
	struct strbuf b = { 0 };

	free(path);
	if (text == NULL)
		return;
	for (const char *ln = text; *ln != '\0';) {
		size_t n = strcspn(ln, "\n");
		const char *q = ln;

		while (*q == ' ' || *q == '\t')
			q++;
		if (!(strncmp(q, "#include <cub/device/", 21) == 0 ||
		    strncmp(q, "#include <cub/util_allocator.cuh>", 33) == 0))
			strbuf_add(&b, ln, n + (ln[n] == '\n'));
		ln += n + (ln[n] == '\n');
	}
	free(text);
	includes.cub_umbrella = b.s != NULL ? b.s : xstrdup("");
}

static void find_includes(void)
{
	Dl_info info;

	pthread_mutex_lock(&rtc_lock);
	if (!includes.found) {
		char **dirs;

		includes.found = true;
		dirs = toolkit_nvrtc_includes(dladdr((void *)rtc.compile, &info) != 0 ? info.dli_fname : NULL,
		    &includes.count);
		includes.options = xcalloc((size_t)includes.count + 1, sizeof *includes.options);
		for (int i = 0; i < includes.count; i++) {
			includes.options[i] = xasprintf("-I%s", dirs[i]);
			free(dirs[i]);
		}
		free(dirs);
		for (int i = 0; i < includes.count && includes.cub_umbrella == NULL; i++)
			find_cub(includes.options[i] + 2);
	}
	pthread_mutex_unlock(&rtc_lock);
}

/*
 * One compile for "-arch=<target>".  0 when NVRTC ran (*compiled says
 * whether the source compiled, *log holds its log), -1 and e when not.
 */
static int compile_once(const char *source, const char *name, const char *target, nvrtc_program *prog,
    int *compiled, char **log, struct error *e)
{
	static const char *const umbrella_name[] = { "cub/cub.cuh" };
	char *arch_opt = xasprintf("-arch=%s", target);
	const char **options, *umbrella[1];
	int noptions = 0, nheaders, rc;

	find_includes();
	umbrella[0] = includes.cub_umbrella;
	nheaders = includes.cub_umbrella != NULL;
	options = xcalloc((size_t)includes.count + 4, sizeof *options);
	options[noptions++] = arch_opt;
	options[noptions++] = "-lineinfo";
	options[noptions++] = "--std=c++17";
	options[noptions++] = "-DNDEBUG";
	for (int i = 0; i < includes.count; i++)
		options[noptions++] = includes.options[i];
	*prog = NULL;
	*log = NULL;
	*compiled = 0;
	rc = rtc.create(prog, source, name, nheaders, umbrella, umbrella_name);
	if (rc != NVRTC_OK) {
		error_set(e, _("NVRTC cannot take %s: %s"), name, rtc.error_string(rc));
		free(arch_opt);
		free(options);
		return -1;
	}
	rc = rtc.compile(*prog, noptions, options);
	*log = program_log(*prog);
	free(arch_opt);
	free(options);
	if (rc == NVRTC_OK) {
		*compiled = 1;
		return 0;
	}
	if (rc == NVRTC_COMPILATION)
		return 0;
	if (rc == NVRTC_INVALID_OPTION) {
		char version[32] = "", *archs = supported_archs();
		int major = 0, minor = 0;

		rtc.version(&major, &minor);
		snprintf(version, sizeof version, "%d.%d", major, minor);
		error_set(e, _("NVRTC %s cannot compile for %s: pick an architecture it knows (%s)"), version,
		    target, archs[0] != '\0' ? archs : _("see nvcc --list-gpu-arch"));
		free(archs);
	} else {
		error_set(e, _("NVRTC failed on %s: %s"), name, rtc.error_string(rc));
	}
	rtc.destroy(prog);
	*prog = NULL;
	return -1;
}

/* The compile itself, in this process. */
static int compile_here(const char *source, const char *name, const char *arch, struct nvrtc_result *r,
    struct error *e)
{
	nvrtc_program prog;
	char *virtual_arch, *ptx_log = NULL;
	size_t size = 0;
	int compiled;

	memset(r, 0, sizeof *r);
	if (!valid_arch(arch)) {
		error_set(e, _("'%s' is not a GPU architecture such as sm_90"), arch);
		return -1;
	}
	if (nvrtc_load(e) != 0)
		return -1;
	if (compile_once(source, name, arch, &prog, &compiled, &r->log, e) != 0)
		return -1;
	nvrtc_parse_log(r->log, name, source, !compiled, &r->errors, &r->warnings);
	if (!compiled) {
		rtc.destroy(&prog);
		return 0;
	}
	if (rtc.cubin_size(prog, &size) != NVRTC_OK || size == 0) {
		error_set(e, _("NVRTC compiled %s but made no cubin for %s"), name, arch);
		rtc.destroy(&prog);
		return -1;
	}
	r->cubin = xmalloc(size);
	r->cubin_size = size;
	rtc.cubin(prog, (char *)r->cubin);
	rtc.destroy(&prog);

	/* the PTX for the architecture's virtual twin: the same source, so no new diagnostics */
	virtual_arch = xasprintf("compute_%s", arch + 3);
	if (compile_once(source, name, virtual_arch, &prog, &compiled, &ptx_log, e) != 0) {
		free(virtual_arch);
		return -1;
	}
	free(virtual_arch);
	free(ptx_log);
	size = 0;
	if (!compiled || rtc.ptx_size(prog, &size) != NVRTC_OK || size == 0) {
		error_set(e, _("NVRTC compiled %s for %s but not to PTX"), name, arch);
		rtc.destroy(&prog);
		return -1;
	}
	r->ptx = xcalloc(size + 1, 1);
	rtc.ptx(prog, r->ptx);
	rtc.destroy(&prog);
	r->ok = 1;
	return 0;
}

/* ---- compiling in a process of its own ------------------------------------------ */

static int write_blob(int fd, const void *data, size_t n)
{
	return fd_write_all(fd, &n, sizeof n) != 0 || (n > 0 && fd_write_all(fd, data, n) != 0) ? -1 : 0;
}

/* A blob of at most 1 GiB, NUL-terminated for text; NULL on a short read. */
static void *read_blob(int fd, size_t *n)
{
	char *data;

	if (fd_read_all(fd, n, sizeof *n) != 1 || *n > ((size_t)1 << 30))
		return NULL;
	data = xmalloc(*n + 1);
	if (*n > 0 && fd_read_all(fd, data, *n) != 1) {
		free(data);
		return NULL;
	}
	data[*n] = '\0';
	return data;
}

/*
 * AddressSanitizer's allocator is not fork-safe: a child forked while
 * another thread allocates (the tutor draws its screen while its worker
 * forks the compiler) waits forever in its first malloc.  Under it NVRTC
 * runs in the calling process; the sanitizer builds run without a GPU.
 */
#if defined(__SANITIZE_ADDRESS__)
#define COMPILE_IN_CHILD 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define COMPILE_IN_CHILD 0
#endif
#endif
#ifndef COMPILE_IN_CHILD
#define COMPILE_IN_CHILD 1
#endif

/*
 * NVRTC runs in a child process when GPU work is isolated: loading and
 * running it can initialize the CUDA driver in the process that calls it,
 * and a process that has done so cannot fork children that use the GPU
 * (the steps' processes).  A crash in the compiler ends only the child.
 */
int nvrtc_compile(const char *source, const char *name, const char *arch, struct nvrtc_result *r,
    struct error *e)
{
	int fds[2], rc = -1, status = 0;
	size_t n;
	pid_t pid;

	if (!isolate_enabled() || !COMPILE_IN_CHILD)
		return compile_here(source, name, arch, r, e);
	memset(r, 0, sizeof *r);
	pid = isolate_fork(fds, false, _("cannot start the compiler's process: %s"), e);
	if (pid < 0)
		return -1;
	if (pid == 0) {
		struct nvrtc_result here;
		struct error why = { "" };
		int got;

		got = compile_here(source, name, arch, &here, &why);
		if (fd_write_all(fds[1], &got, sizeof got) != 0 || fd_write_all(fds[1], &why, sizeof why) != 0 ||
		    fd_write_all(fds[1], &here.ok, sizeof here.ok) != 0 ||
		    write_blob(fds[1], here.log, here.log ? strlen(here.log) : 0) != 0 ||
		    write_blob(fds[1], here.ptx, here.ptx ? strlen(here.ptx) : 0) != 0 ||
		    write_blob(fds[1], here.cubin, here.cubin_size) != 0)
			_exit(2);
		_exit(0);
	}
	if (fd_read_all(fds[0], &rc, sizeof rc) == 1 && fd_read_all(fds[0], e, sizeof *e) == 1 &&
	    fd_read_all(fds[0], &r->ok, sizeof r->ok) == 1 && (r->log = read_blob(fds[0], &n)) != NULL &&
	    (r->ptx = read_blob(fds[0], &n)) != NULL &&
	    (r->cubin = read_blob(fds[0], &r->cubin_size)) != NULL) {
		if (rc == 0)
			nvrtc_parse_log(r->log, name, source, !r->ok, &r->errors, &r->warnings);
		if (!r->ok) {
			free(r->ptx);
			free(r->cubin);
			r->ptx = NULL;
			r->cubin = NULL;
			r->cubin_size = 0;
		}
	} else {
		nvrtc_result_free(r);
		memset(r, 0, sizeof *r);
		rc = -1;
		error_set(e, _("NVRTC ended without a result while compiling %s: the compiler crashed"), name);
	}
	close(fds[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	return rc;
}
