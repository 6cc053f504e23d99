// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pidfdctl run: start CMD, supervise it through a pidfd, forward signals,
 * enforce a timeout as timeout(1) does, exit with CMD's status.
 *
 * As timeout(1), unless --foreground: pidfdctl makes a process group of
 * its own, which CMD and its children inherit, and each signal it sends
 * goes to CMD through the pidfd and then to that whole group (pidfdctl
 * ignores its own copy; for a KILL it first steps back into the group it
 * came from, to report CMD's end as timeout(1)'s shell would see it).
 *
 * CMD's death by a signal (not the timeout's) is pidfdctl's too: it
 * re-raises it, as timeout(1) does.
 *
 * The pidfd is opened right after fork(): CMD is our child and nobody else
 * can reap it, so its PID cannot be reused before the pidfd pins it.
 * Signals to forward are blocked and read from a signalfd, so that one
 * poll() sees both "CMD exited" (pidfd readable) and "signal arrived",
 * with no handler racing the wait.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "libpidfd.h"
#include "args.h"
#include "commands.h"

static const int forwarded_signals[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };

/* The process group pidfdctl was started in, before it made its own. */
static pid_t original_pgrp;

/* In the child: exec CMD, or tell the parent why not through @errfd. */
static void __attribute__((noreturn))
exec_command(char **cmd, const sigset_t *mask, int errfd)
{
	int err;

	sigprocmask(SIG_SETMASK, mask, NULL);
	execvp(cmd[0], cmd);
	err = errno;
	if (write(errfd, &err, sizeof(err)) < 0) {
		/* The parent sees an empty pipe and the exit code. */
	}
	_exit(err == ENOENT ? RUN_EXIT_ENOENT : RUN_EXIT_CANNOT_EXEC);
}

/*
 * Signal CMD through its pidfd (it having just exited is not an error),
 * then, unless @foreground, our process group: CMD's children too.
 */
static void signal_command(int pidfd, int sig, bool foreground)
{
	char name[32];

	if (libpidfd_send_signal(pidfd, sig, NULL, 0) < 0 && errno != ESRCH)
		pidfdctl_warn("cannot send %s: %s",
			      pidfdctl_signal_name(sig, name, sizeof(name)),
			      libpidfd_strerror(errno));
	if (foreground)
		return;
	/* Our group's ID is our PID: nobody else's while we live. */
	if (sig == SIGKILL && setpgid(0, original_pgrp) == 0)
		kill(-getpid(), sig);
	else
		kill(0, sig);
}

/*
 * CMD died of @sig, not of our timeout: die of it too, as timeout(1)
 * does, so that a shell sees what its user did (a loop stops at Ctrl-C:
 * bash goes on after a command that exits 130, not after one that died
 * of SIGINT). No core of ours for a signal that dumps one. Returns only
 * if @sig does not kill.
 */
static void die_of(int sig)
{
	sigset_t just;

	prctl(PR_SET_DUMPABLE, 0);
	fflush(NULL);
	signal(sig, SIG_DFL);
	sigemptyset(&just);
	sigaddset(&just, sig);
	sigprocmask(SIG_UNBLOCK, &just, NULL);
	raise(sig);
}

/* --verbose: what timeout(1) --verbose says of the timeout's signals. */
static void say_sending(const struct pidfdctl_args *args, int sig)
{
	char name[32];

	if (args->verbose)
		pidfdctl_warn("sending signal %s to command '%s'",
			      pidfdctl_signal_name(sig, name, sizeof(name)) + 3,
			      args->cmd[0]);
}

static int reap(pid_t child, int *status)
{
	while (waitpid(child, status, 0) < 0) {
		if (errno != EINTR)
			return -1;
	}
	return 0;
}

