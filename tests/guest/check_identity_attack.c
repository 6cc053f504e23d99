// SPDX-License-Identifier: GPL-2.0
/*
 * Attacks on the process identity (docs/design.md, "Process identity"):
 * the inode of a struct pid made and dropped while many threads open and
 * close pidfds of it, its process exits, is reaped or execs meanwhile; an
 * unprivileged user in namespaces of its own that floods the module with
 * targets; and what the files look like next to the kernel's one shared
 * anon inode (an eventfd's), which every pidfd was a file on before.
 * Every race ends with the counters back where they were: no inode, no
 * target and no file is left behind (the harness adds kmemleak, and the
 * debug kernel KASAN and lockdep).
 */
#include "pidfd_test.h"

#include <dirent.h>
#include <inttypes.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#define RACERS		4	/* threads opening and closing at once */
#define RACE_MS		1500	/* how long each phase of a race lasts */
#define CHILD_THREADS	3	/* threads of the raced process */
#define FLOOD_PROCS	40	/* the unprivileged flood's processes */
#define FLOOD_REOPENS	25	/* open and close of each, again and again */

static long counter(const char *path)
{
	long v = -1;

	ck_assert_msg(pt_read_long(path, &v) == 0, "read %s: %m", path);
	return v;
}

/*
 * Waits up to 10 s for the counters to come back to @pidfds and @pids
 * (a target goes an RCU grace period, an irq_work and a work item after
 * its last reference), and asserts they did.
 */
static void assert_counters_back(long pidfds, long pids)
{
	int64_t end = pt_now_ms() + 10000;
	long f, p;

	do {
		f = counter(PT_LIVE_PIDFDS);
		p = counter(PT_LIVE_PIDS);
		if (f == pidfds && p == pids)
			return;
		usleep(20000);
	} while (pt_now_ms() < end);
	ck_abort_msg("live_pidfds %ld (want %ld), live_pids %ld (want %ld)",
		     f, pidfds, p, pids);
}

static bool identity_is_kept(void)
{
	/* Before 6.9 a live process keeps its target after its last pidfd. */
	return !pt_kernel_at_least(6, 9);
}

static uint64_t ino_of(int fd)
{
	struct stat st;

	ck_assert_msg(fstat(fd, &st) == 0, "fstat(%d): %m", fd);
	return st.st_ino;
}

/* A new pidfd of @pid has number @id. */
static void assert_id(pid_t pid, unsigned int flags, uint64_t id)
{
	int fd = pt_open_ok(pid, flags);

	ck_assert_uint_eq(ino_of(fd), id);
	close(fd);
}

/* What the racers share: the targets, and what each saw. */
struct race {
	pid_t pid;			/* the process */
	pid_t tids[CHILD_THREADS];	/* its threads (not the leader) */
	int ntids;
	volatile int stop;
	/* The first identity seen of the process and of each thread. */
	uint64_t pid_id;
	uint64_t tid_id[CHILD_THREADS];
	pthread_mutex_t lock;
	char msg[256];			/* the first mismatch */
	long opens, fails;
};

/* Records @id for slot @slot (-1: the process); a second value is a bug. */
static void race_saw(struct race *r, int slot, uint64_t id)
{
	uint64_t *have = slot < 0 ? &r->pid_id : &r->tid_id[slot];

	pthread_mutex_lock(&r->lock);
	r->opens++;
	if (!*have)
		*have = id;
	else if (*have != id && !r->msg[0])
		snprintf(r->msg, sizeof(r->msg),
			 "%s %d: identity %" PRIu64 ", earlier %" PRIu64,
			 slot < 0 ? "process" : "thread",
			 slot < 0 ? r->pid : r->tids[slot], id, *have);
	pthread_mutex_unlock(&r->lock);
}

/*
 * One racer: opens pidfds of the process and of its threads, up to 8 at
 * a time, checks their number, closes them in another order.
 */
static void *racer(void *arg)
{
	struct race *r = arg;
	unsigned int seed = (unsigned int)pt_gettid();
	int held[8], n, i;

	while (!r->stop) {
		n = 1 + rand_r(&seed) % 8;
		for (i = 0; i < n; i++) {
			int s = (int)(rand_r(&seed) % (r->ntids + 1)) - 1;

			held[i] = s < 0 ? pt_open(r->pid, 0) :
					  pt_open(r->tids[s], PIDFD_THREAD);
			if (held[i] < 0) {
				__atomic_fetch_add(&r->fails, 1,
						   __ATOMIC_RELAXED);
				continue;
			}
			race_saw(r, s, ino_of(held[i]));
		}
		for (i = n - 1; i >= 0; i--)
			if (held[(i + 3) % n] >= 0) {
				close(held[(i + 3) % n]);
				held[(i + 3) % n] = -1;
			}
	}
	return NULL;
}

