// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What a libpidfd call costs in system calls, counted: in the steady state
 * (after a first call of each kind, which probes the kernel and opens
 * /dev/pidfd) each call makes the one system call it stands for on the
 * kind of pidfd it suits, plus one refused call on the other kind, and
 * nothing else: no classification of the fd, no fstat of the control fd,
 * no process_vm_readv. Counted by ptrace(PTRACE_SYSCALL) on a child that
 * marks the start and end of each call with a prctl(2) no kernel knows.
 *
 * Before issue 34 the library made 5 to 9 system calls for each of these
 * (docs/performance.md): every row here failed.
 */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <time.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <libpidfd.h>

#include "pidfd_test.h"

/* prctl(MARK, case, 1 or 2): no such option, EINVAL. */
#define MARK		0x7c05750
#define MAX_CALLS	64

enum kind { KERNEL, MODULE, NKINDS };
static const char *const kind_names[NKINDS] = { "kernel", "module" };

enum op {
	OP_OPEN_NATIVE,		/* libpidfd_open + close, native backend */
	OP_OPEN_MODULE,		/* the same, module backend */
	OP_OPEN_AUTO,		/* the same, auto */
	OP_SIGNAL,		/* libpidfd_send_signal(fd, 0) */
	OP_INFO,		/* libpidfd_get_info(fd, PID) */
	OP_NAMESPACE,		/* libpidfd_get_namespace(fd, UTS) */
	OP_WAIT_EXIT,		/* libpidfd_wait_exit(zombie, 0) */
	OP_WAITID,		/* libpidfd_waitid(zombie, WNOWAIT) */
	OP_PROCFD,		/* libpidfd_get_procfd(fd, /proc) */
	NOPS,
};

static const char *const op_names[NOPS] = {
	"libpidfd_open+close (native backend)",
	"libpidfd_open+close (module backend)",
	"libpidfd_open+close (auto)",
	"libpidfd_send_signal(0)",
	"libpidfd_get_info(PID)",
	"libpidfd_get_namespace(UTS)",
	"libpidfd_wait_exit(exited, 0)",
	"libpidfd_waitid(exited, WNOWAIT)",
	"libpidfd_get_procfd",
};

#define CASE(op, kind) ((op) * NKINDS + (kind))
#define NCASES (NOPS * NKINDS)

/* The process's control fd, for pidfds of the module's kind. */
static int dev = -1;

static int module_pidfd(pid_t pid)
{
	struct pidfd_open_args args = { .pid = pid };

	if (dev < 0)
		dev = open("/dev/pidfd", O_RDWR | O_CLOEXEC);
	return ioctl(dev, PIDFD_DEV_OPEN, &args);
}

static int kind_pidfd(enum kind k, pid_t pid)
{
	if (k == KERNEL)
		return (int)syscall(SYS_pidfd_open, pid, 0);
	return module_pidfd(pid);
}

struct target {
	int self[NKINDS];	/* our own process */
	int zombie[NKINDS];	/* an exited child, not reaped */
	int procroot;
	pid_t pid;		/* ours: getpid() is a system call */
};

/* The call of case @c, once; what it returned that must be closed. */
static int run_op(enum op op, enum kind k, const struct target *t)
{
	struct pidfd_dev_info info;
	siginfo_t si;
	int fd;

	switch (op) {
	case OP_OPEN_NATIVE:
	case OP_OPEN_MODULE:
	case OP_OPEN_AUTO:
		fd = libpidfd_open(t->pid, 0);
		if (fd >= 0)
			close(fd);
		return -1;
	case OP_SIGNAL:
		libpidfd_send_signal(t->self[k], 0, NULL, 0);
		return -1;
	case OP_INFO:
		memset(&info, 0, sizeof(info));
		info.mask = PIDFD_INFO_PID;
		libpidfd_get_info(t->self[k], &info, sizeof(info));
		return -1;
	case OP_NAMESPACE:
		return libpidfd_get_namespace(t->self[k],
					      PIDFD_GET_UTS_NAMESPACE);
	case OP_WAIT_EXIT:
		libpidfd_wait_exit(t->zombie[k], 0);
		return -1;
	case OP_WAITID:
		memset(&si, 0, sizeof(si));
		libpidfd_waitid(t->zombie[k], &si, WEXITED | WNOWAIT);
		return -1;
	case OP_PROCFD:
		return libpidfd_get_procfd(t->self[k], t->procroot);
	default:
		return -1;
	}
}

