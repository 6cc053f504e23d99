// SPDX-License-Identifier: GPL-2.0
/*
 * PIDFD_GET_INFO (docs/abi.md): every accepted size, the errors, the
 * values (pid, tgid, ppid, credentials, cgroup id) and PIDFD_INFO_EXIT for
 * children and non-children after reap. Mirrors the selftest
 * pidfd_info_test and pidfd_open_test's "get info from pidfd".
 */
#include "pidfd_test.h"

#include <grp.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/fsuid.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>

#define PID_CREDS (PIDFD_INFO_PID | PIDFD_INFO_CREDS)

START_TEST(info_sizes)
{
	static const size_t sizes[] = {
		PIDFD_INFO_SIZE_VER0, PIDFD_INFO_SIZE_VER1, PIDFD_INFO_SIZE_VER2,
		PIDFD_INFO_SIZE_VER3, 96, 128,
	};
	unsigned char buf[256];
	int fd = pt_open_ok(getpid(), 0);
	size_t i, j;

	ck_assert_int_eq(PIDFD_DEV_GET_INFO,
			 PT_GET_INFO_CMD(sizeof(struct pidfd_dev_info)));
	ck_assert_uint_eq(PT_GET_INFO_CMD(64), 0xC040FF0B);
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		size_t sz = sizes[i];
		struct pidfd_dev_info *info = (void *)buf;

		memset(buf, 0xAA, sizeof(buf));
		info->mask = PID_CREDS;
		ck_assert_msg(ioctl(fd, PT_GET_INFO_CMD(sz), buf) == 0,
			      "size %zu: %s", sz, pt_errname(errno));
		ck_assert_msg((info->mask & PID_CREDS) == PID_CREDS,
			      "size %zu: mask %#llx", sz,
			      (unsigned long long)info->mask);
		ck_assert_msg(info->pid == (__u32)getpid(), "size %zu: pid %u", sz,
			      info->pid);
		ck_assert_int_eq(info->ruid, getuid());
		/* nothing written past the size the caller gave */
		for (j = sz; j < sizeof(buf); j++)
			ck_assert_msg(buf[j] == 0xAA, "size %zu: byte %zu written",
				      sz, j);
		/* beyond the module's struct: zero-filled */
		for (j = sizeof(struct pidfd_dev_info); j < sz; j++)
			ck_assert_msg(buf[j] == 0, "size %zu: byte %zu not zeroed "
				      "(%#x)", sz, j, buf[j]);
	}
	close(fd);
}
END_TEST

START_TEST(info_errors)
{
	unsigned char buf[128];
	int fd = pt_open_ok(getpid(), 0);
	void *ro;

	memset(buf, 0, sizeof(buf));
	((struct pidfd_dev_info *)buf)->mask = PIDFD_INFO_PID;
	ck_assert_errno(ioctl(fd, PT_GET_INFO_CMD(56), buf), EINVAL);
	ck_assert_errno(ioctl(fd, PT_GET_INFO_CMD(63), buf), EINVAL);
	ck_assert_errno(ioctl(fd, PT_GET_INFO_CMD(8), buf), EINVAL);
	ck_assert_errno(ioctl(fd, PT_GET_INFO_CMD(0), buf), EINVAL);
	ck_assert_errno(ioctl(fd, PIDFD_DEV_GET_INFO, NULL), EINVAL);
	ck_assert_errno(ioctl(fd, PIDFD_DEV_GET_INFO, pt_bad_ptr()), EFAULT);
	ck_assert_errno(ioctl(fd, PT_GET_INFO_CMD(64), pt_bad_ptr()), EFAULT);
	/* readable but not writable */
	ro = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ck_assert_msg(ro != MAP_FAILED, "mmap: %m");
	ck_assert_errno(ioctl(fd, PIDFD_DEV_GET_INFO, ro), EFAULT);
	munmap(ro, 4096);
	/* a direction other than _IOWR is another command */
	ck_assert_errno(ioctl(fd, _IOC(_IOC_READ, PIDFS_IOCTL_MAGIC, 11, 64), buf),
			ENOTTY);
	close(fd);
}
END_TEST

static void check_self_values(const struct pidfd_dev_info *info, pid_t pid)
{
	uid_t r, e, s;
	gid_t rg, eg, sg;

	ck_assert_msg((info->mask & PID_CREDS) == PID_CREDS, "mask %#llx",
		      (unsigned long long)info->mask);
	ck_assert_msg(!(info->mask & PIDFD_INFO_EXIT),
		      "PIDFD_INFO_EXIT set for a live process");
	ck_assert_int_eq(info->pid, pid);
	ck_assert_int_eq(info->tgid, getpid());
	ck_assert_int_eq(info->ppid, getppid());
	ck_assert_ok(getresuid(&r, &e, &s));
	ck_assert_ok(getresgid(&rg, &eg, &sg));
	ck_assert_int_eq(info->ruid, r);
	ck_assert_int_eq(info->euid, e);
	ck_assert_int_eq(info->suid, s);
	ck_assert_int_eq(info->fsuid, (uid_t)setfsuid((uid_t)-1));
	ck_assert_int_eq(info->rgid, rg);
	ck_assert_int_eq(info->egid, eg);
	ck_assert_int_eq(info->sgid, sg);
	ck_assert_int_eq(info->fsgid, (gid_t)setfsgid((gid_t)-1));
}