static void *idle(void *arg __attribute__((unused)))
{
	for (;;)
		pause();
	return NULL;
}

/* A child with CHILD_THREADS idle threads; their TIDs in @r. */
static void fork_threaded(struct race *r)
{
	int pipefd[2], i;

	ck_assert_ok(pipe(pipefd));
	r->pid = pt_fork();
	if (r->pid == 0) {
		pthread_t t;
		pid_t tid;

		close(pipefd[0]);
		for (i = 0; i < CHILD_THREADS; i++) {
			struct pt_sync s;

			pt_sync_init(&s);
			if (pthread_create(&t, NULL, pt_idle_thread, &s))
				_exit(2);
			tid = pt_sync_get(&s, 10000);
			if (write(pipefd[1], &tid, sizeof(tid)) != sizeof(tid))
				_exit(3);
		}
		idle(NULL);
	}
	ck_assert_int_gt(r->pid, 0);
	close(pipefd[1]);
	for (i = 0; i < CHILD_THREADS; i++)
		ck_assert_int_eq(read(pipefd[0], &r->tids[i], sizeof(pid_t)),
				 sizeof(pid_t));
	r->ntids = CHILD_THREADS;
	close(pipefd[0]);
}

static void race_run(struct race *r, pthread_t *t)
{
	int i;

	for (i = 0; i < RACERS; i++)
		ck_assert_int_eq(pthread_create(&t[i], NULL, racer, r), 0);
}

static void race_join(struct race *r, pthread_t *t)
{
	int i;

	r->stop = 1;
	for (i = 0; i < RACERS; i++)
		pthread_join(t[i], NULL);
	ck_assert_msg(!r->msg[0], "%s", r->msg);
}

/*
 * Many threads open and close pidfds of one process and of its threads
 * (so its inode is made and dropped again and again), while the process
 * lives, then while it is killed and a zombie: one number per struct pid
 * throughout, and the process's and its threads' differ. Then it is
 * reaped: every file, inode and target goes.
 */
START_TEST(race_open_close_exit)
{
	long pidfds = counter(PT_LIVE_PIDFDS), pids = counter(PT_LIVE_PIDS);
	struct race r = { .lock = PTHREAD_MUTEX_INITIALIZER };
	pthread_t t[RACERS];
	int i, j;

	fork_threaded(&r);
	race_run(&r, t);
	usleep(RACE_MS * 1000);
	/* The threads die at once, the leader stays a zombie. */
	ck_assert_int_eq(kill(r.pid, SIGKILL), 0);
	ck_assert_int_eq(pt_wait_zombie(r.pid), 0);
	usleep(RACE_MS * 1000);
	race_join(&r, t);
	printf("[identity-attack] %ld opens, %ld refused\n", r.opens, r.fails);
	ck_assert_msg(r.opens > 100, "only %ld opens", r.opens);
	for (i = 0; i < CHILD_THREADS; i++) {
		ck_assert_msg(r.tid_id[i] && r.tid_id[i] != r.pid_id,
			      "thread %d: %" PRIu64 ", process %" PRIu64,
			      r.tids[i], r.tid_id[i], r.pid_id);
		for (j = 0; j < i; j++)
			ck_assert_uint_ne(r.tid_id[i], r.tid_id[j]);
	}
	/* The zombie keeps its number, and (before 6.9) its target. */
	assert_id(r.pid, 0, r.pid_id);
	ck_assert_int_eq(pt_reap(r.pid), 128 + SIGKILL);
	assert_counters_back(pidfds, pids);
}
END_TEST

/*
 * The same while a thread other than the leader execs: the process keeps
 * its number (de_thread() hands the thread the leader's struct pid), and
 * the exec'ing thread's own struct pid, released with the old leader,
 * takes its inode and target with it.
 */
