// SPDX-License-Identifier: GPL-2.0
/* Processes, threads and time for tests: see pt_process.h. */
#include "pt_process.h"
#include "pt_files.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

pid_t pt_gettid(void)
{
	return (pid_t)syscall(SYS_gettid);
}

pid_t pt_clone(unsigned long flags)
{
	pid_t parent = getpid();
	sigset_t all, old;
	pid_t pid;

	fflush(NULL);
	/* No signal may reach the child before its handlers are reset. */
	sigfillset(&all);
	sigprocmask(SIG_SETMASK, &all, &old);
	/* glibc's fork() has no flags; the raw clone is fork()'s (no stack). */
	pid = flags ? (pid_t)syscall(SYS_clone, flags | SIGCHLD, NULL, NULL,
				     NULL, NULL) : fork();
	if (pid == 0) {
		static const int inherited[] = { SIGTERM, SIGINT, SIGALRM,
						 SIGCHLD, SIGHUP, SIGUSR1,
						 SIGUSR2 };

		for (size_t i = 0; i < sizeof(inherited) / sizeof(inherited[0]); i++)
			signal(inherited[i], SIG_DFL);
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		/* our parent died before prctl (0: it is in another pid ns) */
		if (getppid() != parent && getppid() != 0)
			_exit(99);
	}
	return pid;
}

pid_t pt_fork(void)
{
	return pt_clone(0);
}

/* In the child of a fork that returned @pid: sleep until killed. */
static pid_t sleep_in_child(pid_t pid)
{
	if (pid == 0) {
		for (;;)
			pause();
	}
	return pid;
}

/* In the child of a fork that returned @pid: exit with @code. */
static pid_t exit_in_child(pid_t pid, int code)
{
	if (pid == 0)
		_exit(code);
	return pid;
}

pid_t pt_fork_sleeper(void)
{
	return sleep_in_child(pt_fork());
}

pid_t pt_fork_exit(int code)
{
	return exit_in_child(pt_fork(), code);
}

int pt_waitpid(pid_t pid, int *status, int options)
{
	int ret;

	do
		ret = waitpid(pid, status, options);
	while (ret < 0 && errno == EINTR);
	return ret;
}

int pt_reap_status(pid_t pid)
{
	int status;

	return pt_waitpid(pid, &status, __WALL) == pid ? status : -1;
}

int pt_reap(pid_t pid)
{
	int status = pt_reap_status(pid);

	if (status != -1 && WIFEXITED(status))
		return WEXITSTATUS(status);
	if (status != -1 && WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return -1;
}

int pt_wait_zombie(pid_t pid)
{
	siginfo_t si;
	int ret;

	do
		ret = waitid(P_PID, (id_t)pid, &si, WEXITED | WNOWAIT | __WALL);
	while (ret < 0 && errno == EINTR);
	return ret;
}

void pt_kill_reap(pid_t pid)
{
	if (pid <= 0)
		return;
	kill(pid, SIGKILL);
	pt_waitpid(pid, NULL, __WALL);
}

int pt_drop_privs(uid_t uid, gid_t gid)
{
	if (setgroups(0, NULL) < 0)
		return -1;
	if (setresgid(gid, gid, gid) < 0)
		return -1;
	return setresuid(uid, uid, uid);
}

void pt_become_hostile(void)
{
	PT_REQUIRE(pt_drop_privs(65534, 65534) == 0, "drop to uid 65534: %m");
	PT_REQUIRE(prctl(PR_SET_DUMPABLE, 1) == 0, "PR_SET_DUMPABLE: %m");
	PT_REQUIRE(unshare(CLONE_NEWUSER | CLONE_NEWNS) == 0,
		   "unshare(CLONE_NEWUSER | CLONE_NEWNS): %m");
	PT_REQUIRE(mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) == 0,
		   "private mounts: %m");
}

int pt_run_hostile_init(int (*init_main)(void))
{
	pid_t init;

	pt_become_hostile();
	PT_CHECK(unshare(CLONE_NEWPID) == 0, "unshare(CLONE_NEWPID): %m");
	init = pt_fork();
	if (init == 0)
		_exit(init_main());
	PT_CHECK(init > 0, "fork: %m");
	PT_CHECK(pt_reap(init) == 0, "our pid namespace's init failed");
	return 0;
}

bool pt_has_cap(int cap)
{
	char buf[64];

	if (pt_read_field("/proc/self/status", "CapEff:", buf, sizeof(buf)) < 0)
		return false;
	return (strtoull(buf, NULL, 16) >> cap) & 1;
}

bool pt_alive(pid_t pid)
{
	char path[64], buf[512], *p;
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	f = fopen(path, "re");
	if (!f)
		return false;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	p = strrchr(buf, ')');
	if (!p || p[1] != ' ')
		return false;
	return p[2] != 'Z' && p[2] != 'X';
}

