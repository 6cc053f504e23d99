// SPDX-License-Identifier: GPL-2.0
/*
 * Fault injection at module load (debug kernel only, as check_fault). The
 * module is unloaded, then loaded again from its file with the parameters
 * it runs with, while the n-th slab allocation or user copy of the loading
 * thread fails, for n = 1, 2, ... until a load no longer reaches the n-th
 * fault site: that last load, without a fault, leaves the module as it was
 * for the suites after this one. By default n starts a few sites before
 * the module's init: the loader's hundreds of sites before it are the
 * kernel's and would cost CI minutes (PIDFD_LOAD_FAULT_ALL=1 injects them
 * too). A failed load must return a clean errno and leave no /dev/pidfd
 * and no module behind; a load that succeeds although a fault fired (one
 * the module or the kernel got over) must give a working /dev/pidfd, and
 * is unloaded again. kmemleak and the kernel-log watch of the VM run catch
 * the rest.
 *
 * Two kernel functions report an allocation failure inside them with a
 * stack trace, which the run's log watch counts as a failure although it is
 * the kernel's report, not a bug: __vmalloc_node_range() (warn_alloc(); the
 * loader's copy of the file and the module's memory) and
 * kmem_cache_create_usercopy() (dump_stack(); the module's one cache). No
 * fault is injected inside them: traced loads (kprobe events on
 * should_fail_ex(), where every fault site passes, on do_one_initcall()
 * and on both functions) tell which sites they are. The sites move by a
 * few from load to load and as the loads go on (kernfs's IDs, per-CPU
 * preloads), so the windows are the union of TRACED_LOADS traced loads,
 * with MARGIN sites more before and MARGIN_AFTER after. A "SKIP" line
 * says how many sites that leaves out.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "fault_inject.h"
#include "lsm_test.h"
#include "pidfd_test.h"

/* Where vm/run puts the module that vm/guest-init loads with insmod. */
#define MODULE_FILE	"/pidfd.ko"
#define MODULE_NAME	"pidfd"
#define MODULE_DIR	"/sys/module/" MODULE_NAME
/* More sites than a load has: it never fires. */
#define FAR_SITE	1000000u
#define MAX_SITES	4000
#define TRACED_LOADS	3
/*
 * Sites left out before and after a noisy window, beyond the variation
 * among the traced loads: later loads reach a few sites more (610 against
 * 603-605 at the end of the 6.1 debug kernel's run), so more after.
 */
#define MARGIN		3
#define MARGIN_AFTER	12
/* Sites fail-nth may count beyond the trace's (below). */
#define SLACK		1

#define TRACEFS		"/sys/kernel/tracing"
/* The system call's entry, where kprobes may go (x86-64 only: so is the kernel). */
#define FINIT_SYSCALL	"__x64_sys_finit_module"
#define EVENTS		"pidfd_load_fault"

/* The functions that report their own allocation failures loudly. */
static const char *const noisy[] = {
	"__vmalloc_node_range",
	"kmem_cache_create_usercopy",
};

#define NOISY_COUNT	(sizeof(noisy) / sizeof(noisy[0]))
/* A window of sites inside one call of a noisy function: [first, last]. */
struct window {
	unsigned int first, last;
	unsigned int func;	/* which of noisy[] (a window's) */
};

#define MAX_WINDOWS	32

struct load_trace {
	unsigned int sites;
	struct window init;	/* the module's init function */
	unsigned int count;
	struct window win[MAX_WINDOWS];
};

static int finit_module(int fd, const char *params, int flags)
{
	return (int)syscall(SYS_finit_module, fd, params, flags);
}

static int delete_module(const char *name, unsigned int flags)
{
	return (int)syscall(SYS_delete_module, name, flags);
}

static bool module_loaded(void)
{
	return access(MODULE_DIR, F_OK) == 0;
}

/*
 * The module's writable parameters as it runs now, for finit_module():
 * 0, or -1 (errno).
 */