static void mark(int c, int phase)
{
	syscall(SYS_prctl, MARK, c, phase, 0, 0);
}

static int backend_of(enum op op)
{
	switch (op) {
	case OP_OPEN_NATIVE:
		return LIBPIDFD_BACKEND_NATIVE;
	case OP_OPEN_MODULE:
		return LIBPIDFD_BACKEND_MODULE;
	default:
		return LIBPIDFD_BACKEND_AUTO;
	}
}

/* The traced child: every case once to warm up, then once marked. */
static void __attribute__((noreturn)) tracee(void)
{
	struct target t;
	pid_t zombie;
	int k, c, ret;

	zombie = fork();
	if (zombie == 0)
		_exit(3);
	for (k = 0; k < NKINDS; k++) {
		t.self[k] = kind_pidfd(k, getpid());
		t.zombie[k] = kind_pidfd(k, zombie);
	}
	t.pid = getpid();
	t.procroot = open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	while (waitid(P_PID, (id_t)zombie, &(siginfo_t){ 0 },
		      WEXITED | WNOWAIT) < 0 && errno == EINTR)
		;
	if (ptrace(PTRACE_TRACEME, 0, NULL, NULL) < 0)
		_exit(90);
	raise(SIGSTOP);
	for (c = 0; c < NCASES; c++) {
		enum op op = (enum op)(c / NKINDS);

		libpidfd_set_backend(backend_of(op));
		ret = run_op(op, (enum kind)(c % NKINDS), &t);
		if (ret >= 0)
			close(ret);
		mark(c, 1);
		ret = run_op(op, (enum kind)(c % NKINDS), &t);
		mark(c, 2);
		if (ret >= 0)
			close(ret);
	}
	_exit(0);
}

struct counts {
	int n[NCASES];
	long nr[NCASES][MAX_CALLS];	/* the system calls seen */
};

/* Counts the system calls of each marked case of the child @pid. */
static void count(pid_t pid, struct counts *out)
{
	struct __ptrace_syscall_info si;
	int status, c = -1, sig = 0;

	memset(out, 0, sizeof(*out));
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert_msg(WIFSTOPPED(status), "tracee: status %#x", status);
	ck_assert_int_eq(ptrace(PTRACE_SETOPTIONS, pid, NULL,
				PTRACE_O_TRACESYSGOOD | PTRACE_O_EXITKILL), 0);
	for (;;) {
		ck_assert_int_eq(ptrace(PTRACE_SYSCALL, pid, NULL,
					(void *)(long)sig), 0);
		sig = 0;
		ck_assert_int_eq(waitpid(pid, &status, 0), pid);
		if (WIFEXITED(status)) {
			ck_assert_int_eq(WEXITSTATUS(status), 0);
			return;
		}
		ck_assert_msg(WIFSTOPPED(status), "tracee: status %#x",
			      status);
		if (WSTOPSIG(status) != (SIGTRAP | 0x80)) {
			sig = WSTOPSIG(status);
			continue;
		}
		ck_assert_int_gt(ptrace(PTRACE_GET_SYSCALL_INFO, pid,
					(void *)sizeof(si), &si), 0);
		if (si.op != PTRACE_SYSCALL_INFO_ENTRY)
			continue;
		if (si.entry.nr == SYS_prctl && si.entry.args[0] == MARK) {
			c = si.entry.args[2] == 1 ? (int)si.entry.args[1] : -1;
			continue;
		}
		if (c >= 0 && out->n[c] < MAX_CALLS)
			out->nr[c][out->n[c]] = (long)si.entry.nr;
		if (c >= 0)
			out->n[c]++;
	}
}

/* The raw call's own count on this kernel, or -1 where it has none. */
static struct {
	bool info, namespaces;
} kernel;

/*
 * What each case may cost: 1 for the call, 1 more where the other kind is
 * tried first; -1 where the kernel lacks the call and the pidfd is
 * converted (not counted).
 */