START_TEST(info_self)
{
	struct pidfd_dev_info info;
	int fd = pt_open_ok(getpid(), 0);

	ck_assert_ok(pt_get_info(fd, &info, PID_CREDS | PIDFD_INFO_EXIT));
	check_self_values(&info, getpid());
	/* PID and CREDS are returned even if not asked */
	ck_assert_ok(pt_get_info(fd, &info, 0));
	check_self_values(&info, getpid());
	close(fd);
}
END_TEST

START_TEST(info_thread)
{
	struct pidfd_dev_info info;
	pid_t tid;
	int fd;

	tid = pt_start_idle_thread();
	ck_assert_int_gt(tid, 0);
	fd = pt_open_ok(tid, PIDFD_THREAD);
	ck_assert_ok(pt_get_info(fd, &info, PID_CREDS));
	check_self_values(&info, tid);
	ck_assert_int_eq(info.tgid, getpid());
	close(fd);
}
END_TEST

/* Distinct real, effective and saved ids; PDEATHSIG is lost with them. */
static int take_distinct_ids(void *arg)
{
	(void)arg;
	if (setgroups(0, NULL) || setresgid(2000, 2001, 2002) ||
	    setresuid(1000, 1001, 1002))
		return 1;
	return prctl(PR_SET_PDEATHSIG, SIGKILL);
}

START_TEST(info_child_creds)
{
	struct pidfd_dev_info info;
	pid_t pid = pt_fork_prepared(take_distinct_ids, NULL);
	int fd;

	ck_assert_int_gt(pid, 0);
	fd = pt_open_ok(pid, 0);
	ck_assert_ok(pt_get_info(fd, &info, PID_CREDS));
	ck_assert_int_eq(info.pid, pid);
	ck_assert_int_eq(info.tgid, pid);
	ck_assert_int_eq(info.ppid, getpid());
	pt_assert_uids(&info, 1000, 1001, 1002);
	pt_assert_gids(&info, 2000, 2001, 2002);
	pt_kill_reap(pid);
	close(fd);
}
END_TEST

/* The cgroup v2 id of our cgroup, from a file handle on cgroup2. */
static uint64_t my_cgroup_id(void)
{
	char mnt[PATH_MAX] = "", path[PATH_MAX * 2], cg[PATH_MAX], line[4096];
	struct {
		struct file_handle fh;
		unsigned char data[64];
	} h;
	int mount_id;
	uint64_t id;
	FILE *f;

	f = fopen("/proc/self/mountinfo", "re");
	ck_assert_msg(f != NULL, "mountinfo: %m");
	while (fgets(line, sizeof(line), f)) {
		char *sep = strstr(line, " - ");
		char mp[PATH_MAX];

		if (!sep || strncmp(sep, " - cgroup2 ", 11))
			continue;
		if (sscanf(line, "%*s %*s %*s %*s %4095s", mp) == 1) {
			snprintf(mnt, sizeof(mnt), "%s", mp);
			break;
		}
	}
	fclose(f);
	if (!mnt[0]) {
		/* Not mounted in the guest: mount it privately. */
		ck_assert_msg(pt_private_mounts() == 0, "private mounts: %m");
		ck_assert_ok(pt_tmpdir(mnt, sizeof(mnt)));
		ck_assert_msg(mount("cgroup2", mnt, "cgroup2", 0, NULL) == 0,
			      "mount cgroup2 on %s: %m", mnt);
	}
	ck_assert_msg(pt_read_field("/proc/self/cgroup", "0::", cg, sizeof(cg)) == 0,
		      "no cgroup v2 line in /proc/self/cgroup");
	snprintf(path, sizeof(path), "%s%s", mnt, cg);
	h.fh.handle_bytes = sizeof(h.data);
	ck_assert_msg(name_to_handle_at(AT_FDCWD, path, &h.fh, &mount_id, 0) == 0,
		      "name_to_handle_at(%s): %m", path);
	ck_assert_int_eq(h.fh.handle_bytes, 8);
	memcpy(&id, h.fh.f_handle, sizeof(id));
	return id;
}