static int module_params(char *buf, size_t len)
{
	char trust[64];

	if (pt_read_text(LT_TRUST_PARAM, trust, sizeof(trust)) < 0)
		return -1;
	snprintf(buf, len, "signal_lsm_trust=%s", trust);
	return 0;
}

/* Busy (EAGAIN) while a file of the module is still being closed. */
static void unload(void)
{
	int i;

	pt_dev_close();
	for (i = 0; i < 50; i++) {
		if (delete_module(MODULE_NAME, O_NONBLOCK) == 0)
			break;
		ck_assert_msg(errno == EAGAIN || errno == EBUSY,
			      "delete_module: %s", pt_errname(errno));
		usleep(100000);
	}
	ck_assert_msg(i < 50, "delete_module: still busy after 5 s");
	ck_assert(!module_loaded());
	ck_assert_errno(access(PT_DEV_PATH, F_OK), ENOENT);
}

/* A loaded module works: /dev/pidfd, one pidfd, the counters at rest. */
static void assert_working(const char *when, unsigned int n)
{
	struct stat st;
	long live;
	int fd;

	ck_assert_msg(module_loaded(), "%s (n=%u): no %s", when, n, MODULE_DIR);
	ck_assert_msg(stat(PT_DEV_PATH, &st) == 0 && S_ISCHR(st.st_mode) &&
		      (st.st_mode & 0777) == 0666,
		      "%s (n=%u): %s: %s", when, n, PT_DEV_PATH,
		      strerror(errno));
	fd = pt_open(getpid(), 0);
	ck_assert_msg(fd >= 0, "%s (n=%u): PIDFD_DEV_OPEN: %s", when, n,
		      pt_errname(errno));
	close(fd);
	pt_dev_close();
	ck_assert_int_eq(pt_read_long(PT_LIVE_PIDFDS, &live), 0);
	ck_assert_msg(live == 0, "%s (n=%u): live_pidfds %ld", when, n, live);
}

/* ---- the traced load ----------------------------------------------- */

static int tracefs_write(const char *file, const char *text, int flags)
{
	char path[256];
	size_t len = strlen(text);
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), TRACEFS "/%s", file);
	fd = open(path, O_WRONLY | O_CLOEXEC | flags);
	if (fd < 0)
		return -1;
	n = write(fd, text, len);
	close(fd);
	return n == (ssize_t)len ? 0 : -1;
}

static void tracing_remove(void)
{
	char line[128];
	unsigned int i;

	tracefs_write("events/" EVENTS "/enable", "0", 0);
	tracefs_write("kprobe_events", "-:" EVENTS "/site\n", O_APPEND);
	tracefs_write("kprobe_events", "-:" EVENTS "/begin\n", O_APPEND);
	tracefs_write("kprobe_events", "-:" EVENTS "/end\n", O_APPEND);
	tracefs_write("kprobe_events", "-:" EVENTS "/init_in\n", O_APPEND);
	tracefs_write("kprobe_events", "-:" EVENTS "/init_out\n", O_APPEND);
	for (i = 0; i < NOISY_COUNT; i++) {
		snprintf(line, sizeof(line), "-:" EVENTS "/noisy_in%u\n", i);
		tracefs_write("kprobe_events", line, O_APPEND);
		snprintf(line, sizeof(line), "-:" EVENTS "/noisy_out%u\n", i);
		tracefs_write("kprobe_events", line, O_APPEND);
	}
}