static int allowed(enum op op, enum kind k)
{
	switch (op) {
	case OP_OPEN_NATIVE:
	case OP_OPEN_MODULE:
		return k == KERNEL ? 2 : -1;	/* open, close; once */
	case OP_OPEN_AUTO:
		return k == KERNEL ? 2 : -1;
	case OP_SIGNAL:
		return k == KERNEL ? 1 : 2;	/* the kernel's first */
	case OP_INFO:
		return k == MODULE || kernel.info ? 1 : -1;
	case OP_NAMESPACE:
		return k == MODULE || kernel.namespaces ? 1 : -1;
	case OP_WAIT_EXIT:
		/* Is it a pidfd (GET_INFO; waitid before 6.13), then poll. */
		return k == KERNEL && !kernel.info ? 3 : 2;
	case OP_WAITID:
		return k == KERNEL ? 1 : -1;
	case OP_PROCFD:
		return k == MODULE ? 1 : -1;	/* userspace proof otherwise */
	default:
		return -1;
	}
}

START_TEST(one_system_call)
{
	static struct counts counts;
	struct pidfd_dev_info info = { .mask = PIDFD_INFO_PID };
	char list[MAX_CALLS * 6 + 1];
	int self, ns, c, i, failed = 0;
	pid_t pid;

	self = ck_assert_ok(syscall(SYS_pidfd_open, getpid(), 0));
	kernel.info = ioctl(self, PIDFD_DEV_GET_INFO, &info) == 0;
	ns = ioctl(self, PIDFD_GET_UTS_NAMESPACE, 0);
	kernel.namespaces = ns >= 0;
	if (ns >= 0)
		close(ns);
	close(self);

	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0)
		tracee();
	count(pid, &counts);

	for (c = 0; c < NCASES; c++) {
		enum op op = (enum op)(c / NKINDS);
		enum kind k = (enum kind)(c % NKINDS);
		int want = allowed(op, k);
		size_t len = 0;

		if (want < 0)
			continue;
		list[0] = '\0';
		for (i = 0; i < counts.n[c] && i < MAX_CALLS; i++)
			len += (size_t)snprintf(list + len, sizeof(list) - len,
						" %ld", counts.nr[c][i]);
		printf("cost: %s on a %s pidfd: %d system call%s (allowed %d):%s\n",
		       op_names[op], kind_names[k], counts.n[c],
		       counts.n[c] == 1 ? "" : "s", want, list);
		fflush(stdout);
		if (counts.n[c] > want)
			failed++;
	}
	ck_assert_msg(!failed, "%d calls cost more than allowed (the lines "
		      "above; numbers are the system calls made)", failed);
}
END_TEST

/*
 * Without the module (an empty /dev in a mount namespace of the child's
 * own), libpidfd_open() with the auto backend on a kernel whose pidfds do
 * not keep the exit status asks whether the module is there: after the
 * first call it must not ask again at each call (before issue 34's end it
 * opened /dev/pidfd every time).
 */
static void __attribute__((noreturn)) tracee_without_module(void)
{
	pid_t pid = getpid();
	int fd;

	if (unshare(CLONE_NEWNS) ||
	    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) ||
	    mount("none", "/dev", "tmpfs", 0, NULL))
		_exit(91);
	libpidfd_set_backend(LIBPIDFD_BACKEND_AUTO);
	if (ptrace(PTRACE_TRACEME, 0, NULL, NULL) < 0)
		_exit(90);
	raise(SIGSTOP);
	/* The first call, which may ask, right before the counted one. */
	fd = libpidfd_open(pid, 0);
	if (fd < 0)
		_exit(92);
	close(fd);
	mark(0, 1);
	fd = libpidfd_open(pid, 0);
	mark(0, 2);
	if (fd < 0)
		_exit(93);
	close(fd);
	_exit(0);
}

START_TEST(open_without_module)
{
	static struct counts counts;
	pid_t pid;

	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0)
		tracee_without_module();
	count(pid, &counts);
	ck_assert_msg(counts.n[0] == 1,
		      "libpidfd_open without the module: %d system calls, the first %ld",
		      counts.n[0], counts.nr[0][0]);
	ck_assert_int_eq(counts.nr[0][0], SYS_pidfd_open);
}
END_TEST

/* ---- make bench: each call against the raw call it makes ---- */

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

