// SPDX-License-Identifier: GPL-2.0
/*
 * The module's pidfds against the kernel's own, on the same kernel in the
 * same boot. Run inside the test VM by bench/run (make bench).
 *
 * One pass per side swings by tens of percent under emulation, so every
 * figure is the median of several rounds, and the rounds interleave the
 * sides (module, native, native, module, ...): a slow stretch of the host
 * hits both. Read the ratios, not the absolute numbers.
 *
 * What is measured (docs/performance.md says why each):
 *  1. per call: open+close, signal 0, PIDFD_GET_INFO, poll, with 0 to
 *     100 000 module pidfds open on distinct threads (each its own struct
 *     pid in the module's table);
 *  2. what processes that no pidfd names pay: fork+exit+wait and
 *     pthread_create+join with the module unloaded, loaded and idle, with
 *     one and with 100 000 pidfds open; and the time spent in the module's
 *     exit probes per call, from its probe-timing build;
 *  3. exit notification: many children in one epoll set, exiting at once;
 *  4. kernel memory per pidfd (slab), and what of it is charged to the
 *     caller's memory cgroup.
 *
 * PIDFD_BENCH_MODE=short runs every part with small counts (make check);
 * PIDFD_BENCH_MODE=memory only the fourth, with the full counts.
 * Lines starting with "BENCH-DATA" are for the plot (bench/run).
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <semaphore.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <linux/pidfd_dev.h>

#include "pt_files.h"
#include "pt_process.h"

#define MODULE_NAME "pidfd"
#define BENCH_CGROUP "/sys/fs/cgroup/pidfd-bench"

struct bench_config {
	int rounds;		/* interleaved rounds per figure */
	int iterations;		/* calls per timed batch */
	const long *loads;	/* open pidfds for the per-call figures */
	int nloads;
	long system_load;	/* pidfds open for the "many" system state */
	int forks, threads;	/* per system-cost batch */
	int exit_children;	/* exit notification */
	int exit_rounds;
	int memory_children;	/* memory per pidfd */
};

static const long full_loads[] = { 0, 1000, 10000, 100000 };
static const long short_loads[] = { 0, 1000 };

static const struct bench_config full_config = {
	.rounds = 5, .iterations = 20000,
	.loads = full_loads, .nloads = 4, .system_load = 100000,
	.forks = 200, .threads = 1000,
	.exit_children = 10000, .exit_rounds = 11, .memory_children = 4000,
};

static const struct bench_config short_config = {
	.rounds = 2, .iterations = 1000,
	.loads = short_loads, .nloads = 2, .system_load = 1000,
	.forks = 20, .threads = 100,
	.exit_children = 100, .exit_rounds = 2, .memory_children = 200,
};

static const struct bench_config *cfg;
static const char *module_path;
static char module_params[256];
static int dev = -1;