/* 0, or -1 with the reason in @why. */
static int tracing_setup(char *why, size_t len)
{
	char line[128];
	unsigned int i;

	if (access(TRACEFS "/kprobe_events", F_OK) < 0)
		mount("tracefs", TRACEFS, "tracefs", 0, NULL);
	tracing_remove();
	if (tracefs_write("kprobe_events",
			  "p:" EVENTS "/site should_fail_ex\n", O_APPEND) < 0 ||
	    tracefs_write("kprobe_events",
			  "p:" EVENTS "/begin " FINIT_SYSCALL "\n", O_APPEND) < 0 ||
	    tracefs_write("kprobe_events",
			  "p:" EVENTS "/end proc_fail_nth_read\n", O_APPEND) < 0 ||
	    tracefs_write("kprobe_events",
			  "p:" EVENTS "/init_in do_one_initcall\n", O_APPEND) < 0 ||
	    tracefs_write("kprobe_events",
			  "r:" EVENTS "/init_out do_one_initcall\n", O_APPEND) < 0) {
		snprintf(why, len, "no kprobe on should_fail_ex(), %s(), proc_fail_nth_read() or do_one_initcall(): %s",
			 FINIT_SYSCALL, strerror(errno));
		tracing_remove();
		return -1;
	}
	for (i = 0; i < NOISY_COUNT; i++) {
		snprintf(line, sizeof(line), "p:" EVENTS "/noisy_in%u %s\n", i,
			 noisy[i]);
		if (tracefs_write("kprobe_events", line, O_APPEND) < 0)
			goto no_probe;
		snprintf(line, sizeof(line), "r:" EVENTS "/noisy_out%u %s\n", i,
			 noisy[i]);
		if (tracefs_write("kprobe_events", line, O_APPEND) < 0)
			goto no_probe;
	}
	snprintf(line, sizeof(line), "common_pid == %d", (int)getpid());
	/* The counter clock orders events across CPUs exactly. */
	if (tracefs_write("trace_clock", "counter", 0) < 0 ||
	    tracefs_write("events/" EVENTS "/filter", line, 0) < 0) {
		snprintf(why, len, "tracefs: %s", strerror(errno));
		return -1;
	}
	return 0;

no_probe:
	snprintf(why, len, "no kprobe on %s(): %s", noisy[i], strerror(errno));
	tracing_remove();
	return -1;
}

/*
 * The events of one load, from the system call's entry to the read of
 * fail-nth (the sites of the return to user space too, such as the
 * delayed closes of files and mounts): "site", "init_in" and "init_out"
 * around the module's init, "noisy_inN" and "noisy_outN" around the
 * noisy functions. Sites in interrupts that hit the loading task count
 * too, though fail-nth does not count them: rare, and the comparison with
 * fail-nth's count finds them (a kprobe not yet optimised traps, and its
 * event then shows an NMI context, whatever the context of the call).
 */
static void parse_trace(struct load_trace *lt)
{
	unsigned int depth = 0, site = 0;
	char *line = NULL, *p;
	bool inside = false, in_init = false;
	size_t cap = 0;
	FILE *f;

	memset(lt, 0, sizeof(*lt));
	f = fopen(TRACEFS "/trace", "re");
	ck_assert_msg(f, "%s/trace: %s", TRACEFS, strerror(errno));
	while (getline(&line, &cap, f) > 0) {
		char event[32];

		if (line[0] == '#')
			continue;
		p = strstr(line, "] ");
		if (!p || sscanf(p + 2, "%*s %*s %31s", event) != 1)
			continue;
		if (!strcmp(event, "begin:")) {
			inside = true;
		} else if (!strcmp(event, "end:")) {
			inside = false;
		} else if (!inside) {
			continue;
		} else if (!strcmp(event, "site:")) {
			site++;
			if (in_init) {
				if (!lt->init.first)
					lt->init.first = site;
				lt->init.last = site;
			}
			if (depth && lt->count <= MAX_WINDOWS) {
				struct window *w = &lt->win[lt->count - 1];

				if (!w->first)
					w->first = site;
				w->last = site;
			}
		} else if (!strcmp(event, "init_in:")) {
			in_init = true;
		} else if (!strcmp(event, "init_out:")) {
			in_init = false;
		} else if (!strncmp(event, "noisy_in", 8)) {
			if (depth++ == 0 && lt->count < MAX_WINDOWS)
				lt->win[lt->count++] = (struct window){
					.func = (unsigned int)atoi(event + 8),
				};
		} else if (!strncmp(event, "noisy_out", 9) && depth) {
			depth--;
		}
	}
	free(line);
	fclose(f);
	lt->sites = site;
}

