// SPDX-License-Identifier: GPL-2.0
/*
 * An attacker's look at issue 39's fixes (the namespace ioctls' fresh
 * lookup of a thread's entry in the module's procfs, PID_FOR_CHILDREN
 * before the new namespace's first fork), as uid 65534 in user, mount and
 * pid namespaces of its own. Each test is an attack the module resists:
 *
 * - PID_FOR_CHILDREN through the fallback (no ns/pid_for_children link
 *   before the first fork, before 7.x) is behind the same ptrace check as
 *   the link: a process of the same uid that made itself non-dumpable
 *   gives EACCES, as procfs's ns/pid and the kernel's own ioctl do.
 * - unshare(CLONE_NEWPID) racing the first fork: every answer is the old
 *   or the new namespace, never an errno.
 * - A thread with namespaces of its own, asked through a thread pidfd
 *   from several threads at once (each call drops and looks up again the
 *   thread's entry in the module's procfs) and while it exits: always the
 *   thread's namespace or ESRCH, never the leader's.
 * - A thread ID reused, through ns_last_pid of a pid namespace of our own,
 *   by a process with namespaces of its own (not forked yet): the thread
 *   pidfd of the gone thread says ESRCH for every namespace and for
 *   PIDFD_GET_PROCFD, never the new process's.
 * - Issue 39's finding 1 itself: thread t execs while the module looks up
 *   /proc/<t> (all on one CPU, so that a lookup can be preempted between
 *   finding the thread and binding its inode), and t goes to a new thread
 *   of the same process in a UTS namespace of its own: the namespace
 *   ioctl gives that thread's (root, for the initial pid namespace's
 *   ns_last_pid: the module's procfs counts in it). As uid 65534 in its
 *   own pid namespace and procfs, with t given to another process:
 *   PIDFD_GET_PROCFD gives that process's directory or ESRCH, never the
 *   exec'd process's. Both print how often the race planted a dentry.
 */
#include "pidfd_test.h"
#include "../lib/pt_ns.h"

#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <linux/nsfs.h>

/* readlink()'s errno for @path, 0 if it worked. */
static int link_errno(const char *path)
{
	char target[96];

	return readlink(path, target, sizeof(target)) < 0 ? errno : 0;
}

/*
 * ioctl(@pidfd, @cmd): the namespace's inode (> 0), or -errno. The fd is
 * closed again.
 */
static long ns_ioctl(int pidfd, unsigned long cmd, int type)
{
	int fd = ioctl(pidfd, cmd, 0);
	ino_t ino;

	if (fd < 0)
		return -errno;
	ino = pt_nsfd_inode(fd, type);
	close(fd);
	return ino ? (long)ino : -EBADF;
}

/* ---- PID_FOR_CHILDREN's fallback and the ptrace check ---- */

/*
 * A child of ours (same uid, same user namespace) that unshared its
 * children's pid namespace and has not forked; @arg non-NULL: then made
 * itself non-dumpable. No Check and no pt_msg(): a pt_fork_prepared()
 * child.
 */
static int prepare_pfc_target(void *arg)
{
	if (unshare(CLONE_NEWPID))
		return 1;
	if (arg && prctl(PR_SET_DUMPABLE, 0))
		return 1;
	return 0;
}

/*
 * uid 65534 in user and mount namespaces of its own asks for its child's
 * PID_FOR_CHILDREN: the namespace if the child is dumpable, else EACCES as
 * for ns/pid's link and the kernel's own ioctl (the child's mm belongs to
 * the initial user namespace, where we have no CAP_SYS_PTRACE).
 */
static int pfc_child(void *arg)
{
	bool native = *(bool *)arg;
	char path[64];
	long got, native_got = -ENOTTY, pidns;
	pid_t target;
	int pidfd, nfd, err;
	bool dumpable;

	pt_become_hostile();
	for (int pass = 0; pass < 2; pass++) {
		dumpable = pass == 0;
		target = pt_fork_prepared(prepare_pfc_target,
					  dumpable ? NULL : &native);
		PT_CHECK(target > 0, "target (dumpable %d)", dumpable);
		pidfd = pt_open(target, 0);
		PT_CHECK(pidfd >= 0, "open: %s", pt_errname(errno));
		got = ns_ioctl(pidfd, PIDFD_GET_PID_FOR_CHILDREN_NAMESPACE,
			       CLONE_NEWPID);
		pidns = ns_ioctl(pidfd, PIDFD_GET_PID_NAMESPACE, CLONE_NEWPID);
		snprintf(path, sizeof(path), "/proc/%d/ns/pid", target);
		err = link_errno(path);
		if (native) {
			nfd = (int)syscall(SYS_pidfd_open, target, 0);
			PT_CHECK(nfd >= 0, "pidfd_open: %m");
			native_got = ns_ioctl(nfd,
					      PIDFD_GET_PID_FOR_CHILDREN_NAMESPACE,
					      CLONE_NEWPID);
			close(nfd);
		}
		close(pidfd);

		/*
		 * The child's mm belongs to the initial user namespace,
		 * where we have no CAP_SYS_PTRACE: EACCES on 6.1 and 7.2.
		 * 5.10's procfs answered readlink now and then here; there
		 * the module must at least never give PID_FOR_CHILDREN
		 * where it refuses PID (the same ptrace check).
		 */
		if (!dumpable && err == 0) {
			PT_CHECK(pidns == -EACCES || pidns > 0, "PID: %s",
				 pt_errname((int)-pidns));
			PT_CHECK(pidns > 0 || got == -EACCES,
				 "PID refused, PID_FOR_CHILDREN %s",
				 got > 0 ? "given" : pt_errname((int)-got));
			PT_CHECK(got == -EACCES || got > 0,
				 "PID_FOR_CHILDREN: %s", pt_errname((int)-got));
			pt_kill_reap(target);
			continue;
		}
		if (!dumpable) {
			PT_CHECK(err == EACCES, "readlink %s: %s", path,
				 pt_errname(err));
			PT_CHECK(pidns == -EACCES,
				 "PID of a non-dumpable process: %s",
				 pidns > 0 ? "given" : pt_errname((int)-pidns));
			PT_CHECK(got == -EACCES,
				 "PID_FOR_CHILDREN of a non-dumpable process: %s",
				 got > 0 ? "given" : pt_errname((int)-got));
			PT_CHECK(!native || native_got == -EACCES,
				 "the kernel's ioctl: %s", native_got > 0 ?
				 "given" : pt_errname((int)-native_got));
			pt_kill_reap(target);
			continue;
		}
		PT_CHECK(err == 0, "readlink %s: %s", path, pt_errname(err));
		PT_CHECK(pidns > 0 && pidns == (long)pt_ns_link_inode(path),
			 "PID: %ld, the link %lu", pidns,
			 (unsigned long)pt_ns_link_inode(path));
		PT_CHECK(got > 0, "PID_FOR_CHILDREN: %s",
			 pt_errname((int)-got));
		PT_CHECK(got != pidns,
			 "PID_FOR_CHILDREN is the target's own pid ns");
		PT_CHECK(!native || native_got == got,
			 "the kernel's ioctl gives %ld, the module's %ld",
			 native_got, got);
		/* Where procfs shows the link already (7.x), the same. */
		snprintf(path, sizeof(path), "/proc/%d/ns/pid_for_children",
			 target);
		err = link_errno(path);
		PT_CHECK(err == ENOENT ||
			 (err == 0 && (long)pt_ns_link_inode(path) == got),
			 "the link: %s, %lu; the ioctl %ld", pt_errname(err),
			 (unsigned long)pt_ns_link_inode(path), got);
		pt_kill_reap(target);
	}
	return 0;
}