START_TEST(race_open_close_exec)
{
	long pidfds = counter(PT_LIVE_PIDFDS), pids = counter(PT_LIVE_PIDS);
	struct race r = { .lock = PTHREAD_MUTEX_INITIALIZER };
	struct pt_exec_child c;
	pthread_t t[RACERS];
	int held;

	pt_fork_exec_child(&c);
	r.pid = c.pid;
	r.tids[0] = c.tid;
	r.ntids = 1;
	/* One pidfd of the exec'ing thread held across the exec. */
	held = pt_open_ok(c.tid, PIDFD_THREAD);
	race_saw(&r, 0, ino_of(held));
	race_run(&r, t);
	usleep(RACE_MS * 500);
	pt_exec_child_exec(&c, 0);
	usleep(RACE_MS * 1000);
	race_join(&r, t);
	ck_assert_uint_ne(r.tid_id[0], r.pid_id);
	ck_assert_uint_eq(ino_of(held), r.tid_id[0]);
	/* The thread's number is gone; the process is the same one. */
	assert_id(c.pid, 0, r.pid_id);
	ck_assert_int_lt(pt_open(c.tid, PIDFD_THREAD), 0);
	close(held);
	pt_exec_child_end(&c);
	assert_counters_back(pidfds, pids);
}
END_TEST

/* What the flood's parent and its hostile child share. */
struct flood {
	pid_t procs[FLOOD_PROCS];
	int nprocs;
	struct pt_sync opened;	/* child to parent: every pidfd is closed */
	struct pt_sync done;	/* parent to child: the counters are read */
};

/*
 * As uid 65534 in user, mount and pid namespaces of its own: processes,
 * each with a thread, every one opened again and again as process and
 * thread, every pidfd closed. Then the processes exit.
 */
static int flood_child(void *arg)
{
	struct flood *f = arg;
	int i, k, fd, tfd;
	uint64_t first;

	pt_become_hostile();
	PT_REQUIRE(unshare(CLONE_NEWPID) == 0, "unshare(CLONE_NEWPID): %m");
	for (i = 0; i < FLOOD_PROCS; i++) {
		pid_t pid = pt_fork();

		if (pid == 0) {
			pt_start_idle_thread();
			idle(NULL);
		}
		PT_REQUIRE(pid > 0, "fork: %m");
		f->procs[i] = pid;
	}
	for (i = 0; i < FLOOD_PROCS; i++) {
		char path[64];
		pid_t tid = 0;
		DIR *d;
		struct dirent *e;

		/* Its thread: the TID in its task directory that is not its. */
		snprintf(path, sizeof(path), "/proc/%d/task", f->procs[i]);
		for (k = 0; k < 200 && !tid; k++) {
			d = opendir(path);
			PT_REQUIRE(d, "%s: %m", path);
			while ((e = readdir(d)))
				if (atoi(e->d_name) > 0 &&
				    atoi(e->d_name) != f->procs[i])
					tid = atoi(e->d_name);
			closedir(d);
			if (!tid)
				usleep(10000);
		}
		PT_REQUIRE(tid > 0, "no thread in %s", path);
		first = 0;
		for (k = 0; k < FLOOD_REOPENS; k++) {
			struct stat st;

			fd = pt_open(f->procs[i], 0);
			tfd = pt_open(tid, PIDFD_THREAD);
			PT_REQUIRE(fd >= 0 && tfd >= 0, "open %d/%d: %m",
				   f->procs[i], tid);
			PT_REQUIRE(fstat(fd, &st) == 0, "fstat: %m");
			PT_REQUIRE(!first || st.st_ino == first,
				   "process %d: %" PRIu64 ", then %" PRIu64,
				   f->procs[i], first, (uint64_t)st.st_ino);
			first = st.st_ino;
			close(fd);
			close(tfd);
		}
	}
	pt_sync_put(&f->opened, 1);
	PT_REQUIRE(pt_sync_get(&f->done, 60000) == 1, "no word from parent");
	/* The namespace's init (the first) is reaped last: it waits for all. */
	for (i = FLOOD_PROCS - 1; i >= 0; i--) {
		kill(f->procs[i], SIGKILL);
		PT_REQUIRE(pt_reap(f->procs[i]) == 128 + SIGKILL, "reap");
	}
	return 0;
}

/*
 * An unprivileged user in namespaces of its own can make the module keep
 * one target per live struct pid it opened (before 6.9), no more however
 * often it opens, and none once they are gone; from 6.9 none at all once
 * its pidfds are closed.
 */
