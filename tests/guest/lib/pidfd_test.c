// SPDX-License-Identifier: GPL-2.0
/* Shared helpers for the guest test suites: see pidfd_test.h. */
#include "pidfd_test.h"

#include <grp.h>
#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>

static int dev_fd = -1;

int pt_dev(void)
{
	/* A forked child shares the parent's fd; that is fine. */
	if (dev_fd >= 0)
		return dev_fd;
	dev_fd = open(PT_DEV_PATH, O_RDWR | O_CLOEXEC);
	return dev_fd;
}

void pt_dev_close(void)
{
	if (dev_fd >= 0)
		close(dev_fd);
	dev_fd = -1;
}

int pt_open(pid_t pid, unsigned int flags)
{
	struct pidfd_open_args args = { .pid = pid, .flags = flags };
	int dev = pt_dev();

	if (dev < 0)
		return -1;
	return ioctl(dev, PIDFD_DEV_OPEN, &args);
}

int pt_open_ok(pid_t pid, unsigned int flags)
{
	int fd;

	errno = 0;
	if (pt_dev() < 0)
		ck_abort_msg("cannot open " PT_DEV_PATH ": %s (is the module loaded?)",
			     pt_errname(errno));
	fd = pt_open(pid, flags);
	ck_assert_msg(fd >= 0, "PIDFD_DEV_OPEN(%d, %#x) failed: %s", pid,
		      flags, pt_errname(errno));
	return fd;
}

int pt_send_signal(int pidfd, int sig, const siginfo_t *info,
		   unsigned int flags)
{
	struct pidfd_signal_args args = {
		.sig = (__u32)sig,
		.flags = flags,
		.info = (__u64)(uintptr_t)info,
	};

	return ioctl(pidfd, PIDFD_DEV_SEND_SIGNAL, &args);
}

int pt_get_info(int pidfd, struct pidfd_info *info, uint64_t mask)
{
	memset(info, 0, sizeof(*info));
	info->mask = mask;
	return ioctl(pidfd, PIDFD_GET_INFO, info);
}

int pt_get_procfd(int pidfd, int procfd)
{
	return ioctl(pidfd, PIDFD_GET_PROCFD, procfd);
}

int pt_open_procdir(int dirfd, unsigned int flags)
{
	struct pidfd_open_procdir_args args = {
		.procdir = dirfd,
		.flags = flags,
	};
	int dev = pt_dev();

	if (dev < 0)
		return -1;
	return ioctl(dev, PIDFD_DEV_OPEN_PROCDIR, &args);
}

int pt_open_peer(int sockfd, unsigned int flags)
{
	struct pidfd_open_peer_args args = {
		.sockfd = sockfd,
		.flags = flags,
	};
	int dev = pt_dev();

	if (dev < 0)
		return -1;
	return ioctl(dev, PIDFD_DEV_OPEN_PEER, &args);
}

pid_t pt_pidfd_pid(int pidfd)
{
	char buf[32];

	if (pt_fdinfo_field(NULL, 0, pidfd, "Pid:", buf, sizeof(buf)) < 0)
		return 0;
	return atoi(buf);
}

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
		signal(SIGTERM, SIG_DFL);
		signal(SIGINT, SIG_DFL);
		signal(SIGALRM, SIG_DFL);
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

int pt_reap(pid_t pid)
{
	int status;

	if (pt_waitpid(pid, &status, __WALL) != pid)
		return -1;
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	if (WIFSIGNALED(status))
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

void pt_wait_exited(pid_t pid)
{
	for (int i = 0; i < 2000 && pt_alive(pid); i++)
		usleep(5000);
	ck_assert_msg(!pt_alive(pid), "%d did not exit", pid);
}

bool pt_child_running(pid_t pid)
{
	siginfo_t si;

	memset(&si, 0, sizeof(si));
	if (waitid(P_PID, (id_t)pid, &si, WEXITED | WNOHANG | WNOWAIT | __WALL) < 0)
		return false;
	return si.si_pid == 0;
}

/* ---- pt_run -------------------------------------------------------- */

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
	int p[2], status;
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
	if (pt_waitpid(pid, &status, 0) != pid)
		return -1;
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return -1;
}

/* ---- sync pipes ---------------------------------------------------- */

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

int pt_kernel_tid_open_errno(pid_t tid)
{
	int fd;

	errno = 0;
	fd = (int)syscall(SYS_pidfd_open, tid, 0);
	ck_assert_msg(fd < 0, "pidfd_open(tid %d, 0) worked", tid);
	return errno;
}

bool pt_kernel_at_least(int major, int minor)
{
	struct utsname u;
	int ma = 0, mi = 0;

	ck_assert_int_eq(uname(&u), 0);
	ck_assert_int_eq(sscanf(u.release, "%d.%d", &ma, &mi), 2);
	return ma > major || (ma == major && mi >= minor);
}

int pt_reaped_open_errno(void)
{
	return pt_kernel_at_least(6, 15) ? ESRCH : EINVAL;
}

bool pt_open_gone_errno(int err)
{
	return err == ESRCH || err == pt_reaped_open_errno() ||
	       err == (pt_kernel_at_least(6, 15) ? ENOENT : EINVAL);
}

void *pt_idle_thread(void *arg)
{
	pt_sync_put(arg, pt_gettid());
	for (;;)
		pause();
	return NULL;
}

/* ---- a thread that execs ------------------------------------------ */

