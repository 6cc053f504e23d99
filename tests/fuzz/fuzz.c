// SPDX-License-Identifier: GPL-2.0
/*
 * The ioctl fuzzer: random commands (ours exactly, ours with another size,
 * near misses, anything) with random arguments (NULL, an unmapped page, a
 * kernel address, small integers, a read-only page, a struct that runs
 * into an unmapped page, random bytes right below a canary) on /dev/pidfd,
 * on pidfds of a live, a zombie and a reaped child, of a live and an exited
 * thread, and on fds that are no pidfd.
 *
 * Every call must succeed or fail with an errno docs/abi.md lists for that
 * command on that kind of fd; a new fd must be close-on-exec; nothing may
 * be written past the size the command names; at the end no fd is left
 * open and the module's counters are where they started.
 *
 * Built twice, 64-bit (check_fuzz) and 32-bit (check_fuzz32, i386 or
 * armhf: every call through compat_ioctl). Check has no 32-bit build here,
 * so the program is its own runner: on the first bad result it prints the
 * iteration, the call and the seed, and exits 1.
 *
 *   check_fuzz [ITERATIONS [SEED]]   (or PIDFD_FUZZ_ITERATIONS, _SEED)
 *
 * Signals only ever reach the fuzzer's own children, each in a process
 * group of its own, which block every signal but SIGKILL and SIGSTOP.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <linux/pidfd_dev.h>

#include "pt_files.h"
#include "pt_ioctl.h"
#include "pt_process.h"
#include "pt_rand.h"

#define DEFAULT_ITERATIONS	1000000UL
#define PAGE			4096
#define ARG_SIZE		16384	/* _IOC_SIZE() is at most 16383 */
#define CANARY_SIZE		64
#define CANARY_BYTE		0xa5

static unsigned long seed, iteration;

static void __attribute__((noreturn, format(printf, 1, 2)))
fail(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "[fuzz] FAIL at iteration %lu (seed %lu): ", iteration,
		seed);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

#define REQUIRE(cond) do {						\
	if (!(cond))							\
		fail("%s:%d: %s (errno %s)", __FILE__, __LINE__, #cond,	\
		     strerrorname_np(errno));				\
} while (0)

static uint64_t rng_state;

static uint64_t rnd(void)
{
	return pt_rand(&rng_state);
}

static unsigned int rnd_below(unsigned int n)
{
	return (unsigned int)(rnd() % n);
}

static unsigned long arg_number(int argc, char **argv, int i,
				const char *env, unsigned long dflt)
{
	return argc > i ? strtoul(argv[i], NULL, 0) : pt_env_ulong(env, dflt);
}

/* One of the module's counters, PT_LIVE_PIDFDS or PT_LIVE_PIDS. */
static long read_counter(const char *path)
{
	long val;

	REQUIRE(pt_read_long(path, &val) == 0);
	return val;
}

static int count_open_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	int n = 0;

	REQUIRE(d);
	while (readdir(d))
		n++;
	closedir(d);
	return n - 3;	/* ".", ".." and the directory's own fd */
}

/* ---- The targets --------------------------------------------------- */

static int open_pidfd(pid_t pid, unsigned int flags)
{
	int fd = pt_open(pid, flags);

	REQUIRE(fd >= 0);
	return fd;
}

/*
 * A child in a process group of its own. It inherits the fuzzer's mask,
 * which blocks every signal, so only SIGKILL and SIGSTOP act on it; the
 * others stay pending (the real-time ones queue until the limit).
 */
static pid_t fork_target(void)
{
	pid_t pid = pt_fork_sleeper();

	REQUIRE(pid >= 0);
	setpgid(pid, pid);
	return pid;
}

/* The same that exits at once with @code, its group set before it does. */
static pid_t fork_exit_target(int code)
{
	pid_t pid = pt_fork();

	REQUIRE(pid >= 0);
	if (pid == 0) {
		setpgid(0, 0);
		_exit(code);
	}
	return pid;
}

/*
 * SIGKILL ends a stopped target too. A fuzzed signal may have ended it
 * first: glibc's own two (32 and 33) cannot be blocked from userspace.
 */
static void kill_reap(pid_t pid)
{
	kill(pid, SIGKILL);
	REQUIRE(pt_reap(pid) >= 0);
}