START_TEST(pfc_nondumpable_same_uid)
{
	bool native = pt_kernel_has_ns_ioctls();

	pt_assert_child(pfc_child, &native);
}
END_TEST

/* ---- unshare(CLONE_NEWPID) racing the first fork ---- */

struct pfc_race {
	int pidfd;
	volatile int stop;
	unsigned long calls;
	long seen[4];		/* distinct answers, inodes or -errno */
	int nseen;
};

static void *pfc_hammer(void *arg)
{
	struct pfc_race *r = arg;

	while (!__atomic_load_n(&r->stop, __ATOMIC_ACQUIRE)) {
		long got = ns_ioctl(r->pidfd,
				    PIDFD_GET_PID_FOR_CHILDREN_NAMESPACE,
				    CLONE_NEWPID);
		int i;

		r->calls++;
		for (i = 0; i < r->nseen; i++)
			if (r->seen[i] == got)
				break;
		if (i == r->nseen && r->nseen < 4)
			r->seen[r->nseen++] = got;
	}
	return NULL;
}

/*
 * Children that unshare their children's pid namespace and then fork its
 * init, while a thread asks for their PID_FOR_CHILDREN: before the
 * unshare our pid namespace, after it the new one (the link's, once the
 * init exists), nothing else.
 */
static int pfc_fork_race(void *arg __attribute__((unused)))
{
	unsigned long calls = 0;
	ino_t old_ns;
	int round;

	pt_become_hostile();
	old_ns = pt_ns_link_inode("/proc/self/ns/pid");
	PT_CHECK(old_ns, "our pid ns");
	for (round = 0; round < 12; round++) {
		struct pt_sync go, done, forked;
		struct pfc_race r = { .nseen = 0 };
		pthread_t hammer;
		char path[64];
		ino_t new_ns;
		pid_t child;
		int i;

		pt_sync_init(&go);
		pt_sync_init(&done);
		pt_sync_init(&forked);
		child = pt_fork();
		if (child == 0) {
			pid_t init;

			if (pt_sync_get(&go, 10000) != 1)
				_exit(1);
			/* a few microseconds for the hammer to start */
			for (i = 0; i < 2000 * round; i++)
				__asm__ volatile("" ::: "memory");
			if (unshare(CLONE_NEWPID))
				_exit(2);
			for (i = 0; i < 20000; i++)
				__asm__ volatile("" ::: "memory");
			init = pt_fork_sleeper();
			pt_sync_put(&forked, init > 0 ? 1 : -1);
			pt_sync_get(&done, 30000);
			if (init > 0)
				pt_kill_reap(init);
			_exit(0);
		}
		PT_CHECK(child > 0, "fork: %m");
		r.pidfd = pt_open(child, 0);
		PT_CHECK(r.pidfd >= 0, "open: %s", pt_errname(errno));
		PT_CHECK(pthread_create(&hammer, NULL, pfc_hammer, &r) == 0,
			 "pthread_create");
		pt_sync_put(&go, 1);
		PT_CHECK(pt_sync_get(&forked, 10000) == 1, "child's init");
		/* and some more calls with the init there */
		usleep(2000);
		__atomic_store_n(&r.stop, 1, __ATOMIC_RELEASE);
		pthread_join(hammer, NULL);
		snprintf(path, sizeof(path), "/proc/%d/ns/pid_for_children",
			 child);
		new_ns = pt_ns_link_inode(path);
		PT_CHECK(new_ns && new_ns != old_ns, "the child's new pid ns");
		for (i = 0; i < r.nseen; i++)
			PT_CHECK(r.seen[i] == (long)old_ns ||
				 r.seen[i] == (long)new_ns,
				 "round %d: answer %ld (%s), old %lu, new %lu",
				 round, r.seen[i], r.seen[i] < 0 ?
				 pt_errname((int)-r.seen[i]) : "inode",
				 (unsigned long)old_ns,
				 (unsigned long)new_ns);
		calls += r.calls;
		pt_sync_put(&done, 1);
		PT_CHECK(pt_reap(child) == 0, "child");
		close(r.pidfd);
		pt_sync_close(&go);
		pt_sync_close(&done);
		pt_sync_close(&forked);
	}
	PT_CHECK(calls > 0, "no call made");
	return 0;
}