static void die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
static void die(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "bench_pidfd: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The median of @n values (sorts them); a negative value (-errno) wins. */
static double median(double *v, int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (v[i] < 0)
			return v[i];
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/*
 * Writes all of @text to @path (a short write is retried for the rest);
 * false with errno set if it could not.
 */
static bool try_write_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	size_t done = 0, len = strlen(text);
	ssize_t n = 0;

	if (fd < 0)
		return false;
	while (done < len) {
		n = write(fd, text + done, len - done);
		if (n <= 0)
			break;
		done += n;
	}
	if (n == 0)
		errno = EIO;
	close(fd);
	return done == len;
}

static void write_file(const char *path, const char *text)
{
	if (!try_write_file(path, text))
		die("write %s: %m", path);
}

/* ---- the two sides ---- */

/*
 * The timed calls are raw system calls and ioctls, not tests/lib's
 * wrappers, whose own instructions would be counted on one side only.
 */
struct side {
	const char *name;
	int (*open)(pid_t pid, unsigned int flags);
	int (*signal0)(int fd);
	bool has_info;		/* native: PIDFD_GET_INFO since 6.13 */
};

static int module_open(pid_t pid, unsigned int flags)
{
	struct pidfd_open_args args = { .pid = pid, .flags = flags };

	return ioctl(dev, PIDFD_DEV_OPEN, &args);
}

static int module_signal0(int fd)
{
	struct pidfd_signal_args args = { .sig = 0 };

	return ioctl(fd, PIDFD_DEV_SEND_SIGNAL, &args);
}

static int native_open(pid_t pid, unsigned int flags)
{
	return syscall(SYS_pidfd_open, pid, flags);
}

static int native_signal0(int fd)
{
	return syscall(SYS_pidfd_send_signal, fd, 0, NULL, 0);
}

static struct side module_side = {
	"module", module_open, module_signal0, true,
};
static struct side native_side = {
	"native", native_open, native_signal0, false,
};

/* Round r's order: module first in even rounds, native first in odd. */
static const struct side *side_in_round(int round, int i)
{
	return (round + i) % 2 ? &native_side : &module_side;
}

/* ---- the module: loaded, unloaded ---- */

static bool module_loaded(void)
{
	return access("/sys/module/" MODULE_NAME, F_OK) == 0;
}

static void open_dev(void)
{
	int i;

	/* devtmpfs makes the node while the module loads; allow a moment. */
	for (i = 0; i < 200 && dev < 0; i++) {
		dev = open("/dev/pidfd", O_RDWR | O_CLOEXEC);
		if (dev < 0)
			usleep(10000);
	}
	if (dev < 0)
		die("/dev/pidfd: %m");
}

static void load_module(void)
{
	int fd;

	if (!module_loaded()) {
		fd = open(module_path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			die("%s: %m", module_path);
		if (syscall(SYS_finit_module, fd, module_params, 0))
			die("finit_module %s: %m", module_path);
		close(fd);
	}
	if (dev < 0)
		open_dev();
}

static void unload_module(void)
{
	int i;

	if (dev >= 0)
		close(dev);
	dev = -1;
	/* A pidfd closed by an exiting holder may still be on its way. */
	for (i = 0; i < 500 && module_loaded(); i++)
		if (syscall(SYS_delete_module, MODULE_NAME, O_NONBLOCK))
			usleep(10000);
	if (module_loaded())
		die("cannot unload the module: %m");
}

/* The parameters the harness gave the module, for every reload. */
static void save_module_params(void)
{
	char trust[128];

	if (pt_read_text("/sys/module/" MODULE_NAME "/parameters/signal_lsm_trust",
		      trust, sizeof(trust)) == 0) {
		snprintf(module_params, sizeof(module_params),
			 "signal_lsm_trust=%s", trust);
	}
}

/* ---- a load of module pidfds on distinct, exited threads ---- */

/*
 * Each pidfd pins its thread's struct pid after the thread is gone, so
 * the module's table holds one entry per pidfd, as it would for as many
 * live processes, without the memory of as many live tasks.
 */
struct load {
	int *fds;
	long n;
};

#define LOAD_BATCH 64

struct load_batch {
	pid_t tid[LOAD_BATCH];
	sem_t ready, go;
};

struct load_thread {
	struct load_batch *batch;
	int slot;
};

static void *load_thread_main(void *arg)
{
	struct load_thread *t = arg;

	t->batch->tid[t->slot] = gettid();
	sem_post(&t->batch->ready);
	sem_wait(&t->batch->go);
	return NULL;
}

static void load_grow(struct load *load, long target)
{
	struct load_thread threads[LOAD_BATCH];
	pthread_t th[LOAD_BATCH];
	struct load_batch batch;
	pthread_attr_t attr;
	int i, k;

	load->fds = realloc(load->fds, (target + 1) * sizeof(*load->fds));
	if (!load->fds)
		die("out of memory");
	sem_init(&batch.ready, 0, 0);
	sem_init(&batch.go, 0, 0);
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, 64 * 1024);
	while (load->n < target) {
		k = target - load->n < LOAD_BATCH ? target - load->n : LOAD_BATCH;
		for (i = 0; i < k; i++) {
			threads[i] = (struct load_thread){ &batch, i };
			errno = pthread_create(&th[i], &attr, load_thread_main,
					       &threads[i]);
			if (errno)
				die("pthread_create (%ld pidfds open): %m",
				    load->n);
		}
		for (i = 0; i < k; i++)
			sem_wait(&batch.ready);
		for (i = 0; i < k; i++) {
			int fd = module_open(batch.tid[i], PIDFD_THREAD);

			if (fd < 0)
				die("load: open (%ld pidfds open): %m", load->n);
			load->fds[load->n++] = fd;
		}
		for (i = 0; i < k; i++)
			sem_post(&batch.go);
		for (i = 0; i < k; i++)
			pthread_join(th[i], NULL);
	}
	pthread_attr_destroy(&attr);
}

static void load_drop(struct load *load)
{
	while (load->n > 0)
		close(load->fds[--load->n]);
	free(load->fds);
	load->fds = NULL;
}

/* ---- 1. per call, against the number of open pidfds ---- */

/*
 * Every call but the first is timed while another pidfd of the process is
 * open; the first shows what the module adds when it has to create (and on
 * close free) the process's record.
 */
enum call {
	CALL_OPEN_CLOSE_FIRST, CALL_OPEN_CLOSE, CALL_SIGNAL0, CALL_INFO,
	CALL_POLL, CALL_UNKNOWN_IOCTL, NCALLS
};

/*
 * The unknown ioctl is the breakdown's floor: system call entry, the file
 * lookup and ioctl dispatch, which every module call pays and the native
 * pidfd_send_signal(2) does not.
 */
static const char *const call_names[NCALLS] = {
	"open + close, the only pidfd", "open + close, another open",
	"signal 0", "PIDFD_GET_INFO", "poll (alive)",
	"ioctl, unknown command",
};
static const char *const call_tags[NCALLS] = {
	"open_close_first", "open_close", "signal0", "get_info", "poll",
	"unknown_ioctl",
};

#define UNKNOWN_IOCTL _IO(PIDFD_DEV_IOC_MAGIC, 0x7f)

static int do_call(const struct side *s, enum call c, int fd)
{
	struct pidfd_dev_info info = { .mask = PIDFD_INFO_PID };
	struct pollfd p = { .fd = fd, .events = POLLIN };
	int nfd;

	switch (c) {
	case CALL_OPEN_CLOSE_FIRST:
	case CALL_OPEN_CLOSE:
		nfd = s->open(getpid(), 0);
		if (nfd < 0)
			return -1;
		return close(nfd);
	case CALL_SIGNAL0:
		return s->signal0(fd);
	case CALL_INFO:
		return ioctl(fd, PIDFD_DEV_GET_INFO, &info);
	case CALL_POLL:
		if (poll(&p, 1, 0) != 0) {
			errno = EPROTO;	/* we are alive: nothing to report */
			return -1;
		}
		return 0;
	case CALL_UNKNOWN_IOCTL:
		if (ioctl(fd, UNKNOWN_IOCTL) != -1 || errno != ENOTTY) {
			errno = EPROTO;
			return -1;
		}
		return 0;
	default:
		return -1;
	}
}

/* ns per call, or -errno. */
static double time_call(const struct side *s, enum call c)
{
	int fd = -1, i, err = 0;
	double t0, t;

	if (c != CALL_OPEN_CLOSE_FIRST) {
		fd = s->open(getpid(), 0);
		if (fd < 0)
			return -errno;
	}
	t0 = now_ns();
	for (i = 0; i < cfg->iterations && !err; i++)
		if (do_call(s, c, fd) < 0)
			err = errno;
	t = (now_ns() - t0) / cfg->iterations;
	if (fd >= 0)
		close(fd);
	return err ? -err : t;
}

static void print_ratio_row(const char *what, double module, double native)
{
	char m[32], n[32], r[16] = "-";

	if (module < 0)
		snprintf(m, sizeof(m), "(%s)", strerror((int)-module));
	else
		snprintf(m, sizeof(m), "%.0f", module);
	if (native == -ENOTTY)
		snprintf(n, sizeof(n), "(none)");
	else if (native < 0)
		snprintf(n, sizeof(n), "(%s)", strerror((int)-native));
	else
		snprintf(n, sizeof(n), "%.0f", native);
	if (module > 0 && native > 0)
		snprintf(r, sizeof(r), "%.2f", module / native);
	printf("  %-46s %12s %12s %7s\n", what, m, n, r);
}

static void bench_per_call(void)
{
	double v[2][16], med[NCALLS][2][8];
	struct load load = { 0 };
	int l, c, r, i;

	printf("\n1. per call (ns), median of %d interleaved rounds of %d calls, by module pidfds open on distinct threads\n",
	       cfg->rounds, cfg->iterations);
	printf("  %-46s %12s %12s %7s\n", "", "module", "native", "ratio");
	for (l = 0; l < cfg->nloads; l++) {
		load_grow(&load, cfg->loads[l]);
		for (c = 0; c < NCALLS; c++) {
			char what[64];

			/* Untimed: caches, slabs and the table warm for both. */
			time_call(&module_side, c);
			time_call(&native_side, c);
			for (r = 0; r < cfg->rounds; r++)
				for (i = 0; i < 2; i++) {
					const struct side *s = side_in_round(r, i);
					int k = s == &native_side;

					v[k][r] = c == CALL_INFO && !s->has_info ?
						  -ENOTTY : time_call(s, c);
				}
			med[c][0][l] = median(v[0], cfg->rounds);
			med[c][1][l] = median(v[1], cfg->rounds);
			snprintf(what, sizeof(what), "%s, %ld open", call_names[c],
				 cfg->loads[l]);
			print_ratio_row(what, med[c][0][l], med[c][1][l]);
			printf("BENCH-DATA %s %ld %.1f %.1f\n", call_tags[c],
			       cfg->loads[l], med[c][0][l],
			       med[c][1][l] > 0 ? med[c][1][l] : 0);
		}
	}
	load_drop(&load);
	/*
	 * The native side does not depend on how many module pidfds are
	 * open: its drift between loads is the machine's (the first load
	 * runs on a cold guest). So flatness is the module/native ratio at
	 * the largest load against the ratio with none open; a call without
	 * a native counterpart is compared raw, from the second load on.
	 */
	printf("  flatness, module/native at the largest load against none open (raw from %ld open where the kernel has no such call):\n",
	       cfg->loads[cfg->nloads > 1]);
	for (c = 0; c < NCALLS; c++) {
		double *m = med[c][0], *n = med[c][1];
		int last = cfg->nloads - 1, first = cfg->nloads > 1;

		if (m[0] <= 0)
			continue;
		if (n[0] > 0 && n[last] > 0)
			printf("    %-44s %.2fx\n", call_names[c],
			       (m[last] / n[last]) / (m[0] / n[0]));
		else
			printf("    %-44s %.2fx (raw)\n", call_names[c],
			       m[last] / m[first]);
	}
}

/* ---- 1b. where the difference goes ---- */

/*
 * Each module call is an ioctl: system call entry, the file lookup, the
 * LSMs' file_ioctl hook and the dispatch to the module, before the module
 * does anything. The native calls are system calls of their own. Each
 * side's entry is timed on its own, as the same call refused at once (an
 * unknown command; bad flags), so that what remains of each call is the
 * work done past the entry.
 */
enum entry_call {
	ENTRY_MODULE_SIGNAL, ENTRY_NATIVE_SIGNAL, ENTRY_MODULE_OPEN,
	ENTRY_NATIVE_OPEN,
};

static int refused(long ret, int want)
{
	if (ret != -1 || errno != want) {
		errno = EPROTO;
		return -1;
	}
	return 0;
}

static int do_entry(enum entry_call c, int fd)
{
	switch (c) {
	case ENTRY_MODULE_SIGNAL:
		return refused(ioctl(fd, UNKNOWN_IOCTL), ENOTTY);
	case ENTRY_NATIVE_SIGNAL:
		return refused(syscall(SYS_pidfd_send_signal, fd, 0, NULL, ~0U),
			       EINVAL);
	case ENTRY_MODULE_OPEN:
		getpid();	/* as the timed open does */
		return refused(ioctl(dev, UNKNOWN_IOCTL), ENOTTY);
	case ENTRY_NATIVE_OPEN:
		return refused(syscall(SYS_pidfd_open, getpid(), ~0U), EINVAL);
	default:
		return -1;
	}
}

/* ns per call, or -errno; @fd is the side's own pidfd. */
static double time_entry(enum entry_call c, int fd)
{
	int i, err = 0;
	double t0 = now_ns();

	for (i = 0; i < cfg->iterations && !err; i++)
		if (do_entry(c, fd) < 0)
			err = errno;
	return err ? -err : (now_ns() - t0) / cfg->iterations;
}

/* The calls split: on each side (module, native), the whole and its entry. */
static const struct {
	const char *name;
	enum call call;
	enum entry_call entry[2];
} splits[] = {
	{ "signal 0", CALL_SIGNAL0,
	  { ENTRY_MODULE_SIGNAL, ENTRY_NATIVE_SIGNAL } },
	{ "open + close, another open", CALL_OPEN_CLOSE,
	  { ENTRY_MODULE_OPEN, ENTRY_NATIVE_OPEN } },
};

#define NSPLITS (sizeof(splits) / sizeof(splits[0]))
/* Timed item j: split j / 4, side j / 2 % 2, the whole (even) or entry. */
#define NSPLIT_ITEMS (NSPLITS * 4)

static double time_split_item(int j, const int *fds)
{
	int k = j / 2 % 2;

	if (j % 2)
		return time_entry(splits[j / 4].entry[k], fds[k]);
	return time_call(k ? &native_side : &module_side, splits[j / 4].call);
}

static void bench_breakdown(void)
{
	double v[NSPLIT_ITEMS][16], m[NSPLIT_ITEMS];
	int fds[2] = { module_open(getpid(), 0), native_open(getpid(), 0) };
	char row[64];
	int r, k, j;

	if (fds[0] < 0 || fds[1] < 0)
		die("open for the breakdown: %m");
	printf("\n1b. where the difference goes, none open (ns), median of %d rounds in rotating order\n",
	       cfg->rounds);
	printf("  %-46s %12s %12s %7s\n", "", "module", "native", "ratio");
	/* Untimed first pass, then rounds that rotate which item goes first. */
	for (r = -1; r < cfg->rounds; r++)
		for (k = 0; k < (int)NSPLIT_ITEMS; k++) {
			double t;

			j = (k + (r < 0 ? 0 : r)) % NSPLIT_ITEMS;
			t = time_split_item(j, fds);
			if (t < 0)
				die("breakdown item %d: %s", j, strerror((int)-t));
			if (r >= 0)
				v[j][r] = t;
		}
	for (j = 0; j < (int)NSPLIT_ITEMS; j++)
		m[j] = median(v[j], cfg->rounds);
	for (j = 0; j < (int)NSPLIT_ITEMS; j += 4) {
		const char *name = splits[j / 4].name;

		print_ratio_row(name, m[j], m[j + 2]);
		snprintf(row, sizeof(row), "%s: entry", name);
		print_ratio_row(row, m[j + 1], m[j + 3]);
		snprintf(row, sizeof(row), "%s: past the entry", name);
		print_ratio_row(row, m[j] - m[j + 1], m[j + 2] - m[j + 3]);
	}
	close(fds[0]);
	close(fds[1]);
}

/* ---- 2. what tasks that no pidfd names pay ---- */

static void *thread_noop(void *arg)
{
	return arg;
}

/*
 * ns per fork+exit+wait, or per pthread_create+join: a bare fork(), as
 * the processes whose cost is the question make them.
 */
static double time_forks(void)
{
	double t0 = now_ns();
	int i, status;

	for (i = 0; i < cfg->forks; i++) {
		pid_t pid = fork();

		if (pid == 0)
			_exit(0);
		if (pid < 0 || waitpid(pid, &status, 0) != pid)
			die("fork/wait: %m");
	}
	return (now_ns() - t0) / cfg->forks;
}

static double time_threads(void)
{
	double t0 = now_ns();
	pthread_t th;
	int i;

	for (i = 0; i < cfg->threads; i++) {
		errno = pthread_create(&th, NULL, thread_noop, NULL);
		if (errno)
			die("pthread_create: %m");
		pthread_join(th, NULL);
	}
	return (now_ns() - t0) / cfg->threads;
}

enum sys_state { SYS_UNLOADED, SYS_IDLE, SYS_ONE, SYS_MANY, NSTATES };

/*
 * A child that holds @n module pidfds until told to go, so that the
 * measuring process has no pidfds of its own and its children no names.
 */
struct holder {
	pid_t pid;
	int go;		/* write end: closing it lets the holder exit */
};

static struct holder holder_start(long n)
{
	int ready[2], go[2];
	struct holder h;
	char c;

	if (pipe2(ready, O_CLOEXEC) || pipe2(go, O_CLOEXEC))
		die("pipe: %m");
	h.pid = pt_fork();
	if (h.pid < 0)
		die("fork: %m");
	if (h.pid == 0) {
		struct load load = { 0 };

		close(ready[0]);
		close(go[1]);
		load_grow(&load, n);
		if (write(ready[1], "r", 1) != 1)
			_exit(1);
		if (read(go[0], &c, 1) < 0)
			_exit(1);
		_exit(0);	/* closing the pidfds is the kernel's job */
	}
	close(ready[1]);
	close(go[0]);
	if (read(ready[0], &c, 1) != 1)
		die("the pidfd holder died");
	close(ready[0]);
	h.go = go[1];
	return h;
}

static void holder_stop(struct holder *h)
{
	int code;

	close(h->go);
	code = pt_reap(h->pid);
	if (code)
		die("the pidfd holder ended with %d", code);
}

struct sys_setup {
	struct holder holder;
	int one;
};

static void sys_enter(enum sys_state st, struct sys_setup *su)
{
	if (st == SYS_UNLOADED) {
		unload_module();
		return;
	}
	load_module();
	if (st == SYS_ONE) {
		su->one = module_open(getpid(), 0);
		if (su->one < 0)
			die("open: %m");
	} else if (st == SYS_MANY) {
		su->holder = holder_start(cfg->system_load);
	}
}

static void sys_leave(enum sys_state st, struct sys_setup *su)
{
	if (st == SYS_ONE)
		close(su->one);
	else if (st == SYS_MANY)
		holder_stop(&su->holder);
}

/*
 * The probe-timing build of the module (vm/build-module --probe-stats)
 * times each call of its tracepoint probes; this is what one probe's row
 * of its probe_stats parameter says.
 */
struct probe_stat {
	long calls;
	double mean_ns, median_ns;
};

#define PROBE_STATS "/sys/module/" MODULE_NAME "/parameters/probe_stats"

static bool probe_stat_read(const char *name, struct probe_stat *ps)
{
	char line[256], row[64];
	bool found = false;
	FILE *f;

	f = fopen(PROBE_STATS, "re");
	while (f && !found && fgets(line, sizeof(line), f))
		found = sscanf(line, "%63s calls=%ld mean_ns=%lf median_ns=%lf",
			       row, &ps->calls, &ps->mean_ns,
			       &ps->median_ns) == 4 && !strcmp(row, name);
	if (f)
		fclose(f);
	return found;
}

/*
 * Swaps the module for its probe-timing build (false if there is none,
 * and says why), and back.
 */
static const char *production_module;

/*
 * probe_stats=reset given at load comes before the figures exist: the
 * load must fail with ENODEV and leave no module (an oops would fail the
 * run).
 */
static void probe_reset_at_load_refused(const char *path)
{
	char params[sizeof(module_params) + 32];
	int fd = open(path, O_RDONLY | O_CLOEXEC), ret;

	if (fd < 0)
		die("%s: %m", path);
	snprintf(params, sizeof(params), "%s probe_stats=reset", module_params);
	ret = (int)syscall(SYS_finit_module, fd, params, 0);
	if (ret == 0 || errno != ENODEV)
		die("finit_module %s with probe_stats=reset: %s, want ENODEV",
		    path, ret == 0 ? "loaded" : strerror(errno));
	close(fd);
	if (module_loaded())
		die("the refused load left the module");
}

static bool use_probe_build(const char *what)
{
	const char *stats_path = getenv("PIDFD_BENCH_PROBE_MODULE");

	if (!stats_path)
		stats_path = "/pidfd-probe-stats.ko";	/* where bench/run puts it */
	printf("\n  %s (the module's probe-timing build, %s):\n", what,
	       stats_path);
	if (access(stats_path, R_OK)) {
		printf("    not measured: %s: %m\n", stats_path);
		return false;
	}
	unload_module();
	probe_reset_at_load_refused(stats_path);
	production_module = module_path;
	module_path = stats_path;
	load_module();
	return true;
}

static void use_production_build(void)
{
	unload_module();
	module_path = production_module;
	load_module();
}

/*
 * Loads the probe-timing build in place of the module, and for each
 * loaded state times the probes through the same forks and threads as
 * above. Per exit the two probes' medians, less the clock's own cost in
 * each, set against the unloaded fork+exit+wait and pthread+join.
 */
static void bench_probe_time(double fork_ns, double thread_ns)
{
	static const char *const state_names[NSTATES] = {
		NULL, "loaded, no pidfd open", "1 pidfd open", NULL,
	};
	struct probe_stat exit_ps, free_ps, empty_ps;
	struct sys_setup su;
	char many[64];
	int st;

	if (!use_probe_build("time in the exit probes, per call"))
		return;
	printf("  %-46s %14s %14s %10s %10s %10s\n", "",
	       "exit: median", "free: median", "per exit", "% fork", "% thread");
	snprintf(many, sizeof(many), "%ld pidfds open", cfg->system_load);
	for (st = SYS_IDLE; st < NSTATES; st++) {
		double per_exit;

		sys_enter(st, &su);
		write_file(PROBE_STATS, "reset");
		time_forks();
		time_threads();
		/* sched_process_free runs one RCU grace period after the exit. */
		usleep(200000);
		if (!probe_stat_read("sched_process_exit", &exit_ps) ||
		    !probe_stat_read("sched_process_free", &free_ps) ||
		    !probe_stat_read("empty", &empty_ps))
			die("%s: cannot read its rows", PROBE_STATS);
		sys_leave(st, &su);
		if (!exit_ps.calls || !free_ps.calls)
			die("the probes did not run: %ld exit, %ld free calls",
			    exit_ps.calls, free_ps.calls);
		per_exit = exit_ps.median_ns + free_ps.median_ns -
			   2 * empty_ps.median_ns;
		printf("  %-46s %14.0f %14.0f %10.0f %9.2f%% %9.2f%%\n",
		       state_names[st] ? state_names[st] : many,
		       exit_ps.median_ns, free_ps.median_ns, per_exit,
		       100 * per_exit / fork_ns, 100 * per_exit / thread_ns);
		printf("  %-46s means %.0f and %.0f ns, %ld and %ld calls; the clock's own cost %.0f ns\n",
		       "", exit_ps.mean_ns, free_ps.mean_ns, exit_ps.calls,
		       free_ps.calls, empty_ps.median_ns);
	}
	use_production_build();
}

static void bench_system(void)
{
	static const char *const state_names[NSTATES] = {
		"module unloaded", "loaded, no pidfd open", "1 pidfd open", NULL,
	};
	double forks[NSTATES][16], threads[NSTATES][16], mf[NSTATES], mt[NSTATES];
	struct sys_setup su;
	char many[64];
	int r, i;

	printf("\n2. tasks no pidfd names (ns), median of %d rounds, states in rotating order\n",
	       cfg->rounds);
	time_forks();	/* untimed: the first forks fault in our pages */
	time_threads();
	for (r = 0; r < cfg->rounds; r++)
		for (i = 0; i < NSTATES; i++) {
			enum sys_state st = (r + i) % NSTATES;

			sys_enter(st, &su);
			forks[st][r] = time_forks();
			threads[st][r] = time_threads();
			sys_leave(st, &su);
		}
	snprintf(many, sizeof(many), "%ld pidfds open", cfg->system_load);
	printf("  %-46s %14s %8s %16s %8s\n", "", "fork+exit+wait", "vs unl.",
	       "pthread+join", "vs unl.");
	for (i = 0; i < NSTATES; i++) {
		mf[i] = median(forks[i], cfg->rounds);
		mt[i] = median(threads[i], cfg->rounds);
		printf("  %-46s %14.0f %8.3f %16.0f %8.3f\n",
		       state_names[i] ? state_names[i] : many, mf[i],
		       mf[i] / mf[SYS_UNLOADED], mt[i], mt[i] / mt[SYS_UNLOADED]);
	}

	bench_probe_time(mf[SYS_UNLOADED], mt[SYS_UNLOADED]);
}

/* ---- 3. exit notification ---- */

/* Jiffies of all CPUs: idle, and in all. */
static void cpu_times(unsigned long long *idle, unsigned long long *total)
{
	unsigned long long v[8] = { 0 };
	char buf[256];
	int i;

	if (pt_read_text("/proc/stat", buf, sizeof(buf)) ||
	    sscanf(buf, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0],
		   &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]) != 8)
		die("/proc/stat: cannot read the cpu line");
	*idle = v[3] + v[4];
	for (*total = 0, i = 0; i < 8; i++)
		*total += v[i];
}

