// SPDX-License-Identifier: GPL-2.0
/*
 * Helpers of the differential suite: see diff_backend.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/capability.h>

#include "libpidfd.h"
#include "diff_backend.h"
#include "pidfd_test.h"

#ifndef P_PIDFD
#define P_PIDFD 3
#endif

#define DB_NR_PIDFD_SEND_SIGNAL	424
#define DB_NR_PIDFD_OPEN	434
#define DB_NR_LANDLOCK_CREATE	444
#define DB_NR_LANDLOCK_RESTRICT	446
#define DB_LANDLOCK_VERSION	1U
#define DB_LANDLOCK_SCOPE_SIGNAL (1ULL << 1)

const char *db_backend_name(enum db_backend b)
{
	return b == DB_NATIVE ? "native" : "module";
}

/* ---- raw syscalls -------------------------------------------------- */

int db_sys_pidfd_open(pid_t pid, unsigned int flags)
{
	return (int)syscall(DB_NR_PIDFD_OPEN, pid, flags);
}

int db_sys_pidfd_send_signal(int pidfd, int sig, const siginfo_t *info,
			     unsigned int flags)
{
	return (int)syscall(DB_NR_PIDFD_SEND_SIGNAL, pidfd, sig, info, flags);
}

int db_sys_waitid_pidfd(int pidfd, siginfo_t *info, int options)
{
	int ret;

	do
		ret = (int)syscall(SYS_waitid, P_PIDFD, pidfd, info, options,
				   NULL);
	while (ret < 0 && errno == EINTR);
	return ret;
}

int db_tgkill(pid_t tgid, pid_t tid, int sig)
{
	return (int)syscall(SYS_tgkill, tgid, tid, sig);
}

int db_sigqueueinfo(pid_t pid, int sig, siginfo_t *info)
{
	return (int)syscall(SYS_rt_sigqueueinfo, pid, sig, info);
}

int db_tgsigqueueinfo(pid_t tgid, pid_t tid, int sig, siginfo_t *info)
{
	return (int)syscall(SYS_rt_tgsigqueueinfo, tgid, tid, sig, info);
}

/* ---- the backends -------------------------------------------------- */

int db_open(enum db_backend b, pid_t pid, unsigned int flags)
{
	if (b == DB_NATIVE)
		return db_sys_pidfd_open(pid, flags);
	return libpidfd_open(pid, flags);
}

int db_send(enum db_backend b, int pidfd, int sig, const siginfo_t *info,
	    unsigned int flags)
{
	if (b == DB_NATIVE)
		return db_sys_pidfd_send_signal(pidfd, sig, info, flags);
	return libpidfd_send_signal(pidfd, sig, info, flags);
}

int db_get_info(enum db_backend b, int pidfd, struct pidfd_dev_info *info,
		uint64_t mask)
{
	memset(info, 0, sizeof(*info));
	info->mask = mask;
	if (b == DB_NATIVE)
		return ioctl(pidfd, PIDFD_DEV_GET_INFO, info);
	return libpidfd_get_info(pidfd, info, sizeof(*info));
}

/* ---- processes ----------------------------------------------------- */

/* ---- features ------------------------------------------------------ */

static struct db_features features;
static bool probed;

int db_landlock_abi(void)
{
	long v = syscall(DB_NR_LANDLOCK_CREATE, NULL, 0, DB_LANDLOCK_VERSION);

	return v < 0 ? 0 : (int)v;
}

struct db_landlock_attr {
	uint64_t handled_access_fs;
	uint64_t handled_access_net;
	uint64_t scoped;
};

int db_landlock_scope_signals(void)
{
	return db_landlock_restrict(0, DB_LANDLOCK_SCOPE_SIGNAL);
}

int db_landlock_restrict(uint64_t handled_access_fs, uint64_t scoped)
{
	struct db_landlock_attr attr = {
		.handled_access_fs = handled_access_fs,
		.scoped = scoped,
	};
	int fd, ret, saved;

	fd = (int)syscall(DB_NR_LANDLOCK_CREATE, &attr, sizeof(attr), 0);
	if (fd < 0)
		return -1;
	ret = prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
	if (!ret)
		ret = (int)syscall(DB_NR_LANDLOCK_RESTRICT, fd, 0);
	saved = errno;
	close(fd);
	errno = saved;
	return ret;
}