START_TEST(info_cgroupid)
{
	struct pidfd_dev_info info;
	uint64_t want = my_cgroup_id();
	int fd = pt_open_ok(getpid(), 0);

	ck_assert_ok(pt_get_info(fd, &info, PIDFD_INFO_CGROUPID));
	ck_assert_msg(info.mask & PIDFD_INFO_CGROUPID, "CGROUPID not in mask %#llx",
		      (unsigned long long)info.mask);
	ck_assert_msg(info.cgroupid != 0, "cgroupid 0");
	ck_assert_msg(info.cgroupid == want, "cgroupid %llu, cgroup2 says %llu",
		      (unsigned long long)info.cgroupid, (unsigned long long)want);
	close(fd);
}
END_TEST

START_TEST(info_supported_mask)
{
	struct pidfd_dev_info info;
	const uint64_t need = PIDFD_INFO_PID | PIDFD_INFO_CREDS |
		PIDFD_INFO_CGROUPID | PIDFD_INFO_EXIT | PIDFD_INFO_SUPPORTED_MASK |
		PIDFD_INFO_COREDUMP | PIDFD_INFO_COREDUMP_SIGNAL |
		PIDFD_INFO_COREDUMP_CODE;
	int fd = pt_open_ok(getpid(), 0);

	ck_assert_ok(pt_get_info(fd, &info, PIDFD_INFO_SUPPORTED_MASK));
	ck_assert_msg(info.mask & PIDFD_INFO_SUPPORTED_MASK,
		      "SUPPORTED_MASK not returned (mask %#llx)",
		      (unsigned long long)info.mask);
	ck_assert_msg(info.supported_mask == need,
		      "supported_mask %#llx, want %#llx",
		      (unsigned long long)info.supported_mask,
		      (unsigned long long)need);
	close(fd);
}
END_TEST

/* ---- exit status ---------------------------------------------------- */

/* A child that exits with @code or is killed by @sig; returns its status. */
static void exit_case(int code, int sig)
{
	struct pidfd_dev_info info;
	struct pt_sync go;
	int fd, status;
	pid_t pid;

	pt_sync_init(&go);
	pid = pt_fork();
	if (pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		pt_sync_get(&go, 60000);
		if (sig)
			for (;;)
				pause();
		_exit(code);
	}
	ck_assert_int_ge(pid, 0);
	fd = pt_open_ok(pid, 0);

	/* running: no EXIT */
	ck_assert_ok(pt_get_info(fd, &info, PID_CREDS | PIDFD_INFO_EXIT));
	ck_assert_msg(!(info.mask & PIDFD_INFO_EXIT), "EXIT set while running");
	ck_assert_int_eq(info.pid, pid);

	if (sig)
		ck_assert_ok(pt_send_signal(fd, sig, NULL, 0));
	else
		pt_sync_put(&go, 1);
	ck_assert_ok(pt_wait_zombie(pid));

	/* zombie: still no EXIT, creds still there */
	ck_assert_ok(pt_get_info(fd, &info, PID_CREDS | PIDFD_INFO_EXIT));
	ck_assert_msg(!(info.mask & PIDFD_INFO_EXIT), "EXIT set for an unreaped zombie");
	ck_assert_msg(info.mask & PIDFD_INFO_CREDS, "no CREDS for a zombie");
	ck_assert_int_eq(info.pid, pid);

	ck_assert_int_eq(pt_waitpid(pid, &status, 0), pid);

	/* reaped: ESRCH without EXIT, the status with it */
	ck_assert_errno(pt_get_info(fd, &info, PID_CREDS), ESRCH);
	ck_assert_errno(pt_get_info(fd, &info, 0), ESRCH);
	ck_assert_msg(pt_get_info(fd, &info, PIDFD_INFO_EXIT) == 0,
		      "GET_INFO(EXIT) after reap: %s", pt_errname(errno));
	ck_assert_msg(info.mask & PIDFD_INFO_EXIT, "EXIT not set after reap (mask %#llx)",
		      (unsigned long long)info.mask);
	ck_assert_msg(!(info.mask & PIDFD_INFO_CREDS), "CREDS set after reap");
	ck_assert_msg(info.exit_code == status, "exit_code %#x, wait status %#x",
		      info.exit_code, status);
	if (sig) {
		ck_assert(WIFSIGNALED(info.exit_code));
		ck_assert_int_eq(WTERMSIG(info.exit_code), sig);
	} else {
		ck_assert(WIFEXITED(info.exit_code));
		ck_assert_int_eq(WEXITSTATUS(info.exit_code), code);
	}
	/* asked again: the same */
	ck_assert_ok(pt_get_info(fd, &info, PIDFD_INFO_EXIT | PID_CREDS));
	ck_assert_int_eq(info.exit_code, status);
	close(fd);
	pt_sync_close(&go);
}

START_TEST(exit_0)
{
	exit_case(0, 0);
}
END_TEST

