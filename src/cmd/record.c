/* record: run every lesson at each size and save the results, with counters, as JSON. */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cmd/cmd.h"
#include "i18n.h"
#include "metrics.h"
#include "session.h"

/*
 * The counters of every step of the n lessons ls, recorded in runs[0..n),
 * in one ncu run for them all (ncu starts once); locked counters stop
 * them for the rest of the record (*counters = false).
 */
static void record_counters(const struct lesson *const *ls, struct run_report *const *runs, int n,
    const struct cmd_ctx *c, struct metrics_session *ms, bool *counters)
{
	struct step_metrics **m = xcalloc((size_t)n, sizeof *m);
	double t0 = now_seconds();
	struct error e;
	enum metrics_status st;
	int steps = 0;

	for (int j = 0; j < n; j++) {
		m[j] = xcalloc((size_t)ls[j]->nsteps + 1, sizeof *m[j]);
		steps += ls[j]->nsteps;
	}
	fprintf(stderr, _("reading the counters of %d steps of %d lessons in one ncu run...\n"), steps, n);
	st = session_lessons_counters(ms, ls, n, c->sizes != NULL ? c->sizes[0] : 0, c->block, m, &e);
	if (st == METRICS_LOCKED) {
		cmd_fail(_("recording without counters: %s"), e.msg);
		*counters = false;
	} else if (st != METRICS_OK) {
		cmd_fail(_("no counters were read: %s"), e.msg);
	} else {
		for (int j = 0; j < n; j++)
			for (int i = 0; i < runs[j]->nsteps && i < ls[j]->nsteps; i++) {
				runs[j]->steps[i].metrics = m[j][i];
				if (m[j][i].note[0] != '\0' && !runs[j]->steps[i].library)
					cmd_fail(_("step %d of '%s': no counters: %s"), i + 1, ls[j]->id, m[j][i].note);
			}
		fprintf(stderr, _("  their counters read in %.1f s\n"), now_seconds() - t0);
	}
	for (int j = 0; j < n; j++)
		free(m[j]);
	free(m);
}

/* Lesson l at its size of slot si into r; false when it has no such size or did not run. */
static bool record_lesson(const struct cmd_ctx *c, const struct lesson *l, int si,
    struct run_report *r)
{
	unsigned long long size, own[2];
	unsigned int block = c->block ? c->block : session_default_block(l);
	struct cmd_run_progress p;
	struct measure_options o;
	char count[32];
	struct error e;
	bool ran;

	if (c->sizes != NULL)
		size = c->sizes[si];
	else if (si < session_record_sizes(l, own))
		size = own[si];
	else
		return false;
	fprintf(stderr, _("recording %s at %s...\n"), l->id, cli_count(size, count, sizeof count));
	cmd_run_progress(&p, l, 0, &o);
	ran = session_run_lesson(r, l, size, block, &o, &p.hooks, &e) == 0;
	cmd_run_progress_end(&p);
	if (!ran)
		cmd_fail("%s", e.msg);
	return ran;
}

/* Now, as the files write dates: ISO 8601, UTC. */
static void stamp(char *buf, size_t len)
{
	time_t now = time(NULL);

	strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
}

/* The file's heading: the GPU, this version, now, and the copy bandwidth and the roofs measured afresh. */
static int record_begin(struct results_file *f)
{
	struct error e, fp32_error = { "" };

	session_gpu_desc(&f->gpu);
	snprintf(f->version, sizeof f->version, "%s", PACKAGE_VERSION);
	stamp(f->date, sizeof f->date);
	/* the copy bandwidth is the measured DRAM roof */
	if (session_roofs(true, &f->roofs, &fp32_error, NULL, &e) != 0) {
		cmd_fail("%s", e.msg);
		return -1;
	}
	if (fp32_error.msg[0] != '\0')
		cmd_fail(_("the FP32 ceiling did not run: %s"), fp32_error.msg);
	f->copy_gbps = f->roofs.dram_measured_gbps;
	return 0;
}

/* f saved to path; merged into the file at base first where there is one (record --lessons). */
static int record_save(const struct results_file *f, const struct results_file *base, const char *path,
    struct error *e)
{
	if (base == NULL)
		return results_file_save(f, path, e);
	return results_file_merge_save(base->path, f, path, e);
}

/*
 * Every lesson at its size of slot si, the file saved after each; then the
 * counters of those at the first size.  -1 when the file was not saved.
 */