/* Gone or stopped (a fuzzed SIGKILL or SIGSTOP): reaped, and true. */
static bool target_lost(pid_t pid)
{
	int status;
	pid_t ret = waitpid(pid, &status, WNOHANG | WUNTRACED);

	REQUIRE(ret >= 0);
	if (ret == 0)
		return false;
	if (WIFSTOPPED(status))
		kill_reap(pid);
	return true;
}

/* A thread that reports its tid, then waits: on @wait_fd, or for ever. */
struct reporting_thread {
	int report_fd;
	int wait_fd;	/* -1: never exits */
};

static void *report_then_wait(void *arg)
{
	const struct reporting_thread *t = arg;
	pid_t tid = pt_gettid();
	char c;

	if (write(t->report_fd, &tid, sizeof(tid)) != sizeof(tid))
		_exit(2);
	if (t->wait_fd >= 0) {
		/* Exits once the parent holds its pidfd (or is gone). */
		if (read(t->wait_fd, &c, 1) < 0)
			_exit(2);
		return NULL;
	}
	for (;;)
		pause();
}

static pid_t read_tid(int fd)
{
	pid_t tid;

	REQUIRE(read(fd, &tid, sizeof(tid)) == sizeof(tid));
	return tid;
}

/* Waits until the thread @tid of @pid is gone. */
static void wait_thread_gone(pid_t pid, pid_t tid)
{
	char path[64];
	int i;

	snprintf(path, sizeof(path), "/proc/%d/task/%d", pid, tid);
	for (i = 0; i < 5000 && access(path, F_OK) == 0; i++)
		usleep(1000);
	REQUIRE(access(path, F_OK) != 0);
}

enum fd_kind { FD_DEVICE, FD_PIDFD, FD_OTHER };

struct target_fd {
	int fd;
	enum fd_kind kind;
	const char *what;
};

enum { T_DEV, T_LIVE, T_ZOMBIE, T_REAPED, T_THREAD, T_THREAD_GONE,
	T_DEVNULL, T_PROC, T_COUNT };

static struct target_fd fds[T_COUNT];
static pid_t live, zombie, threaded;
static int proc_root;
static int proc_self_dir;	/* for PIDFD_DEV_OPEN_PROCDIR to succeed */

static void set_fd(int slot, int fd, enum fd_kind kind, const char *what)
{
	REQUIRE(fd >= 0);
	fds[slot] = (struct target_fd){ fd, kind, what };
}

static void make_live(void)
{
	live = fork_target();
	set_fd(T_LIVE, open_pidfd(live, 0), FD_PIDFD, "pidfd of a live child");
}

/*
 * The threaded child: the fd of a thread that lives on, and of one that
 * exited while the process lives on.
 */
static void make_threaded(void)
{
	int live_report[2], gone_report[2], go[2];
	pid_t live_tid, gone_tid;

	REQUIRE(pipe2(live_report, O_CLOEXEC) == 0);
	REQUIRE(pipe2(gone_report, O_CLOEXEC) == 0);
	REQUIRE(pipe2(go, O_CLOEXEC) == 0);
	threaded = pt_fork();
	REQUIRE(threaded >= 0);
	if (threaded == 0) {
		struct reporting_thread live_thread = { live_report[1], -1 };
		struct reporting_thread gone_thread = { gone_report[1], go[0] };
		pthread_t t;

		setpgid(0, 0);
		if (pthread_create(&t, NULL, report_then_wait, &live_thread) ||
		    pthread_create(&t, NULL, report_then_wait, &gone_thread))
			_exit(2);
		for (;;)
			pause();
	}
	setpgid(threaded, threaded);
	close(live_report[1]);
	close(gone_report[1]);
	close(go[0]);
	live_tid = read_tid(live_report[0]);
	gone_tid = read_tid(gone_report[0]);
	close(live_report[0]);
	close(gone_report[0]);
	set_fd(T_THREAD, open_pidfd(live_tid, PIDFD_THREAD), FD_PIDFD,
	       "thread pidfd of a live thread");
	set_fd(T_THREAD_GONE, open_pidfd(gone_tid, PIDFD_THREAD), FD_PIDFD,
	       "thread pidfd of an exited thread");
	REQUIRE(write(go[1], "x", 1) == 1);
	close(go[1]);
	wait_thread_gone(threaded, gone_tid);
}