struct bench_target {
	struct target t;
	int fd[NKINDS];		/* pidfds for the calls (t.self) */
};

/* The raw call that the libpidfd call of @op stands for, on kind @k. */
static void raw_op(enum op op, enum kind k, const struct target *t)
{
	struct pidfd_signal_args args = { 0 };
	struct pidfd_dev_info info;
	struct pollfd pfd;
	siginfo_t si;
	int fd;

	switch (op) {
	case OP_OPEN_NATIVE:
	case OP_OPEN_MODULE:
	case OP_OPEN_AUTO:
		fd = kind_pidfd(k, t->pid);
		if (fd >= 0)
			close(fd);
		break;
	case OP_SIGNAL:
		if (k == KERNEL)
			syscall(SYS_pidfd_send_signal, t->self[k], 0, NULL, 0);
		else
			ioctl(t->self[k], PIDFD_DEV_SEND_SIGNAL, &args);
		break;
	case OP_INFO:
		memset(&info, 0, sizeof(info));
		info.mask = PIDFD_INFO_PID;
		ioctl(t->self[k], PIDFD_DEV_GET_INFO, &info);
		break;
	case OP_NAMESPACE:
		fd = ioctl(t->self[k], PIDFD_GET_UTS_NAMESPACE, 0);
		if (fd >= 0)
			close(fd);
		break;
	case OP_WAIT_EXIT:
		pfd.fd = t->zombie[k];
		pfd.events = POLLIN;
		poll(&pfd, 1, 0);
		break;
	case OP_WAITID:
		memset(&si, 0, sizeof(si));
		waitid(P_PIDFD, (id_t)t->zombie[k], &si, WEXITED | WNOWAIT);
		break;
	case OP_PROCFD:
		fd = ioctl(t->self[k], PIDFD_GET_PROCFD, t->procroot);
		if (fd >= 0)
			close(fd);
		break;
	default:
		break;
	}
}

/*
 * The other kind's call, refused: what a call on a pidfd of the kind its
 * first try does not suit pays on top of the raw call.
 */
static void refused_op(enum op op, enum kind k, const struct target *t)
{
	struct pidfd_signal_args args = { 0 };

	(void)op;
	if (k == MODULE)
		syscall(SYS_pidfd_send_signal, t->self[k], 0, NULL, 0);
	else
		ioctl(t->self[k], PIDFD_DEV_SEND_SIGNAL, &args);
}

enum side { LIB, RAW, REFUSED, NSIDES };

static double time_side(enum side side, enum op op, enum kind k,
			const struct target *t, int n)
{
	double start;
	int i, fd;

	start = now_ns();
	for (i = 0; i < n; i++) {
		switch (side) {
		case LIB:
			fd = run_op(op, k, t);
			if (fd >= 0)
				close(fd);
			break;
		case RAW:
			raw_op(op, k, t);
			break;
		default:
			refused_op(op, k, t);
			break;
		}
	}
	return (now_ns() - start) / n;
}

/* Whether the raw call of @op exists for kind @k on this kernel. */
static bool raw_exists(enum op op, enum kind k)
{
	if (k == MODULE)
		return op != OP_WAITID && op != OP_OPEN_NATIVE &&
		       op != OP_OPEN_AUTO;
	switch (op) {
	case OP_INFO:
		return kernel.info;
	case OP_NAMESPACE:
		return kernel.namespaces;
	case OP_OPEN_MODULE:
	case OP_PROCFD:
		return false;
	default:
		return true;
	}
}

/* The kind of pidfd libpidfd_open() makes with the auto backend. */
static enum kind auto_kind(void)
{
	int fd = libpidfd_open(getpid(), 0);
	int b = libpidfd_pidfd_backend(fd);

	close(fd);
	return b == LIBPIDFD_BACKEND_MODULE ? MODULE : KERNEL;
}