START_TEST(pfc_unshare_first_fork_race)
{
	pt_assert_child(pfc_fork_race, NULL);
}
END_TEST

/* ---- a thread's own namespaces, asked from many threads, while it exits ---- */

struct own_ns_thread {
	struct pt_sync ready;	/* its TID, or -errno */
	struct pt_sync leave;
};

static void *own_uts_thread(void *arg)
{
	struct own_ns_thread *t = arg;

	if (unshare(CLONE_NEWUTS)) {
		pt_sync_put(&t->ready, -errno);
		return NULL;
	}
	pt_sync_put(&t->ready, pt_gettid());
	pt_sync_get(&t->leave, 60000);
	return NULL;
}

struct uts_hammer {
	int tfd, pfd;
	long thread_ns, leader_ns;
	volatile int *exiting;	/* the thread may be gone from now on */
	volatile int *stop;
	unsigned long ok, esrch;
	long bad_thread, bad_leader;	/* first wrong answer, 0 if none */
	int bad_thread_exiting;
};

static void *uts_hammer_main(void *arg)
{
	struct uts_hammer *h = arg;

	while (!__atomic_load_n(h->stop, __ATOMIC_ACQUIRE)) {
		long t = ns_ioctl(h->tfd, PIDFD_GET_UTS_NAMESPACE,
				  CLONE_NEWUTS);
		/* Set before the thread is told to leave: read after the call. */
		int exiting = __atomic_load_n(h->exiting, __ATOMIC_ACQUIRE);
		long p = ns_ioctl(h->pfd, PIDFD_GET_UTS_NAMESPACE,
				  CLONE_NEWUTS);

		if (t == h->thread_ns)
			h->ok++;
		else if (t == -ESRCH && exiting)
			h->esrch++;
		else if (!h->bad_thread) {
			h->bad_thread = t;
			h->bad_thread_exiting = exiting;
		}
		if (p != h->leader_ns && !h->bad_leader)
			h->bad_leader = p;
	}
	return NULL;
}

#define UTS_HAMMERS	3

static int thread_ns_hammer(void *arg __attribute__((unused)))
{
	struct uts_hammer h[UTS_HAMMERS];
	pthread_t ht[UTS_HAMMERS], thread;
	struct own_ns_thread t;
	volatile int exiting = 0, stop = 0;
	long thread_ns, leader_ns;
	unsigned long ok = 0, esrch = 0;
	char path[96];
	pid_t tid;
	int tfd, pfd, i;

	pt_become_hostile();
	pt_sync_init(&t.ready);
	pt_sync_init(&t.leave);
	PT_CHECK(pthread_create(&thread, NULL, own_uts_thread, &t) == 0,
		 "pthread_create");
	tid = pt_sync_get(&t.ready, 10000);
	PT_CHECK(tid > 0, "the thread's unshare(CLONE_NEWUTS): %s",
		 pt_errname(-tid));
	snprintf(path, sizeof(path), "/proc/self/task/%d/ns/uts", tid);
	thread_ns = (long)pt_ns_link_inode(path);
	leader_ns = (long)pt_ns_link_inode("/proc/self/ns/uts");
	PT_CHECK(thread_ns && leader_ns && thread_ns != leader_ns,
		 "thread's uts %ld, leader's %ld", thread_ns, leader_ns);

	tfd = pt_open(tid, PIDFD_THREAD);
	PT_CHECK(tfd >= 0, "open thread: %s", pt_errname(errno));
	pfd = pt_open(getpid(), 0);
	PT_CHECK(pfd >= 0, "open: %s", pt_errname(errno));
	PT_CHECK(ns_ioctl(tfd, PIDFD_GET_UTS_NAMESPACE, CLONE_NEWUTS) ==
		 thread_ns, "the thread pidfd's UTS is not the thread's");
	PT_CHECK(ns_ioctl(pfd, PIDFD_GET_UTS_NAMESPACE, CLONE_NEWUTS) ==
		 leader_ns, "the process pidfd's UTS is not the leader's");

	for (i = 0; i < UTS_HAMMERS; i++) {
		h[i] = (struct uts_hammer){
			.tfd = tfd, .pfd = pfd, .thread_ns = thread_ns,
			.leader_ns = leader_ns, .exiting = &exiting,
			.stop = &stop,
		};
		PT_CHECK(pthread_create(&ht[i], NULL, uts_hammer_main,
					&h[i]) == 0, "pthread_create");
	}
	usleep(300000);
	__atomic_store_n(&exiting, 1, __ATOMIC_RELEASE);
	pt_sync_put(&t.leave, 1);
	pthread_join(thread, NULL);
	/* The thread is reaped (a thread is, at once): only ESRCH now. */
	usleep(100000);
	__atomic_store_n(&stop, 1, __ATOMIC_RELEASE);
	for (i = 0; i < UTS_HAMMERS; i++) {
		pthread_join(ht[i], NULL);
		PT_CHECK(!h[i].bad_thread,
			 "thread pidfd gave %ld (%s; exiting %d); thread's %ld, leader's %ld",
			 h[i].bad_thread, h[i].bad_thread < 0 ?
			 pt_errname((int)-h[i].bad_thread) : "inode",
			 h[i].bad_thread_exiting, thread_ns, leader_ns);
		PT_CHECK(!h[i].bad_leader,
			 "process pidfd gave %ld; leader's %ld",
			 h[i].bad_leader, leader_ns);
		ok += h[i].ok;
		esrch += h[i].esrch;
	}
	PT_CHECK(ok > 0, "no call gave the thread's namespace");
	PT_CHECK(ns_ioctl(tfd, PIDFD_GET_UTS_NAMESPACE, CLONE_NEWUTS) ==
		 -ESRCH, "the gone thread's UTS");
	pt_close_all(tfd, pfd);
	return 0;
}