static void probe_reaped(struct db_features *f)
{
	struct pidfd_dev_info info;
	pid_t pid;
	int fd;

	pid = pt_fork();
	if (pid == 0)
		_exit(7);
	if (pid < 0)
		return;
	fd = db_sys_pidfd_open(pid, 0);
	pt_reap(pid);
	if (fd < 0)
		return;
	f->pollhup = (pt_poll1(fd, POLLIN, 1000) & POLLHUP) != 0;
	if (f->get_info && db_get_info(DB_NATIVE, fd, &info, PIDFD_INFO_EXIT) == 0)
		f->info_exit = (info.mask & PIDFD_INFO_EXIT) &&
			       WIFEXITED(info.exit_code) &&
			       WEXITSTATUS(info.exit_code) == 7;
	close(fd);
}

const struct db_features *db_features(void)
{
	struct db_features *f = &features;
	struct pidfd_dev_info info;
	struct utsname u;
	siginfo_t si;
	int fd, t;

	if (probed)
		return f;
	probed = true;
	if (uname(&u) == 0)
		sscanf(u.release, "%d.%d", &f->kmajor, &f->kminor);
	fd = db_sys_pidfd_open(getpid(), 0);
	f->open = fd >= 0;
	if (fd >= 0) {
		f->send_signal = db_sys_pidfd_send_signal(fd, 0, NULL, 0) == 0;
		f->signal_flags = db_sys_pidfd_send_signal(fd, 0, NULL,
				PIDFD_SIGNAL_THREAD_GROUP) == 0;
		f->get_info = db_get_info(DB_NATIVE, fd, &info, 0) == 0;
		f->supported_exit = f->get_info &&
			db_get_info(DB_NATIVE, fd, &info,
				    PIDFD_INFO_SUPPORTED_MASK) == 0 &&
			(info.mask & PIDFD_INFO_SUPPORTED_MASK) &&
			(info.supported_mask & PIDFD_INFO_EXIT);
		/* Our own pidfd: not our child, so ECHILD if P_PIDFD exists. */
		memset(&si, 0, sizeof(si));
		f->waitid = db_sys_waitid_pidfd(fd, &si, WEXITED | WNOHANG) < 0 &&
			    errno == ECHILD;
		close(fd);
	}
	t = db_sys_pidfd_open(getpid(), PIDFD_NONBLOCK);
	f->nonblock = t >= 0;
	if (t >= 0)
		close(t);
	t = db_sys_pidfd_open(getpid(), PIDFD_THREAD);
	f->thread = t >= 0;
	if (t >= 0)
		close(t);
	probe_reaped(f);
	f->landlock_abi = db_landlock_abi();
	return f;
}

void db_native_skipped_in(const char *test, const char *what,
			  const char *feature, bool has)
{
	ck_assert_msg(!has, "%s: native comparison skipped, but this kernel "
		      "has %s", what, feature);
	pt_skip_line(test, "native half of %s: this kernel has no %s; the "
		     "module checked against upstream's documented outcome",
		     what, feature);
}

/* ---- credentials --------------------------------------------------- */

static int write_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	ssize_t n;
	int saved;

	if (fd < 0)
		return -1;
	n = write(fd, text, strlen(text));
	saved = errno;
	close(fd);
	errno = saved;
	return n == (ssize_t)strlen(text) ? 0 : -1;
}

static int read_status_hex(const char *key, uint64_t *val)
{
	char line[256];
	size_t klen = strlen(key);
	int ret = -1;
	FILE *f = fopen("/proc/self/status", "re");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, key, klen)) {
			*val = strtoull(line + klen, NULL, 16);
			ret = 0;
			break;
		}
	}
	fclose(f);
	return ret;
}