static int record_pass(const struct cmd_ctx *c, const struct lesson_set *set, int si,
    struct results_file *f, const struct results_file *base, const char *path,
    struct metrics_session *session, bool *counters)
{
	const struct lesson **counted = xcalloc((size_t)set->count + 1, sizeof *counted);
	struct run_report **counted_runs = xcalloc((size_t)set->count + 1, sizeof *counted_runs);
	int ncounted = 0, rc = -1;
	struct error e;

	for (int li = 0; li < set->count; li++) {
		const struct lesson *l = &set->lessons[li];
		struct run_report *r = &f->runs[f->nruns];
		double t0 = now_seconds();

		if (l->error != NULL) {
			if (si == 0)
				cmd_fail(_("skipping lesson '%s': %s"), l->id, l->error);
			continue;
		}
		if (!record_lesson(c, l, si, r))
			continue;
		stamp(r->recorded_date, sizeof r->recorded_date);
		r->copy_gbps = f->copy_gbps;
		r->roofs = f->roofs;
		results_derive(r);
		fprintf(stderr, _("  %d steps timed in %.1f s\n"), r->nsteps, now_seconds() - t0);
		f->nruns++;
		/*
		 * Counters at the lesson's first size only: what `metrics`
		 * shows by default, at a size every step takes quickly.
		 */
		if (*counters && si == 0) {
			counted[ncounted] = l;
			counted_runs[ncounted++] = r;
		}
		/*
		 * Saved after every lesson (atomically, so a reader sees
		 * the last whole file): a record stopped halfway keeps
		 * the lessons it finished.
		 */
		if (record_save(f, base, path, &e) != 0) {
			cmd_fail("%s", e.msg);
			goto out;
		}
	}
	/* After the timing, never during it; then saved with them. */
	if (ncounted > 0) {
		record_counters(counted, counted_runs, ncounted, c, session, counters);
		if (record_save(f, base, path, &e) != 0) {
			cmd_fail("%s", e.msg);
			goto out;
		}
	}
	rc = 0;
out:
	free(counted);
	free(counted_runs);
	return rc;
}

/* The sweeps recorded before in the file at path (sweep --record): a new record keeps them. */
static void keep_sweeps(const char *path, struct results_file *f)
{
	struct results_file old;
	struct error e;

	if (results_file_load(path, &old, &e) != 0)
		return;
	if (strcmp(old.gpu.name, f->gpu.name) == 0) {
		f->sweeps = old.sweeps;
		old.sweeps = NULL;
	}
	results_file_free(&old);
}

/*
 * The lessons of list ("reduction,pitch") out of set, in the set's order,
 * sharing its lessons: free only sub->lessons.  -1 after a line that
 * names the first unknown one and the lessons there are.
 */
static int record_select(const struct lesson_set *set, const char *list, struct lesson_set *sub)
{
	char *copy = xstrdup(list), *save = NULL;
	bool *want = xcalloc((size_t)set->count + 1, sizeof *want);
	int rc = 0;

	for (char *id = strtok_r(copy, ",", &save); id != NULL; id = strtok_r(NULL, ",", &save)) {
		struct lesson *l = lesson_find(set, id);

		if (l == NULL) {
			size_t len = 1;
			char *known;

			for (int i = 0; i < set->count; i++)
				len += strlen(set->lessons[i].id) + 2;
			known = xcalloc(len, 1);
			for (int i = 0; i < set->count; i++) {
				strcat(known, i > 0 ? ", " : "");
				strcat(known, set->lessons[i].id);
			}
			cmd_fail(_("--lessons: there is no lesson '%s' (the lessons: %s)"), id, known);
			free(known);
			rc = -1;
			break;
		}
		want[l - set->lessons] = true;
	}
	sub->count = 0;
	sub->lessons = xcalloc((size_t)set->count + 1, sizeof *sub->lessons);
	for (int i = 0; rc == 0 && i < set->count; i++)
		if (want[i])
			sub->lessons[sub->count++] = set->lessons[i];
	free(want);
	free(copy);
	return rc;
}


/*
 * record --lessons: the recorded file of this GPU at path, into base, and
 * f's heading from it: the new runs are compared with the copy bandwidth
 * and the roofs that the other runs were.  0, or -1 after a line.
 */