START_TEST(thread_ns_concurrent_and_exit)
{
	pt_assert_child(thread_ns_hammer, NULL);
}
END_TEST

/* ---- a thread ID reused in a pid namespace of our own ---- */

/* A thread that reports its TID and exits once told to. */
struct told_thread {
	struct pt_sync ready;
	struct pt_sync leave;
};

static void *exit_when_told(void *arg)
{
	struct told_thread *t = arg;

	pt_sync_put(&t->ready, pt_gettid());
	pt_sync_get(&t->leave, 60000);
	return NULL;
}

/*
 * pid 1 of our own pid namespace, with our own /proc: a thread whose ID a
 * later process takes (ns_last_pid), that process with UTS and pid
 * namespaces of its own, not forked.
 */
static int reused_tid_init(void)
{
	static const struct { unsigned long cmd; int type; const char *name; }
	types[] = {
		{ PIDFD_GET_UTS_NAMESPACE, CLONE_NEWUTS, "UTS" },
		{ PIDFD_GET_PID_FOR_CHILDREN_NAMESPACE, CLONE_NEWPID,
		  "PID_FOR_CHILDREN" },
		{ PIDFD_GET_PID_NAMESPACE, CLONE_NEWPID, "PID" },
		{ PIDFD_GET_NET_NAMESPACE, CLONE_NEWNET, "NET" },
		{ PIDFD_GET_MNT_NAMESPACE, CLONE_NEWNS, "MNT" },
	};
	struct told_thread t;
	struct pt_sync decoy_ready;
	pthread_t thread;
	pid_t tid, decoy;
	unsigned int i;
	int tfd, procfd, attempt;

	PT_CHECK(mount("proc", "/proc", "proc", 0, NULL) == 0,
		 "mount our own /proc: %m");
	procfd = open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	PT_CHECK(procfd >= 0, "/proc: %m");

	pt_sync_init(&t.ready);
	pt_sync_init(&t.leave);
	PT_CHECK(pthread_create(&thread, NULL, exit_when_told, &t) == 0,
		 "pthread_create");
	tid = pt_sync_get(&t.ready, 10000);
	PT_CHECK(tid > 1, "thread: %d", tid);
	tfd = pt_open(tid, PIDFD_THREAD);
	PT_CHECK(tfd >= 0, "open the live thread %d: %m", tid);
	pt_sync_put(&t.leave, 1);
	pthread_join(thread, NULL);
	pt_sync_close(&t.ready);
	pt_sync_close(&t.leave);
	/*
	 * Released, its number free: a thread is, soon after it has exited
	 * (the ioctl's ESRCH comes earlier, once its namespaces are gone).
	 */
	for (attempt = 0; attempt < 1000; attempt++) {
		if (syscall(SYS_tgkill, getpid(), tid, 0) < 0 &&
		    errno == ESRCH)
			break;
		usleep(1000);
	}
	PT_CHECK(ns_ioctl(tfd, PIDFD_GET_UTS_NAMESPACE, CLONE_NEWUTS) == -ESRCH,
		 "UTS of the exited thread %d", tid);

	pt_sync_init(&decoy_ready);
	decoy = pt_fork_at(tid);
	if (decoy == 0) {
		int ok = !unshare(CLONE_NEWUTS) && !unshare(CLONE_NEWPID) &&
			 !unshare(CLONE_NEWNET);

		pt_sync_put(&decoy_ready, ok ? 1 : -1);
		for (;;)
			pause();
	}
	PT_CHECK(decoy == tid, "decoy at %d: got %d (%m)", tid, decoy);
	PT_CHECK(pt_sync_get(&decoy_ready, 10000) == 1, "decoy's unshare");

	for (i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
		long got = ns_ioctl(tfd, types[i].cmd, types[i].type);

		PT_CHECK(got == -ESRCH, "%s of the gone thread %d: %s", types[i].name,
			 tid, got > 0 ? "a namespace (the decoy's?)" :
			 pt_errname((int)-got));
	}
	errno = 0;
	PT_CHECK(pt_get_procfd(tfd, procfd) < 0 && errno == ESRCH,
		 "GET_PROCFD of the gone thread: %s", pt_errname(errno));
	pt_kill_reap(decoy);
	pt_close_all(tfd, procfd);
	return 0;
}

static int reused_tid(void *arg __attribute__((unused)))
{
	return pt_run_hostile_init(reused_tid_init);
}

START_TEST(reused_tid_own_pidns)
{
	pt_assert_child(reused_tid, NULL);
}
END_TEST

/* ---- issue 39's finding 1 against the module's own procfs ---- */

/*
 * The process of exec_race_round(): a thread that execs this program
 * (helper mode, below) on command, while the leader idles. After the
 * exec, the helper makes on command a thread in a UTS namespace of its
 * own and reports its TID.
 */
#define HELPER_ENV	"PIDFD_REVIEW39_EXEC_HELPER"