/* The kprobes' hits and misses, for a trace that missed sites. */
static void print_profile(void)
{
	char *line = NULL;
	size_t cap = 0;
	FILE *f;

	f = fopen(TRACEFS "/kprobe_profile", "re");
	if (!f)
		return;
	while (getline(&line, &cap, f) > 0)
		if (strstr(line, EVENTS))
			printf("[load-fault] kprobe_profile: %s", line);
	free(line);
	fclose(f);
}

/*
 * A load with every event traced: it must succeed. 0, or -1 when the trace
 * and fail-nth disagree on the number of sites (then unloaded again).
 */
static int traced_load(int fd, const char *params, struct load_trace *lt)
{
	unsigned int left;
	int ret, err;

	ck_assert_int_eq(tracefs_write("trace", "", O_TRUNC), 0);
	ck_assert_int_eq(tracefs_write("events/" EVENTS "/enable", "1", 0), 0);
	fi_arm(FAR_SITE);
	ret = finit_module(fd, params, 0);
	err = errno;
	ck_assert(!fi_disarm(&left));
	ck_assert_int_eq(tracefs_write("events/" EVENTS "/enable", "0", 0), 0);
	ck_assert_msg(ret == 0, "traced load: %s", pt_errname(err));
	assert_working("traced load", 0);
	unload();
	parse_trace(lt);
	ck_assert_msg(lt->count < MAX_WINDOWS, "more than %d noisy calls",
		      MAX_WINDOWS);
	/*
	 * One site less than fail-nth counts, in every load here: missed by
	 * the kprobe (kprobe_profile), or outside the traced span. Within
	 * MARGIN, it cannot move a window out of what is left out.
	 */
	if (lt->sites <= FAR_SITE - left &&
	    lt->sites + SLACK >= FAR_SITE - left)
		return 0;
	printf("[load-fault] the trace saw %u fault sites, fail-nth counted %u: tracing again\n",
	       lt->sites, FAR_SITE - left);
	print_profile();
	return -1;
}

/*
 * The sites to leave out: every traced load's windows, the same window of
 * each load widened to cover all of them, and MARGIN more on each side.
 */
static void mark_noisy(bool *skip, unsigned int size,
		       const struct load_trace *lt, unsigned int loads)
{
	unsigned int i, j, n, lo, hi, spread = 0;

	for (i = 0; i < lt[0].count; i++) {
		lo = lt[0].win[i].first;
		hi = lt[0].win[i].last;
		if (!lo)
			continue;	/* no fault site inside */
		for (j = 1; j < loads; j++) {
			ck_assert_msg(lt[j].count == lt[0].count,
				      "noisy calls: %u in one load, %u in another",
				      lt[0].count, lt[j].count);
			if (lt[j].win[i].first && lt[j].win[i].first < lo)
				lo = lt[j].win[i].first;
			if (lt[j].win[i].last > hi)
				hi = lt[j].win[i].last;
		}
		if (hi - lo - (lt[0].win[i].last - lt[0].win[i].first) > spread)
			spread = hi - lo - (lt[0].win[i].last -
					    lt[0].win[i].first);
		printf("[load-fault] sites %u-%u: in %s()\n", lo, hi,
		       noisy[lt[0].win[i].func]);
		lo = lo > MARGIN ? lo - MARGIN : 1;
		for (n = lo; n <= hi + MARGIN_AFTER && n < size; n++)
			skip[n] = true;
	}
	printf("[load-fault] %u noisy calls, windows up to %u sites wider from load to load\n",
	       lt[0].count, spread);
}

/* A traced load into @lt, again while the trace misses sites. */
static void trace_load(int fd, const char *params, struct load_trace *lt)
{
	int tries = 0;

	while (traced_load(fd, params, lt) < 0)
		ck_assert_msg(++tries < 5, "the trace keeps missing fault sites");
}