/*
 * Waits (up to 10 s) until the CPUs have been 90% idle for 200 ms. The
 * exit of 10 000 tasks leaves work behind after the last wait(2) returns
 * (RCU callbacks freeing them and their pids, the module's deferred
 * frees), which must not run into the next round's timing.
 */
static void settle(void)
{
	unsigned long long idle0, total0, idle1, total1;
	int i;

	for (i = 0; i < 50; i++) {
		cpu_times(&idle0, &total0);
		usleep(200000);
		cpu_times(&idle1, &total1);
		if (total1 > total0 &&
		    (idle1 - idle0) * 10 >= (total1 - total0) * 9)
			return;
	}
}

#define CHILD_STACK 8192

/*
 * Children that wait until released. They share
 * our memory (CLONE_VM: no libc state in them, only system calls) and wait
 * for end of file on a pipe, which closing its write end gives all of them
 * at once.
 */
struct sleepers {
	pid_t *pids;
	int n;
	char *stacks;
	int pipe[2];	/* pipe[1] is -1 once they are released */
};

static int sleeper_main(void *arg)
{
	const int *pipe_fds = arg;
	char c;

	syscall(SYS_close, pipe_fds[1]);
	syscall(SYS_read, pipe_fds[0], &c, 1);
	syscall(SYS_exit, 0);
	return 0;
}