struct exec_race_child {
	struct pt_sync cmd;	/* test to process: 1 exec, 2 new thread */
	struct pt_sync rep;	/* process to test: TIDs, exec'd */
};

static void *exec_race_thread(void *arg)
{
	struct exec_race_child *c = arg;
	char env[64];
	char *argv[] = { "review39-exec-helper", NULL };

	pt_sync_put(&c->rep, pt_gettid());
	if (pt_sync_get(&c->cmd, 30000) != 1)
		_exit(3);
	/* The pipes survive the exec. */
	if (fcntl(c->cmd.fd[0], F_SETFD, 0) || fcntl(c->rep.fd[1], F_SETFD, 0))
		_exit(4);
	snprintf(env, sizeof(env), "%d %d", c->cmd.fd[0], c->rep.fd[1]);
	setenv(HELPER_ENV, env, 1);
	execv("/proc/self/exe", argv);
	_exit(5);
}

static void *helper_uts_thread(void *arg)
{
	struct pt_sync *rep = arg;

	pt_sync_put(rep, unshare(CLONE_NEWUTS) ? -errno : pt_gettid());
	for (;;)
		pause();
	return NULL;
}

/* The exec'd image: says "exec'd" (-1000), makes its thread on command. */
__attribute__((constructor)) static void exec_helper(void)
{
	const char *env = getenv(HELPER_ENV);
	struct pt_sync cmd, rep;
	pthread_t thread;

	if (!env)
		return;
	if (sscanf(env, "%d %d", &cmd.fd[0], &rep.fd[1]) != 2)
		_exit(6);
	cmd.fd[1] = rep.fd[0] = -1;
	pt_sync_put(&rep, -1000);
	if (pt_sync_get(&cmd, 30000) != 2)
		_exit(7);
	if (pthread_create(&thread, NULL, helper_uts_thread, &rep))
		_exit(8);
	for (;;)
		pause();
}

/*
 * A child whose second thread execs on command (exec_race_thread()), with
 * @c's pipes set up; returns its pid, with the thread's TID in *@tid.
 */
static pid_t fork_exec_race_child(struct exec_race_child *c, pid_t *tid)
{
	pid_t child;

	pt_sync_init(&c->cmd);
	pt_sync_init(&c->rep);
	child = pt_fork();
	if (child == 0) {
		pthread_t thread;

		if (pthread_create(&thread, NULL, exec_race_thread, c))
			_exit(2);
		for (;;)
			pause();
	}
	ck_assert_int_gt(child, 0);
	*tid = pt_sync_get(&c->rep, 10000);
	ck_assert_msg(*tid > 0, "the thread's TID");
	return child;
}

struct exec_racer {
	int tfd;		/* thread pidfd of the thread that execs */
	int procfd;		/* a procfs of our own */
	volatile int *stop;
	unsigned long calls;
	long bad;		/* an answer neither a namespace nor ESRCH */
};

/* Module lookups of /proc/<t> (both instances) while thread t execs. */
static void *exec_racer_main(void *arg)
{
	struct exec_racer *r = arg;

	while (!__atomic_load_n(r->stop, __ATOMIC_ACQUIRE)) {
		long got = ns_ioctl(r->tfd, PIDFD_GET_UTS_NAMESPACE,
				    CLONE_NEWUTS);
		int fd = pt_get_procfd(r->tfd, r->procfd);

		if (fd >= 0)
			close(fd);
		else if (errno != ESRCH && !r->bad)
			r->bad = -errno;
		if (got < 0 && got != -ESRCH && !r->bad)
			r->bad = got;
		r->calls++;
	}
	return NULL;
}

#define EXEC_RACERS	3

/*
 * One round: thread t of a child execs while threads make the module look
 * up /proc/<t>, in its own procfs (the UTS ioctl) and in ours
 * (GET_PROCFD), all on one CPU so that a lookup can be preempted between
 * finding thread t and binding its inode. Then the exec'd process gets a
 * thread numbered t again (ns_last_pid of the initial pid namespace,
 * whose numbers the module's procfs uses), in a UTS namespace of its
 * own. Returns 1 if the round got there and our procfs gave the leader's
 * directory for the new thread (a dentry planted by the race), 0 if it
 * got there unplanted, -1 if the number went elsewhere.
 */
