// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pidfd-demo: what the pidfd module does, step by step, in plain words.
 * Run by "make demo" in the VM; uses libpidfd throughout.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <libpidfd.h>

static int fail(const char *what)
{
	printf("FAILED: %s: %s\n", what, libpidfd_strerror(errno));
	return EXIT_FAILURE;
}

/* Print the Name, Pid and State lines of a status file. */
static void print_status_lines(int statusfd)
{
	char buf[4096], *line, *save;
	ssize_t n = read(statusfd, buf, sizeof(buf) - 1);

	if (n <= 0)
		return;
	buf[n] = '\0';
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		if (!strncmp(line, "Name:", 5) || !strncmp(line, "Pid:", 4) ||
		    !strncmp(line, "State:", 6))
			printf("      %s\n", line);
}

int main(void)
{
	int pidfd, procdir, statusfd, status, code;
	pid_t child;

	setvbuf(stdout, NULL, _IONBF, 0);
	printf("pidfd-demo: libpidfd %s\n", libpidfd_version());
	if (libpidfd_probe() < 0)
		return fail("opening /dev/pidfd");

	child = fork();
	if (child < 0)
		return fail("fork");
	if (child == 0) {
		for (;;)
			pause();
	}
	printf("1. Started a child process, PID %d. It sleeps until signalled.\n", child);

	pidfd = libpidfd_open(child, 0);
	if (pidfd < 0)
		return fail("libpidfd_open");
	printf("2. Opened pidfd %d for it through /dev/pidfd. The pidfd names this\n"
	       "   process, not the number %d: it can never point to another process.\n"
	       "   libpidfd_getpid() reads back PID %d.\n",
	       pidfd, child, libpidfd_getpid(pidfd));

	procdir = libpidfd_open_procdir(pidfd);
	if (procdir < 0)
		return fail("PIDFD_GET_PROCFD");
	statusfd = openat(procdir, "status", O_RDONLY | O_CLOEXEC);
	if (statusfd < 0)
		return fail("openat status");
	printf("3. Turned the pidfd into /proc/%d (fd %d), checked by the module to be\n"
	       "   this very process, and read its status file:\n", child, procdir);
	print_status_lines(statusfd);
	close(statusfd);

	if (libpidfd_wait_exit(pidfd, 0) == 0)
		return fail("the child should still be running");
	printf("4. poll() on the pidfd says: still running.\n");

	if (libpidfd_send_signal(pidfd, SIGTERM, NULL, 0) < 0)
		return fail("libpidfd_send_signal");
	printf("5. Sent SIGTERM through the pidfd.\n");

	if (libpidfd_wait_exit(pidfd, 10000) < 0)
		return fail("waiting for the exit");
	printf("6. poll() on the pidfd says: it has exited.\n");

	if (libpidfd_exit_status(pidfd, &status) == 0 || errno != EAGAIN)
		return fail("no exit status should be known before reaping");
	printf("7. Its exit status is not known yet: it is a zombie until reaped.\n");

	if (waitpid(child, &status, 0) != child)
		return fail("waitpid");
	if (libpidfd_exit_status(pidfd, &code) < 0)
		return fail("PIDFD_GET_INFO with PIDFD_INFO_EXIT");
	printf("8. Reaped it. PIDFD_GET_INFO now reports its exit: %s %d\n"
	       "   (waitpid() said the same: %s).\n",
	       WIFSIGNALED(code) ? "killed by signal" : "exit status",
	       WIFSIGNALED(code) ? WTERMSIG(code) : WEXITSTATUS(code),
	       code == status ? "yes" : "NO");
	if (code != status || !WIFSIGNALED(code) || WTERMSIG(code) != SIGTERM)
		return fail("exit status mismatch");

	if (libpidfd_send_signal(pidfd, 0, NULL, 0) == 0 || errno != ESRCH)
		return fail("the pidfd should now say ESRCH");
	printf("9. Signalling through the pidfd now fails with ESRCH (\"%s\"),\n"
	       "   even if PID %d is given to a new process.\n",
	       strerror(ESRCH), child);
	if (libpidfd_open_procdir(pidfd) >= 0 || errno != ESRCH)
		return fail("PIDFD_GET_PROCFD should now say ESRCH");
	printf("10. Converting it to a /proc directory fails with ESRCH too.\n");

	close(procdir);
	close(pidfd);
	printf("pidfd-demo: done, all steps behaved as expected.\n");
	return EXIT_SUCCESS;
}