START_TEST(exit_42)
{
	exit_case(42, 0);
}
END_TEST

START_TEST(exit_sigkill)
{
	exit_case(0, SIGKILL);
}
END_TEST

START_TEST(exit_sigterm)
{
	exit_case(0, SIGTERM);
}
END_TEST

/* A grandchild, reaped by its own parent: not our child. */
START_TEST(exit_non_child)
{
	struct pidfd_dev_info info;
	struct pt_non_child nc;
	int fd, ev;

	ck_assert_int_gt(pt_fork_non_child(&nc, 42, 0), 0);
	fd = pt_open_ok(nc.pid, 0);
	ck_assert_ok(pt_get_info(fd, &info, PIDFD_INFO_EXIT));
	ck_assert_int_eq(info.ppid, nc.mid);
	ck_assert(!(info.mask & PIDFD_INFO_EXIT));
	pt_non_child_go(&nc);
	/* its parent reaps it */
	ck_assert_int_eq(pt_non_child_end(&nc), 0);
	ev = pt_poll1(fd, POLLIN, 10000);
	ck_assert_msg(ev & POLLHUP, "no POLLHUP after the grandchild was reaped");
	ck_assert_errno(pt_get_info(fd, &info, PID_CREDS), ESRCH);
	ck_assert_msg(pt_get_info(fd, &info, PIDFD_INFO_EXIT) == 0,
		      "GET_INFO(EXIT) of a reaped non-child: %s", pt_errname(errno));
	ck_assert(info.mask & PIDFD_INFO_EXIT);
	ck_assert_msg(WIFEXITED(info.exit_code) && WEXITSTATUS(info.exit_code) == 42,
		      "exit_code %#x, want exit(42)", info.exit_code);
	close(fd);
}
END_TEST

/*
 * A pidfd handed to a child in a new pid ns: its target is outside,
 * EREMOTE as upstream answers since early 2026 (ESRCH before).
 */
static int foreign_info(void *arg)
{
	struct pidfd_dev_info info;
	int fd = *(int *)arg;

	errno = 0;
	PT_CHECK(pt_get_info(fd, &info, PID_CREDS) == -1 && errno == EREMOTE,
		 "GET_INFO on a parent-ns process: %s", pt_errname(errno));
	fd = pt_open(getpid(), 0);
	PT_CHECK(pt_get_info(fd, &info, PID_CREDS) == 0, "self: %m");
	PT_CHECK(info.pid == 1 && info.tgid == 1 && info.ppid == 0,
		 "pid %u tgid %u ppid %u in the new ns", info.pid, info.tgid,
		 info.ppid);
	return 0;
}

START_TEST(info_foreign_pidns)
{
	int fd = pt_open_ok(getpid(), 0);

	pt_unshare_pidns();
	pt_assert_child(foreign_info, &fd);
	close(fd);
}
END_TEST

/* GET_INFO(EXIT) on @fd once its pid has lost its task (POLLHUP). */
static int exit_code_after_release(int fd)
{
	struct pidfd_dev_info info;
	int64_t start = pt_now_ms();

	while (!(pt_poll1(fd, POLLIN, 0) & POLLHUP) &&
	       pt_now_ms() - start < 20000)
		usleep(10000);
	ck_assert_msg(pt_get_info(fd, &info, PIDFD_INFO_EXIT) == 0,
		      "GET_INFO(EXIT) after the exec: %s", pt_errname(errno));
	ck_assert_msg(info.mask & PIDFD_INFO_EXIT, "no EXIT (mask %#llx)",
		      (unsigned long long)info.mask);
	return info.exit_code;
}

/*
 * A thread execs: its own thread ID goes with the old leader, whose exit
 * upstream (6.15+) records on that struct pid: @leader_code's status if the
 * leader had left on its own before, else 0 (killed by the exec). Both the
 * PIDFD_THREAD pidfd and the thread ID pidfd see it; the process's own
 * pidfd sees a live process.
 */
static void check_exec_exit(int leader_code)
{
	struct pidfd_dev_info info;
	struct pt_exec_child c;
	int tfd, pfd, want;

	pt_fork_exec_child(&c);
	tfd = pt_open_ok(c.tid, PIDFD_THREAD);
	pfd = pt_open_ok(c.pid, 0);
	if (leader_code >= 0)
		pt_exec_child_leader_exit(&c, leader_code);
	pt_exec_child_exec(&c, 0);
	want = leader_code >= 0 ? leader_code << 8 : 0;
	ck_assert_int_eq(exit_code_after_release(tfd), want);
	ck_assert_ok(pt_get_info(pfd, &info, PIDFD_INFO_PID | PIDFD_INFO_EXIT));
	ck_assert_msg(!(info.mask & PIDFD_INFO_EXIT), "EXIT for a live process");
	ck_assert_int_eq(info.pid, c.pid);
	pt_exec_child_end(&c);
	close(pfd);
	close(tfd);
}

