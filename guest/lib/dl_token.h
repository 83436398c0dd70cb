/* SPDX-License-Identifier: GPL-2.0 */
/*
 * SCHED_DEADLINE tokens (CONFIG_SCHED_DL_TOKEN, patch "sched/deadline: A
 * reservation that threads pass to each other"): one reservation that
 * the threads of a process pass along a chain. The ABI is the kernel's
 * include/uapi/linux/sched/dl_token.h, restated here because programs
 * build against the host's headers; Documentation/scheduler/
 * sched-dl-token.rst in the patched tree describes it.
 */
#ifndef FRAMESCHED_DL_TOKEN_H
#define FRAMESCHED_DL_TOKEN_H

#include <stdint.h>
#include <sys/ioctl.h>
#include <sys/types.h>

#include "sched_attr.h"

#define DL_TOKEN_DEV		"/dev/sched_dl_token"

/* struct dl_token_info::flags */
#define DL_TOKEN_HELD		0x1
#define DL_TOKEN_THROTTLED	0x2
#define DL_TOKEN_LOST		0x4

struct dl_token_info {
	uint64_t runtime;	/* reserved runtime, ns */
	uint64_t deadline;	/* relative deadline, ns */
	uint64_t period;	/* ns */
	int64_t runtime_left;	/* in the current instance, ns */
	uint64_t abs_deadline;	/* the instance's deadline, scheduler clock */
	int64_t deadline_in;	/* ns from now to abs_deadline */
	uint32_t holder;	/* thread ID, 0 if none */
	uint32_t flags;		/* DL_TOKEN_* */
};

struct dl_token_give {
	uint32_t tid;		/* 0: the caller */
	uint32_t flags;		/* DL_TOKEN_GIVE_UP or 0 */
};

/* struct dl_token_give::flags: the holder gives it to nobody (tid 0) */
#define DL_TOKEN_GIVE_UP	0x1

struct dl_token_swap {
	int32_t fd;		/* the other token */
	uint32_t flags;		/* 0 */
};

#define DL_TOKEN_IOC_SETUP	_IOW(0xB9, 0, struct sched_attr_v1)
#define DL_TOKEN_IOC_GIVE	_IOW(0xB9, 1, struct dl_token_give)
#define DL_TOKEN_IOC_INFO	_IOR(0xB9, 2, struct dl_token_info)
#define DL_TOKEN_IOC_SWAP	_IOW(0xB9, 3, struct dl_token_swap)

/*
 * A new token with its reservation (ns; period 0: the deadline; flags 0
 * or SA_FLAG_DL_OVERRUN): its fd, or -1 with errno (ENOENT: a kernel
 * without tokens; EBUSY: admission refused it; EINVAL: bad parameters).
 */
int dl_token_create(uint64_t runtime, uint64_t deadline, uint64_t period,
		    uint64_t flags);
/*
 * The holder gives the token to thread @tid of its process; a token that
 * nobody holds, any thread may take (@tid 0: the caller). 0, or -1 with
 * errno: EINVAL (the caller is not the holder, or is the receiver), ESRCH
 * (no such thread, or exiting), EPERM (another process's thread), EBUSY
 * (the receiver has a reservation, or cannot run on every CPU of the
 * root domain; admission refused a token whose holder exited).
 */
int dl_token_give(int fd, pid_t tid);
/*
 * The holder gives the token to nobody (patch "Let a token's holder give
 * it up or swap it for another"): it keeps its bandwidth and instance for
 * the next taker. 0, or -1 with errno EINVAL (the caller is not the holder).
 */
int dl_token_give_up(int fd);
/*
 * The holder of token @fd and the holder of token @other_fd, a thread of
 * the same process, exchange them. 0, or -1 with errno: EBADF, EINVAL
 * (@other_fd is not another token; the caller does not hold @fd; nobody
 * holds @other_fd), EPERM, ESRCH, EBUSY (different root domains).
 */
int dl_token_swap(int fd, int other_fd);
int dl_token_info(int fd, struct dl_token_info *info);

#endif
