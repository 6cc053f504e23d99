// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Which backend serves a call: the chosen one (LIBPIDFD_BACKEND or
 * libpidfd_set_backend()), what the running kernel can do natively
 * (probed once per process on the caller's own pidfd, never guessed from
 * the version number), and which kind of pidfd a given fd is.
 *
 * No call of the library's makes a process to find out what the kernel
 * can do: whether a kernel without PIDFD_INFO_SUPPORTED_MASK (6.13 to
 * 6.18) keeps the exit status (6.15) is asked of a child only by
 * libpidfd_kernel_features(), which pidfdctl doctor calls to report it.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "libpidfd.h"
#include "internal.h"

#define BACKEND_UNSET	-1
#define BACKEND_INVALID	-2

int libpidfd_priv_chosen_backend = BACKEND_UNSET;

int libpidfd_priv_backend_named(const char *name)
{
	if (strcmp(name, "auto") == 0)
		return LIBPIDFD_BACKEND_AUTO;
	if (strcmp(name, "native") == 0)
		return LIBPIDFD_BACKEND_NATIVE;
	if (strcmp(name, "module") == 0)
		return LIBPIDFD_BACKEND_MODULE;
	return -1;
}

int libpidfd_backend_by_name(const char *name)
{
	int backend = name ? libpidfd_priv_backend_named(name) : -1;

	if (backend < 0)
		errno = EINVAL;
	return backend;
}

static int backend_from_env(void)
{
	const char *name = getenv("LIBPIDFD_BACKEND");
	int backend;

	if (!name || !*name)
		return LIBPIDFD_BACKEND_AUTO;
	backend = libpidfd_priv_backend_named(name);
	return backend < 0 ? BACKEND_INVALID : backend;
}

int libpidfd_set_backend(int backend)
{
	if (backend != LIBPIDFD_BACKEND_AUTO &&
	    backend != LIBPIDFD_BACKEND_NATIVE &&
	    backend != LIBPIDFD_BACKEND_MODULE) {
		errno = EINVAL;
		return -1;
	}
	__atomic_store_n(&libpidfd_priv_chosen_backend, backend, __ATOMIC_RELAXED);
	return 0;
}

int libpidfd_get_backend(void)
{
	int backend = __atomic_load_n(&libpidfd_priv_chosen_backend, __ATOMIC_RELAXED);

	if (backend == BACKEND_UNSET) {
		int from_env = backend_from_env();

		/* Racing first users compute the same value. */
		__atomic_compare_exchange_n(&libpidfd_priv_chosen_backend, &backend, from_env,
					    false, __ATOMIC_RELAXED,
					    __ATOMIC_RELAXED);
		backend = __atomic_load_n(&libpidfd_priv_chosen_backend, __ATOMIC_RELAXED);
	}
	if (backend == BACKEND_INVALID) {
		errno = EINVAL;
		return -1;
	}
	return backend;
}

/*
 * What the kernel can do, probed once per process and kept in one word, so
 * that no call needs a lock: a signal handler or a thread that comes first
 * while another probes probes too (the same few system calls on its own
 * pidfd, no allocation), and the first to finish publishes with a
 * compare-and-swap; the others' results are equal and dropped. The low 32
 * bits are the probed PIDFD_INFO_* mask (no bit above the 32nd exists).
 */
#define NATIVE_PROBED		(UINT64_C(1) << 63)
#define NATIVE_OPEN		(UINT64_C(1) << 32)
#define NATIVE_THREAD		(UINT64_C(1) << 33)
#define NATIVE_SIGNAL		(UINT64_C(1) << 34)
#define NATIVE_SIGNAL_SCOPE	(UINT64_C(1) << 35)
#define NATIVE_WAITID		(UINT64_C(1) << 36)
#define NATIVE_NAMESPACES	(UINT64_C(1) << 37)
#define NATIVE_INFO		(UINT64_C(1) << 38)
#define NATIVE_INFO_MASK	UINT64_C(0xffffffff)

static uint64_t native_word;
/* Only libpidfd_kernel_features() makes a child: no interposed path. */
static pthread_once_t exit_once = PTHREAD_ONCE_INIT;

/*
 * clone(CLONE_PIDFD) with no exit signal and no new stack, the pidfd
 * written to *@pidfd: clone3(2) where it is there (every kernel with
 * PIDFD_GET_INFO has it), else clone(2) in the argument order of the
 * architecture (CONFIG_CLONE_BACKWARDS2: s390 takes the stack first).
 */
static long clone_pidfd(int *pidfd)
{
	/* struct clone_args as of 5.3 (CLONE_ARGS_SIZE_VER0). */
	struct {
		__u64 flags, pidfd, child_tid, parent_tid, exit_signal;
		__u64 stack, stack_size, tls;
	} args;
	long pid;

	memset(&args, 0, sizeof(args));
	args.flags = CLONE_PIDFD;
	args.pidfd = (__u64)(uintptr_t)pidfd;
#ifdef SYS_clone3
	pid = syscall(SYS_clone3, &args, sizeof(args));
	if (pid >= 0 || errno != ENOSYS)
		return pid;
#endif
#if defined(__s390__) || defined(__CRIS__)
	return syscall(SYS_clone, NULL, CLONE_PIDFD, pidfd, NULL, NULL);
#else
	return syscall(SYS_clone, CLONE_PIDFD, NULL, pidfd, NULL, NULL);
#endif
}

