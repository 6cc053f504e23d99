// SPDX-License-Identifier: GPL-2.0
/*
 * The module's pidfd operations against the kernel's own, on the same
 * kernel in the same run: time per operation and kernel memory per open
 * pidfd. Where the running kernel lacks the native operation, its row says
 * so. Run inside the test VM by `make bench`; under emulation the absolute
 * numbers mean little, the ratio on one kernel is what to read.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include <linux/pidfd_dev.h>

#define ITERATIONS 20000
#define MEMORY_FDS 20000

static int dev;

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static int module_open(pid_t pid)
{
	struct pidfd_open_args args = { .pid = pid };

	return ioctl(dev, PIDFD_DEV_OPEN, &args);
}

static int native_open(pid_t pid)
{
	return syscall(SYS_pidfd_open, pid, 0);
}

static int module_signal0(int fd)
{
	struct pidfd_signal_args args = { .sig = 0 };

	return ioctl(fd, PIDFD_DEV_SEND_SIGNAL, &args);
}

static int native_signal0(int fd)
{
	return syscall(SYS_pidfd_send_signal, fd, 0, NULL, 0);
}

static int get_info(int fd)
{
	struct pidfd_info info = { .mask = PIDFD_INFO_PID };

	return ioctl(fd, PIDFD_GET_INFO, &info);
}

static int poll_live(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	return poll(&p, 1, 0) == 0 ? 0 : -1;
}

static double time_open_close(int (*open_fn)(pid_t))
{
	double t0 = now_ns();
	int i;

	for (i = 0; i < ITERATIONS; i++) {
		int fd = open_fn(getpid());

		if (fd < 0)
			return -errno;
		close(fd);
	}
	return (now_ns() - t0) / ITERATIONS;
}

static double time_op(int (*open_fn)(pid_t), int (*op)(int))
{
	int fd = open_fn(getpid()), i;
	double t0;

	if (fd < 0)
		return -errno;
	t0 = now_ns();
	for (i = 0; i < ITERATIONS; i++) {
		if (op(fd) < 0) {
			int err = errno;

			close(fd);
			return -err;
		}
	}
	t0 = (now_ns() - t0) / ITERATIONS;
	close(fd);
	return t0;
}

static long slab_kb(void)
{
	char line[256];
	long kb = -1;
	FILE *f = fopen("/proc/meminfo", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "Slab: %ld kB", &kb) == 1)
			break;
	fclose(f);
	return kb;
}

/* Kernel slab memory per open pidfd, in bytes. */
static double bytes_per_fd(int (*open_fn)(pid_t))
{
	static int fds[MEMORY_FDS];
	long before, after;
	int i, n = 0;

	sync();
	before = slab_kb();
	for (i = 0; i < MEMORY_FDS; i++) {
		fds[n] = open_fn(getpid());
		if (fds[n] < 0)
			break;
		n++;
	}
	after = slab_kb();
	for (i = 0; i < n; i++)
		close(fds[i]);
	if (n < MEMORY_FDS)
		return -ENFILE;
	return (after - before) * 1024.0 / n;
}

static void row(const char *what, double module, double native)
{
	char m[32], n[32], r[32] = "-";

	if (module < 0)
		snprintf(m, sizeof(m), "(%s)", strerror((int)-module));
	else
		snprintf(m, sizeof(m), "%.0f", module);
	if (native < 0)
		snprintf(n, sizeof(n), "(not on this kernel)");
	else
		snprintf(n, sizeof(n), "%.0f", native);
	if (module > 0 && native > 0)
		snprintf(r, sizeof(r), "%.2f", module / native);
	printf("%-34s %14s %22s %7s\n", what, m, n, r);
}

int main(void)
{
	struct rlimit lim = { MEMORY_FDS + 64, MEMORY_FDS + 64 };
	int probe;

	dev = open("/dev/pidfd", O_RDWR | O_CLOEXEC);
	if (dev < 0) {
		perror("bench_pidfd: /dev/pidfd");
		return 1;
	}
	if (setrlimit(RLIMIT_NOFILE, &lim))
		perror("bench_pidfd: setrlimit");

	/* Does the native pidfd answer PIDFD_GET_INFO (6.13 and later)? */
	probe = native_open(getpid());
	printf("%-34s %14s %22s %7s\n", "operation (ns, bytes)", "module",
	       "native", "ratio");
	row("open + close", time_open_close(module_open),
	    time_open_close(native_open));
	row("send signal 0", time_op(module_open, module_signal0),
	    time_op(native_open, native_signal0));
	row("PIDFD_GET_INFO", time_op(module_open, get_info),
	    probe >= 0 && get_info(probe) == 0 ?
	    time_op(native_open, get_info) : -ENOTTY);
	row("poll, process alive", time_op(module_open, poll_live),
	    time_op(native_open, poll_live));
	row("kernel memory per open pidfd", bytes_per_fd(module_open),
	    bytes_per_fd(native_open));
	if (probe >= 0)
		close(probe);
	return 0;
}