bool pt_child_running(pid_t pid)
{
	siginfo_t si;

	memset(&si, 0, sizeof(si));
	if (waitid(P_PID, (id_t)pid, &si, WEXITED | WNOHANG | WNOWAIT | __WALL) < 0)
		return false;
	return si.si_pid == 0;
}

static int report_fd = -1;

void pt_msg(const char *fmt, ...)
{
	char buf[1024];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n >= sizeof(buf))
		n = sizeof(buf) - 1;
	if (report_fd >= 0) {
		if (write(report_fd, buf, (size_t)n) < 0)
			return;
	} else {
		fprintf(stderr, "%s\n", buf);
	}
}

int pt_run(int (*fn)(void *), void *arg, char *msg, size_t msglen)
{
	int p[2];
	size_t off = 0;
	pid_t pid;

	if (msglen)
		msg[0] = '\0';
	if (pipe2(p, O_CLOEXEC) < 0)
		return -1;
	pid = pt_fork();
	if (pid < 0) {
		close(p[0]);
		close(p[1]);
		return -1;
	}
	if (pid == 0) {
		close(p[0]);
		report_fd = p[1];
		_exit(fn(arg) & 0xff);
	}
	close(p[1]);
	for (;;) {
		ssize_t n;

		if (off + 1 >= msglen) {
			char sink[256];

			n = read(p[0], sink, sizeof(sink));
		} else {
			n = read(p[0], msg + off, msglen - off - 1);
			if (n > 0)
				off += (size_t)n;
		}
		if (n == 0 || (n < 0 && errno != EINTR))
			break;
	}
	if (msglen)
		msg[off] = '\0';
	close(p[0]);
	return pt_reap(pid);
}

void pt_sync_init(struct pt_sync *s)
{
	if (pipe2(s->fd, O_CLOEXEC) < 0)
		s->fd[0] = s->fd[1] = -1;
}

void pt_sync_put(struct pt_sync *s, int v)
{
	if (write(s->fd[1], &v, sizeof(v)) != sizeof(v))
		return;
}

int pt_sync_get(struct pt_sync *s, int timeout_ms)
{
	int v;
	ssize_t n;

	if (pt_poll1(s->fd[0], POLLIN, timeout_ms) <= 0)
		return -1;
	do
		n = read(s->fd[0], &v, sizeof(v));
	while (n < 0 && errno == EINTR);
	return n == sizeof(v) ? v : -1;
}

void pt_sync_close(struct pt_sync *s)
{
	if (s->fd[0] >= 0)
		close(s->fd[0]);
	if (s->fd[1] >= 0)
		close(s->fd[1]);
	s->fd[0] = s->fd[1] = -1;
}

pid_t pt_fork_non_child(struct pt_non_child *nc, int code, int sig)
{
	struct pt_sync up;

	pt_sync_init(&up);
	pt_sync_init(&nc->go);
	nc->pid = -1;
	nc->mid = pt_fork();
	if (nc->mid == 0) {
		pid_t g = pt_fork();

		if (g == 0) {
			if (pt_sync_get(&nc->go, 60000) != 1)
				_exit(100);
			if (sig)
				raise(sig);
			_exit(code);
		}
		pt_sync_put(&up, g);
		_exit(pt_reap(g) == (sig ? 128 + sig : code) ? 0 : 1);
	}
	if (nc->mid > 0)
		nc->pid = pt_sync_get(&up, 10000);
	pt_sync_close(&up);
	return nc->pid;
}

void pt_non_child_go(struct pt_non_child *nc)
{
	pt_sync_put(&nc->go, 1);
}

int pt_non_child_end(struct pt_non_child *nc)
{
	int ret = nc->mid > 0 ? pt_reap(nc->mid) : -1;

	pt_sync_close(&nc->go);
	return ret;
}

int pt_seccomp_filter(struct sock_filter *code, unsigned short len,
		      unsigned int flags)
{
	struct sock_fprog prog = { .len = len, .filter = code };

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
		return -1;
	return (int)syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, flags, &prog);
}

void pt_ready_then_pause(struct pt_sync *ready)
{
	pt_sync_put(ready, 1);
	for (;;)
		pause();
}

pid_t pt_fork_prepared(int (*prepare)(void *), void *arg)
{
	struct pt_sync ready;
	pid_t pid;

	pt_sync_init(&ready);
	pid = pt_fork();
	if (pid == 0) {
		if (prepare(arg))
			_exit(1);
		pt_ready_then_pause(&ready);
	}
	if (pid > 0 && pt_sync_get(&ready, 10000) != 1) {
		pt_kill_reap(pid);
		pid = -1;
	}
	pt_sync_close(&ready);
	return pid;
}

void *pt_idle_thread(void *arg)
{
	pt_sync_put(arg, pt_gettid());
	for (;;)
		pause();
	return NULL;
}

pid_t pt_start_idle_thread(void)
{
	struct pt_sync s;
	pthread_t th;
	pid_t tid = -1;

	pt_sync_init(&s);
	if (pthread_create(&th, NULL, pt_idle_thread, &s) == 0) {
		/* The thread is done with @s once it has said its TID. */
		tid = pt_sync_get(&s, 10000);
		pthread_detach(th);
	}
	pt_sync_close(&s);
	return tid;
}

