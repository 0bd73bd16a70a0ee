/* Where the tutor finds its lessons, kernels and recorded results. */
#ifndef CUDATUTOR_PATHS_H
#define CUDATUTOR_PATHS_H

/*
 * Two roots, with the same layout below them (lessons/, kernels/,
 * data/results/):
 *   the source root holds what is written by hand (lessons, kernel source,
 *   recorded results); the build root holds what the build made from it
 *   (fatbins, PTX, SASS, resource reports).
 * Installed, both are $(pkgdatadir).  Run from a build tree, the build root
 * is the program's own directory and the source root is the tree it was
 * configured from.  CUDATUTOR_SRCDIR and CUDATUTOR_BUILDDIR override them.
 */
void paths_init(void);
const char *paths_source_root(void);

/* Newly allocated "<root>/<rel>". */
char *paths_source(const char *rel);
char *paths_build(const char *rel);

/*
 * Where the message catalogs are, for bindtextdomain(): $(localedir) when
 * installed; run from a build tree, its locale/ (made by make from po/),
 * so that a program that was never installed speaks the user's language.
 */
const char *paths_locale_dir(void);

/*
 * The user's own directories, following the XDG base directory rules:
 * $XDG_STATE_HOME/cudatutor (default ~/.local/state/cudatutor) for
 * progress and the user's results, $XDG_CACHE_HOME/cudatutor (default
 * ~/.cache/cudatutor) for what can be measured again, $XDG_DATA_HOME/cudatutor
 * (default ~/.local/share/cudatutor) for what the user writes (the
 * exercises' working copies).  Not created here.
 */
char *paths_state_dir(void);
char *paths_cache_dir(void);

/*
 * A figure measured once per GPU and driver (the copy bandwidth, the FP32
 * ceiling), kept in <cache>/name as lines "uuid driver value", one per
 * GPU measured.  Read: 1 and *value, or 0.  Write: that GPU's line
 * replaced, the others kept; a cache that cannot be written is no loss.
 */
int paths_gpu_figure_read(const char *name, const char *uuid, const char *driver, double *value);
void paths_gpu_figure_write(const char *name, const char *uuid, const char *driver, double value);
char *paths_data_dir(void);
/* $XDG_CONFIG_HOME/cudatutor (default ~/.config/cudatutor): what the user chose once.  Not created here. */
char *paths_config_dir(void);

#endif