static void *exec_thread_main(void *arg)
{
	struct pt_exec_child *c = arg;
	int delay;

	/* Kept across the exec: the new program dies with the test too. */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	pt_sync_put(&c->ready, pt_gettid());
	delay = pt_sync_get(&c->exec, -1);
	if (delay > 0)
		usleep((useconds_t)delay * 1000);
	execl("/bin/sleep", "sleep", "30", (char *)NULL);
	_exit(3);
}

void pt_fork_exec_child(struct pt_exec_child *c)
{
	pt_sync_init(&c->ready);
	pt_sync_init(&c->leave);
	pt_sync_init(&c->exec);
	c->pid = pt_fork();
	if (c->pid == 0) {
		pthread_t th;
		int code;

		if (pthread_create(&th, NULL, exec_thread_main, c))
			_exit(2);
		code = pt_sync_get(&c->leave, -1);
		if (code >= 0)
			syscall(SYS_exit, code);
		for (;;)
			pause();
	}
	ck_assert_int_gt(c->pid, 0);
	c->tid = pt_sync_get(&c->ready, 10000);
	ck_assert_msg(c->tid > 0, "the exec thread did not start");
}

void pt_exec_child_leader_exit(struct pt_exec_child *c, int code)
{
	pt_sync_put(&c->leave, code);
	pt_wait_exited(c->pid);
}

void pt_exec_child_exec(struct pt_exec_child *c, int delay_ms)
{
	pt_sync_put(&c->exec, delay_ms);
}

void pt_exec_child_end(struct pt_exec_child *c)
{
	pt_kill_reap(c->pid);
	pt_sync_close(&c->ready);
	pt_sync_close(&c->leave);
	pt_sync_close(&c->exec);
}

/* ---- /proc --------------------------------------------------------- */

static int read_field_fd(int fd, const char *key, char *out, size_t len)
{
	size_t klen = strlen(key);
	char *line = NULL;
	size_t n = 0;
	int ret = -1;
	FILE *f;

	f = fdopen(fd, "r");
	if (!f) {
		close(fd);
		return -1;
	}
	while (getline(&line, &n, f) != -1) {
		size_t l;

		if (strncmp(line, key, klen))
			continue;
		l = strlen(line + klen);
		if (l && line[klen + l - 1] == '\n')
			line[klen + --l] = '\0';
		if (l >= len)
			break;
		memcpy(out, line + klen, l + 1);
		ret = 0;
		break;
	}
	free(line);
	fclose(f);
	return ret;
}

int pt_read_field_at(int dirfd, const char *path, const char *key,
		     char *out, size_t len)
{
	int fd = openat(dirfd, path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -1;
	return read_field_fd(fd, key, out, len);
}

int pt_read_field(const char *path, const char *key, char *out, size_t len)
{
	return pt_read_field_at(AT_FDCWD, path, key, out, len);
}

int pt_fdinfo_field(const char *procroot, pid_t pid, int fd, const char *key,
		    char *out, size_t len)
{
	char path[PATH_MAX];

	if (pid)
		snprintf(path, sizeof(path), "%s/%d/fdinfo/%d",
			 procroot ? procroot : "/proc", pid, fd);
	else
		snprintf(path, sizeof(path), "%s/self/fdinfo/%d",
			 procroot ? procroot : "/proc", fd);
	return pt_read_field(path, key, out, len);
}

int pt_thread_pending(pid_t pid, pid_t tid, uint64_t *sigpnd,
		      uint64_t *shdpnd)
{
	char path[128], buf[64];

	snprintf(path, sizeof(path), "/proc/%d/task/%d/status", pid, tid);
	if (pt_read_field(path, "SigPnd:", buf, sizeof(buf)) < 0)
		return -1;
	*sigpnd = strtoull(buf, NULL, 16);
	if (pt_read_field(path, "ShdPnd:", buf, sizeof(buf)) < 0)
		return -1;
	*shdpnd = strtoull(buf, NULL, 16);
	return 0;
}

int pt_set_ns_last_pid(pid_t last)
{
	char buf[32];
	int fd, n, ret;

	fd = open("/proc/sys/kernel/ns_last_pid", O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = snprintf(buf, sizeof(buf), "%d", last);
	ret = write(fd, buf, (size_t)n) == n ? 0 : -1;
	close(fd);
	return ret;
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

int pt_read_long(const char *path, long *val)
{
	char buf[64];
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	errno = 0;
	*val = strtol(buf, NULL, 10);
	return errno ? -1 : 0;
}

unsigned long pt_env_ulong(const char *name, unsigned long dflt)
{
	const char *v = getenv(name);

	return v && *v ? strtoul(v, NULL, 0) : dflt;
}

int pt_try_unload(void)
{
	return (int)syscall(SYS_delete_module, "pidfd", O_NONBLOCK);
}

int pt_read_text(const char *path, char *buf, size_t len)
{
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -1;
	while (n > 0 && buf[n - 1] == '\n')
		n--;
	buf[n] = '\0';
	return 0;
}

int pt_private_mounts(void)
{
	if (unshare(CLONE_NEWNS) < 0)
		return -1;
	return mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL);
}

int pt_tmpdir(char *buf, size_t len)
{
	if (snprintf(buf, len, "/tmp/pidfd-test.XXXXXX") >= (int)len)
		return -1;
	return mkdtemp(buf) ? 0 : -1;
}

/* ---- time ---------------------------------------------------------- */

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

/* ---- Check glue ---------------------------------------------------- */

const char *pt_errname(int err)
{
	const char *s = strerrorname_np(err);

	return s ? s : (err ? "E?" : "0");
}