/*
 * Mount games: in a mount namespace of its own, the fuzzer lays a tmpfs
 * with a submount over its children's /proc entries and takes it off
 * again while it fuzzes. The module must answer EXDEV or walk past them,
 * and the initial namespace's mounts must not change (issue 23).
 */
#define COVER_DIR	"/tmp/pidfd-fuzz-cover"
#define COVERS		4

static char covered[COVERS][64];
static unsigned int ncovered;
static char initial_mounts[32768];

static void read_mounts(char *buf, size_t len)
{
	int fd = open("/proc/1/mountinfo", O_RDONLY | O_CLOEXEC);
	size_t off = 0;
	ssize_t n;

	REQUIRE(fd >= 0);
	while ((n = read(fd, buf + off, len - 1 - off)) > 0)
		off += (size_t)n;
	REQUIRE(n == 0 && off < len - 1);
	buf[off] = '\0';
	close(fd);
}

static void covers_setup(void)
{
	read_mounts(initial_mounts, sizeof(initial_mounts));
	REQUIRE(unshare(CLONE_NEWNS) == 0);
	REQUIRE(mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) == 0);
	REQUIRE(mkdir(COVER_DIR, 0755) == 0 || errno == EEXIST);
	REQUIRE(mount("cover", COVER_DIR, "tmpfs", 0, "size=16k") == 0);
	REQUIRE(mkdir(COVER_DIR "/sub", 0755) == 0);
	REQUIRE(mount("sub", COVER_DIR "/sub", "tmpfs", 0, "size=16k") == 0);
}

/* Covers one more entry, or uncovers the last one. */
static void cover_toggle(void)
{
	char *path;

	if (ncovered == COVERS || (ncovered && rnd_below(2))) {
		/* Gone already if its process died (procfs drops it). */
		umount2(covered[--ncovered], MNT_DETACH);
		return;
	}
	path = covered[ncovered];
	switch (rnd_below(4)) {
	case 0:
		snprintf(path, sizeof(covered[0]), "/proc/%d", live);
		break;
	case 1:
		snprintf(path, sizeof(covered[0]), "/proc/%d/task", live);
		break;
	case 2:
		snprintf(path, sizeof(covered[0]), "/proc/%d/task/%d",
			 threaded, threaded);
		break;
	default:
		snprintf(path, sizeof(covered[0]), "/proc/%d", threaded);
		break;
	}
	if (mount(COVER_DIR, path, NULL, MS_BIND | MS_REC, NULL) == 0)
		ncovered++;
}

static void covers_check(void)
{
	static char now[sizeof(initial_mounts)];

	while (ncovered)
		umount2(covered[--ncovered], MNT_DETACH);
	read_mounts(now, sizeof(now));
	if (strcmp(now, initial_mounts))
		fail("the initial namespace's mounts changed");
}

/* Does the kernel give its pidfds an inode each (pidfs, 6.9)? */
static bool kernel_has_pidfs(void)
{
	int fd = (int)syscall(SYS_pidfd_open, getpid(), 0);
	struct statfs sfs;
	bool yes;

	if (fd < 0)
		return false;
	yes = fstatfs(fd, &sfs) == 0 && sfs.f_type == 0x50494446;
	close(fd);
	return yes;
}

static void open_targets(void)
{
	pid_t reaped;

	set_fd(T_DEV, pt_dev(), FD_DEVICE, "/dev/pidfd");
	reaped = fork_exit_target(0);
	set_fd(T_REAPED, open_pidfd(reaped, 0), FD_PIDFD,
	       "pidfd of a reaped child");
	REQUIRE(pt_reap(reaped) == 0);
	zombie = fork_exit_target(3);
	REQUIRE(waitid(P_PID, zombie, NULL, WEXITED | WNOWAIT) == 0);
	set_fd(T_ZOMBIE, open_pidfd(zombie, PIDFD_NONBLOCK), FD_PIDFD,
	       "pidfd of a zombie");
	make_live();
	make_threaded();
	set_fd(T_DEVNULL, open("/dev/null", O_RDONLY | O_CLOEXEC), FD_OTHER,
	       "/dev/null");
	proc_root = open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	set_fd(T_PROC, proc_root, FD_OTHER, "the /proc root");
	if (!proc_self_dir) {
		proc_self_dir = open("/proc/self", O_RDONLY | O_DIRECTORY |
				     O_CLOEXEC);
		REQUIRE(proc_self_dir >= 0);
	}
}