int db_set_creds(const struct db_creds *c, char *why, size_t len)
{
	char map[64];

	if (c->cap_kill_only && prctl(PR_SET_KEEPCAPS, 1, 0, 0, 0)) {
		snprintf(why, len, "PR_SET_KEEPCAPS: %s", strerror(errno));
		return -1;
	}
	if (setgroups(0, NULL) || setresgid(c->gid, c->gid, c->gid)) {
		snprintf(why, len, "setresgid(%u): %s", c->gid, strerror(errno));
		return -1;
	}
	if (setresuid(c->ruid, c->euid, c->suid)) {
		snprintf(why, len, "setresuid(%u,%u,%u): %s", c->ruid, c->euid,
			 c->suid, strerror(errno));
		return -1;
	}
	if (c->cap_kill_only) {
		struct __user_cap_header_struct hdr = {
			.version = _LINUX_CAPABILITY_VERSION_3,
		};
		struct __user_cap_data_struct data[2];
		uint64_t eff = 0, prm = 0;

		memset(data, 0, sizeof(data));
		data[0].effective = data[0].permitted = 1U << CAP_KILL;
		if (syscall(SYS_capset, &hdr, data)) {
			snprintf(why, len, "capset: %s", strerror(errno));
			return -1;
		}
		prctl(PR_SET_KEEPCAPS, 0, 0, 0, 0);
		if (read_status_hex("CapEff:", &eff) ||
		    read_status_hex("CapPrm:", &prm) ||
		    eff != (1ULL << CAP_KILL) || prm != (1ULL << CAP_KILL)) {
			snprintf(why, len, "CapEff %llx CapPrm %llx, want only "
				 "CAP_KILL", (unsigned long long)eff,
				 (unsigned long long)prm);
			return -1;
		}
	}
	/* A uid change made us non-dumpable: /proc/self would be root's. */
	prctl(PR_SET_DUMPABLE, 1, 0, 0, 0);
	if (c->userns) {
		if (unshare(CLONE_NEWUSER)) {
			snprintf(why, len, "unshare(CLONE_NEWUSER): %s",
				 strerror(errno));
			return -1;
		}
		snprintf(map, sizeof(map), "0 %u 1\n", c->euid);
		if (write_file("/proc/self/setgroups", "deny\n") ||
		    write_file("/proc/self/uid_map", map)) {
			snprintf(why, len, "uid_map: %s", strerror(errno));
			return -1;
		}
		snprintf(map, sizeof(map), "0 %u 1\n", c->gid);
		if (write_file("/proc/self/gid_map", map)) {
			snprintf(why, len, "gid_map: %s", strerror(errno));
			return -1;
		}
		if (getuid() != 0 || geteuid() != 0) {
			snprintf(why, len, "uid in the new user ns is %u",
				 getuid());
			return -1;
		}
	}
	return 0;
}

/* ---- I/O on pipes -------------------------------------------------- */

static int read_full(int fd, void *buf, size_t len, int timeout_ms)
{
	size_t done = 0;

	while (done < len) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		int r = poll(&p, 1, timeout_ms);
		ssize_t n;

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			errno = r == 0 ? ETIMEDOUT : errno;
			return -1;
		}
		n = read(fd, (char *)buf + done, len - done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			errno = n == 0 ? EPIPE : errno;
			return -1;
		}
		done += (size_t)n;
	}
	return 0;
}

static int write_full(int fd, const void *buf, size_t len)
{
	ssize_t n;

	do
		n = write(fd, buf, len);
	while (n < 0 && errno == EINTR);
	return n == (ssize_t)len ? 0 : -1;
}

/* ---- the target server --------------------------------------------- */

#define DB_IO_TIMEOUT 20000

struct target_msg {
	int kind;		/* 1: hello, 2: dequeued */
	pid_t pid, tid;
	struct db_dequeued d;
	char why[160];
};

struct target_req {
	int sig;
};

static struct db_target *serving;
static volatile pid_t worker_tid;

static void target_serve(int which)
{
	struct target_req req;
	struct target_msg m;
	sigset_t set;
	siginfo_t si;

	for (;;) {
		ssize_t n = read(serving->cmd[which][0], &req, sizeof(req));

		if (n < 0 && errno == EINTR)
			continue;
		if (n != sizeof(req))
			_exit(0);
		memset(&m, 0, sizeof(m));
		memset(&si, 0, sizeof(si));
		sigemptyset(&set);
		sigaddset(&set, req.sig);
		m.kind = 2;
		m.d.tid = pt_gettid();
		m.d.ret = pt_sigtimedwait(&set, &si, 0);
		m.d.err = m.d.ret < 0 ? errno : 0;
		m.d.signo = si.si_signo;
		m.d.code = si.si_code;
		m.d.pid = si.si_pid;
		m.d.uid = (int)si.si_uid;
		m.d.value = si.si_value.sival_int;
		if (write_full(serving->rep[1], &m, sizeof(m)))
			_exit(1);
	}
}

