// SPDX-License-Identifier: GPL-2.0
/*
 * strategies.c - every strategy, in the order of the comparison table.
 * Adding one: a file defining `const struct strategy strategy_NAME`, and
 * one S(NAME) line below, where its row should appear.
 */
#include <string.h>

#include "strategy.h"

#define STRATEGIES(S)		\
	S(fmax)			\
	S(cfs)			\
	S(touchboost)		\
	S(uclamp)		\
	S(uclamp_wall)		\
	S(fifo)			\
	S(fifo_greed)		\
	S(deadline)		\
	S(deadline_pe)		\
	S(deadline_token)	\
	S(deadline_token2)	\
	S(deadline_token_pe)	\
	S(deadline_token2_pe)	\
	S(fifo_pe)

#define STRATEGY_EXTERN(n)	extern const struct strategy strategy_##n;
#define STRATEGY_ENTRY(n)	&strategy_##n,

STRATEGIES(STRATEGY_EXTERN)

const struct strategy *const strategy_list[] = {
	STRATEGIES(STRATEGY_ENTRY)
	NULL
};

const struct strategy *strategy_find(const char *name)
{
	const struct strategy *const *s;

	if (!name)
		return NULL;
	for (s = strategy_list; *s; s++)
		if (!strcmp((*s)->name, name))
			return *s;
	return NULL;
}