static void spawn_sleepers(struct sleepers *sl, int n)
{
	int i;

	sl->n = n;
	sl->pids = calloc(n, sizeof(*sl->pids));
	sl->stacks = malloc((size_t)n * CHILD_STACK);
	if (!sl->pids || !sl->stacks)
		die("out of memory");
	if (pipe2(sl->pipe, O_CLOEXEC))
		die("pipe: %m");
	for (i = 0; i < n; i++) {
		sl->pids[i] = clone(sleeper_main,
				    sl->stacks + (size_t)(i + 1) * CHILD_STACK,
				    CLONE_VM | SIGCHLD, sl->pipe);
		if (sl->pids[i] < 0)
			die("clone (%d children): %m", i);
	}
}

static void release_sleepers(struct sleepers *sl)
{
	close(sl->pipe[1]);
	sl->pipe[1] = -1;
}

static void reap_sleepers(struct sleepers *sl)
{
	int i;

	if (sl->pipe[1] >= 0)
		release_sleepers(sl);
	for (i = 0; i < sl->n; i++)
		pt_waitpid(sl->pids[i], NULL, 0);
	close(sl->pipe[0]);
	free(sl->pids);
	free(sl->stacks);
}

/*
 * ns from the children's release until epoll has reported every pidfd.
 * They are released by the end of a pipe rather than killed with one
 * kill(2) of their group: that kill walks the group under tasklist_lock
 * while the first of them already exit and want it for writing, and under
 * emulation the convoy made the kill alone take from 0.1 to 11 s.
 */