START_TEST(exit_thread_exec_leader_alive)
{
	check_exec_exit(-1);
}
END_TEST

START_TEST(exit_thread_exec_leader_gone)
{
	check_exec_exit(7);
}
END_TEST

/* Two threads that each leave with SYS_exit(code) on command. */
struct exiting_pair {
	pid_t pid, tid;
	struct pt_sync ready;		/* child to test: the thread's TID */
	struct pt_sync leader_go;	/* test to leader: its exit code */
	struct pt_sync thread_go;	/* test to thread: its exit code */
};

static void *exiting_thread_main(void *arg)
{
	struct exiting_pair *p = arg;

	pt_sync_put(&p->ready, pt_gettid());
	syscall(SYS_exit, pt_sync_get(&p->thread_go, -1));
	return NULL;
}

/*
 * A thread's own exit code is its own even when its group's exit code is
 * set by another thread while it is on its way out. Since 5.17 the last
 * thread to enter do_exit() sets SIGNAL_GROUP_EXIT with its code; a thread
 * that entered before and reaches sched_process_exit after must not take
 * that code. PTRACE_EVENT_EXIT stops the thread inside do_exit(), after
 * it has counted itself out, so the leader is the last one in, every time.
 */
START_TEST(exit_thread_own_code_group_exit_after)
{
	struct pidfd_dev_info info;
	struct exiting_pair p;
	int tfd, pfd, st, status;

	pt_sync_init(&p.ready);
	pt_sync_init(&p.leader_go);
	pt_sync_init(&p.thread_go);
	p.pid = pt_fork();
	if (p.pid == 0) {
		pthread_t th;

		if (pthread_create(&th, NULL, exiting_thread_main, &p))
			_exit(2);
		syscall(SYS_exit, pt_sync_get(&p.leader_go, -1));
	}
	ck_assert_int_gt(p.pid, 0);
	p.tid = pt_sync_get(&p.ready, 10000);
	ck_assert_int_gt(p.tid, 0);
	tfd = pt_open_ok(p.tid, PIDFD_THREAD);
	pfd = pt_open_ok(p.pid, 0);

	ck_assert_msg(ptrace(PTRACE_SEIZE, p.tid, 0, PTRACE_O_TRACEEXIT) == 0,
		      "PTRACE_SEIZE: %m");
	pt_sync_put(&p.thread_go, 86);
	ck_assert_int_eq(waitpid(p.tid, &st, __WALL), p.tid);
	ck_assert_msg(WIFSTOPPED(st) && st >> 8 == (SIGTRAP | PTRACE_EVENT_EXIT << 8),
		      "thread not in its exit stop (status %#x)", st);
	pt_sync_put(&p.leader_go, 85);
	pt_wait_exited(p.pid);
	ck_assert_msg(ptrace(PTRACE_DETACH, p.tid, 0, 0) == 0, "PTRACE_DETACH: %m");

	ck_assert_int_eq(pt_waitpid(p.pid, &status, 0), p.pid);
	ck_assert_int_eq(exit_code_after_release(tfd), 86 << 8);
	ck_assert_ok(pt_get_info(pfd, &info, PIDFD_INFO_EXIT));
	ck_assert_msg(info.mask & PIDFD_INFO_EXIT, "no EXIT for the process");
	ck_assert_msg(info.exit_code == status, "process exit_code %#x, wait status %#x",
		      info.exit_code, status);
	close(pfd);
	close(tfd);
	pt_sync_close(&p.ready);
	pt_sync_close(&p.leader_go);
	pt_sync_close(&p.thread_go);
}
END_TEST

static void *reap_main(void *arg)
{
	pt_reap(*(pid_t *)arg);
	return NULL;
}

/*
 * The parent reaps while a pidfd is being opened: the open either fails
 * (ESRCH, the process is gone) or gives a pidfd whose exit status is
 * recorded. Before the fix, an open that saw the zombie and then lost the
 * race with the reap gave a pidfd with no status (GET_INFO: ESRCH).
 */