/* A fuzzed SIGKILL or SIGSTOP got through, or now and then anyway. */
static void renew_targets(void)
{
	bool lost = target_lost(live);

	if (lost || rnd_below(64) == 0) {
		if (!lost)
			kill_reap(live);
		close(fds[T_LIVE].fd);
		make_live();
	}
	if (target_lost(threaded)) {
		close(fds[T_THREAD].fd);
		close(fds[T_THREAD_GONE].fd);
		make_threaded();
	}
}

/* ---- Commands and arguments ---------------------------------------- */

static bool same_ioctl(unsigned int cmd, unsigned int ref)
{
	return _IOC_DIR(cmd) == _IOC_DIR(ref) &&
	       _IOC_TYPE(cmd) == _IOC_TYPE(ref) && _IOC_NR(cmd) == _IOC_NR(ref);
}

/*
 * The VFS answers some commands on every fd before the driver sees them
 * (FIOCLEX, FIONBIO, FIFREEZE, FS_IOC_*, ...): they are not ours to fuzz.
 */
static bool vfs_generic(unsigned int cmd)
{
	switch (_IOC_TYPE(cmd)) {
	case 0x00: case 0x15: case 'T': case 'X': case 'f': case 0x94:
		return true;
	default:
		return false;
	}
}

/* PIDFD_GET_<TYPE>_NAMESPACE: _IO(0xFF, 1..10). */
static bool is_ns_ioctl(unsigned int cmd)
{
	return _IOC_DIR(cmd) == _IOC_NONE && _IOC_SIZE(cmd) == 0 &&
	       _IOC_TYPE(cmd) == PIDFS_IOCTL_MAGIC &&
	       _IOC_NR(cmd) >= 1 && _IOC_NR(cmd) <= 10;
}

/* A command: one of ours as it is, with a random size, a near miss, or anything. */
static unsigned int random_cmd(void)
{
	static const unsigned int ours[] = {
		PIDFD_DEV_OPEN, PIDFD_DEV_SEND_SIGNAL, PIDFD_GET_PROCFD,
		PIDFD_DEV_OPEN_PROCDIR, PIDFD_DEV_IS_PIDFD,
		PIDFD_DEV_OPEN_PEER, PIDFD_DEV_GET_INFO,
		PIDFD_GET_UTS_NAMESPACE,
		PIDFD_GET_TIME_FOR_CHILDREN_NAMESPACE,
	};
	static const unsigned int magics[] = {
		PIDFD_DEV_IOC_MAGIC, PIDFS_IOCTL_MAGIC, 'p',
	};
	unsigned int cmd = ours[rnd_below(sizeof(ours) / sizeof(ours[0]))];

	switch (rnd_below(8)) {
	case 0: case 1: case 2: case 3:
		return cmd;
	case 4: case 5:
		return _IOC(_IOC_DIR(cmd), _IOC_TYPE(cmd), _IOC_NR(cmd),
			    rnd_below(2) ? rnd_below(129) : rnd_below(ARG_SIZE));
	case 6:
		return _IOC(rnd_below(4), magics[rnd_below(3)], rnd_below(16),
			    rnd_below(ARG_SIZE));
	default:
		do
			cmd = (unsigned int)rnd();
		while (vfs_generic(cmd));
		return cmd;
	}
}

static unsigned char *arg_area;	/* ARG_SIZE bytes, then the canary */
static unsigned char *ro_page;	/* random bytes, read-only */
static unsigned char *edge;	/* a page, then an unmapped one */
static unsigned char *siginfo_buf;
static void *unmapped;