static double time_exit_notification(const struct side *s)
{
	int n = cfg->exit_children, i, ep, seen = 0, *fds;
	struct epoll_event ev, evs[256];
	struct sleepers sl;
	double t0, t;

	fds = calloc(n, sizeof(*fds));
	ep = epoll_create1(EPOLL_CLOEXEC);
	if (!fds || ep < 0)
		die("epoll: %m");
	spawn_sleepers(&sl, n);
	for (i = 0; i < n; i++) {
		fds[i] = s->open(sl.pids[i], 0);
		if (fds[i] < 0)
			die("%s open: %m", s->name);
		ev = (struct epoll_event){ .events = EPOLLIN | EPOLLONESHOT,
					   .data.u32 = i };
		if (epoll_ctl(ep, EPOLL_CTL_ADD, fds[i], &ev))
			die("epoll_ctl: %m");
	}
	settle();
	t0 = now_ns();
	release_sleepers(&sl);
	while (seen < n) {
		int k = epoll_wait(ep, evs, 256, 10000);

		if (k <= 0)
			die("%s: %d of %d exits reported after 10 s", s->name,
			    seen, n);
		seen += k;
	}
	t = now_ns() - t0;
	reap_sleepers(&sl);
	for (i = 0; i < n; i++)
		close(fds[i]);
	close(ep);
	free(fds);
	return t;
}