/*
 * The first site to inject: where the module's init starts, less the
 * variation and MARGIN (the loader's sites after it, module_put(), the
 * uevent, and the return to user space, all follow). The loader's own
 * sites before it, a few hundred (the ELF checks, relocations, sysfs),
 * are the kernel's and cost CI a few minutes under the debug kernel:
 * PIDFD_LOAD_FAULT_ALL=1 injects them too.
 */
static unsigned int first_site(const struct load_trace *lt,
			       unsigned int loads)
{
	const char *all = getenv("PIDFD_LOAD_FAULT_ALL");
	unsigned int i, first = lt[0].init.first;

	ck_assert_msg(first, "no fault site in the module's init");
	if (all && !strcmp(all, "1"))
		return 1;
	for (i = 1; i < loads; i++)
		if (lt[i].init.first < first)
			first = lt[i].init.first;
	return first > MARGIN ? first - MARGIN : 1;
}

START_TEST(load_every_site)
{
	unsigned int n, i, sites, left_out = 0, failed = 0, survived = 0;
	struct load_trace lt[TRACED_LOADS];
	char params[128], lsms[128], now[128], why[160];
	bool skip[MAX_SITES + 2] = { false };
	unsigned int first;
	long long start;
	long live;
	int fd;

	if (!module_loaded())
		PT_SKIP("the module is not loaded");
	if (access(MODULE_FILE, R_OK) < 0)
		PT_SKIP("no %s: %s", MODULE_FILE, strerror(errno));
	fi_setup();
	if (tracing_setup(why, sizeof(why)) < 0)
		PT_SKIP("%s", why);
	ck_assert_msg(module_params(params, sizeof(params)) == 0, "%s: %s",
		      LT_TRUST_PARAM, strerror(errno));
	ck_assert_int_eq(pt_read_text(LT_LSMS_PARAM, lsms, sizeof(lsms)), 0);
	fd = open(MODULE_FILE, O_RDONLY | O_CLOEXEC);
	ck_assert_msg(fd >= 0, "%s: %s", MODULE_FILE, strerror(errno));
	/* Loaded already: the loader refuses the name, and nothing else. */
	ck_assert_errno(finit_module(fd, params, 0), EEXIST);

	unload();
	for (i = 0; i < TRACED_LOADS; i++) {
		trace_load(fd, params, &lt[i]);
		printf("[load-fault] traced load %u: %u fault sites, the module's init %u-%u\n",
		       i + 1, lt[i].sites, lt[i].init.first, lt[i].init.last);
	}
	sites = lt[0].sites;
	ck_assert_msg(sites <= MAX_SITES, "%u fault sites", sites);
	mark_noisy(skip, MAX_SITES + 1, lt, TRACED_LOADS);
	print_profile();
	first = first_site(lt, TRACED_LOADS);
	start = pt_now_ms();

	for (n = 1; n <= MAX_SITES + 1; n++) {
		bool fired;
		int ret, err;

		if (n < first)
			continue;
		if (skip[n]) {
			left_out++;
			continue;
		}
		fi_arm(n);
		ret = finit_module(fd, params, 0);
		err = errno;
		fired = fi_disarm(NULL);
		if (!fired) {
			ck_assert_msg(ret == 0, "load with no fault (n=%u): %s",
				      n, pt_errname(err));
			ck_assert_int_eq(pt_read_long(PT_LIVE_PIDS, &live), 0);
			ck_assert_msg(live == 0, "the last load: live_pids %ld",
				      live);
			break;
		}
		if (ret == 0) {
			/* Got over it (kmemleak's metadata, the LSM list...). */
			survived++;
			assert_working("load after a fault", n);
			unload();
			continue;
		}
		failed++;
		ck_assert_msg(fi_clean_errno(err), "fault at site %u: load failed with %s",
			      n, pt_errname(err));
		ck_assert_msg(!module_loaded(), "fault at site %u: %s left behind",
			      n, MODULE_DIR);
		ck_assert_msg(access(PT_DEV_PATH, F_OK) < 0 && errno == ENOENT,
			      "fault at site %u: %s left behind", n,
			      PT_DEV_PATH);
	}
	ck_assert_msg(n <= MAX_SITES + 1, "still faulting after %u sites",
		      MAX_SITES);
	close(fd);
	tracing_remove();

	/* Loaded as before, for the suites and the checks after this one. */
	assert_working("the last load", n);
	ck_assert_int_eq(pt_read_text(LT_LSMS_PARAM, now, sizeof(now)), 0);
	ck_assert_str_eq(now, lsms);
	ck_assert_int_eq(module_params(now, sizeof(now)), 0);
	ck_assert_str_eq(now, params);
	printf("[load-fault] %u fault sites, %u loads failed, %u got over the fault, in %lld ms\n",
	       n - 1, failed, survived, (long long)(pt_now_ms() - start));
	fflush(stdout);
	if (first > 1)
		pt_skip_line("load_every_site_loader",
			     "fault sites 1-%u of %u not injected: the loader's before the module's init (PIDFD_LOAD_FAULT_ALL=1 injects them)",
			     first - 1, n - 1);
	if (left_out)
		pt_skip_line("load_every_site_noisy",
			     "%u of %u fault sites not injected: inside or beside a call of %s() or %s(), which report an allocation failure with a stack trace",
			     left_out, n - 1, noisy[0], noisy[1]);
}
END_TEST