static int exec_race_round(int procfd)
{
	struct exec_racer r[EXEC_RACERS];
	pthread_t rt[EXEC_RACERS];
	struct exec_race_child c;
	volatile int stop = 0;
	char path[96], pidline[32];
	long thread_ns, leader_ns, got;
	pid_t child, t, again;
	int i, tfd, dir, planted;

	child = fork_exec_race_child(&c, &t);

	for (i = 0; i < EXEC_RACERS; i++) {
		r[i] = (struct exec_racer){ .procfd = procfd, .stop = &stop };
		r[i].tfd = pt_open(t, PIDFD_THREAD);
		ck_assert_msg(r[i].tfd >= 0, "open thread %d: %s", t,
			      pt_errname(errno));
		ck_assert_int_eq(pthread_create(&rt[i], NULL, exec_racer_main,
						&r[i]), 0);
	}
	usleep(20000);
	pt_sync_put(&c.cmd, 1);
	ck_assert_msg(pt_sync_get(&c.rep, 20000) == -1000, "exec");
	usleep(20000);
	__atomic_store_n(&stop, 1, __ATOMIC_RELEASE);
	for (i = 0; i < EXEC_RACERS; i++) {
		pthread_join(rt[i], NULL);
		ck_assert_msg(!r[i].bad, "racer %d: %ld (%s)", i, r[i].bad,
			      pt_errname((int)-r[i].bad));
		close(r[i].tfd);
	}

	ck_assert_int_eq(pt_set_ns_last_pid(t - 1), 0);
	pt_sync_put(&c.cmd, 2);
	again = pt_sync_get(&c.rep, 10000);
	ck_assert_msg(again > 0, "the new thread: %s", pt_errname(-again));
	if (again != t) {
		pt_kill_reap(child);
		pt_sync_close(&c.cmd);
		pt_sync_close(&c.rep);
		return -1;
	}
	snprintf(path, sizeof(path), "/proc/%d/task/%d/ns/uts", child, t);
	thread_ns = (long)pt_ns_link_inode(path);
	snprintf(path, sizeof(path), "/proc/%d/ns/uts", child);
	leader_ns = (long)pt_ns_link_inode(path);
	ck_assert_msg(thread_ns && leader_ns && thread_ns != leader_ns,
		      "thread's uts %ld, leader's %ld", thread_ns, leader_ns);
	tfd = pt_open(t, PIDFD_THREAD);
	ck_assert_msg(tfd >= 0, "open the new thread: %s", pt_errname(errno));
	got = ns_ioctl(tfd, PIDFD_GET_UTS_NAMESPACE, CLONE_NEWUTS);
	ck_assert_msg(got == thread_ns,
		      "the new thread %d's UTS: %ld (%s), its own %ld, the leader's %ld",
		      t, got, got == leader_ns ? "the leader's" :
		      got < 0 ? pt_errname((int)-got) : "?", thread_ns,
		      leader_ns);
	/* Our own procfs: the documented per-process identity. */
	dir = pt_get_procfd(tfd, procfd);
	ck_assert_msg(dir >= 0 || errno == ESRCH, "GET_PROCFD: %s",
		      pt_errname(errno));
	planted = 0;
	if (dir >= 0) {
		ck_assert_int_eq(pt_read_field_at(dir, "status", "Pid:",
						  pidline, sizeof(pidline)),
				 0);
		planted = atoi(pidline) == child;
		ck_assert_msg(planted || atoi(pidline) == t, "status Pid: %s",
			      pidline);
		close(dir);
	}
	close(tfd);
	pt_kill_reap(child);
	pt_sync_close(&c.cmd);
	pt_sync_close(&c.rep);
	return planted;
}

/*
 * Issue 39's finding 1, where the module drops entries (its own procfs):
 * whatever a lookup racing the exec planted, the new thread t's UTS
 * namespace is its own. Root, for ns_last_pid of the initial pid
 * namespace (the module's procfs's numbers); an unprivileged attacker
 * needs to go round the whole pid space instead. How often the race
 * planted a dentry in our procfs (where the module must not drop it) is
 * printed.
 */
START_TEST(exec_race_thread_ns_exact)
{
	char dir[64];
	int procfd, round, res, planted = 0, done = 0, elsewhere = 0;
	int64_t end = pt_now_ms() + 10000;
	cpu_set_t one;

	ck_assert_int_eq(pt_private_mounts(), 0);
	ck_assert_int_eq(pt_tmpdir(dir, sizeof(dir)), 0);
	ck_assert_msg(mount("proc", dir, "proc", 0, NULL) == 0, "mount: %m");
	procfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	ck_assert_int_ge(procfd, 0);
	CPU_ZERO(&one);
	CPU_SET(0, &one);
	ck_assert_int_eq(sched_setaffinity(0, sizeof(one), &one), 0);

	for (round = 0; round < 12 && pt_now_ms() < end; round++) {
		res = exec_race_round(procfd);
		if (res < 0) {
			elsewhere++;
			continue;
		}
		done++;
		planted += res;
	}
	printf("exec_race_thread_ns_exact: %d rounds, %d with the number reused, %d planted in our procfs, %d numbers taken elsewhere\n",
	       round, done, planted, elsewhere);
	ck_assert_msg(done > 0, "the number was never reused (%d rounds)",
		      round);
	close(procfd);
	umount2(dir, MNT_DETACH);
	rmdir(dir);
}
END_TEST

/*
 * A process pidfd's namespace ioctls while a non-leader thread of its
 * process execs, each round a new process, the racers' first call
 * released with the exec's command (all on one CPU): the module's first
 * lookup of the number can fall between exchange_tids() and the old
 * leader's release, and bind it to the exiting old leader (a review of
 * 2026-12-07). The process's namespace, or ESRCH, which upstream's ioctl
 * answers too while the pid's task is the old leader, a zombie without
 * namespaces (between its exit and exchange_tids()); never ENOMEM or
 * another errno, never another namespace.
 */
struct proc_ns_racer {
	int pidfd, native;	/* the module's; the kernel's, or -1 */
	volatile int *go, *stop;
	long want, bad;
	unsigned long esrch, native_esrch;
};

static void *proc_ns_racer_main(void *arg)
{
	struct proc_ns_racer *r = arg;

	while (!__atomic_load_n(r->go, __ATOMIC_ACQUIRE))
		;
	while (!__atomic_load_n(r->stop, __ATOMIC_ACQUIRE)) {
		long got = ns_ioctl(r->pidfd, PIDFD_GET_NET_NAMESPACE,
				    CLONE_NEWNET);

		if (got == -ESRCH)
			r->esrch++;
		else if (got != r->want && !r->bad)
			r->bad = got;
		if (r->native < 0)
			continue;
		got = ns_ioctl(r->native, PIDFD_GET_NET_NAMESPACE,
			       CLONE_NEWNET);
		if (got == -ESRCH)
			r->native_esrch++;
	}
	return NULL;
}