START_TEST(exit_open_races_reap)
{
	int i, code, opened = 0, gone = 0;

	for (i = 0; i < 300; i++) {
		struct pidfd_dev_info info;
		pthread_t reaper;
		pid_t pid;
		int pidfd;

		code = i % 256;
		pid = pt_fork_exit(code);
		ck_assert_int_gt(pid, 0);
		ck_assert_int_eq(pthread_create(&reaper, NULL, reap_main, &pid), 0);
		pidfd = pt_open(pid, 0);
		if (pidfd < 0) {
			/* Freed (ESRCH), or still allocated with no task. */
			ck_assert_msg(errno == ESRCH ||
				      errno == pt_reaped_open_errno(),
				      "open: %s", pt_errname(errno));
			gone++;
		}
		pthread_join(reaper, NULL);
		if (pidfd < 0)
			continue;
		opened++;
		ck_assert_msg(pt_get_info(pidfd, &info, PIDFD_INFO_EXIT) == 0,
			      "iteration %d: GET_INFO(EXIT) after the reap: %s", i,
			      pt_errname(errno));
		ck_assert_msg(info.mask & PIDFD_INFO_EXIT,
			      "iteration %d: no exit status recorded", i);
		ck_assert_msg(WIFEXITED(info.exit_code) &&
			      WEXITSTATUS(info.exit_code) == code,
			      "iteration %d: status %#x, want exit(%d)", i,
			      info.exit_code, code);
		close(pidfd);
	}
	printf("[info] open against the reap: %d pidfds with a status, %d ESRCH\n",
	       opened, gone);
	/* Not one open won: the status was never looked at. */
	ck_assert_msg(opened > 0, "no open of %d won against the reap",
		      opened + gone);
}
END_TEST

/* ---- core dumps ---------------------------------------------------- */

#define DUMP_BITS (PIDFD_INFO_COREDUMP | PIDFD_INFO_COREDUMP_SIGNAL | \
		   PIDFD_INFO_COREDUMP_CODE)
#define CORE_PATTERN "/tmp/pt-core.%p"

/* Dumps go to a file in the guest's /tmp, named by the pid. */
static void set_core_pattern(void)
{
	static const char pattern[] = CORE_PATTERN "\n";
	int fd = open("/proc/sys/kernel/core_pattern", O_WRONLY | O_CLOEXEC);

	ck_assert_msg(fd >= 0, "core_pattern: %m");
	ck_assert_int_eq(write(fd, pattern, sizeof(pattern) - 1),
			 (ssize_t)sizeof(pattern) - 1);
	close(fd);
}

/* 7.x keeps the dumpability in the task until it is reaped, older in its mm. */
static bool zombie_keeps_dumpable(void)
{
	struct utsname u;

	ck_assert_ok(uname(&u));
	return atoi(u.release) >= 7;
}

enum crash { CLEAN_EXIT, CRASH_SEGV, CRASH_ABRT };

/*
 * The child's dumpability: as a plain process; off (PR_SET_DUMPABLE 0); or
 * root's, after changing uids with fs.suid_dumpable 2.
 */
enum dumpable { AS_USER, DUMP_OFF, AS_ROOT };

static const unsigned int dumpable_bit[] = {
	[AS_USER] = PIDFD_COREDUMP_USER,
	[DUMP_OFF] = PIDFD_COREDUMP_SKIP,
	[AS_ROOT] = PIDFD_COREDUMP_ROOT,
};

/* Sets fs.suid_dumpable; returns the old value. */
static int set_suid_dumpable(int value)
{
	char buf[16];
	int fd, old;
	ssize_t n;

	fd = open("/proc/sys/fs/suid_dumpable", O_RDWR | O_CLOEXEC);
	ck_assert_msg(fd >= 0, "suid_dumpable: %m");
	n = read(fd, buf, sizeof(buf) - 1);
	ck_assert_int_gt(n, 0);
	buf[n] = '\0';
	old = atoi(buf);
	n = snprintf(buf, sizeof(buf), "%d\n", value);
	ck_assert_int_eq(pwrite(fd, buf, n, 0), n);
	close(fd);
	return old;
}

/*
 * A child that, on command, exits cleanly or crashes with core dumps
 * enabled (RLIMIT_CORE unlimited) or disabled (RLIMIT_CORE 0, or
 * @mode DUMP_OFF).
 */
static pid_t fork_crasher(struct pt_sync *ready, struct pt_sync *go,
			  enum crash how, bool limit, enum dumpable mode)
{
	pid_t pid = pt_fork();

	if (pid == 0) {
		struct rlimit rl = { limit ? RLIM_INFINITY : 0,
				     limit ? RLIM_INFINITY : 0 };

		if (setrlimit(RLIMIT_CORE, &rl))
			_exit(90);
		if (mode == DUMP_OFF && prctl(PR_SET_DUMPABLE, 0))
			_exit(91);
		if (mode == AS_ROOT && pt_drop_privs(1000, 1000))
			_exit(92);
		pt_sync_put(ready, 1);
		pt_sync_get(go, 60000);
		if (how == CRASH_SEGV) {
			/* through a variable: the compiler sees no constant */
			volatile uintptr_t unmapped = 8;

			*(volatile int *)unmapped = 1;
		}
		else if (how == CRASH_ABRT)
			abort();
		_exit(0);
	}
	ck_assert_int_gt(pid, 0);
	ck_assert_int_eq(pt_sync_get(ready, 10000), 1);
	return pid;
}