static int record_begin_merge(const char *path, struct results_file *base, struct results_file *f)
{
	struct gpu_desc g;
	struct error e;

	session_gpu_desc(&g);
	if (results_file_load(path, base, &e) != 0) {
		cmd_fail(_("--lessons merges into the recorded file of this GPU: %s"), e.msg);
		return -1;
	}
	if (strcmp(base->gpu.name, g.name) != 0) {
		cmd_fail(_("%s was recorded on %s, not on this GPU (%s): give --output a file of its own"),
		    path, base->gpu.name, g.name);
		return -1;
	}
	f->gpu = g;
	snprintf(f->version, sizeof f->version, "%s", base->version);
	snprintf(f->date, sizeof f->date, "%s", base->date);
	f->copy_gbps = base->copy_gbps;
	f->roofs = base->roofs;
	return 0;
}

/* Every lesson of set at each size, and their counters, into f, saved to path (merged into base). */
static int record_all(struct cmd_ctx *c, const struct lesson_set *set, struct results_file *f,
    const struct results_file *base, const char *path, bool counters)
{
	struct metrics_session session = { 0 };
	struct error e;
	int nslots, rc = -1;

	if (counters && metrics_session_begin(&session, &e) != 0) {
		/* The timings are worth recording on their own. */
		cmd_fail(_("recording without counters: %s"), e.msg);
		counters = false;
	}
	session.stalls = counters && c->given[OPT_STALLS];
	/*
	 * Every lesson at the first size, then every lesson at the second,
	 * ...; in one worker process, which starts CUDA and makes its host
	 * buffers once for the record rather than once a lesson.
	 */
	session_keep_worker(true);
	nslots = c->sizes != NULL ? c->nsizes : 2;
	f->runs = xcalloc((size_t)(set->count * nslots) + 1, sizeof *f->runs);
	for (int si = 0; si < nslots; si++)
		if (record_pass(c, set, si, f, base, path, &session, &counters) != 0)
			goto out;
	if (f->nruns == 0) {
		cmd_fail(_("nothing was recorded; no file written"));
		goto out;
	}
	if (base != NULL)
		fprintf(stderr, _("merged %d runs on %s into %s\n"), f->nruns, f->gpu.name, path);
	else
		fprintf(stderr, _("wrote %d runs on %s to %s\n"), f->nruns, f->gpu.name, path);
	rc = 0;
out:
	session_keep_worker(false);
	metrics_session_end(&session);
	return rc;
}

static int record_exec(struct cmd_ctx *c)
{
	struct lesson_set set = { 0 }, sub = { 0 };
	struct results_file f = { 0 }, base = { 0 };
	char *path = NULL;
	struct error e;
	int rc = EXIT_FAILURE;

	if (c->argc > 0) {
		cmd_fail(_("record takes no argument '%s'"), c->argv[0]);
		return EXIT_USAGE;
	}
	/* results do not depend on the language; the lessons asked for are known before a GPU is */
	if (cmd_load_lessons("en", &set) != 0)
		goto out;
	if (c->lessons != NULL && record_select(&set, c->lessons, &sub) != 0) {
		rc = EXIT_USAGE;
		goto out;
	}
	if (!session_live(false, &e)) {
		cmd_fail(_("record needs a GPU: %s"), e.msg);
		goto out;
	}
	if (c->lessons != NULL) {
		struct gpu_desc g;

		session_gpu_desc(&g);
		path = c->output ? xstrdup(c->output) : session_recorded_file_of(&g);
		if (record_begin_merge(path, &base, &f) != 0)
			goto out;
	} else {
		if (record_begin(&f) != 0)
			goto out;
		path = c->output ? xstrdup(c->output) : session_record_path(&f.gpu);
		keep_sweeps(path, &f);
	}
	if (record_all(c, c->lessons != NULL ? &sub : &set, &f, c->lessons != NULL ? &base : NULL, path,
	    !c->given[OPT_NO_METRICS]) == 0)
		rc = 0;
out:
	results_file_free(&f);
	results_file_free(&base);
	free(sub.lessons);
	lesson_set_free(&set);
	free(path);
	return rc;
}

const struct command cmd_record_entry = {
	.name = "record",
	.summary = N_("run every lesson at each size and save the results as JSON,\n"
	    "with the counters of each step at its first size unless --no-metrics"),
	.options = (const enum cmd_opt[]){ OPT_OUTPUT, OPT_SIZES, OPT_LESSONS, OPT_BLOCK, OPT_NO_METRICS,
	    OPT_STALLS, OPT_LANG, OPT_END },
	.exec = record_exec,
};
