// SPDX-License-Identifier: GPL-2.0
/*
 * What libpidfd-preload.so costs a program that does not use pidfds: the
 * time of calls it passes on (ioctl(FIONREAD) on a pipe, syscall(SYS_getppid),
 * getsockopt(SO_TYPE), waitid(P_PID, WNOHANG) on a running child), bare,
 * in this program run again under "pidfdctl exec" ($PIDFDCTL, default
 * /bin/pidfdctl), and bare again; and the ratio. Under QEMU's icount (bench/run
 * --interposer --icount) one ns is one instruction executed: the figures
 * are the work done, the same on every run. Each is the best of 5 rounds
 * of PIDFD_BENCH_CALLS calls (200 000).
 *
 *   bench_interpose            both, and the table
 *   bench_interpose --one      one set of figures, as "name ns" lines
 */
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define ROUNDS	5
#define CALLS	4

static const char *const names[CALLS] = {
	"ioctl(FIONREAD)", "syscall(SYS_getppid)", "getsockopt(SO_TYPE)",
	"waitid(P_PID, WNOHANG)",
};

static int64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static int pipe_fd, sock_fd;
static pid_t child;

static int call(int which)
{
	siginfo_t si;
	socklen_t len;
	int v;

	switch (which) {
	case 0:
		return ioctl(pipe_fd, FIONREAD, &v);
	case 1:
		return (int)syscall(SYS_getppid);
	case 2:
		len = sizeof(v);
		return getsockopt(sock_fd, SOL_SOCKET, SO_TYPE, &v, &len);
	default:
		si.si_pid = 0;
		return waitid(P_PID, (id_t)child, &si, WEXITED | WNOHANG);
	}
}

/* Per call, in ns: the best of the rounds. */
static double measure(int which, long n)
{
	double best = -1;

	for (int r = 0; r < ROUNDS; r++) {
		int64_t t0 = now_ns();

		for (long i = 0; i < n; i++)
			if (call(which) < 0) {
				fprintf(stderr, "bench_interpose: %s: %s\n",
					names[which], strerror(errno));
				exit(1);
			}
		double per = (double)(now_ns() - t0) / (double)n;

		if (best < 0 || per < best)
			best = per;
	}
	return best;
}

static void setup(void)
{
	int p[2], sv[2];

	if (pipe(p) < 0 || write(p[1], "x", 1) != 1 ||
	    socketpair(AF_UNIX, SOCK_STREAM, 0, sv) < 0) {
		perror("bench_interpose");
		exit(1);
	}
	pipe_fd = p[0];
	sock_fd = sv[0];
	child = fork();
	if (child == 0) {
		pause();
		_exit(0);
	}
}

static void measure_all(double ns[CALLS], long n)
{
	setup();
	for (int i = 0; i < CALLS; i++)
		ns[i] = measure(i, n);
	kill(child, SIGKILL);
	waitpid(child, NULL, 0);
}

/* This program again under pidfdctl exec: its figures into @ns. */
static int interposed(double ns[CALLS])
{
	const char *pidfdctl = getenv("PIDFDCTL") ?: "/bin/pidfdctl";
	char self[4096], line[256];
	ssize_t len = readlink("/proc/self/exe", self, sizeof(self) - 1);
	int p[2], got = 0, status;
	FILE *in;
	pid_t pid;

	if (len <= 0 || pipe(p) < 0)
		return -1;
	self[len] = '\0';
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		dup2(p[1], STDOUT_FILENO);
		execl(pidfdctl, "pidfdctl", "exec", "--", self, "--one",
		      (char *)NULL);
		_exit(127);
	}
	close(p[1]);
	in = fdopen(p[0], "r");
	while (in && fgets(line, sizeof(line), in)) {
		char *value = strrchr(line, ' ');
		int i;

		/* "INDEX NAME NS": the name has spaces, the number is last. */
		if (value && sscanf(line, "%d", &i) == 1 && i >= 0 &&
		    i < CALLS) {
			ns[i] = strtod(value, NULL);
			got++;
		}
	}
	if (in)
		fclose(in);
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status) != 0)
		return -1;
	return got == CALLS ? 0 : -1;
}

int main(int argc, char **argv)
{
	long n = getenv("PIDFD_BENCH_CALLS") ?
		 strtol(getenv("PIDFD_BENCH_CALLS"), NULL, 0) : 200000;
	double bare[CALLS], again[CALLS], pre[CALLS];

	if (argc > 1 && !strcmp(argv[1], "--one")) {
		measure_all(pre, n);
		for (int i = 0; i < CALLS; i++)
			printf("%d %s %.2f\n", i, names[i], pre[i]);
		return 0;
	}
	/*
	 * Bare before and after the interposed run, the best of both: the
	 * first seconds after a boot were seen to cost more (7.2: a bare
	 * ioctl 1184 instructions, 677 a few seconds later).
	 */
	measure_all(bare, n);
	if (interposed(pre) < 0) {
		fprintf(stderr, "bench_interpose: the run under pidfdctl exec failed\n");
		return 1;
	}
	measure_all(again, n);
	for (int i = 0; i < CALLS; i++)
		if (again[i] < bare[i])
			bare[i] = again[i];
	printf("bench_interpose: %ld calls, best of %d rounds (ns per call; "
	       "instructions under icount)\n", n, ROUNDS);
	printf("bench_interpose: %-24s %10s %12s %8s\n", "call", "bare",
	       "interposed", "ratio");
	for (int i = 0; i < CALLS; i++)
		printf("bench_interpose: %-24s %10.1f %12.1f %8.4f\n", names[i],
		       bare[i], pre[i], pre[i] / bare[i]);
	printf("bench_interpose: done\n");
	return 0;
}