/*
 * A native pidfd of @pid, alive, that answers PIDFD_INFO_COREDUMP, to
 * hold the module's answers against (the test has made sure the kernel
 * has it).
 */
static int native_coredump_pidfd(pid_t pid)
{
	struct pidfd_dev_info info = { .mask = PIDFD_INFO_COREDUMP };
	int fd = ck_assert_ok(syscall(SYS_pidfd_open, pid, 0));

	ck_assert_msg(ioctl(fd, PIDFD_DEV_GET_INFO, &info) == 0, "native: %m");
	ck_assert_msg(info.mask & PIDFD_INFO_COREDUMP,
		      "the kernel's pidfd of %d: no PIDFD_INFO_COREDUMP (mask %#llx)",
		      pid, (unsigned long long)info.mask);
	return fd;
}

static void native_info(int fd, struct pidfd_dev_info *info, uint64_t mask)
{
	memset(info, 0, sizeof(*info));
	info->mask = mask;
	ck_assert_msg(ioctl(fd, PIDFD_DEV_GET_INFO, info) == 0, "native: %m");
}

/* The kernel answers as the module does. */
static void assert_same_as_native(int nfd, const struct pidfd_dev_info *info,
				  uint64_t mask)
{
	struct pidfd_dev_info n;

	if (nfd < 0)
		return;
	native_info(nfd, &n, mask);
	ck_assert_uint_eq(n.mask & DUMP_BITS, info->mask & DUMP_BITS);
	ck_assert_uint_eq(n.coredump_mask, info->coredump_mask);
}

static void assert_dump_info(const struct pidfd_dev_info *info, int sig,
			     int code, unsigned int mode_bit)
{
	ck_assert_msg((info->mask & DUMP_BITS) == DUMP_BITS, "mask %#llx",
		      (unsigned long long)info->mask);
	ck_assert_uint_eq(info->coredump_mask, PIDFD_COREDUMPED | mode_bit);
	ck_assert_int_eq(info->coredump_signal, sig);
	/* a __u32 field holds the signed si_code */
	ck_assert_int_eq((int)info->coredump_code, code);
}

/*
 * Alive: the mode a dump would be made in. Exited with a dump: the dump,
 * its signal and si_code, as a zombie and after the reap. Exited without
 * one: nothing once reaped. With @native, each step is held against the
 * kernel's own pidfd as well.
 */
static void coredump_case(enum crash how, bool limit, enum dumpable mode,
			  bool native)
{
	static const int sigs[] = { [CRASH_SEGV] = SIGSEGV,
				    [CRASH_ABRT] = SIGABRT };
	/* a fault on an unmapped address; abort() raises with tgkill */
	static const int codes[] = { [CRASH_SEGV] = SEGV_MAPERR,
				     [CRASH_ABRT] = SI_TKILL };
	bool dump = how != CLEAN_EXIT && limit && mode != DUMP_OFF;
	unsigned int mode_bit = dumpable_bit[mode];
	int old_suid_dumpable = -1;
	char core[64];
	struct pidfd_dev_info info, n;
	struct pt_sync ready, go;
	struct stat st;
	int fd, nfd, status;
	pid_t pid;

	set_core_pattern();
	pt_sync_init(&ready);
	pt_sync_init(&go);
	if (mode == AS_ROOT)
		old_suid_dumpable = set_suid_dumpable(2);
	pid = fork_crasher(&ready, &go, how, limit, mode);
	if (mode == AS_ROOT)
		set_suid_dumpable(old_suid_dumpable);
	snprintf(core, sizeof(core), "/tmp/pt-core.%d", pid);
	fd = pt_open_ok(pid, 0);
	nfd = native ? native_coredump_pidfd(pid) : -1;

	ck_assert_ok(pt_get_info(fd, &info, PIDFD_INFO_COREDUMP));
	ck_assert_uint_eq(info.mask & DUMP_BITS, PIDFD_INFO_COREDUMP);
	ck_assert_uint_eq(info.coredump_mask, mode_bit);
	assert_same_as_native(nfd, &info, PIDFD_INFO_COREDUMP);
	/* not asked: not given */
	ck_assert_ok(pt_get_info(fd, &info, PIDFD_INFO_EXIT));
	ck_assert_uint_eq(info.mask & DUMP_BITS, 0);

	pt_sync_put(&go, 1);
	ck_assert_ok(pt_wait_zombie(pid));
	ck_assert_ok(pt_get_info(fd, &info, PIDFD_INFO_COREDUMP));
	if (dump) {
		assert_dump_info(&info, sigs[how], codes[how], mode_bit);
		/* upstream records no dump to a file: the dumpability */
		if (nfd >= 0) {
			native_info(nfd, &n, PIDFD_INFO_COREDUMP);
			ck_assert_uint_eq(n.mask & DUMP_BITS, PIDFD_INFO_COREDUMP);
			ck_assert_uint_eq(n.coredump_mask, mode_bit);
		}
	} else if (zombie_keeps_dumpable()) {
		ck_assert_uint_eq(info.mask & DUMP_BITS, PIDFD_INFO_COREDUMP);
		ck_assert_uint_eq(info.coredump_mask, mode_bit);
		assert_same_as_native(nfd, &info, PIDFD_INFO_COREDUMP);
	} else {
		ck_assert_uint_eq(info.mask & DUMP_BITS, 0);
	}

	ck_assert_int_eq(pt_waitpid(pid, &status, 0), pid);
	if (how == CLEAN_EXIT) {
		ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	} else {
		ck_assert(WIFSIGNALED(status));
		ck_assert_int_eq(WTERMSIG(status), sigs[how]);
	}
	ck_assert_int_eq(!!WCOREDUMP(status), dump);
	ck_assert_int_eq(stat(core, &st) == 0, dump);
	unlink(core);

	ck_assert_errno(pt_get_info(fd, &info, PIDFD_INFO_COREDUMP), ESRCH);
	ck_assert_ok(pt_get_info(fd, &info, PIDFD_INFO_EXIT | PIDFD_INFO_COREDUMP));
	ck_assert(info.mask & PIDFD_INFO_EXIT);
	ck_assert_int_eq(info.exit_code, status);
	if (dump) {
		assert_dump_info(&info, sigs[how], codes[how], mode_bit);
		if (nfd >= 0) {
			native_info(nfd, &n, PIDFD_INFO_EXIT | PIDFD_INFO_COREDUMP);
			ck_assert_int_eq(n.exit_code, status);
			ck_assert_uint_eq(n.mask & DUMP_BITS, 0);
		}
	} else {
		ck_assert_uint_eq(info.mask & DUMP_BITS, 0);
		assert_same_as_native(nfd, &info,
				      PIDFD_INFO_EXIT | PIDFD_INFO_COREDUMP);
	}
	if (nfd >= 0)
		close(nfd);
	close(fd);
	pt_sync_close(&ready);
	pt_sync_close(&go);
}