/*
 * Does the kernel keep a pidfd's exit status after the reap
 * (PIDFD_INFO_EXIT, 6.15)? Kernels before PIDFD_INFO_SUPPORTED_MASK (6.19)
 * do not say, so a child of our own that exits at once is asked. It has no
 * exit signal, which keeps it from the program's SIGCHLD handler and from
 * its wait(-1) (only __WCLONE or __WALL wait for such a child), and it runs
 * nothing of the program: no fork handler, only exit.
 */
static bool probe_info_exit(void)
{
	struct pidfd_dev_info info;
	int pidfd = -1;
	bool kept = false;
	siginfo_t si;
	long pid;

	pid = clone_pidfd(&pidfd);
	if (pid == 0)
		syscall(SYS_exit, 0);
	if (pid < 0)
		return false;
	memset(&si, 0, sizeof(si));
	if (waitid(LIBPIDFD_P_PIDFD, (id_t)pidfd, &si, WEXITED | __WCLONE) == 0) {
		memset(&info, 0, sizeof(info));
		info.mask = PIDFD_INFO_EXIT;
		kept = ioctl(pidfd, PIDFD_DEV_GET_INFO, &info) == 0 &&
		       (info.mask & PIDFD_INFO_EXIT);
	}
	close(pidfd);
	return kept;
}

/* The PIDFD_INFO_* mask the kernel's GET_INFO reports, asked on @self. */
static uint64_t probe_info(int self)
{
	struct pidfd_dev_info info;
	uint64_t mask;

	memset(&info, 0, sizeof(info));
	info.mask = PIDFD_INFO_SUPPORTED_MASK | PIDFD_INFO_COREDUMP;
	if (ioctl(self, PIDFD_DEV_GET_INFO, &info) < 0)
		return 0;
	/*
	 * 6.13's fields always come; COREDUMP if it answered for us (6.16);
	 * what the kernel says it supports (6.19, whose list is not whole
	 * before 7.1: seen without PID and EXIT on 6.19 and 7.0); and EXIT
	 * (6.15) asked of a child where the list does not have it.
	 */
	mask = PIDFD_INFO_PID | PIDFD_INFO_CREDS | PIDFD_INFO_CGROUPID |
	       (info.mask & PIDFD_INFO_COREDUMP);
	if (info.mask & PIDFD_INFO_SUPPORTED_MASK)
		mask |= info.supported_mask | PIDFD_INFO_SUPPORTED_MASK;
	return NATIVE_INFO | (mask & NATIVE_INFO_MASK);
}

static uint64_t probe_native(void)
{
	uint64_t word = NATIVE_PROBED;
	int self, thread, ns;
	siginfo_t info;

	self = libpidfd_priv_sys_pidfd_open(getpid(), 0);
	if (self < 0)
		return word;
	word |= NATIVE_OPEN;

	thread = libpidfd_priv_sys_pidfd_open(gettid(), PIDFD_THREAD);
	if (thread >= 0) {
		word |= NATIVE_THREAD;
		close(thread);
	}
	if (libpidfd_priv_sys_send_signal(self, 0, NULL, 0) == 0)
		word |= NATIVE_SIGNAL;
	if (libpidfd_priv_sys_send_signal(self, 0, NULL,
					  PIDFD_SIGNAL_THREAD_GROUP) == 0)
		word |= NATIVE_SIGNAL_SCOPE;
	/* Not our child: ECHILD where P_PIDFD exists, EINVAL before. */
	memset(&info, 0, sizeof(info));
	if (waitid(LIBPIDFD_P_PIDFD, (id_t)self, &info,
		   WEXITED | WNOHANG) == 0 || errno == ECHILD)
		word |= NATIVE_WAITID;
	ns = ioctl(self, PIDFD_GET_UTS_NAMESPACE, 0);
	if (ns >= 0) {
		word |= NATIVE_NAMESPACES;
		close(ns);
	}
	word |= probe_info(self);
	close(self);
	return word;
}

static struct libpidfd_native decode(uint64_t word)
{
	struct libpidfd_native n = {
		.open = word & NATIVE_OPEN,
		.thread = word & NATIVE_THREAD,
		.signal = word & NATIVE_SIGNAL,
		.signal_scope = word & NATIVE_SIGNAL_SCOPE,
		.waitid = word & NATIVE_WAITID,
		.namespaces = word & NATIVE_NAMESPACES,
		.info = word & NATIVE_INFO,
		.info_mask = word & NATIVE_INFO_MASK,
	};

	return n;
}