pid_t pt_fork_at(pid_t nr)
{
	if (pt_set_ns_last_pid(nr - 1) < 0)
		return -1;
	return pt_fork();
}

pid_t pt_fork_sleeper_at(pid_t nr)
{
	return sleep_in_child(pt_fork_at(nr));
}

pid_t pt_fork_exit_at(pid_t nr, int code)
{
	return exit_in_child(pt_fork_at(nr), code);
}

bool pt_race_count(struct pt_race_counts *c, int ret, int err)
{
	if (ret >= 0)
		__atomic_add_fetch(&c->ok, 1, __ATOMIC_RELAXED);
	else if (err == ESRCH)
		__atomic_add_fetch(&c->esrch, 1, __ATOMIC_RELAXED);
	else
		return false;
	return true;
}

int64_t pt_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int pt_poll1(int fd, short events, int timeout_ms)
{
	struct pollfd p = { .fd = fd, .events = events };
	int64_t end = pt_now_ms() + timeout_ms;
	int ret;

	for (;;) {
		ret = poll(&p, 1, timeout_ms);
		if (ret >= 0 || errno != EINTR)
			break;
		timeout_ms = (int)(end - pt_now_ms());
		if (timeout_ms < 0)
			timeout_ms = 0;
	}
	if (ret <= 0)
		return ret;
	return p.revents;
}

int pt_sigtimedwait(const sigset_t *set, siginfo_t *si, int timeout_ms)
{
	struct timespec ts = { timeout_ms / 1000, (timeout_ms % 1000) * 1000000L };
	int64_t end = pt_now_ms() + timeout_ms;
	long ret;

	for (;;) {
		ret = syscall(SYS_rt_sigtimedwait, set, si, &ts, _NSIG / 8);
		if (ret >= 0 || errno != EINTR)
			return (int)ret;
		timeout_ms = (int)(end - pt_now_ms());
		if (timeout_ms < 0)
			timeout_ms = 0;
		ts.tv_sec = timeout_ms / 1000;
		ts.tv_nsec = (timeout_ms % 1000) * 1000000L;
	}
}

siginfo_t *pt_siginfo(siginfo_t *si, int sig, int code, int value)
{
	memset(si, 0, sizeof(*si));
	si->si_signo = sig;
	si->si_code = code;
	si->si_pid = getpid();
	si->si_uid = getuid();
	si->si_value.sival_int = value;
	return si;
}

void *pt_bad_ptr(void)
{
	static void *bad;

	if (!bad) {
		/* A PROT_NONE page, kept mapped so nothing else lands there. */
		bad = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS,
			   -1, 0);
		if (bad == MAP_FAILED)
			return (void *)8;
	}
	return bad;
}

const char *pt_errname(int err)
{
#if __GLIBC_PREREQ(2, 32)
	const char *s = strerrorname_np(err);

	return s ? s : (err ? "E?" : "0");
#else
	/* glibc 2.31 (Debian 11) has no strerrorname_np(): the tests' own. */
	static const struct { int err; const char *name; } names[] = {
#define PT_ERRNAME(e) { e, #e }
		PT_ERRNAME(EPERM), PT_ERRNAME(ENOENT), PT_ERRNAME(ESRCH),
		PT_ERRNAME(EINTR), PT_ERRNAME(EIO), PT_ERRNAME(E2BIG),
		PT_ERRNAME(EBADF), PT_ERRNAME(ECHILD), PT_ERRNAME(EAGAIN),
		PT_ERRNAME(ENOMEM), PT_ERRNAME(EACCES), PT_ERRNAME(EFAULT),
		PT_ERRNAME(EBUSY), PT_ERRNAME(EEXIST), PT_ERRNAME(EXDEV),
		PT_ERRNAME(ENODEV), PT_ERRNAME(ENOTDIR), PT_ERRNAME(EISDIR),
		PT_ERRNAME(EINVAL), PT_ERRNAME(ENFILE), PT_ERRNAME(EMFILE),
		PT_ERRNAME(ENOTTY), PT_ERRNAME(ENOSPC), PT_ERRNAME(EPIPE),
		PT_ERRNAME(ERANGE), PT_ERRNAME(ENOSYS), PT_ERRNAME(ENOPKG),
		PT_ERRNAME(EREMOTE), PT_ERRNAME(ENOPROTOOPT),
		PT_ERRNAME(EOPNOTSUPP), PT_ERRNAME(ETIMEDOUT),
		PT_ERRNAME(ECONNREFUSED), PT_ERRNAME(ENOTSOCK),
		PT_ERRNAME(EOVERFLOW), PT_ERRNAME(ELOOP),
#undef PT_ERRNAME
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (names[i].err == err)
			return names[i].name;
	return err ? "E?" : "0";
#endif
}

pid_t pt_fork_lasting_sleeper(void)
{
	return sleep_in_child(fork());
}