START_TEST(flood_bounded)
{
	long pidfds = counter(PT_LIVE_PIDFDS), pids = counter(PT_LIVE_PIDS);
	struct flood *f = mmap(NULL, sizeof(*f), PROT_READ | PROT_WRITE,
			       MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	pid_t child;
	long kept;
	int status;

	ck_assert(f != MAP_FAILED);
	pt_sync_init(&f->opened);
	pt_sync_init(&f->done);
	child = pt_fork();
	if (child == 0)
		_exit(flood_child(f));
	ck_assert_int_gt(child, 0);
	if (pt_sync_get(&f->opened, 60000) != 1) {
		pt_kill_reap(child);
		ck_abort_msg("the flood did not finish");
	}
	ck_assert_int_eq(counter(PT_LIVE_PIDFDS), pidfds);
	kept = counter(PT_LIVE_PIDS) - pids;
	/* Each process and its thread: two struct pids. */
	ck_assert_int_eq(kept, identity_is_kept() ? 2 * FLOOD_PROCS : 0);
	pt_sync_put(&f->done, 1);
	ck_assert_int_eq(pt_waitpid(child, &status, 0), child);
	ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		      "flood: status %#x", status);
	assert_counters_back(pidfds, pids);
	munmap(f, sizeof(*f));
}
END_TEST

/*
 * Everything fstat() and fstatfs() said of the one shared anon inode, and
 * what changing it answered, stays but the number (and the times, which
 * a per-pid inode has of its own): an eventfd is still a file on it.
 */
static void assert_as_anon(int fd, int efd)
{
	struct stat st, est;
	struct statfs sfs, esfs;

	ck_assert_ok(fstat(fd, &st));
	ck_assert_ok(fstat(efd, &est));
	ck_assert_msg(st.st_mode == est.st_mode, "st_mode %o, eventfd's %o",
		      st.st_mode, est.st_mode);
	ck_assert_int_eq(st.st_uid, est.st_uid);
	ck_assert_int_eq(st.st_gid, est.st_gid);
	ck_assert_uint_eq(st.st_dev, est.st_dev);
	ck_assert_uint_eq(st.st_nlink, est.st_nlink);
	ck_assert_uint_eq(st.st_rdev, est.st_rdev);
	ck_assert_int_eq(st.st_size, est.st_size);
	ck_assert_int_eq(st.st_blksize, est.st_blksize);
	ck_assert_int_eq(st.st_blocks, est.st_blocks);
	ck_assert_ok(fstatfs(fd, &sfs));
	ck_assert_ok(fstatfs(efd, &esfs));
	ck_assert_int_eq(sfs.f_type, esfs.f_type);
	ck_assert_int_eq(sfs.f_flags, esfs.f_flags);
}

/* open() of /proc/self/fd/N: 0 if it opened (and was closed), else -1. */
static int reopen(int fd)
{
	char path[64];
	int nfd;

	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	nfd = open(path, O_RDONLY | O_CLOEXEC);
	if (nfd < 0)
		return -1;
	close(nfd);
	return 0;
}

/*
 * fchmod() and fchown() that change nothing, and an open() through
 * /proc/self/fd: the same answers. (Where the kernel lets root change the
 * shared anon inode, this sets its ctime: harmless in the VM.)
 */
static void assert_setattr_as_anon(int fd, int efd)
{
	struct stat est;
	int r1, e1, r2, e2;

	ck_assert_ok(fstat(efd, &est));
	errno = 0;
	r1 = fchmod(fd, est.st_mode & 07777);
	e1 = errno;
	errno = 0;
	r2 = fchmod(efd, est.st_mode & 07777);
	e2 = errno;
	ck_assert_msg(r1 == r2 && e1 == e2, "fchmod: pidfd %d/%s, eventfd %d/%s",
		      r1, pt_errname(e1), r2, pt_errname(e2));
	errno = 0;
	r1 = fchown(fd, est.st_uid, est.st_gid);
	e1 = errno;
	errno = 0;
	r2 = fchown(efd, est.st_uid, est.st_gid);
	e2 = errno;
	ck_assert_msg(r1 == r2 && e1 == e2, "fchown: pidfd %d/%s, eventfd %d/%s",
		      r1, pt_errname(e1), r2, pt_errname(e2));
	errno = 0;
	r1 = reopen(fd);
	e1 = errno;
	errno = 0;
	r2 = reopen(efd);
	e2 = errno;
	ck_assert_msg(r1 == r2 && e1 == e2, "reopen: pidfd %d/%s, eventfd %d/%s",
		      r1, pt_errname(e1), r2, pt_errname(e2));
}