/*
 * What the module itself adds to such a round: the CPU time of its exit
 * probe over all the children (mean times calls: the total, not a typical
 * call), against the fastest native round. Their pidfds' wakeups and
 * polls are the kernel's own on both sides.
 */
static void exit_notification_probe_time(double native_ns)
{
	struct probe_stat ps;
	double cpu[3];
	int r;

	if (!use_probe_build("CPU time in the exit probe per round"))
		return;
	for (r = 0; r < 3; r++) {
		write_file(PROBE_STATS, "reset");
		time_exit_notification(&module_side);
		if (!probe_stat_read("sched_process_exit", &ps) ||
		    ps.calls < cfg->exit_children)
			die("%s: no sched_process_exit row for the children",
			    PROBE_STATS);
		cpu[r] = ps.mean_ns * ps.calls;
	}
	printf("    %.1f ms (median of 3 rounds, %d exits), %.1f%% of the fastest native round\n",
	       median(cpu, 3) / 1e6, cfg->exit_children,
	       100 * median(cpu, 3) / native_ns);
	use_production_build();
}

/*
 * 10 000 exits at once on two emulated CPUs still vary twofold between
 * rounds, on either side: this part runs more rounds, and shows the
 * fastest round of each side (the cost with the least interference) and
 * the median.
 */
