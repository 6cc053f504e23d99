/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The random numbers of the long-running tests (fuzzer, stress). A header
 * of its own because the fuzzer is built without Check (and for 32 bits).
 */
#ifndef PT_RAND_H
#define PT_RAND_H

#include <stdint.h>

/*
 * xorshift64*: a small generator whose sequence depends only on the seed,
 * so that a printed seed reproduces a run. @state must not be 0.
 */
static inline uint64_t pt_rand(uint64_t *state)
{
	*state ^= *state >> 12;
	*state ^= *state << 25;
	*state ^= *state >> 27;
	return *state * 2685821657736338717ULL;
}

#endif