static int unprivileged_as_anon(void *arg __attribute__((unused)))
{
	int fd, efd, r1, e1, r2, e2;

	pt_become_hostile();
	fd = pt_open(getpid(), 0);
	efd = eventfd(0, EFD_CLOEXEC);
	PT_REQUIRE(fd >= 0 && efd >= 0, "open: %m");
	errno = 0;
	r1 = fchmod(fd, 0600);
	e1 = errno;
	errno = 0;
	r2 = fchmod(efd, 0600);
	e2 = errno;
	PT_REQUIRE(r1 == r2 && e1 == e2 && r1 < 0,
		   "fchmod: pidfd %d/%s, eventfd %d/%s", r1, pt_errname(e1),
		   r2, pt_errname(e2));
	errno = 0;
	r1 = futimens(fd, NULL);
	e1 = errno;
	PT_REQUIRE(r1 < 0, "futimens of a pidfd by uid 65534: %d/%s", r1,
		   pt_errname(e1));
	return 0;
}

START_TEST(looks_as_shared_anon)
{
	int efd = eventfd(0, EFD_CLOEXEC);
	int fd = pt_open_ok(getpid(), 0);
	int tfd;
	pid_t tid = pt_start_idle_thread();

	ck_assert_int_ge(efd, 0);
	ck_assert_int_gt(tid, 0);
	tfd = pt_open_ok(tid, PIDFD_THREAD);
	assert_as_anon(fd, efd);
	assert_as_anon(tfd, efd);
	ck_assert_uint_ne(ino_of(fd), ino_of(tfd));
	assert_setattr_as_anon(fd, efd);
	pt_assert_child(unprivileged_as_anon, NULL);
	pt_close_all(fd, tfd, efd);
}
END_TEST

/* What the timestamps' watcher, uid 65534, saw. */
struct times_seen {
	struct timespec t[3];		/* a pidfd's atime, mtime, ctime */
	struct timespec e[3];		/* an eventfd's */
};

static int times_watcher(void *arg)
{
	struct times_seen *seen = arg;
	struct stat st;
	int fd, efd;

	pt_become_hostile();
	fd = pt_open(getppid(), 0);
	efd = eventfd(0, EFD_CLOEXEC);
	PT_REQUIRE(fd >= 0 && efd >= 0, "open: %m");
	PT_REQUIRE(fstat(fd, &st) == 0, "fstat: %m");
	seen->t[0] = st.st_atim;
	seen->t[1] = st.st_mtim;
	seen->t[2] = st.st_ctim;
	PT_REQUIRE(fstat(efd, &st) == 0, "fstat: %m");
	seen->e[0] = st.st_atim;
	seen->e[1] = st.st_mtim;
	seen->e[2] = st.st_ctim;
	return 0;
}

/*
 * Another user cannot tell from a pidfd of a process whether, or since
 * when, someone else holds one of it: the times are the shared anon
 * inode's, as they were, not those of the inode's making (the first
 * pidfd of those open now).
 */
START_TEST(times_tell_nothing)
{
	struct times_seen *seen = mmap(NULL, sizeof(*seen),
				       PROT_READ | PROT_WRITE,
				       MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	int held = pt_open_ok(getpid(), 0);
	int i;

	ck_assert(seen != MAP_FAILED);
	usleep(1100 * 1000);
	pt_assert_child(times_watcher, seen);
	for (i = 0; i < 3; i++)
		ck_assert_msg(seen->t[i].tv_sec == seen->e[i].tv_sec &&
			      seen->t[i].tv_nsec == seen->e[i].tv_nsec,
			      "%s %ld.%09ld, the shared anon inode's %ld.%09ld",
			      (const char *[]){ "atime", "mtime", "ctime" }[i],
			      (long)seen->t[i].tv_sec, seen->t[i].tv_nsec,
			      (long)seen->e[i].tv_sec, seen->e[i].tv_nsec);
	close(held);
	munmap(seen, sizeof(*seen));
}
END_TEST

int main(void)
{
	Suite *s = suite_create("identity_attack");
	TCase *tc = pt_tcase(s, "identity_attack");

	tcase_set_timeout(tc, 120);
	pt_add_tests(tc, race_open_close_exit, race_open_close_exec,
		     flood_bounded, looks_as_shared_anon, times_tell_nothing);
	return pt_main(s);
}