static void *target_worker(void *arg)
{
	(void)arg;
	__atomic_store_n(&worker_tid, pt_gettid(), __ATOMIC_RELEASE);
	target_serve(1);
	return NULL;
}

int db_target_prepare(struct db_target *t)
{
	memset(t, 0, sizeof(*t));
	if (pipe2(t->cmd[0], O_CLOEXEC) || pipe2(t->cmd[1], O_CLOEXEC) ||
	    pipe2(t->rep, O_CLOEXEC))
		return -1;
	return 0;
}

static void target_fail(struct db_target *t, const char *what)
{
	struct target_msg m;

	memset(&m, 0, sizeof(m));
	m.kind = 1;
	m.pid = -1;
	snprintf(m.why, sizeof(m.why), "%s", what);
	write_full(t->rep[1], &m, sizeof(m));
	_exit(1);
}

pid_t db_target_fork(struct db_target *t, const struct db_target_opts *o)
{
	struct target_msg m;
	char why[160] = "";
	pthread_t th;
	sigset_t all;
	pid_t pid;

	pid = pt_fork();
	if (pid != 0)
		return pid;

	serving = t;
	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, NULL);
	if (o && o->setsid ? setsid() < 0 : setpgid(0, 0) < 0)
		target_fail(t, "setsid/setpgid failed");
	if (o && o->creds && db_set_creds(o->creds, why, sizeof(why)))
		target_fail(t, why);
	/* A credential change cleared it. */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (pthread_create(&th, NULL, target_worker, NULL))
		target_fail(t, "pthread_create failed");
	while (!__atomic_load_n(&worker_tid, __ATOMIC_ACQUIRE))
		usleep(100);
	memset(&m, 0, sizeof(m));
	m.kind = 1;
	m.pid = getpid();
	m.tid = worker_tid;
	if (write_full(t->rep[1], &m, sizeof(m)))
		_exit(1);
	target_serve(0);
	_exit(0);
}

int db_target_hello(struct db_target *t, int timeout_ms)
{
	struct target_msg m;

	if (read_full(t->rep[0], &m, sizeof(m), timeout_ms))
		return -1;
	if (m.kind != 1 || m.pid <= 0) {
		fprintf(stderr, "target start-up failed: %s\n", m.why);
		errno = EPROTO;
		return -1;
	}
	t->pid = m.pid;
	t->tid = m.tid;
	t->started = true;
	return 0;
}

int db_target_dequeue(struct db_target *t, int which, int sig,
		      struct db_dequeued *out)
{
	struct target_req req = { .sig = sig };
	struct target_msg m;

	if (write_full(t->cmd[which][1], &req, sizeof(req)) ||
	    read_full(t->rep[0], &m, sizeof(m), DB_IO_TIMEOUT))
		return -1;
	if (m.kind != 2) {
		errno = EPROTO;
		return -1;
	}
	*out = m.d;
	return 0;
}

void db_target_stop(struct db_target *t, bool reap)
{
	if (t->started && t->pid > 0) {
		kill(t->pid, SIGKILL);
		if (reap)
			pt_reap(t->pid);
	}
	for (int i = 0; i < 2; i++) {
		close(t->cmd[i][0]);
		close(t->cmd[i][1]);
		close(t->rep[i]);
	}
	t->started = false;
}

/* ---- the sender server --------------------------------------------- */

struct db_target *db_spawnable[DB_SPAWN_MAX];
struct db_target_opts db_spawn_opts[DB_SPAWN_MAX];

struct db_rep db_do(const struct db_req *r)
{
	struct db_rep rep = { .ret = -1, .err = 0 };
	siginfo_t si;

