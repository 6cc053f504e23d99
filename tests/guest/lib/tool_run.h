/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Running pidfdctl (or another tool) from a test: its exit code, its
 * stdout and stderr, how long it ran.
 */
#ifndef TOOL_RUN_H
#define TOOL_RUN_H

#include <sys/types.h>
#include <time.h>

struct pt_tool_run {
	pid_t pid;
	int out, err;		/* read ends */
	char stdout_text[4096], stderr_text[4096];
	int status;
	long ms;		/* how long it ran */
	struct timespec start;
};

/* $PIDFDCTL, else /bin/pidfdctl (the guest's). */
const char *pt_tool_path(void);
/* Start pidfdctl with @args (NULL-terminated, without argv[0]). */
void pt_tool_start(struct pt_tool_run *r, const char *const *args);
/* Wait for it; its exit code (the test fails if it was killed). */
int pt_tool_finish(struct pt_tool_run *r);
/*
 * Wait for it; the signal it died of (the test fails if it exited), as
 * "run" does when CMD dies of a signal, like timeout(1).
 */
int pt_tool_finish_killed(struct pt_tool_run *r);
/*
 * Wait (10 s at most) until the tool (@holder) has a pidfd for @target
 * open: its fd table shows one whose fdinfo names @target (the library
 * opens pidfds of its own while it probes the kernel).
 */
void pt_tool_wait_holding(pid_t holder, pid_t target);
/* Run it to the end: its exit code. */
#define PT_TOOL(r, ...) \
	(pt_tool_start((r), (const char *const[]){ __VA_ARGS__, NULL }), \
	 pt_tool_finish(r))
/* Run it to the end: the signal it died of. */
#define PT_TOOL_KILLED(r, ...) \
	(pt_tool_start((r), (const char *const[]){ __VA_ARGS__, NULL }), \
	 pt_tool_finish_killed(r))

#endif
