// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "cpu_share.h"
#include "kmod.h"

/*
 * The debug, release and pristine kernels share a version string, so
 * finit_module() would take any one's module and the others' struct
 * layouts would crash it: "make modules" writes the tree's "uname -v"
 * beside each .ko, and we take the one that matches.
 */
int kmod_path(const struct kmod *m, char *path, size_t len)
{
	static const char *const dirs[] = {
		"modules", "modules-release", "modules-pristine",
		"modules-scrutiny",
	};
	const char *env = m->env ? getenv(m->env) : NULL;
	/* room for what we append to exe's directory */
	char exe[PATH_MAX - 64], stamp[PATH_MAX], built[256];
	struct utsname u;
	ssize_t n;
	size_t i;

	if (env) {
		snprintf(path, len, "%s", env);
		return 0;
	}
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n < 0 || uname(&u))
		return -1;
	exe[n] = 0;
	/* build/guest/{bench,tests}/PROGRAM -> build/guest */
	for (i = 0; i < 2; i++)
		if (strrchr(exe, '/'))
			*strrchr(exe, '/') = 0;
	for (i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		snprintf(stamp, sizeof(stamp), "%s/%s/%s/kernel-version",
			 exe, dirs[i], m->dir);
		if (read_str(stamp, built, sizeof(built)) ||
		    strcmp(built, u.version))
			continue;
		snprintf(path, len, "%s/%s/%s/%s.ko", exe, dirs[i], m->dir,
			 m->name);
		return 0;
	}
	fprintf(stderr, "%s: no %s.ko built for this kernel (uname -v '%s') under %s/modules*/%s/: run 'make modules' after building the kernel\n",
		m->tag, m->name, u.version, exe, m->dir);
	return -1;
}

int kmod_load(const struct kmod *m)
{
	char path[PATH_MAX];
	int fd, ret;

	if (kmod_path(m, path, sizeof(path)))
		return -1;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "%s: %s: %s\n", m->tag, path, strerror(errno));
		return -1;
	}
	ret = syscall(SYS_finit_module, fd, "", 0);
	if (ret && errno == EEXIST)
		ret = 1;	/* loaded meanwhile, by someone else */
	else if (ret)
		fprintf(stderr, "%s: loading %s: %s\n", m->tag, path,
			strerror(errno));
	close(fd);
	return ret;
}

int kmod_unload(const struct kmod *m)
{
	return syscall(SYS_delete_module, m->name, O_NONBLOCK) ? -errno : 0;
}