/*
 * A value for a read-only parameter at load time (modprobe pidfd
 * live_pids=0, a stray line in modprobe.d): the load fails with EPERM,
 * nothing left behind, rather than calling a missing .set in the loader.
 */
START_TEST(read_only_params_at_load)
{
	static const char *const refused[] = {
		"live_pidfds=0", "live_pids=0", "signal_lsms=apparmor",
	};
	char params[128], with[256];
	int fd;

	if (!module_loaded())
		PT_SKIP("the module is not loaded");
	ck_assert_int_eq(module_params(params, sizeof(params)), 0);
	fd = open(MODULE_FILE, O_RDONLY | O_CLOEXEC);
	ck_assert_msg(fd >= 0, "%s: %s", MODULE_FILE, strerror(errno));
	unload();
	for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		snprintf(with, sizeof(with), "%s %s", params, refused[i]);
		ck_assert_msg(finit_module(fd, with, 0) < 0 && errno == EPERM,
			      "load with %s: %s", refused[i],
			      pt_errname(errno));
		ck_assert(!module_loaded());
		ck_assert_errno(access(PT_DEV_PATH, F_OK), ENOENT);
	}
	ck_assert_int_eq(finit_module(fd, params, 0), 0);
	close(fd);
	assert_working("the load after the refused ones", 0);
}
END_TEST

/*
 * A test that failed half way may have left the module unloaded: load it
 * again as it was, or every later suite would fail for that.
 */
static void restore(const char *params)
{
	int fd;

	if (module_loaded())
		return;
	fd = open(MODULE_FILE, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || finit_module(fd, params, 0) < 0)
		printf("[load-fault] cannot load %s again: %s\n", MODULE_FILE,
		       strerror(errno));
	else
		printf("[load-fault] %s loaded again after a failure\n",
		       MODULE_FILE);
	if (fd >= 0)
		close(fd);
}

int main(void)
{
	Suite *s = suite_create("load_fault");
	TCase *tc = pt_tcase(s, "fail-nth");
	char params[128] = "";
	int ret;

	/* Hundreds of loads on the debug kernel under emulation. */
	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, read_only_params_at_load);
	tcase_add_test(tc, load_every_site);
	if (module_loaded() && module_params(params, sizeof(params)) < 0)
		params[0] = '\0';
	ret = pt_main(s);
	tracing_remove();
	if (params[0])
		restore(params);
	return ret;
}
