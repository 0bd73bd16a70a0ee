/* A step in one sentence: what holds it back, and which lesson attacks that. */
#ifndef CUDATUTOR_DIAGNOSIS_H
#define CUDATUTOR_DIAGNOSIS_H

#include <stdbool.h>
#include <stddef.h>

#include "results.h"

/*
 * From a step's place against the roofs (results_derive) and its hardware
 * counters when they were read: the rules of diagnosis_rules, in order,
 * the first that matches wins.  Each rule's sentence quotes the figures
 * it is based on, formatted from the step's own data: never a made-up
 * number.  No roofs and no counters: no diagnosis.
 */
struct diagnosis_rule {
	const char *id;			/* "bank_conflicts": for JSON and the tests */
	/* true when the step matches; v[0..2] the figures the sentence quotes */
	bool (*match)(const struct step_result *s, double *v);
	/*
	 * N_(): a printf format of v[0], v[1], v[2] (doubles); where
	 * names_lesson, of v[0] and then the lesson's name (a string).
	 */
	const char *text;
	bool names_lesson;
	const char *lesson;		/* the lesson whose technique attacks it; NULL: none */
};

extern const struct diagnosis_rule diagnosis_rules[];
extern const int diagnosis_nrules;

struct diagnosis {
	const struct diagnosis_rule *rule;	/* NULL: none */
	double v[3];
};

/* The first rule s matches into d: true, or false (d->rule NULL) where none does. */
bool diagnose(const struct step_result *s, struct diagnosis *d);

/*
 * The sentence, translated where translate (English for JSON); lesson is
 * the step's lesson, named where the rule sends the reader to its
 * counters.  Returns buf ("" without a rule).
 */
const char *diagnosis_text(const struct diagnosis *d, const char *lesson, bool translate, char *buf,
    size_t len);

/*
 * Each step of report (the JSON of r, as results_report_to_json makes it)
 * given its "diagnosis": {"rule", "lesson", "text"} in English, or null.
 * Only what is shown: the recorded files keep none, as the rules may change.
 */
void diagnosis_add_to_json(json_t *report, const struct run_report *r);

/* The rule of this id, or NULL. */
const struct diagnosis_rule *diagnosis_rule_find(const char *id);

#endif
