/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Loading framesched's guest modules (guest/modules/) into the running
 * kernel: find the .ko that "make modules" built for it and finit_module()
 * it. Shared by the drivers of each module (inversion.c, display.c).
 */
#ifndef FRAMESCHED_KMOD_H
#define FRAMESCHED_KMOD_H

#include <stddef.h>

/* One guest module; messages start with "@tag: ". */
struct kmod {
	const char *tag;	/* "inversion" */
	const char *dir;	/* its directory under build/guest/modules* */
	const char *name;	/* the module's name; the file is NAME.ko */
	const char *env;	/* variable that overrides the path, or NULL */
};

/*
 * The .ko of @m built for the running kernel, into @path:
 * build/guest/modules{,-release,-pristine}/DIR/NAME.ko, the one whose
 * kernel-version stamp (written by "make modules") is this kernel's
 * "uname -v"; build/guest is found from /proc/self/exe, which must be
 * build/guest/SOMETHING/PROGRAM. The variable @m->env, if set, is taken
 * as is. 0, or -1 with a message on stderr.
 */
int kmod_path(const struct kmod *m, char *path, size_t len);

/*
 * Load @m: 0 if we loaded it, 1 if it was loaded already, -1 with a
 * message on stderr.
 */
int kmod_load(const struct kmod *m);

/*
 * Unload @m (delete_module, O_NONBLOCK: never waits for its users).
 * 0, or -errno (EWOULDBLOCK/EBUSY: still in use; ENOENT: not loaded);
 * no message.
 */
int kmod_unload(const struct kmod *m);

#endif