static void map_args(void)
{
	unsigned char *p;
	unsigned int i;

	arg_area = mmap(NULL, ARG_SIZE + CANARY_SIZE, PROT_READ | PROT_WRITE,
			MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ro_page = mmap(NULL, PAGE, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	p = mmap(NULL, 3 * PAGE, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	siginfo_buf = mmap(NULL, PAGE, PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	REQUIRE(arg_area != MAP_FAILED && ro_page != MAP_FAILED &&
		p != MAP_FAILED && siginfo_buf != MAP_FAILED);
	for (i = 0; i < PAGE; i++)
		ro_page[i] = (unsigned char)rnd();
	REQUIRE(mprotect(ro_page, PAGE, PROT_READ) == 0);
	/* p: [edge page][PROT_NONE][unmapped], kept so nothing lands there. */
	edge = p;
	REQUIRE(mprotect(p + PAGE, PAGE, PROT_NONE) == 0);
	REQUIRE(munmap(p + 2 * PAGE, PAGE) == 0);
	unmapped = p + 2 * PAGE;
}

/* Random bytes, with the fields that matter often sane. */
static void fill_arg(unsigned char *buf, size_t room)
{
	struct pidfd_signal_args sig = { 0 };
	size_t i, n = rnd_below(96);
	int32_t pid;

	if (n > room)
		n = room;
	for (i = 0; i < n; i++)
		buf[i] = (unsigned char)rnd();
	if (room < sizeof(sig))
		return;
	switch (rnd_below(4)) {
	case 0:	/* pidfd_open_args: a pid we own, or any; _procdir_args */
		pid = rnd_below(3) == 0 ? proc_self_dir :
		      rnd_below(2) ? live : (int32_t)rnd_below(400);
		memcpy(buf, &pid, sizeof(pid));
		break;
	case 1:	/* struct pidfd_signal_args: small sig, one flag or none */
		sig.sig = rnd_below(66);
		sig.flags = rnd_below(2) << rnd_below(3);
		if (rnd_below(2)) {
			/* A siginfo of random bytes, often consistent. */
			for (i = 0; i < 128; i++)
				siginfo_buf[i] = (unsigned char)rnd();
			if (rnd_below(2))
				memcpy(siginfo_buf, &sig.sig, sizeof(int));
			sig.info = (uintptr_t)siginfo_buf;
		}
		memcpy(buf, &sig, sizeof(sig));
		break;
	default:
		break;
	}
}

/* The ioctl's third argument. */
static unsigned long random_value(unsigned int cmd)
{
	size_t size = _IOC_SIZE(cmd), in_page;

	switch (rnd_below(10)) {
	case 0:
		return 0;
	case 1:
		return (unsigned long)(uintptr_t)unmapped;
	case 2:	/* an fd number, or a procfs root for GET_PROCFD */
		return rnd_below(2) ? (unsigned long)proc_root : rnd_below(64);
	case 3:	/* a kernel address: never accessible from user space */
		return sizeof(long) == 8 ? (unsigned long)0xffff888000001000ULL :
					   0xfffff000UL;
	case 4:
		return (unsigned long)(uintptr_t)ro_page;
	case 5:	/* starts in a page, runs into an inaccessible one */
		in_page = size / 2 + 1 < PAGE ? size / 2 + 1 : PAGE;
		fill_arg(edge + PAGE - in_page, in_page);
		return (unsigned long)(uintptr_t)(edge + PAGE - in_page);
	default:
		/* Right below the canary: the size must be honoured. */
		fill_arg(arg_area + ARG_SIZE - size, size);
		return (unsigned long)(uintptr_t)(arg_area + ARG_SIZE - size);
	}
}

/* ---- What docs/abi.md allows --------------------------------------- */

static bool errno_in(int err, const int *list)
{
	for (; *list; list++)
		if (*list == err)
			return true;
	return false;
}

/* The errno @err is one docs/abi.md gives @cmd on an fd of kind @kind. */
static bool allowed_errno(enum fd_kind kind, unsigned int cmd, int err)
{
	static const int open_errs[] = {
		EFAULT, EINVAL, ESRCH, E2BIG, EMFILE, ENFILE, ENOMEM, EPERM,
		EACCES, 0
	};
	static const int signal_errs[] = {
		EFAULT, EINVAL, EPERM, ESRCH, E2BIG, EACCES, EAGAIN, ENOMEM,
		EOPNOTSUPP, 0
	};
	static const int procfd_errs[] = {
		EBADF, EINVAL, ESRCH, ENOENT, EACCES, EPERM, EXDEV, EMFILE,
		ENFILE, ENOMEM, 0
	};
	static const int info_errs[] = {
		EFAULT, EINVAL, ESRCH, EREMOTE, ENOMEM, 0
	};
	static const int procdir_errs[] = {
		EFAULT, EINVAL, E2BIG, EBADF, ESRCH, EACCES, EPERM, EXDEV,
		EMFILE, ENFILE, ENOMEM, 0
	};
	static const int peer_errs[] = {
		EFAULT, EINVAL, E2BIG, EOPNOTSUPP, EBADF, ENOTSOCK, EACCES,
		ENODATA, ESRCH, EMFILE, ENFILE, ENOMEM, 0
	};
	static const int ns_errs[] = {
		EINVAL, ESRCH, EACCES, EOPNOTSUPP, EMFILE, ENFILE, ENOMEM, 0
	};

	if (kind == FD_DEVICE && same_ioctl(cmd, PIDFD_DEV_OPEN))
		return errno_in(err, open_errs);
	if (kind == FD_DEVICE && same_ioctl(cmd, PIDFD_DEV_OPEN_PROCDIR))
		return errno_in(err, procdir_errs);
	if (kind == FD_PIDFD && cmd == PIDFD_GET_PROCFD)
		return errno_in(err, procfd_errs);
	if (kind == FD_DEVICE && same_ioctl(cmd, PIDFD_DEV_OPEN_PEER))
		return errno_in(err, peer_errs);
	if (kind == FD_DEVICE && cmd == PIDFD_DEV_IS_PIDFD)
		return err == EBADF;
	if (kind == FD_PIDFD && same_ioctl(cmd, PIDFD_DEV_SEND_SIGNAL))
		return errno_in(err, signal_errs);
	if (kind == FD_PIDFD && same_ioctl(cmd, PIDFD_DEV_GET_INFO))
		return errno_in(err, info_errs);
	if (kind == FD_PIDFD && is_ns_ioctl(cmd))
		return errno_in(err, ns_errs);
	return err == ENOTTY;
}

/* The command returns a new fd when it succeeds. */
static bool returns_fd(enum fd_kind kind, unsigned int cmd)
{
	return (kind == FD_DEVICE && (same_ioctl(cmd, PIDFD_DEV_OPEN) ||
				      same_ioctl(cmd, PIDFD_DEV_OPEN_PROCDIR) ||
				      same_ioctl(cmd, PIDFD_DEV_OPEN_PEER))) ||
	       (kind == FD_PIDFD &&
		(cmd == PIDFD_GET_PROCFD || is_ns_ioctl(cmd)));
}

static bool is_nsfs_fd(int fd)
{
	char path[64], target[64];
	unsigned long long ino;
	char kind[24];
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	n = readlink(path, target, sizeof(target) - 1);
	if (n <= 0)
		return false;
	target[n] = '\0';
	return sscanf(target, "%23[a-z_]:[%llu]", kind, &ino) == 2;
}

static void check_new_fd(int fd, unsigned int cmd)
{
	struct stat st;

	if (fcntl(fd, F_GETFD) != FD_CLOEXEC)
		fail("cmd %#x: new fd %d is not close-on-exec", cmd, fd);
	if (cmd == PIDFD_GET_PROCFD &&
	    (fstat(fd, &st) != 0 || !S_ISDIR(st.st_mode)))
		fail("GET_PROCFD: new fd %d is not a directory", fd);
	/*
	 * An nsfs file, which /proc/self/fd shows as "uts:[4026531838]"
	 * (NS_GET_NSTYPE would tell too, but before 6.11 nsfs has no
	 * compat_ioctl, so a 32-bit caller gets ENOTTY from it).
	 */
	if (is_ns_ioctl(cmd) &&
	    (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || !is_nsfs_fd(fd)))
		fail("cmd %#x: new fd %d is not a namespace", cmd, fd);
	close(fd);
}

/* ---- The run -------------------------------------------------------- */

int main(int argc, char **argv)
{
	unsigned long iterations, ok = 0, by_errno[256] = { 0 };
	long pidfds_before, pids_before;
	int fds_before;
	sigset_t all;
	unsigned int i;

	iterations = arg_number(argc, argv, 1, "PIDFD_FUZZ_ITERATIONS",
				DEFAULT_ITERATIONS);
	seed = arg_number(argc, argv, 2, "PIDFD_FUZZ_SEED",
			  (unsigned long)time(NULL));
	printf("[fuzz] %d-bit, seed %lu, %lu iterations\n",
	       (int)sizeof(long) * 8, seed, iterations);
	fflush(stdout);
	rng_state = seed | 1;

	/* No fuzzed signal can reach the fuzzer; its children inherit it. */
	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, NULL);
	fds_before = count_open_fds();
	pidfds_before = read_counter(PT_LIVE_PIDFDS);
	pids_before = read_counter(PT_LIVE_PIDS);
	map_args();
	covers_setup();
	open_targets();

	for (iteration = 0; iteration < iterations; iteration++) {
		const struct target_fd *t = &fds[rnd_below(T_COUNT)];
		unsigned int cmd = random_cmd();
		unsigned long value;
		long ret;
		int err;

		/* About 1000 times a run: an umount waits for RCU (slow on RT). */
		if (rnd_below(1024) == 0)
			cover_toggle();
		memset(arg_area + ARG_SIZE, CANARY_BYTE, CANARY_SIZE);
		value = random_value(cmd);
		errno = 0;
		ret = ioctl(t->fd, cmd, value);
		err = errno;
		for (i = 0; i < CANARY_SIZE; i++)
			if (arg_area[ARG_SIZE + i] != CANARY_BYTE)
				fail("cmd %#x on %s wrote past its size %u",
				     cmd, t->what, _IOC_SIZE(cmd));
		if (ret < 0) {
			if (!allowed_errno(t->kind, cmd, err))
				fail("ioctl(%s, %#x, %#lx): %s is not an errno of this command",
				     t->what, cmd, value, strerrorname_np(err));
			by_errno[err & 0xff]++;
		} else if (returns_fd(t->kind, cmd)) {
			ok++;
			check_new_fd((int)ret, cmd);
		} else if (ret == 0 || (t->kind == FD_DEVICE &&
					cmd == PIDFD_DEV_IS_PIDFD && ret == 1)) {
			ok++;
		} else {
			fail("ioctl(%s, %#x, %#lx) returned %ld", t->what, cmd,
			     value, ret);
		}
		/* Only a call that succeeded can have stopped or killed one. */
		if (ret >= 0)
			renew_targets();
	}

	/* What the run reached, so that a fuzzer that does nothing shows. */
	printf("[fuzz] %lu calls succeeded;", ok);
	for (i = 0; i < 256; i++)
		if (by_errno[i])
			printf(" %s %lu", strerrorname_np((int)i), by_errno[i]);
	printf("\n");
	if (ok <= iterations / 100)
		fail("only %lu of %lu calls succeeded", ok, iterations);

	covers_check();
	for (i = 0; i < T_COUNT; i++)
		close(fds[i].fd);
	close(proc_self_dir);
	kill_reap(live);
	kill_reap(threaded);
	REQUIRE(pt_reap(zombie) == 3);
	if (count_open_fds() != fds_before)
		fail("%d fds open at the end, %d at the start",
		     count_open_fds(), fds_before);
	/*
	 * A finished target's last reference may sit in the irq_work briefly.
	 * Before 6.9 (no pidfs) a live process's target stays after its last
	 * pidfd, to keep its identity (docs/abi.md, "Identity"): the fuzzer's
	 * own, init's, any live process a fuzzed PIDFD_DEV_OPEN named.
	 */
	if (!kernel_has_pidfs())
		pids_before = -1;
	for (i = 0; i < 100 && pids_before >= 0 &&
	     read_counter(PT_LIVE_PIDS) != pids_before; i++)
		usleep(10000);
	if (read_counter(PT_LIVE_PIDFDS) != pidfds_before ||
	    (pids_before >= 0 && read_counter(PT_LIVE_PIDS) != pids_before))
		fail("live_pidfds %ld, live_pids %ld at the end; %ld, %ld at the start",
		     read_counter(PT_LIVE_PIDFDS), read_counter(PT_LIVE_PIDS),
		     pidfds_before, pids_before);
	printf("[fuzz] passed\n");
	return 0;
}