struct libpidfd_native libpidfd_priv_kernel(void)
{
	uint64_t word = __atomic_load_n(&native_word, __ATOMIC_ACQUIRE);
	uint64_t expected = 0;
	int saved;

	if (word & NATIVE_PROBED)
		return decode(word);
	saved = errno;
	word = probe_native();
	if (!__atomic_compare_exchange_n(&native_word, &expected, word, false,
					 __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
		word = expected;	/* published first by another */
	errno = saved;
	return decode(word);
}

static void probe_exit(void)
{
	struct libpidfd_native n = libpidfd_priv_kernel();

	if (n.info && !(n.info_mask & PIDFD_INFO_EXIT) && probe_info_exit())
		__atomic_or_fetch(&native_word, PIDFD_INFO_EXIT,
				  __ATOMIC_RELEASE);
}

struct libpidfd_native libpidfd_priv_native(void)
{
	int saved = errno;

	pthread_once(&exit_once, probe_exit);
	errno = saved;
	return libpidfd_priv_kernel();
}

unsigned int libpidfd_kernel_features(void)
{
	const struct libpidfd_native n = libpidfd_priv_native();

	return (n.open ? LIBPIDFD_KERNEL_PIDFD_OPEN : 0) |
	       (n.signal ? LIBPIDFD_KERNEL_SEND_SIGNAL : 0) |
	       (n.waitid ? LIBPIDFD_KERNEL_WAITID : 0) |
	       (n.thread ? LIBPIDFD_KERNEL_THREAD : 0) |
	       (n.signal_scope ? LIBPIDFD_KERNEL_SIGNAL_SCOPE : 0) |
	       (n.namespaces ? LIBPIDFD_KERNEL_NAMESPACES : 0) |
	       (n.info ? LIBPIDFD_KERNEL_GET_INFO : 0) |
	       (n.info_mask & PIDFD_INFO_EXIT ? LIBPIDFD_KERNEL_EXIT_INFO : 0);
}

/*
 * Is @fd one of the kernel's pidfds? waitid(P_PIDFD) takes only those
 * (EBADF for any other file, a /proc/<pid> directory too), and with
 * WNOHANG and WNOWAIT it neither blocks nor reaps. 1, 0, or -1 when it
 * cannot tell (no P_PIDFD, or a seccomp filter's refusal).
 */
int libpidfd_priv_kernel_pidfd(int fd)
{
	siginfo_t info;

	if (!libpidfd_priv_kernel().waitid)
		return -1;
	memset(&info, 0, sizeof(info));
	if (waitid(LIBPIDFD_P_PIDFD, (id_t)fd, &info,
		   WEXITED | WNOHANG | WNOWAIT | __WALL) == 0 ||
	    errno == ECHILD)
		return 1;
	return errno == EBADF ? 0 : -1;
}

/*
 * Is @fd one of the module's pidfds? It says so itself
 * (PIDFD_DEV_IS_PIDFD). 1, 0, or -1 when it cannot be asked.
 */
static int module_pidfd(int fd)
{
	int ret = libpidfd_priv_control_ioctl(PIDFD_DEV_IS_PIDFD, fd);

	if (ret >= 0)
		return ret != 0;
	return errno == EBADF ? 0 : -1;
}

/* What readlink(/proc/thread-self/fd/N) gives for either kind of pidfd. */
static const char pidfd_link[] = "anon_inode:[pidfd]";

/*
 * Where the module cannot be asked (not loaded, no /dev/pidfd in a
 * chroot, a module without PIDFD_DEV_IS_PIDFD): the link in /proc, then
 * the module's ioctl, which only a pidfd gets: its pidfds read the signal
 * arguments first (EFAULT for NULL), the kernel's have no such ioctl
 * (ENOTTY).
 */
static int backend_from_proc(int fd)
{
	char path[64], target[sizeof(pidfd_link) + 1];
	ssize_t len;

	libpidfd_priv_path_fd(path, sizeof(path), "/proc/thread-self/fd/", fd);
	len = readlink(path, target, sizeof(target));
	if (len != sizeof(pidfd_link) - 1 ||
	    memcmp(target, pidfd_link, (size_t)len) != 0) {
		errno = EBADF;
		return -1;
	}
	if (ioctl(fd, PIDFD_DEV_SEND_SIGNAL, NULL) < 0 && errno == EFAULT)
		return LIBPIDFD_BACKEND_MODULE;
	return LIBPIDFD_BACKEND_NATIVE;
}

int libpidfd_pidfd_backend(int pidfd)
{
	int kernel, module;

	if (pidfd < 0 || fcntl(pidfd, F_GETFD) < 0) {
		errno = EBADF;
		return -1;
	}
	kernel = libpidfd_priv_kernel_pidfd(pidfd);
	if (kernel == 1)
		return LIBPIDFD_BACKEND_NATIVE;
	module = module_pidfd(pidfd);
	if (module == 1)
		return LIBPIDFD_BACKEND_MODULE;
	if (kernel == 0 && module == 0) {
		errno = EBADF;
		return -1;
	}
	return backend_from_proc(pidfd);
}
