// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The control fd for /dev/pidfd: opened once per process, on first use.
 *
 * Threads race on first use without a lock: each may open the device, one
 * compare-and-swap wins and the losers close their fd. After fork() the
 * child inherits the fd and keeps using it (it carries no state: the
 * module acts on the caller's credentials and pid namespace at each
 * ioctl). The fd is O_CLOEXEC, so exec() drops it.
 *
 * A program may close the fd behind our back (daemons close every fd
 * after fork) and the number may then be reused by another file. A call
 * goes straight to the ioctl, which is all it costs; only when that fails
 * does one fstat() check that the number still refers to the device we
 * opened, and if not the device is opened again and the ioctl repeated.
 * The old number is then not ours any more and is left alone. (Another
 * file at that number would be sent one of /dev/pidfd's ioctls first:
 * their numbers, magic 0xBF with a size, belong to no other driver, which
 * refuses them with ENOTTY.)
 *
 * Without the module, a process asks again at most once a second (the
 * coarse clock is read in the vDSO, whatever the clocksource): a call
 * that only asks whether the module is there (libpidfd_open() with the
 * auto backend) then costs its one system call, and a module loaded
 * later is still found.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "libpidfd.h"
#include "internal.h"

/* fd, and the device and inode it was when we opened it. */
static int control_fd = -1;
static dev_t control_rdev;
static ino_t control_ino;

static bool still_ours(int fd)
{
	struct stat st;

	if (fstat(fd, &st) < 0)
		return false;
	return S_ISCHR(st.st_mode) &&
	       st.st_rdev == __atomic_load_n(&control_rdev, __ATOMIC_RELAXED) &&
	       st.st_ino == __atomic_load_n(&control_ino, __ATOMIC_RELAXED);
}

/* Until when (coarse_now_ms()) the module is taken to be absent. */
static int64_t missing_until_ms = -1;

static int64_t coarse_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static bool known_missing(void)
{
	int64_t until = __atomic_load_n(&missing_until_ms, __ATOMIC_RELAXED);

	return until >= 0 && coarse_now_ms() < until;
}

static void note_missing(void)
{
	__atomic_store_n(&missing_until_ms, coarse_now_ms() + 1000,
			 __ATOMIC_RELAXED);
}

/* Errors of open(2) that mean "no such driver here". */
static bool module_missing(int err)
{
	return err == ENOENT || err == ENXIO || err == ENODEV;
}

int libpidfd_priv_control_fd(void)
{
	for (;;) {
		int cached = __atomic_load_n(&control_fd, __ATOMIC_ACQUIRE);
		struct stat st;
		int fd;

		if (cached >= 0 && still_ours(cached))
			return cached;
		if (known_missing()) {
			errno = ENOPKG;
			return -1;
		}

		fd = open(LIBPIDFD_DEVICE, O_RDWR | O_CLOEXEC | O_NOCTTY);
		if (fd < 0) {
			if (module_missing(errno)) {
				note_missing();
				errno = ENOPKG;
			}
			return -1;
		}
		if (fstat(fd, &st) < 0 || !S_ISCHR(st.st_mode)) {
			/* Something else sits at /dev/pidfd: no module. */
			close(fd);
			note_missing();
			errno = ENOPKG;
			return -1;
		}

		/*
		 * Publish. The identity is written before the fd, so a
		 * thread that sees the new fd also sees what it must look
		 * like; racing openers of the device write equal values.
		 */
		__atomic_store_n(&control_rdev, st.st_rdev, __ATOMIC_RELAXED);
		__atomic_store_n(&control_ino, st.st_ino, __ATOMIC_RELAXED);
		if (__atomic_compare_exchange_n(&control_fd, &cached, fd, false,
						__ATOMIC_ACQ_REL,
						__ATOMIC_ACQUIRE))
			return fd;

		/* Another thread published first: take its fd instead. */
		close(fd);
	}
}

int libpidfd_priv_control_ioctl(unsigned long cmd, unsigned long arg)
{
	int cached = __atomic_load_n(&control_fd, __ATOMIC_ACQUIRE);
	int ctl, ret, err;

	if (cached >= 0) {
		ret = ioctl(cached, cmd, arg);
		if (ret >= 0)
			return ret;
		err = errno;
		if (still_ours(cached)) {
			errno = err;
			return -1;
		}
	}
	ctl = libpidfd_priv_control_fd();
	return ctl < 0 ? -1 : ioctl(ctl, cmd, arg);
}

bool libpidfd_priv_module_known(void)
{
	if (__atomic_load_n(&control_fd, __ATOMIC_ACQUIRE) >= 0)
		return true;
	return libpidfd_priv_control_fd() >= 0;
}

int libpidfd_priv_module_open(pid_t pid, unsigned int flags)
{
	struct pidfd_open_args args = { .pid = pid, .flags = flags };

	return libpidfd_priv_control_ioctl(PIDFD_DEV_OPEN,
					   (unsigned long)&args);
}

int libpidfd_probe(void)
{
	return libpidfd_priv_control_fd() < 0 ? -1 : 0;
}
