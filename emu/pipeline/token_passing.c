// SPDX-License-Identifier: GPL-2.0
/*
 * token_passing.c - the strategy's SCHED_DEADLINE tokens travel with the
 * frames (kernel: Documentation/scheduler/sched-dl-token.rst; user space:
 * guest/lib/dl_token.h).
 *
 * One token a frame in flight. The UI thread gives its token with the
 * frame to RenderThread at postAndWait, unless RenderThread still holds
 * one for the frame before: then it keeps it. Having given it, it takes
 * the token nobody holds, so that it sleeps until the next VSYNC as the
 * holder: its wake-up is then a SCHED_DEADLINE one, placed by capacity on
 * a CPU that fits the token, and the CBS wake-up rule starts the frame's
 * instance. (A thread that wakes in the fair class and takes a token at
 * the start of the frame runs the frame wherever the fair class woke it,
 * which may be a LITTLE CPU: becoming SCHED_DEADLINE does not move a
 * running task. make run's traces showed such frames, doFrame 16 ms on a
 * LITTLE CPU against 7 on a big one.) RenderThread, done with a frame
 * (queued or skipped):
 *
 *   - the next frame already posted and its token with the UI thread:
 *     swap, so that RenderThread continues the next frame's instance and
 *     the UI thread gets the spent one, renewed by the CBS wake-up rule
 *     when it wakes for the frame after;
 *   - the UI thread holding none: give it back;
 *   - otherwise (the UI thread holds the other token): give it up, to
 *     nobody, for the UI thread to take at its next post.
 *
 * The swap is for a late frame that is still drawn: RenderThread ends it
 * after the UI thread posted the next. When RenderThread ends on time the
 * two tokens alternate: the UI thread gives one with the frame and takes
 * the other, which RenderThread gave up at the end of the frame before.
 * The UI thread also takes a free token at the start of a frame if it
 * holds none (a pass the kernel refused).
 *
 * With one token (deadline-token) only the second case ever happens, and
 * a frame that starts while RenderThread holds the token runs its UI part
 * without one; the token comes back to the UI thread during doFrame or
 * while it waits for the sync, and the frame after starts on it. With two
 * (deadline-token2) every stage of every frame runs on the frame's token.
 *
 * Every operation runs with the pipeline's lock held, so that the UI
 * thread's post and RenderThread's end of frame see each other's holders.
 */
#include <errno.h>
#include "clock.h"
#include "dl_token.h"
#include "pl.h"

/* The token @tid holds, or -1. */
static int held_by(const struct pl *p, pid_t tid)
{
	int k;

	for (k = 0; k < STRATEGY_MAX_TOKENS; k++)
		if (p->token_fd[k] >= 0 && p->token_holder[k] == tid)
			return k;
	return -1;
}

/* Ask the kernel who holds each token: after an operation it refused. */
static void tokens_refresh(struct pl *p)
{
	struct dl_token_info in;
	int k;

	for (k = 0; k < STRATEGY_MAX_TOKENS; k++)
		if (p->token_fd[k] >= 0 && !dl_token_info(p->token_fd[k], &in))
			p->token_holder[k] = (pid_t)in.holder;
}

static void count_move(struct pl *p, pid_t track, const char *what)
{
	p->res->token_passes++;
	tb_instant(&p->tb, track, what, mono_ns());
}

/* Token @k to thread @to (the caller, or from the caller); @lock held. */
static bool give(struct pl *p, int k, pid_t to, const char *what)
{
	if (dl_token_give(p->token_fd[k], to)) {
		tokens_refresh(p);
		return false;
	}
	p->token_holder[k] = to;
	count_move(p, to, what);
	return true;
}

/* Take a token nobody holds, if any; @lock held. */
static void take_free(struct pl *p)
{
	int k;

	for (k = 0; held_by(p, p->ui_tid) < 0 && k < STRATEGY_MAX_TOKENS; k++)
		if (p->token_fd[k] >= 0 && !p->token_holder[k])
			give(p, k, p->ui_tid, "token taken");
}

void tokens_init(struct pl *p, const int *fd)
{
	int k;

	for (k = 0; k < STRATEGY_MAX_TOKENS; k++) {
		p->token_fd[k] = fd[k];
		p->token_holder[k] = 0;
	}
	tokens_refresh(p);
}

/*
 * UI thread, doFrame begins: the token it woke with (none: it woke in the
 * fair class, wherever that placed it); hold one, taking a free one if
 * need be.
 */
void tokens_frame_start(struct pl *p, struct pl_frame *f)
{
	pthread_mutex_lock(&p->lock);
	f->ui_token = (int8_t)held_by(p, p->ui_tid);
	take_free(p);
	pthread_mutex_unlock(&p->lock);
}

/*
 * UI thread, postAndWait with @lock held: the token goes with the frame,
 * and the UI thread takes the free one to sleep on.
 */
void tokens_post(struct pl *p)
{
	int k = held_by(p, p->ui_tid);

	if (k >= 0 && held_by(p, p->render_tid) < 0)
		give(p, k, p->render_tid, "token to RenderThread");
	take_free(p);
}

/* RenderThread, syncFrameState with @lock held. */
void tokens_synced(struct pl *p, struct pl_frame *f)
{
	f->render_token = (int8_t)held_by(p, p->render_tid);
}

/* RenderThread, done with a frame, @lock held: see the top of the file. */
void tokens_frame_done(struct pl *p)
{
	int mine = held_by(p, p->render_tid), theirs = held_by(p, p->ui_tid);

	if (mine < 0)
		return;
	if (p->handoff >= 0 && theirs >= 0) {
		if (dl_token_swap(p->token_fd[mine], p->token_fd[theirs])) {
			tokens_refresh(p);
			return;
		}
		p->token_holder[mine] = p->ui_tid;
		p->token_holder[theirs] = p->render_tid;
		count_move(p, p->render_tid, "token swapped with the UI thread");
		count_move(p, p->ui_tid, "token swapped with RenderThread");
	} else if (theirs < 0) {
		give(p, mine, p->ui_tid, "token to UI thread");
	} else if (!dl_token_give_up(p->token_fd[mine])) {
		p->token_holder[mine] = 0;
		count_move(p, p->render_tid, "token given up");
	} else {
		tokens_refresh(p);
	}
}