START_TEST(exec_race_process_ns)
{
	long want = (long)pt_ns_link_inode("/proc/self/ns/net");
	bool native = pt_kernel_has_ns_ioctls();
	unsigned long esrch = 0, native_esrch = 0;
	cpu_set_t one;
	int round, i;

	ck_assert(want > 0);
	CPU_ZERO(&one);
	CPU_SET(0, &one);
	ck_assert_int_eq(sched_setaffinity(0, sizeof(one), &one), 0);
	for (round = 0; round < 12; round++) {
		struct proc_ns_racer r[EXEC_RACERS];
		pthread_t rt[EXEC_RACERS];
		struct exec_race_child c;
		volatile int go = 0, stop = 0;
		pid_t child, t;

		child = fork_exec_race_child(&c, &t);
		for (i = 0; i < EXEC_RACERS; i++) {
			r[i] = (struct proc_ns_racer){
				.pidfd = pt_open(child, 0), .go = &go,
				.stop = &stop, .want = want,
				.native = native ? (int)syscall(SYS_pidfd_open,
								child, 0) : -1,
			};
			ck_assert_int_ge(r[i].pidfd, 0);
			ck_assert_int_eq(pthread_create(&rt[i], NULL,
							proc_ns_racer_main,
							&r[i]), 0);
		}
		pt_sync_put(&c.cmd, 1);
		__atomic_store_n(&go, 1, __ATOMIC_RELEASE);
		ck_assert_msg(pt_sync_get(&c.rep, 20000) == -1000, "exec");
		usleep(10000);
		__atomic_store_n(&stop, 1, __ATOMIC_RELEASE);
		for (i = 0; i < EXEC_RACERS; i++) {
			pthread_join(rt[i], NULL);
			ck_assert_msg(!r[i].bad,
				      "round %d, racer %d: NET of a live process: %s",
				      round, i, r[i].bad > 0 ? "another namespace" :
				      pt_errname((int)-r[i].bad));
			esrch += r[i].esrch;
			native_esrch += r[i].native_esrch;
			close(r[i].pidfd);
			if (r[i].native >= 0)
				close(r[i].native);
		}
		pt_kill_reap(child);
		pt_sync_close(&c.cmd);
		pt_sync_close(&c.rep);
	}
	printf("exec_race_process_ns: %d rounds, %lu ESRCH in the exec's window (the kernel's ioctl: %s%lu)\n",
	       round, esrch, native ? "" : "none, ", native_esrch);
}
END_TEST

/*
 * The same race as uid 65534, in a pid namespace of its own and its own
 * procfs, where ns_last_pid is ours: the number t of the thread that
 * exec'd goes to another process q. PIDFD_GET_PROCFD of q in our procfs
 * gives q's directory, or ESRCH while a dentry the race planted names t
 * for the exec'd process (docs/abi.md) and q's directory once that
 * process is gone; never the exec'd process's directory. Returns 1 if
 * planted, 0 if not, -1 if the number went elsewhere, 2 on a failure
 * (reported with pt_msg()).
 */
static int hostile_exec_round(int procfd)
{
	struct exec_racer r[EXEC_RACERS];
	pthread_t rt[EXEC_RACERS];
	struct exec_race_child c;
	volatile int stop = 0;
	char pidline[32];
	pid_t child, t, q;
	int i, qfd, dir, planted = 0, ret = 2;

	pt_sync_init(&c.cmd);
	pt_sync_init(&c.rep);
	child = pt_fork();
	if (child == 0) {
		pthread_t thread;

		if (pthread_create(&thread, NULL, exec_race_thread, &c))
			_exit(2);
		for (;;)
			pause();
	}
	if (child < 0) {
		pt_msg("fork: %m");
		return 2;
	}
	t = pt_sync_get(&c.rep, 10000);
	if (t <= 0) {
		pt_msg("the thread's TID");
		goto out;
	}
	for (i = 0; i < EXEC_RACERS; i++) {
		r[i] = (struct exec_racer){ .procfd = procfd, .stop = &stop };
		r[i].tfd = pt_open(t, PIDFD_THREAD);
		if (r[i].tfd < 0 ||
		    pthread_create(&rt[i], NULL, exec_racer_main, &r[i])) {
			pt_msg("racer %d: %s", i, pt_errname(errno));
			_exit(2);
		}
	}
	usleep(20000);
	pt_sync_put(&c.cmd, 1);
	i = pt_sync_get(&c.rep, 20000);
	usleep(20000);
	__atomic_store_n(&stop, 1, __ATOMIC_RELEASE);
	for (int j = 0; j < EXEC_RACERS; j++) {
		pthread_join(rt[j], NULL);
		close(r[j].tfd);
		if (r[j].bad) {
			pt_msg("racer %d: %ld (%s)", j, r[j].bad,
			       pt_errname((int)-r[j].bad));
			goto out;
		}
	}
	if (i != -1000) {
		pt_msg("exec: %d", i);
		goto out;
	}

	q = pt_fork_at(t);
	if (q == 0) {
		for (;;)
			pause();
	}
	if (q != t) {
		if (q > 0)
			pt_kill_reap(q);
		ret = -1;
		goto out;
	}
	qfd = pt_open(q, 0);
	if (qfd < 0) {
		pt_msg("open %d: %s", q, pt_errname(errno));
		pt_kill_reap(q);
		goto out;
	}
	dir = pt_get_procfd(qfd, procfd);
	if (dir >= 0) {
		if (pt_read_field_at(dir, "status", "Pid:", pidline,
				     sizeof(pidline)) || atoi(pidline) != q) {
			pt_msg("GET_PROCFD of %d gave the directory of Pid:%s (the exec'd process is %d)",
			       q, pidline, child);
			close(dir);
			goto out_q;
		}
		close(dir);
	} else if (errno == ESRCH) {
		planted = 1;
	} else {
		pt_msg("GET_PROCFD of %d: %s", q, pt_errname(errno));
		goto out_q;
	}
	/* The planting process gone, its dentry goes: q's own directory. */
	pt_kill_reap(child);
	child = -1;
	dir = pt_get_procfd(qfd, procfd);
	if (dir < 0 || pt_read_field_at(dir, "status", "Pid:", pidline,
					sizeof(pidline)) || atoi(pidline) != q) {
		pt_msg("GET_PROCFD of %d once the exec'd process is gone: %s",
		       q, dir < 0 ? pt_errname(errno) : pidline);
		if (dir >= 0)
			close(dir);
		goto out_q;
	}
	close(dir);
	ret = planted;
out_q:
	close(qfd);
	pt_kill_reap(q);
out:
	if (child > 0)
		pt_kill_reap(child);
	pt_sync_close(&c.cmd);
	pt_sync_close(&c.rep);
	return ret;
}