	errno = 0;
	switch (r->op) {
	case DB_OP_OPEN:
		rep.ret = db_open((enum db_backend)r->a, r->b, (unsigned)r->c);
		break;
	case DB_OP_CLOSE:
		rep.ret = close(r->a);
		break;
	case DB_OP_KILL:
		rep.ret = kill(r->b, r->sig);
		break;
	case DB_OP_TGKILL:
		rep.ret = db_tgkill(r->b, r->c, r->sig);
		break;
	case DB_OP_SIGQUEUE:
		pt_siginfo(&si, r->sig, r->code, r->value);
		rep.ret = db_sigqueueinfo(r->b, r->sig, &si);
		break;
	case DB_OP_TGSIGQUEUE:
		pt_siginfo(&si, r->sig, r->code, r->value);
		rep.ret = db_tgsigqueueinfo(r->b, r->c, r->sig, &si);
		break;
	case DB_OP_PIDFD_SEND:
		pt_siginfo(&si, r->sig, r->code, r->value);
		rep.ret = db_send((enum db_backend)r->a, r->b, r->sig,
				  r->with_info ? &si : NULL, (unsigned)r->c);
		break;
	case DB_OP_LANDLOCK:
		rep.ret = db_landlock_scope_signals();
		break;
	case DB_OP_SPAWN:
		if (r->a < 0 || r->a >= DB_SPAWN_MAX || !db_spawnable[r->a]) {
			errno = EINVAL;
			break;
		}
		rep.ret = db_target_fork(db_spawnable[r->a],
					 &db_spawn_opts[r->a]);
		break;
	case DB_OP_REAP:
		rep.ret = pt_reap_status(r->b);
		break;
	case DB_OP_GETPID:
		rep.ret = getpid();
		break;
	default:
		errno = EINVAL;
	}
	rep.err = rep.ret < 0 ? errno : 0;
	return rep;
}

struct sender_hello {
	int ok;
	char why[160];
};

int db_sender_start(struct db_sender *s, const struct db_creds *c,
		    char *why, size_t len)
{
	struct sender_hello h;

	memset(s, 0, sizeof(*s));
	if (pipe2(s->cmd, O_CLOEXEC) || pipe2(s->rep, O_CLOEXEC)) {
		snprintf(why, len, "pipe: %s", strerror(errno));
		return -1;
	}
	s->pid = pt_fork();
	if (s->pid < 0) {
		snprintf(why, len, "fork: %s", strerror(errno));
		return -1;
	}
	if (s->pid == 0) {
		struct db_req r;
		struct db_rep rep;

		close(s->cmd[1]);
		close(s->rep[0]);
		memset(&h, 0, sizeof(h));
		h.ok = 1;
		if (c && db_set_creds(c, h.why, sizeof(h.why)))
			h.ok = 0;
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		write_full(s->rep[1], &h, sizeof(h));
		if (!h.ok)
			_exit(1);
		for (;;) {
			if (read_full(s->cmd[0], &r, sizeof(r), -1))
				_exit(0);
			if (r.op == DB_OP_EXIT)
				_exit(0);
			rep = db_do(&r);
			if (write_full(s->rep[1], &rep, sizeof(rep)))
				_exit(1);
		}
	}
	close(s->cmd[0]);
	close(s->rep[1]);
	if (read_full(s->rep[0], &h, sizeof(h), DB_IO_TIMEOUT)) {
		snprintf(why, len, "no hello from the sender: %s",
			 strerror(errno));
		return -1;
	}
	if (!h.ok) {
		snprintf(why, len, "sender %s: %s", c ? c->name : "root", h.why);
		return -1;
	}
	return 0;
}

struct db_rep db_sender_do(struct db_sender *s, const struct db_req *r)
{
	struct db_rep rep = { .ret = -1, .err = EPIPE };

	if (write_full(s->cmd[1], r, sizeof(*r)) ||
	    read_full(s->rep[0], &rep, sizeof(rep), DB_IO_TIMEOUT)) {
		rep.ret = -1;
		rep.err = EPIPE;
	}
	return rep;
}

void db_sender_stop(struct db_sender *s)
{
	struct db_req r = { .op = DB_OP_EXIT };

	if (s->pid <= 0)
		return;
	write_full(s->cmd[1], &r, sizeof(r));
	close(s->cmd[1]);
	close(s->rep[0]);
	pt_reap(s->pid);
	s->pid = 0;
}
