// SPDX-License-Identifier: GPL-2.0-or-later
#include <check.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "pidfd_test.h"
#include "tool_run.h"

const char *pt_tool_path(void)
{
	const char *path = getenv("PIDFDCTL");

	return path && *path ? path : "/bin/pidfdctl";
}

void pt_tool_start(struct pt_tool_run *r, const char *const *args)
{
	const char *argv[32] = { "pidfdctl" };
	int out[2], err[2];

	for (int i = 0; args[i]; i++)
		argv[i + 1] = args[i];
	ck_assert_int_eq(pipe2(out, O_CLOEXEC), 0);
	ck_assert_int_eq(pipe2(err, O_CLOEXEC), 0);
	memset(r, 0, sizeof(*r));
	clock_gettime(CLOCK_MONOTONIC, &r->start);
	r->pid = pt_fork();
	if (r->pid == 0) {
		dup2(out[1], 1);
		dup2(err[1], 2);
		execv(pt_tool_path(), (char **)argv);
		_exit(99);
	}
	ck_assert_int_ge(r->pid, 0);
	close(out[1]);
	close(err[1]);
	r->out = out[0];
	r->err = err[0];
}

static void slurp(int fd, char *buf, size_t size)
{
	size_t n = 0;
	ssize_t got;

	while (n < size - 1 && (got = read(fd, buf + n, size - 1 - n)) > 0)
		n += (size_t)got;
	buf[n] = '\0';
	close(fd);
}

static void tool_end(struct pt_tool_run *r)
{
	struct timespec now;

	slurp(r->err, r->stderr_text, sizeof(r->stderr_text));
	slurp(r->out, r->stdout_text, sizeof(r->stdout_text));
	ck_assert_int_eq(pt_waitpid(r->pid, &r->status, 0), r->pid);
	clock_gettime(CLOCK_MONOTONIC, &now);
	r->ms = (now.tv_sec - r->start.tv_sec) * 1000 +
		(now.tv_nsec - r->start.tv_nsec) / 1000000;
}

int pt_tool_finish(struct pt_tool_run *r)
{
	tool_end(r);
	ck_assert_msg(WIFEXITED(r->status), "pidfdctl died: 0x%x; stderr: %s",
		      r->status, r->stderr_text);
	return WEXITSTATUS(r->status);
}

int pt_tool_finish_killed(struct pt_tool_run *r)
{
	tool_end(r);
	ck_assert_msg(WIFSIGNALED(r->status) && !WCOREDUMP(r->status),
		      "pidfdctl did not die of a signal (without a core): 0x%x; stderr: %s",
		      r->status, r->stderr_text);
	return WTERMSIG(r->status);
}

void pt_tool_wait_holding(pid_t holder, pid_t target)
{
	int64_t end = pt_now_ms() + 10000;
	char value[32];

	while (pt_now_ms() < end) {
		for (int fd = 3; fd < 16; fd++)
			if (pt_fdinfo_field("/proc", holder, fd, "Pid:", value,
					    sizeof(value)) == 0 &&
			    atoi(value) == target)
				return;
		usleep(10000);
	}
	ck_abort_msg("pidfdctl %d never opened a pidfd for %d", holder, target);
}