static int hostile_exec_init(void)
{
	int procfd, round, res, planted = 0, done = 0;
	int64_t end = pt_now_ms() + 10000;
	cpu_set_t one;

	PT_CHECK(mount("proc", "/proc", "proc", 0, NULL) == 0,
		 "mount our own /proc: %m");
	procfd = open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	PT_CHECK(procfd >= 0, "/proc: %m");
	CPU_ZERO(&one);
	CPU_SET(0, &one);
	PT_CHECK(sched_setaffinity(0, sizeof(one), &one) == 0, "affinity: %m");
	for (round = 0; round < 12 && pt_now_ms() < end; round++) {
		res = hostile_exec_round(procfd);
		if (res == 2)
			return 1;
		if (res < 0)
			continue;
		done++;
		planted += res;
	}
	printf("exec_race_hostile_other_process: %d rounds, %d with the number reused, %d planted\n",
	       round, done, planted);
	fflush(stdout);
	PT_CHECK(done > 0, "the number was never reused (%d rounds)", round);
	close(procfd);
	return 0;
}

static int hostile_exec(void *arg __attribute__((unused)))
{
	return pt_run_hostile_init(hostile_exec_init);
}

START_TEST(exec_race_hostile_other_process)
{
	pt_assert_child(hostile_exec, NULL);
}
END_TEST

/*
 * PID_FOR_CHILDREN of a thread that unshared its pid namespace and exits
 * during the calls: the namespace or ESRCH, never the ENOENT of the
 * fallback's ns/pid check on a reaped task (5.10, 6.1: about one round in
 * thirty before the fix).
 */

struct exiting_thread {
	struct pt_sync ready;
	volatile int go;
};

static void *unshare_then_exit(void *arg)
{
	struct exiting_thread *t = arg;

	if (unshare(CLONE_NEWPID)) {
		pt_sync_put(&t->ready, -errno);
		return NULL;
	}
	pt_sync_put(&t->ready, pt_gettid());
	while (!__atomic_load_n(&t->go, __ATOMIC_ACQUIRE))
		;
	return NULL;
}

static int pfc_exit_race(void *arg __attribute__((unused)))
{
	unsigned long rounds = 0, ok = 0, esrch = 0, other = 0;
	int64_t end = pt_now_ms() + 10000;
	char first[128] = "";
	cpu_set_t one;

	pt_become_hostile();
	/*
	 * One CPU: the exiting thread runs when the caller yields, at a
	 * might_sleep() such as the allocation of the file that the
	 * fallback's ns/pid check opens.
	 */
	CPU_ZERO(&one);
	CPU_SET(0, &one);
	PT_CHECK(sched_setaffinity(0, sizeof(one), &one) == 0, "affinity: %m");
	while (pt_now_ms() < end && rounds < 1000) {
		struct exiting_thread t = { .go = 0 };
		pthread_t thread;
		pid_t tid;
		int tfd, fd, n;

		pt_sync_init(&t.ready);
		PT_CHECK(pthread_create(&thread, NULL, unshare_then_exit,
					&t) == 0, "pthread_create");
		tid = pt_sync_get(&t.ready, 10000);
		PT_CHECK(tid > 0, "thread's unshare: %s", pt_errname(-tid));
		tfd = pt_open(tid, PIDFD_THREAD);
		PT_CHECK(tfd >= 0, "open thread: %s", pt_errname(errno));
		__atomic_store_n(&t.go, 1, __ATOMIC_RELEASE);
		for (n = 0; n < 100000; n++) {
			errno = 0;
			fd = ioctl(tfd, PIDFD_GET_PID_FOR_CHILDREN_NAMESPACE, 0);
			if (fd >= 0) {
				close(fd);
				ok++;
				continue;
			}
			if (errno == ESRCH) {
				esrch++;
				break;
			}
			if (!first[0])
				snprintf(first, sizeof(first),
					 "round %lu, call %d: %s", rounds, n,
					 pt_errname(errno));
			other++;
		}
		pthread_join(thread, NULL);
		close(tfd);
		pt_sync_close(&t.ready);
		rounds++;
	}
	pt_msg("%lu rounds, %lu namespaces, %lu ESRCH, %lu other errnos. ",
	       rounds, ok, esrch, other);
	PT_CHECK(!other, "an exiting thread's PID_FOR_CHILDREN: %s", first);
	return 0;
}

START_TEST(pfc_thread_exit_errno)
{
	pt_assert_child(pfc_exit_race, NULL);
}
END_TEST

PT_SUITE_MAIN("review39_attack", pfc_nondumpable_same_uid,
	      pfc_unshare_first_fork_race, thread_ns_concurrent_and_exit,
	      reused_tid_own_pidns, exec_race_thread_ns_exact,
	      exec_race_process_ns, exec_race_hostile_other_process,
	      pfc_thread_exit_errno)