static int bench(void)
{
	const char *mode = getenv("PIDFD_BENCH_MODE");
	bool short_mode = mode && !strcmp(mode, "short");
	int rounds = short_mode ? 3 : 15, n = short_mode ? 50 : 300;
	struct pidfd_dev_info info = { .mask = PIDFD_INFO_PID };
	double v[NSIDES][15];
	struct target t;
	pid_t zombie;
	int k, c, r, s, self, ns;
	enum kind ak;

	setvbuf(stdout, NULL, _IOLBF, 0);
	self = (int)syscall(SYS_pidfd_open, getpid(), 0);
	kernel.info = ioctl(self, PIDFD_DEV_GET_INFO, &info) == 0;
	ns = ioctl(self, PIDFD_GET_UTS_NAMESPACE, 0);
	kernel.namespaces = ns >= 0;
	if (ns >= 0)
		close(ns);
	close(self);
	zombie = fork();
	if (zombie == 0)
		_exit(3);
	t.pid = getpid();
	for (k = 0; k < NKINDS; k++) {
		t.self[k] = kind_pidfd(k, t.pid);
		t.zombie[k] = kind_pidfd(k, zombie);
		if (t.self[k] < 0 || t.zombie[k] < 0) {
			printf("libpidfd-cost: no %s pidfd: %m\n",
			       kind_names[k]);
			return 1;
		}
	}
	t.procroot = open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	waitid(P_PID, (id_t)zombie, &(siginfo_t){ 0 }, WEXITED | WNOWAIT);
	ak = auto_kind();

	printf("libpidfd-cost: %s mode, %d rounds of %d calls, the least per "
	       "call of any round (ns; instructions under ICOUNT=1)\n",
	       short_mode ? "short" : "full", rounds, n);
	printf("libpidfd-cost: auto makes %s pidfds here\n", kind_names[ak]);
	printf("libpidfd-cost: %-34s %-7s %9s %9s %7s %11s %7s\n", "call",
	       "pidfd", "libpidfd", "raw", "ratio", "raw+refused",
	       "ratio");
	for (c = 0; c < NCASES; c++) {
		enum op op = (enum op)(c / NKINDS);
		enum kind kk = (enum kind)(c % NKINDS);
		double med[NSIDES];
		bool raw_ok;

		/* open+close: the kind the backend makes. */
		if ((op == OP_OPEN_NATIVE && kk != KERNEL) ||
		    (op == OP_OPEN_MODULE && kk != MODULE) ||
		    (op == OP_OPEN_AUTO && kk != ak))
			continue;
		raw_ok = raw_exists(op, kk) ||
			 (op == OP_OPEN_MODULE && kk == MODULE) ||
			 (op == OP_OPEN_AUTO);
		libpidfd_set_backend(backend_of(op));
		run_op(op, kk, &t);	/* warm: probes, control fd */
		for (r = 0; r < rounds; r++) {
			for (s = 0; s < NSIDES; s++) {
				/* Interleaved: lib, raw, refused, then back. */
				int side = r % 2 ? NSIDES - 1 - s : s;

				v[side][r] = time_side((enum side)side, op, kk,
						       &t, n);
			}
		}
		/*
		 * The least seen: interference only adds work (7.2 under
		 * icount has stretches where every system call costs about
		 * 2 100 instructions more, whatever makes it: see
		 * docs/performance.md), and the calls are deterministic.
		 */
		for (s = 0; s < NSIDES; s++) {
			qsort(v[s], (size_t)rounds, sizeof(double),
			      cmp_double);
			med[s] = v[s][0];
		}
		if (!raw_ok) {
			printf("libpidfd-cost: %-34s %-7s %9.0f %9s %7s %11s %7s\n",
			       op_names[op], kind_names[kk], med[LIB], "-",
			       "-", "-", "-");
			continue;
		}
		printf("libpidfd-cost: %-34s %-7s %9.0f %9.0f %6.2fx %11.0f %6.2fx\n",
		       op_names[op], kind_names[kk], med[LIB], med[RAW],
		       med[LIB] / med[RAW], med[RAW] + med[REFUSED],
		       med[LIB] / (med[RAW] + med[REFUSED]));
	}
	printf("libpidfd-cost: done\n");
	return 0;
}

int main(int argc, char **argv)
{
	Suite *s;

	if (argc > 1 && !strcmp(argv[1], "--bench"))
		return bench();
	if (getenv("PIDFD_BENCH_MODE"))
		return bench();
	s = suite_create("libpidfd_cost");
	pt_add_tests(pt_tcase(s, "libpidfd_cost"), one_system_call,
		     open_without_module);
	return pt_main(s);
}
