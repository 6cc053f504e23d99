// SPDX-License-Identifier: GPL-2.0
/*
 * Developer aid, NOT part of the guest suites: lets the guest test binaries
 * run on a host whose kernel has real pidfds (6.13+), by turning the
 * module's ioctls into pidfd_open(2)/pidfd_send_signal(2) and emulating
 * PIDFD_GET_PROCFD. Linked with -Wl,--wrap=open,--wrap=ioctl by run-host.sh.
 * It debugs the tests' own logic; the module is only tested in the VM.
 * Known deviations from docs/abi.md: pidfd_open(tid, 0) is ENOENT on the
 * host, there is no /dev/pidfd node and no live_pidfds parameter.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>
#include <linux/magic.h>
#include <linux/pidfd_dev.h>

int __real_open(const char *path, int flags, ...);
int __real_ioctl(int fd, unsigned long cmd, ...);
int __wrap_open(const char *path, int flags, ...);
int __wrap_ioctl(int fd, unsigned long cmd, ...);

#define DEV_NAME "pidfd-shim-dev"

static int fd_is(int fd, const char *want)
{
	char path[64], buf[256];
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	n = readlink(path, buf, sizeof(buf) - 1);
	if (n < 0)
		return 0;
	buf[n] = 0;
	return strncmp(buf, want, strlen(want)) == 0;
}

int __wrap_open(const char *path, int flags, ...)
{
	mode_t mode = 0;
	va_list ap;

	va_start(ap, flags);
	if (flags & (O_CREAT | __O_TMPFILE))
		mode = va_arg(ap, mode_t);
	va_end(ap);
	if (!strcmp(path, "/dev/pidfd"))
		return memfd_create(DEV_NAME, (flags & O_CLOEXEC) ? MFD_CLOEXEC : 0);
	return __real_open(path, flags, mode);
}

/* Is [p, p+len) readable? */
static int readable(const void *p, size_t len)
{
	char buf[256];
	struct iovec l = { buf, len }, r = { (void *)p, len };

	if (len > sizeof(buf))
		return 0;
	return process_vm_readv(getpid(), &l, 1, &r, 1, 0) == (ssize_t)len;
}

static int tail_zero(const void *p, size_t from, size_t to)
{
	const unsigned char *c = p;

	for (; from < to; from++)
		if (c[from])
			return 0;
	return 1;
}

/*
 * What copy_struct_from_user() does for an ioctl's struct of @known bytes
 * given as @size: 0 and the bytes in @dst, or the errno.
 */
static int copy_args(void *dst, unsigned long arg, size_t size, size_t known)
{
	if (size < known)
		return EINVAL;
	if (!readable((void *)arg, size))
		return EFAULT;
	if (!tail_zero((void *)arg, known, size))
		return E2BIG;
	memcpy(dst, (void *)arg, known);
	return 0;
}

static int fail(int e)
{
	errno = e;
	return -1;
}

static int get_procfd(int pidfd, int procfd)
{
	struct statfs sfs;
	struct stat st;
	char path[64], buf[256], num[32];
	int fd, n1, n2;
	FILE *f;

	if (fstatfs(procfd, &sfs) < 0)
		return fail(EBADF);
	if (sfs.f_type != PROC_SUPER_MAGIC || fstat(procfd, &st) < 0 ||
	    st.st_ino != 1)
		return fail(EINVAL);
	snprintf(path, sizeof(path), "thread-self/fdinfo/%d", pidfd);
	n1 = -1;
	fd = openat(procfd, path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return fail(ESRCH);
	f = fdopen(fd, "r");
	while (fgets(buf, sizeof(buf), f))
		if (!strncmp(buf, "Pid:", 4))
			n1 = atoi(buf + 4);
	fclose(f);
	if (n1 <= 0)
		return fail(ESRCH);
	snprintf(num, sizeof(num), "%d", n1);
	fd = openat(procfd, num, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n2 = -1;
	{
		int fi = openat(procfd, path, O_RDONLY | O_CLOEXEC);

		if (fi >= 0) {
			f = fdopen(fi, "r");
			while (fgets(buf, sizeof(buf), f))
				if (!strncmp(buf, "Pid:", 4))
					n2 = atoi(buf + 4);
			fclose(f);
		}
	}
	if (n2 != n1) {
		close(fd);
		return fail(ESRCH);
	}
	return fd;
}

int __wrap_ioctl(int fd, unsigned long cmd, ...)
{
	unsigned long arg;
	va_list ap;

	va_start(ap, cmd);
	arg = va_arg(ap, unsigned long);
	va_end(ap);

	if (fd_is(fd, "/memfd:" DEV_NAME)) {
		struct pidfd_open_args a;
		int err;

		if (_IOC_TYPE(cmd) != PIDFD_DEV_IOC_MAGIC || _IOC_NR(cmd) != 1 ||
		    _IOC_DIR(cmd) != _IOC_WRITE)
			return fail(ENOTTY);
		err = copy_args(&a, arg, _IOC_SIZE(cmd), 8);
		if (err)
			return fail(err);
		return (int)syscall(SYS_pidfd_open, a.pid, a.flags);
	}
	if (!fd_is(fd, "anon_inode:[pidfd]"))
		return __real_ioctl(fd, cmd, arg);

	if (_IOC_TYPE(cmd) == PIDFD_DEV_IOC_MAGIC && _IOC_NR(cmd) == 2 &&
	    _IOC_DIR(cmd) == _IOC_WRITE) {
		struct pidfd_signal_args a;
		int err = copy_args(&a, arg, _IOC_SIZE(cmd), 16);

		if (err)
			return fail(err);
		return (int)syscall(SYS_pidfd_send_signal, fd, (int)a.sig,
				    (void *)(unsigned long)a.info, a.flags);
	}
	if (cmd == PIDFD_GET_PROCFD)
		return get_procfd(fd, (int)arg);
	if (_IOC_TYPE(cmd) == PIDFD_DEV_IOC_MAGIC)
		return fail(ENOTTY);
	return __real_ioctl(fd, cmd, arg);
}