static void bench_exit_notification(void)
{
	double v[2][16], fastest[2], med[2];
	int r, i, k;

	load_module();
	for (r = 0; r < cfg->exit_rounds; r++)
		for (i = 0; i < 2; i++) {
			const struct side *s = side_in_round(r, i);

			v[s == &native_side][r] = time_exit_notification(s);
		}
	for (k = 0; k < 2; k++) {
		med[k] = median(v[k], cfg->exit_rounds);
		fastest[k] = v[k][0];	/* median() sorted them */
	}
	printf("\n3. exit notification (ms), %d children in one epoll set exiting at once, %d rounds\n",
	       cfg->exit_children, cfg->exit_rounds);
	printf("  %-46s %12s %12s %7s\n", "", "module", "native", "ratio");
	print_ratio_row("release until every exit reported, fastest",
			fastest[0] / 1e6, fastest[1] / 1e6);
	print_ratio_row("release until every exit reported, median",
			med[0] / 1e6, med[1] / 1e6);
	exit_notification_probe_time(fastest[1]);
}

/* ---- 4. memory ---- */

static long slab_bytes(void)
{
	char buf[4096], *p;
	long kb;

	if (pt_read_text("/proc/meminfo", buf, sizeof(buf)))
		return -1;
	p = strstr(buf, "\nSlab:");
	if (!p || sscanf(p, "\nSlab: %ld kB", &kb) != 1)
		return -1;
	return kb * 1024;
}

/* Slab charged to our memory cgroup, or -1 without one. */
static long cgroup_slab_bytes(void)
{
	char buf[8192], *p;
	long v;

	if (pt_read_text(BENCH_CGROUP "/memory.stat", buf, sizeof(buf)))
		return -1;
	p = strstr(buf, "\nslab ");
	if (!p || sscanf(p, "\nslab %ld", &v) != 1)
		return -1;
	return v;
}