/* Each way a process can end, with and without a core dump. */
static const struct coredump_variant {
	const char *name;
	enum crash how;
	bool limit;		/* RLIMIT_CORE unlimited (else 0) */
	enum dumpable mode;
} coredump_variants[] = {
	{ "SIGSEGV, dumped", CRASH_SEGV, true, AS_USER },
	/* fs.suid_dumpable 2 after a uid change: dumped as root */
	{ "SIGSEGV, dumped as root", CRASH_SEGV, true, AS_ROOT },
	{ "abort(), dumped", CRASH_ABRT, true, AS_USER },
	{ "SIGSEGV, RLIMIT_CORE 0", CRASH_SEGV, false, AS_USER },
	{ "abort(), not dumpable", CRASH_ABRT, true, DUMP_OFF },
	{ "clean exit", CLEAN_EXIT, true, AS_USER },
};

/* Each variant against the documented upstream outcome. */
START_TEST(coredump)
{
	const struct coredump_variant *v = &coredump_variants[_i];

	coredump_case(v->how, v->limit, v->mode, false);
}
END_TEST

/* The same, held against the kernel's own pidfd where it has the info. */
START_TEST(coredump_native)
{
	const struct coredump_variant *v = &coredump_variants[_i];

	if (!pt_kernel_has_info_coredump())
		PT_SKIP("%s: the kernel's pidfds have no PIDFD_INFO_COREDUMP "
			"to compare with", v->name);
	coredump_case(v->how, v->limit, v->mode, true);
}
END_TEST

static Suite *info_suite(void)
{
	Suite *s = suite_create("info");
	TCase *tc;

	pt_add_tests(pt_tcase(s, "ioctl"), info_sizes, info_errors,
		     info_supported_mask);

	pt_add_tests(pt_tcase(s, "values"), info_self, info_thread,
		     info_child_creds, info_cgroupid, info_foreign_pidns);

	pt_add_tests(pt_tcase(s, "exit"), exit_0, exit_42, exit_sigkill,
		     exit_sigterm, exit_non_child,
		     exit_thread_exec_leader_alive,
		     exit_thread_exec_leader_gone,
		     exit_thread_own_code_group_exit_after,
		     exit_open_races_reap);

	tc = pt_tcase(s, "coredump");
	tcase_add_loop_test(tc, coredump, 0,
			    sizeof(coredump_variants) / sizeof(coredump_variants[0]));
	tcase_add_loop_test(tc, coredump_native, 0,
			    sizeof(coredump_variants) / sizeof(coredump_variants[0]));
	return s;
}

int main(void)
{
	return pt_main(info_suite());
}