int pidfdctl_run(const struct pidfdctl_args *args)
{
	int64_t signal_at = -1, kill_at = -1;
	sigset_t forward, saved_mask;
	int errpipe[2], sigfd, pidfd = -1, status, exec_err = 0;
	bool timed_out = false;
	ssize_t n;
	pid_t child;

	/* Our own group: setpgid() fails only for a session leader. */
	original_pgrp = getpgrp();
	if (!args->foreground)
		setpgid(0, 0);
	sigemptyset(&forward);
	for (size_t i = 0; i < sizeof(forwarded_signals) / sizeof(int); i++)
		sigaddset(&forward, forwarded_signals[i]);
	/* The timeout's signal comes back to us from the group: read it. */
	sigaddset(&forward, args->signal);
	if (sigprocmask(SIG_BLOCK, &forward, &saved_mask) < 0 ||
	    (sigfd = signalfd(-1, &forward, SFD_CLOEXEC)) < 0) {
		pidfdctl_warn("cannot set up signal forwarding: %s",
			      strerror(errno));
		return RUN_EXIT_FAILURE;
	}
	if (pipe2(errpipe, O_CLOEXEC) < 0) {
		pidfdctl_warn("pipe: %s", strerror(errno));
		close(sigfd);
		return RUN_EXIT_FAILURE;
	}

	/*
	 * The child comes with its pidfd (opened before anything can reap
	 * it); a missing module or a kernel that reaps children itself is
	 * found out before anything is started.
	 */
	fflush(NULL);
	child = libpidfd_fork(&pidfd, 0);
	if (child < 0) {
		int err = errno;

		if (err == ENOPKG)
			pidfdctl_warn("%s", libpidfd_strerror(err));
		else
			pidfdctl_warn("cannot start the command with a pidfd: %s",
				      libpidfd_strerror(err));
		close(errpipe[0]);
		close(errpipe[1]);
		close(sigfd);
		return RUN_EXIT_FAILURE;
	}
	if (child == 0) {
		close(errpipe[0]);
		exec_command(args->cmd, &saved_mask, errpipe[1]);
	}
	close(errpipe[1]);
	pidfdctl_say_pidfd(child, pidfd);

	/* The pipe closes on a successful exec, or carries exec's errno. */
	do
		n = read(errpipe[0], &exec_err, sizeof(exec_err));
	while (n < 0 && errno == EINTR);
	close(errpipe[0]);
	if (n == (ssize_t)sizeof(exec_err)) {
		pidfdctl_warn("failed to run command '%s': %s", args->cmd[0],
			      strerror(exec_err));
		reap(child, &status);
		close(pidfd);
		close(sigfd);
		return exec_err == ENOENT ? RUN_EXIT_ENOENT : RUN_EXIT_CANNOT_EXEC;
	}

	if (args->timeout_ms >= 0)
		signal_at = pidfdctl_now_ms() + args->timeout_ms;

	for (;;) {
		struct pollfd pfds[2] = {
			{ .fd = pidfd, .events = POLLIN },
			{ .fd = sigfd, .events = POLLIN },
		};
		int64_t next = signal_at >= 0 ? signal_at : kill_at;
		int timeout = -1;

		if (next >= 0) {
			int64_t rest = next - pidfdctl_now_ms();

			timeout = rest <= 0 ? 0 : rest > INT32_MAX ? INT32_MAX : (int)rest;
		}
		if (poll(pfds, 2, timeout) < 0) {
			if (errno == EINTR)
				continue;
			pidfdctl_warn("poll: %s", strerror(errno));
			break;	/* still reap CMD below */
		}
		if (pfds[0].revents)
			break;
		if (pfds[1].revents & POLLIN) {
			struct signalfd_siginfo ssi;

			/* Not our own copy of what we sent to the group. */
			if (read(sigfd, &ssi, sizeof(ssi)) == (ssize_t)sizeof(ssi) &&
			    (pid_t)ssi.ssi_pid != getpid())
				signal_command(pidfd, (int)ssi.ssi_signo,
					       args->foreground);
			continue;
		}
		if (signal_at >= 0 && pidfdctl_now_ms() >= signal_at) {
			timed_out = true;
			signal_at = -1;
			say_sending(args, args->signal);
			signal_command(pidfd, args->signal, args->foreground);
			/* As timeout(1): a stopped CMD must run to see it. */
			if (args->signal != SIGKILL && args->signal != SIGCONT)
				signal_command(pidfd, SIGCONT, args->foreground);
			if (args->kill_after_ms >= 0)
				kill_at = pidfdctl_now_ms() + args->kill_after_ms;
		} else if (kill_at >= 0 && pidfdctl_now_ms() >= kill_at) {
			kill_at = -1;
			say_sending(args, SIGKILL);
			signal_command(pidfd, SIGKILL, args->foreground);
		}
	}

	close(sigfd);
	close(pidfd);
	if (reap(child, &status) < 0) {
		pidfdctl_warn("waitpid: %s", strerror(errno));
		return RUN_EXIT_FAILURE;
	}
	/* The mask stays: our own copies of group signals may be pending. */

	/* timeout(1): a KILL after the timeout shows as 137, not 124. */
	if (timed_out && WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL)
		return RUN_EXIT_KILLED;
	if (timed_out && !args->preserve_status)
		return RUN_EXIT_TIMEDOUT;
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	if (WIFSIGNALED(status)) {
		if (!timed_out)
			die_of(WTERMSIG(status));
		return RUN_EXIT_SIGNAL_BASE + WTERMSIG(status);
	}
	return RUN_EXIT_FAILURE;
}