/* Into a cgroup of our own with the memory controller, if there is one. */
static void enter_bench_cgroup(void)
{
	char pid[32];
	int fd;

	fd = open("/sys/fs/cgroup/cgroup.subtree_control", O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	if (write(fd, "+memory", 7) < 0) {
		close(fd);
		return;
	}
	close(fd);
	if (mkdir(BENCH_CGROUP, 0755) && errno != EEXIST)
		return;
	snprintf(pid, sizeof(pid), "%d", getpid());
	fd = open(BENCH_CGROUP "/cgroup.procs", O_WRONLY | O_CLOEXEC);
	if (fd >= 0) {
		if (write(fd, pid, strlen(pid)) < 0)
			perror("bench_pidfd: " BENCH_CGROUP);
		close(fd);
	}
}

struct memory_use {
	double slab, charged;	/* bytes per pidfd */
};

/*
 * Kernel memory per pidfd: one on each of @n distinct children (the module
 * tracks each), or @n on ourselves (one tracked process, @n files).
 */
static struct memory_use measure_memory(const struct side *s, pid_t *pids,
					int n)
{
	long slab0, slab1, cg0, cg1;
	struct memory_use m;
	int *fds = calloc(n, sizeof(*fds)), i;

	if (!fds)
		die("out of memory");
	usleep(100000);	/* let the last round's RCU frees settle */
	slab0 = slab_bytes();
	cg0 = cgroup_slab_bytes();
	for (i = 0; i < n; i++) {
		fds[i] = s->open(pids ? pids[i] : getpid(), 0);
		if (fds[i] < 0)
			die("%s open: %m", s->name);
	}
	slab1 = slab_bytes();
	cg1 = cgroup_slab_bytes();
	for (i = 0; i < n; i++)
		close(fds[i]);
	free(fds);
	m.slab = (double)(slab1 - slab0) / n;
	m.charged = cg0 < 0 ? -1 : (double)(cg1 - cg0) / n;
	return m;
}

static void print_memory_row(const char *what, const struct memory_use *m,
			     const struct memory_use *nat)
{
	char charged[48] = "(no memory cgroup)";

	if (m->charged >= 0 && nat->charged >= 0)
		snprintf(charged, sizeof(charged), "%.0f / %.0f", m->charged,
			 nat->charged);
	printf("  %-46s %10.0f %10.0f %+10.0f %20s\n", what, m->slab,
	       nat->slab, m->slab - nat->slab, charged);
}

static void bench_memory(void)
{
	double sv[2][2][16], cv[2][2][16];
	struct memory_use mod[2], nat[2];
	int n = cfg->memory_children, r, i, k, kind;
	struct sleepers sl;

	load_module();
	enter_bench_cgroup();
	spawn_sleepers(&sl, n);
	for (r = 0; r < cfg->rounds; r++)
		for (i = 0; i < 2; i++) {
			const struct side *s = side_in_round(r, i);

			k = s == &native_side;
			for (kind = 0; kind < 2; kind++) {
				struct memory_use m = measure_memory(s,
						kind ? NULL : sl.pids, n);

				sv[k][kind][r] = m.slab;
				cv[k][kind][r] = m.charged;
			}
		}
	reap_sleepers(&sl);
	for (kind = 0; kind < 2; kind++) {
		mod[kind].slab = median(sv[0][kind], cfg->rounds);
		mod[kind].charged = median(cv[0][kind], cfg->rounds);
		nat[kind].slab = median(sv[1][kind], cfg->rounds);
		nat[kind].charged = median(cv[1][kind], cfg->rounds);
	}
	printf("\n4. kernel memory per pidfd (slab bytes), %d pidfds, median of %d rounds\n",
	       n, cfg->rounds);
	printf("  %-46s %10s %10s %10s %20s\n", "", "module", "native", "diff",
	       "charged: mod / nat");
	print_memory_row("one on each of N processes", &mod[0], &nat[0]);
	print_memory_row("N on one process", &mod[1], &nat[1]);
	printf("  100 000 pidfds on as many processes: module %.1f MiB, native %.1f MiB\n",
	       mod[0].slab * 100000 / (1 << 20), nat[0].slab * 100000 / (1 << 20));
}

/* ---- setup ---- */

static void raise_limits(void)
{
	struct rlimit lim = { 1 << 20, 1 << 20 };

	/* 100 000 pidfds and threads, 10 000 children; pids not reused soon. */
	write_file("/proc/sys/fs/nr_open", "1048576");
	write_file("/proc/sys/kernel/threads-max", "1000000");
	write_file("/proc/sys/kernel/pid_max", "4194304");
	if (setrlimit(RLIMIT_NOFILE, &lim))
		die("setrlimit(RLIMIT_NOFILE): %m");
	lim.rlim_cur = lim.rlim_max = RLIM_INFINITY;
	setrlimit(RLIMIT_NPROC, &lim);
}

int main(void)
{
	const char *mode = getenv("PIDFD_BENCH_MODE");
	struct pidfd_dev_info info = { .mask = PIDFD_INFO_PID };
	bool memory_only = mode && !strcmp(mode, "memory");
	int probe;

	setvbuf(stdout, NULL, _IOLBF, 0);
	cfg = mode && !strcmp(mode, "short") ? &short_config : &full_config;
	module_path = getenv("PIDFD_BENCH_MODULE");
	if (!module_path)
		module_path = "/pidfd.ko";
	raise_limits();
	save_module_params();
	load_module();

	probe = native_open(getpid(), 0);
	native_side.has_info = probe >= 0 &&
			       ioctl(probe, PIDFD_DEV_GET_INFO, &info) == 0;
	if (probe >= 0)
		close(probe);
	printf("bench_pidfd: %s mode; module %s%s%s\n",
	       memory_only ? "memory" : cfg == &short_config ? "short" : "full",
	       module_path, module_params[0] ? " " : "", module_params);

	if (!memory_only) {
		bench_per_call();
		bench_breakdown();
		bench_system();
		bench_exit_notification();
	}
	bench_memory();
	load_module();	/* the harness unloads it and checks for leaks */
	printf("\nbench_pidfd: done\n");
	return 0;
}
