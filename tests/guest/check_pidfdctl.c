// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pidfdctl's behaviour in the VM, with the module loaded. The binary is
 * $PIDFDCTL, by default /bin/pidfdctl (the harness installs
 * build/guest/pidfdctl there).
 */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <libpidfd.h>

/* pt_fork(): children without Check's signal handlers */
#include "diff_backend.h"
#include "lsm_test.h"
#include "pidfd_test.h"
#include "tool_run.h"
#include "../../lib/pt_policy.h"
/* The unit under test, for its BTF lookup. */
#include "../../userspace/pidfdctl/bpf_lsm.c"

#define WAIT_MS 10000


static char *itoa_buf(int n, char *buf)
{
	sprintf(buf, "%d", n);
	return buf;
}

/* ---- processes to act on ---- */

static pid_t start_sleeper(void)
{
	pid_t pid = pt_fork();

	if (pid == 0) {
		for (;;)
			pause();
	}
	ck_assert_int_ge(pid, 0);
	return pid;
}

/* ---- wait ---- */

START_TEST(wait_non_child_exit_status)
{
	char pidtext[16], want[64];
	struct pt_tool_run r;
	struct pt_non_child nc;
	pid_t g;

	g = pt_fork_non_child(&nc, 42, 0);
	ck_assert_int_gt(g, 0);
	pt_tool_start(&r, (const char *const[]){ "wait", itoa_buf(g, pidtext), NULL });
	pt_tool_wait_holding(r.pid, g);
	pt_non_child_go(&nc);
	ck_assert_msg(pt_tool_finish(&r) == 0, "stderr: %s", r.stderr_text);
	snprintf(want, sizeof(want), "%d: exited with status 42\n", g);
	ck_assert_str_eq(r.stdout_text, want);
	ck_assert_str_eq(r.stderr_text, "");
	ck_assert_int_eq(pt_non_child_end(&nc), 0);
}
END_TEST

/*
 * --verbose names the kind of pidfd: by default the kernel's where its
 * pidfds keep the exit status, the module's elsewhere; the module's with
 * --backend module. With --backend native, "wait" knows a non-child's
 * status only where the kernel records it.
 */
START_TEST(verbose_names_the_backend)
{
	const char *kernels = "the kernel's pidfd (pidfd_open(2))";
	const char *modules = "the module's pidfd (/dev/pidfd)";
	char pidtext[16], want[96];
	struct pt_tool_run r;
	struct pt_non_child nc;
	pid_t g;

	itoa_buf(getpid(), pidtext);
	ck_assert_int_eq(PT_TOOL(&r, "kill", "-v", "-s", "0", pidtext), 0);
	snprintf(want, sizeof(want), "pidfdctl: %s: %s\n", pidtext,
		 db_features()->supported_exit ? kernels : modules);
	ck_assert_str_eq(r.stderr_text, want);
	ck_assert_int_eq(PT_TOOL(&r, "kill", "--backend", "module", "-v", "-s", "0",
			     pidtext), 0);
	snprintf(want, sizeof(want), "pidfdctl: %s: %s\n", pidtext, modules);
	ck_assert_str_eq(r.stderr_text, want);

	g = pt_fork_non_child(&nc, 43, 0);
	ck_assert_int_gt(g, 0);
	pt_tool_start(&r, (const char *const[]){ "wait", "--backend", "native", "-v",
					 itoa_buf(g, pidtext), NULL });
	pt_tool_wait_holding(r.pid, g);
	pt_non_child_go(&nc);
	ck_assert_int_eq(pt_tool_finish(&r), 0);
	if (db_features()->info_exit)
		snprintf(want, sizeof(want), "%d: exited with status 43\n", g);
	else
		snprintf(want, sizeof(want), "%d: exited (status unavailable)\n",
			 g);
	ck_assert_str_eq(r.stdout_text, want);
	snprintf(want, sizeof(want), "pidfdctl: %d: %s\n", g, kernels);
	ck_assert_str_eq(r.stderr_text, want);
	ck_assert_int_eq(pt_non_child_end(&nc), 0);
}
END_TEST

START_TEST(wait_non_child_killed)
{
	char pidtext[16], want[64];
	struct pt_tool_run r;
	struct pt_non_child nc;
	pid_t g;

	g = pt_fork_non_child(&nc, 0, SIGKILL);
	ck_assert_int_gt(g, 0);
	pt_tool_start(&r, (const char *const[]){ "wait", itoa_buf(g, pidtext), NULL });
	pt_tool_wait_holding(r.pid, g);
	pt_non_child_go(&nc);
	ck_assert_int_eq(pt_tool_finish(&r), 0);
	snprintf(want, sizeof(want), "%d: killed by signal SIGKILL\n", g);
	ck_assert_str_eq(r.stdout_text, want);
	ck_assert_int_eq(pt_non_child_end(&nc), 0);
}
END_TEST

/* Several PIDs; one a child of ours we never reap: status unavailable. */
START_TEST(wait_several_and_unreaped)
{
	char p1[16], p2[16], want[64];
	struct pt_tool_run r;
	struct pt_non_child nc;
	pid_t g, z;
	int status;

	g = pt_fork_non_child(&nc, 3, 0);
	ck_assert_int_gt(g, 0);
	z = start_sleeper();
	pt_tool_start(&r, (const char *const[]){ "wait", itoa_buf(g, p1), itoa_buf(z, p2), NULL });
	pt_tool_wait_holding(r.pid, z);
	pt_non_child_go(&nc);
	kill(z, SIGTERM);	/* a zombie: we do not reap until pidfdctl is done */
	ck_assert_int_eq(pt_tool_finish(&r), 0);
	snprintf(want, sizeof(want), "%d: exited with status 3\n", g);
	ck_assert_msg(strstr(r.stdout_text, want), "%s", r.stdout_text);
	snprintf(want, sizeof(want), "%d: exited (status unavailable)\n", z);
	ck_assert_msg(strstr(r.stdout_text, want), "%s", r.stdout_text);
	waitpid(z, &status, 0);
	ck_assert_int_eq(pt_non_child_end(&nc), 0);
}
END_TEST

/* --count 1 of two: returns when the first ends, the other still runs. */
START_TEST(wait_count_first)
{
	char p1[16], p2[16], want[64];
	struct pt_tool_run r;
	struct pt_non_child nc;
	pid_t g, s = start_sleeper();

	g = pt_fork_non_child(&nc, 5, 0);
	ck_assert_int_gt(g, 0);
	pt_tool_start(&r, (const char *const[]){ "wait", "--count", "1",
			itoa_buf(s, p1), itoa_buf(g, p2), NULL });
	pt_tool_wait_holding(r.pid, g);
	pt_non_child_go(&nc);
	ck_assert_msg(pt_tool_finish(&r) == 0, "stderr: %s", r.stderr_text);
	snprintf(want, sizeof(want), "%d: exited with status 5\n", g);
	ck_assert_str_eq(r.stdout_text, want);
	ck_assert_int_eq(kill(s, 0), 0);	/* not waited for, still there */
	pt_kill_reap(s);
	ck_assert_int_eq(pt_non_child_end(&nc), 0);
}
END_TEST

/* --exit-status: the shell's wait's status, of a non-child too. */
START_TEST(wait_exit_status)
{
	char pidtext[16];
	struct pt_tool_run r;
	struct pt_non_child nc;
	pid_t g;

	g = pt_fork_non_child(&nc, 7, 0);
	ck_assert_int_gt(g, 0);
	pt_tool_start(&r, (const char *const[]){ "wait", "--exit-status",
			itoa_buf(g, pidtext), NULL });
	pt_tool_wait_holding(r.pid, g);
	pt_non_child_go(&nc);
	ck_assert_int_eq(pt_tool_finish(&r), 7);
	ck_assert_int_eq(pt_non_child_end(&nc), 0);

	g = pt_fork_non_child(&nc, 0, SIGTERM);
	ck_assert_int_gt(g, 0);
	pt_tool_start(&r, (const char *const[]){ "wait", "-x", "--quiet",
			itoa_buf(g, pidtext), NULL });
	pt_tool_wait_holding(r.pid, g);
	pt_non_child_go(&nc);
	ck_assert_int_eq(pt_tool_finish(&r), 128 + SIGTERM);
	ck_assert_str_eq(r.stdout_text, "");
	ck_assert_int_eq(pt_non_child_end(&nc), 0);
}
END_TEST

START_TEST(wait_timeout_and_missing)
{
	char pidtext[16];
	struct pt_tool_run r;
	pid_t s = start_sleeper(), gone;
	int status;

	ck_assert_int_eq(PT_TOOL(&r, "wait", "--timeout", "0.3", itoa_buf(s, pidtext)), 3);
	ck_assert_msg(r.ms >= 300 && r.ms < 5000, "ran %ld ms", r.ms);
	ck_assert(strstr(r.stderr_text, "pidfdctl: timeout expired"));
	ck_assert_str_eq(r.stdout_text, "");
	kill(s, SIGKILL);
	waitpid(s, &status, 0);

	gone = pt_fork();
	if (gone == 0)
		_exit(0);
	waitpid(gone, &status, 0);
	ck_assert_int_eq(PT_TOOL(&r, "wait", itoa_buf(gone, pidtext)), 1);
	ck_assert_msg(strstr(r.stderr_text, "pidfdctl: cannot wait for"), "%s", r.stderr_text);
	ck_assert(strstr(r.stderr_text, strerror(ESRCH)));
	ck_assert_int_eq(PT_TOOL(&r, "wait", "--exited", pidtext), 0);
	ck_assert_str_eq(r.stdout_text, "");
}
END_TEST

/* ---- kill ---- */

struct sigrec {
	int signo, code, value;
	pid_t sender, receiver_pid, receiver_tid;
};

static int record_fd = -1;

static void record_signal(int sig, siginfo_t *si, void *ctx)
{
	struct sigrec rec = { sig, si->si_code, si->si_value.sival_int,
			      si->si_pid, getpid(), gettid() };

	(void)ctx;
	if (write(record_fd, &rec, sizeof(rec)) != sizeof(rec))
		_exit(90);
}

static void *idle_thread(void *arg)
{
	pid_t tid = gettid();

	if (write(*(int *)arg, &tid, sizeof(tid)) != sizeof(tid))
		_exit(91);
	for (;;)
		pause();
	return NULL;
}

struct catcher {
	pid_t pid, thread, member;
	int records;
};

/* A child leading a process group (with one more member) and a thread. */
static void start_catcher(struct catcher *c)
{
	struct sigaction sa = { .sa_sigaction = record_signal, .sa_flags = SA_SIGINFO | SA_RESTART };
	int rec[2], ready[2];

	ck_assert_int_eq(pipe2(rec, O_CLOEXEC), 0);
	ck_assert_int_eq(pipe2(ready, O_CLOEXEC), 0);
	c->pid = pt_fork();
	if (c->pid == 0) {
		pthread_t t;
		pid_t m;

		record_fd = rec[1];
		sigaction(SIGUSR1, &sa, NULL);
		sigaction(SIGUSR2, &sa, NULL);
		sigaction(SIGTERM, &sa, NULL);
		setpgid(0, 0);
		m = fork();
		if (m == 0) {
			pid_t me = getpid();

			/* outside Check's group: dies with its leader */
			prctl(PR_SET_PDEATHSIG, SIGKILL);
			if (write(ready[1], &me, sizeof(me)) != sizeof(me))
				_exit(92);
			for (;;)
				pause();
		}
		pthread_create(&t, NULL, idle_thread, &ready[1]);
		for (;;)
			pause();
	}
	ck_assert_int_ge(c->pid, 0);
	close(rec[1]);
	close(ready[1]);
	/* Member and thread report in either order; tell them apart. */
	for (int i = 0; i < 2; i++) {
		pid_t id;

		ck_assert_int_eq(read(ready[0], &id, sizeof(id)), sizeof(id));
		char path[64];

		snprintf(path, sizeof(path), "/proc/%d/task/%d", c->pid, id);
		if (access(path, F_OK) == 0)
			c->thread = id;
		else
			c->member = id;
	}
	close(ready[0]);
	c->records = rec[0];
}

static void stop_catcher(struct catcher *c)
{
	int status;

	kill(c->member, SIGKILL);
	kill(c->pid, SIGKILL);
	waitpid(c->pid, &status, 0);
	close(c->records);
}

static struct sigrec next_record(struct catcher *c)
{
	struct pollfd p = { .fd = c->records, .events = POLLIN };
	struct sigrec rec;

	ck_assert_msg(poll(&p, 1, WAIT_MS) == 1, "no signal arrived");
	ck_assert_int_eq(read(c->records, &rec, sizeof(rec)), sizeof(rec));
	return rec;
}

static bool quiet_for(struct catcher *c, int ms)
{
	struct pollfd p = { .fd = c->records, .events = POLLIN };

	return poll(&p, 1, ms) == 0;
}

/*
 * Does the module's signal policy refuse pidfdctl's signal to @pid (a
 * thread pidfd with @flags PIDFD_THREAD) on an approximate path (thread
 * scope, a siginfo)? Only if libpidfd, as pidfdctl runs it (the default
 * backend), makes the module's pidfd for it here: a kernel pidfd is
 * signalled by the kernel's own call. The same library asked the same way
 * in this process makes the same choice (verbose_names_the_backend checks
 * that choice against the kernel's features).
 */
static bool tool_refused(pid_t pid, unsigned int flags)
{
	int fd = libpidfd_open(pid, flags);
	int kind;

	ck_assert_msg(fd >= 0, "libpidfd_open(%d): %s", pid, pt_errname(errno));
	kind = libpidfd_pidfd_backend(fd);
	close(fd);
	return kind == LIBPIDFD_BACKEND_MODULE && pt_policy_refuses_approx();
}

/*
 * Runs "pidfdctl kill ARGS... TARGET" that the policy refuses: exit 1,
 * a message that names EACCES and points at the policy, nothing arrives
 * at the catcher, and the module logged its refusal of @sig to @judged
 * (the thread for thread scope, else the process).
 */
#define ASSERT_TOOL_REFUSED(r, c, sig, judged, what, ...) do {		\
	pt_policy_log_ready(1);						\
	ck_assert_int_eq(PT_TOOL((r), "kill", __VA_ARGS__), 1);		\
	ck_assert_msg(strstr((r)->stderr_text, strerror(EACCES)) &&	\
		      strstr((r)->stderr_text, "signal policy"),		\
		      "%s: %s", (what), (r)->stderr_text);			\
	ck_assert_msg(quiet_for((c), 200), "%s: arrived though refused",	\
		      (what));						\
	ck_assert_msg(pt_policy_refusal_logged((sig), (r)->pid, (judged)),	\
		      "%s: no log line for signal %d from %d to %d",	\
		      (what), (sig), (r)->pid, (judged));		\
	pt_policy_note_refusal(what);					\
} while (0)

START_TEST(kill_default_and_value)
{
	char pidtext[16];
	struct catcher c;
	struct sigrec rec;
	struct pt_tool_run r;

	start_catcher(&c);
	itoa_buf(c.pid, pidtext);

	ck_assert_int_eq(PT_TOOL(&r, "kill", pidtext), 0);
	rec = next_record(&c);
	ck_assert_int_eq(rec.signo, SIGTERM);
	ck_assert_int_eq(rec.code, SI_USER);
	ck_assert_int_eq(rec.sender, r.pid);	/* from pidfdctl itself */
	ck_assert_int_eq(rec.receiver_pid, c.pid);

	/* --value: a siginfo, an approximate path of the module's. */
	if (tool_refused(c.pid, 0)) {
		ASSERT_TOOL_REFUSED(&r, &c, SIGUSR1, c.pid, "pidfdctl kill --value",
				    "-s", "USR1", "--value", "77", pidtext);
	} else {
		ck_assert_msg(PT_TOOL(&r, "kill", "-s", "USR1", "--value", "77",
				      pidtext) == 0, "%s", r.stderr_text);
		rec = next_record(&c);
		ck_assert_int_eq(rec.signo, SIGUSR1);
		ck_assert_int_eq(rec.code, SI_QUEUE);
		ck_assert_int_eq(rec.value, 77);
		ck_assert_int_eq(rec.sender, r.pid);
	}

	ck_assert_int_eq(PT_TOOL(&r, "kill", "-s", "0", pidtext), 0);
	ck_assert(quiet_for(&c, 200));
	stop_catcher(&c);
}
END_TEST

START_TEST(kill_each_scope)
{
	char pidtext[16], tidtext[16], membertext[16];
	struct sigrec a, b;
	struct catcher c;
	struct pt_tool_run r;
	int status;

	start_catcher(&c);
	itoa_buf(c.pid, pidtext);
	itoa_buf(c.thread, tidtext);
	itoa_buf(c.member, membertext);

	/*
	 * --thread on the second thread's TID: that thread, SI_TKILL (thread
	 * scope: an approximate path of the module's).
	 */
	if (tool_refused(c.thread, PIDFD_THREAD)) {
		ASSERT_TOOL_REFUSED(&r, &c, SIGUSR2, c.thread,
				    "pidfdctl kill --thread TID",
				    "-s", "USR2", "--thread", tidtext);
	} else {
		ck_assert_msg(PT_TOOL(&r, "kill", "-s", "USR2", "--thread",
				      tidtext) == 0, "%s", r.stderr_text);
		a = next_record(&c);
		ck_assert_int_eq(a.signo, SIGUSR2);
		ck_assert_int_eq(a.receiver_tid, c.thread);
		ck_assert_int_eq(a.code, SI_TKILL);
		ck_assert(quiet_for(&c, 200));
	}

	/* --thread on the leader's PID: the main thread only. */
	if (tool_refused(c.pid, PIDFD_THREAD)) {
		ASSERT_TOOL_REFUSED(&r, &c, SIGUSR2, c.pid,
				    "pidfdctl kill --thread PID",
				    "-s", "USR2", "--thread", pidtext);
	} else {
		ck_assert_msg(PT_TOOL(&r, "kill", "-s", "USR2", "--thread",
				      pidtext) == 0, "%s", r.stderr_text);
		a = next_record(&c);
		ck_assert_int_eq(a.receiver_tid, c.pid);
		ck_assert_int_eq(a.code, SI_TKILL);
	}

	/* --thread-group: the process, once, SI_USER (kill(2)'s path). */
	ck_assert_int_eq(PT_TOOL(&r, "kill", "-s", "USR1", "--thread-group", pidtext), 0);
	a = next_record(&c);
	ck_assert_int_eq(a.receiver_pid, c.pid);
	ck_assert_int_eq(a.code, SI_USER);
	ck_assert(quiet_for(&c, 200));

	/* --process-group: leader and member (kill(2)'s path). */
	ck_assert_int_eq(PT_TOOL(&r, "kill", "-s", "USR1", "--process-group", pidtext), 0);
	a = next_record(&c);
	b = next_record(&c);
	ck_assert((a.receiver_pid == c.pid && b.receiver_pid == c.member) ||
		  (b.receiver_pid == c.pid && a.receiver_pid == c.member));
	ck_assert(quiet_for(&c, 200));

	/* The member leads no group: ESRCH, exit 1, message on stderr. */
	ck_assert_int_eq(PT_TOOL(&r, "kill", "-s", "USR1", "--process-group", membertext), 1);
	ck_assert_msg(strstr(r.stderr_text, "pidfdctl: sending SIGUSR1 to process group"),
		      "%s", r.stderr_text);
	ck_assert_msg(strstr(r.stderr_text, "leads no process group"), "%s",
		      r.stderr_text);
	ck_assert(quiet_for(&c, 200));

	/* SIGKILL --thread: kill(2)'s too, the whole process dies. */
	ck_assert_msg(PT_TOOL(&r, "kill", "-s", "KILL", "--thread", tidtext) == 0,
		      "%s", r.stderr_text);
	kill(c.member, SIGKILL);
	ck_assert_int_eq(waitpid(c.pid, &status, 0), c.pid);
	ck_assert_msg(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL,
		      "status %#x", status);
	close(c.records);
}
END_TEST

START_TEST(kill_unprivileged_eperm)
{
	char pidtext[16];
	pid_t victim = start_sleeper(), child;
	int status;

	itoa_buf(victim, pidtext);
	child = pt_fork();
	if (child == 0) {
		int devnull = open("/dev/null", O_WRONLY);

		dup2(devnull, 2);
		if (setresgid(65534, 65534, 65534) || setresuid(65534, 65534, 65534))
			_exit(10);
		execl(pt_tool_path(), "pidfdctl", "kill", "-s", "KILL", pidtext, (char *)NULL);
		_exit(99);
	}
	waitpid(child, &status, 0);
	ck_assert(WIFEXITED(status));
	ck_assert_int_eq(WEXITSTATUS(status), 1);
	ck_assert_int_eq(kill(victim, 0), 0);
	kill(victim, SIGKILL);
	waitpid(victim, &status, 0);
}
END_TEST

/* ---- info, status ---- */

START_TEST(info_and_status)
{
	char pidtext[16], want[96], link[64], path[64];
	pid_t s = start_sleeper();
	unsigned long long uts_ino;
	struct pt_tool_run r;
	int status;
	ssize_t n;

	itoa_buf(s, pidtext);
	/* "uts:[4026531838]": info prints the same, JSON the number. */
	snprintf(path, sizeof(path), "/proc/%d/ns/uts", s);
	n = readlink(path, link, sizeof(link) - 1);
	ck_assert_msg(n > 0, "readlink %s: %m", path);
	link[n] = '\0';
	ck_assert_int_eq(sscanf(link, "uts:[%llu]", &uts_ino), 1);
	ck_assert_int_eq(PT_TOOL(&r, "info", "--json", pidtext), 0);
	snprintf(want, sizeof(want), "\"pid\": %d,", s);
	ck_assert_msg(strstr(r.stdout_text, want), "%s", r.stdout_text);
	snprintf(want, sizeof(want), "\"ppid\": %d,", getpid());
	ck_assert_msg(strstr(r.stdout_text, want), "%s", r.stdout_text);
	ck_assert(strstr(r.stdout_text, "\"ruid\": 0,"));
	ck_assert_msg(strstr(r.stdout_text, "\"exit\": null"), "%s", r.stdout_text);
	ck_assert_msg(strstr(r.stdout_text, "\"mask\": [\"pid\", \"creds\", \"cgroupid\""),
		      "%s", r.stdout_text);
	snprintf(want, sizeof(want), "\"uts\": %llu", uts_ino);
	ck_assert_msg(strstr(r.stdout_text, want), "%s", r.stdout_text);
	ck_assert(r.stdout_text[0] == '{' && strstr(r.stdout_text, "}}\n"));

	/* A zombie: no exit status yet, and no namespaces (null, not {}). */
	kill(s, SIGKILL);
	ck_assert_int_eq(pt_wait_zombie(s), 0);
	ck_assert_int_eq(PT_TOOL(&r, "info", "--json", pidtext), 0);
	ck_assert_msg(strstr(r.stdout_text, "\"exit\": null") &&
		      strstr(r.stdout_text, "\"namespaces\": null}"),
		      "%s", r.stdout_text);
	waitpid(s, &status, 0);
	s = start_sleeper();
	itoa_buf(s, pidtext);
	snprintf(path, sizeof(path), "/proc/%d/ns/uts", s);
	n = readlink(path, link, sizeof(link) - 1);
	ck_assert_msg(n > 0, "readlink %s: %m", path);
	link[n] = '\0';

	ck_assert_int_eq(PT_TOOL(&r, "info", pidtext), 0);
	snprintf(want, sizeof(want), "pid:      %d\n", s);
	ck_assert_msg(strstr(r.stdout_text, want), "%s", r.stdout_text);
	snprintf(want, sizeof(want), " %s", link);
	ck_assert_msg(strstr(r.stdout_text, want), "%s", r.stdout_text);

	ck_assert_int_eq(PT_TOOL(&r, "status", pidtext), 0);
	snprintf(want, sizeof(want), "\nPid:\t%d\n", s);
	ck_assert_msg(strstr(r.stdout_text, want), "%s", r.stdout_text);
	ck_assert(strncmp(r.stdout_text, "Name:\t", 6) == 0);

	kill(s, SIGKILL);
	waitpid(s, &status, 0);
	ck_assert_int_eq(PT_TOOL(&r, "status", pidtext), 1);
	ck_assert(strstr(r.stderr_text, "pidfdctl: cannot open a pidfd for"));
}
END_TEST

/* The module's identity of @pid: fstat() of its pidfd. */
static unsigned long long module_ino(pid_t pid)
{
	int fd = pt_open_ok(pid, 0);
	struct stat st;

	ck_assert_ok(fstat(fd, &st));
	close(fd);
	return (unsigned long long)st.st_ino;
}

/*
 * info prints the identity, which both kinds give alike (libpidfd); every
 * command takes PID:ID and refuses another process with that number.
 */
START_TEST(pid_colon_id)
{
	char pidtext[16], arg[64], bad[64], want[96];
	pid_t s = start_sleeper(), again;
	unsigned long long id = module_ino(s);
	struct pt_tool_run r;
	int status;

	itoa_buf(s, pidtext);
	snprintf(arg, sizeof(arg), "%d:%llu", s, id);
	snprintf(bad, sizeof(bad), "%d:%llu", s, id + 1);

	ck_assert_int_eq(PT_TOOL(&r, "info", "--json", pidtext), 0);
	snprintf(want, sizeof(want), "\"id\": %llu,", id);
	ck_assert_msg(strstr(r.stdout_text, want), "%s", r.stdout_text);
	ck_assert_int_eq(PT_TOOL(&r, "info", arg), 0);
	snprintf(want, sizeof(want), "id:       %llu\n", id);
	ck_assert_msg(strstr(r.stdout_text, want), "%s", r.stdout_text);

	ck_assert_int_eq(PT_TOOL(&r, "kill", "-0", arg), 0);
	ck_assert_int_eq(PT_TOOL(&r, "status", arg), 0);
	ck_assert_int_eq(PT_TOOL(&r, "wait", "--timeout", "0.1", arg), 3);
	ck_assert_int_eq(PT_TOOL(&r, "kill", "-0", bad), 1);
	ck_assert_msg(strstr(r.stderr_text, "is not"), "%s", r.stderr_text);
	ck_assert_int_eq(PT_TOOL(&r, "info", bad), 1);
	ck_assert_int_eq(PT_TOOL(&r, "status", bad), 1);
	ck_assert_int_eq(PT_TOOL(&r, "wait", bad), 1);
	ck_assert_int_eq(PT_TOOL(&r, "kill", "-0", "1:x"), 1);
	ck_assert_int_eq(PT_TOOL(&r, "kill", "-0", ":5"), 1);
	ck_assert_int_eq(PT_TOOL(&r, "kill", "-0", "5:"), 1);

	/* The number's next process is not the one PID:ID named. */
	kill(s, SIGKILL);
	waitpid(s, &status, 0);
	again = pt_fork_sleeper_at(s);
	ck_assert_int_eq(again, s);
	ck_assert_uint_ne(module_ino(again), id);
	ck_assert_int_eq(PT_TOOL(&r, "kill", "-0", arg), 1);
	ck_assert_msg(strstr(r.stderr_text, "is not"), "%s", r.stderr_text);
	ck_assert_int_eq(PT_TOOL(&r, "kill", "-0", pidtext), 0);
	pt_kill_reap(again);
}
END_TEST

/* ---- run ---- */

START_TEST(run_exit_codes)
{
	struct pt_tool_run r;

	ck_assert_int_eq(PT_TOOL(&r, "run", "--", "/bin/sh", "-c", "exit 3"), 3);
	ck_assert_int_eq(PT_TOOL(&r, "run", "/bin/sh", "-c", "echo out; echo err >&2"), 0);
	ck_assert_str_eq(r.stdout_text, "out\n");
	ck_assert_str_eq(r.stderr_text, "err\n");
	/* CMD's death is pidfdctl's, as timeout(1)'s. */
	ck_assert_int_eq(PT_TOOL_KILLED(&r, "run", "--", "/bin/sh", "-c", "kill -USR1 $$"),
			 SIGUSR1);
	ck_assert_int_eq(PT_TOOL(&r, "run", "--", "/nonexistent/cmd"), 127);
	ck_assert(strstr(r.stderr_text, "pidfdctl: failed to run command '/nonexistent/cmd'"));
	ck_assert_int_eq(PT_TOOL(&r, "run", "--", "/tmp"), 126);
	ck_assert_int_eq(PT_TOOL(&r, "run", "--timeout", "5", "--", "/bin/sh", "-c", "exit 0"), 0);
	ck_assert_msg(r.ms < 4000, "ran %ld ms", r.ms);
}
END_TEST

START_TEST(run_timeout)
{
	struct pt_tool_run r;

	ck_assert_int_eq(PT_TOOL(&r, "run", "--timeout", "0.5", "--", "/bin/sleep", "30"), 124);
	ck_assert_msg(r.ms >= 500 && r.ms < 5000, "ran %ld ms", r.ms);

	ck_assert_int_eq(PT_TOOL(&r, "run", "--timeout", "0.3", "--preserve-status", "--",
			     "/bin/sleep", "30"), 128 + SIGTERM);
	ck_assert_int_eq(PT_TOOL(&r, "run", "-s", "INT", "--timeout", "0.3",
			     "--preserve-status", "/bin/sleep", "30"), 128 + SIGINT);

	/* TERM ignored: KILL follows after --kill-after. */
	ck_assert_int_eq(PT_TOOL(&r, "run", "--timeout", "0.3", "--kill-after", "0.4",
			     "--preserve-status", "--", "/bin/sh", "-c",
			     "trap '' TERM; exec /bin/sleep 30"), 128 + SIGKILL);
	ck_assert_msg(r.ms >= 700 && r.ms < 6000, "ran %ld ms", r.ms);
	/* As timeout(1): a KILL after the timeout shows, not 124. */
	ck_assert_int_eq(PT_TOOL(&r, "run", "--timeout", "0.3", "--kill-after", "0.3", "--",
			     "/bin/sh", "-c", "trap '' TERM; exec /bin/sleep 30"),
			 128 + SIGKILL);
}
END_TEST

/* A child of ours running @script, which prints "ready" first. */
static pid_t start_script(const char *script)
{
	int out[2];
	char line[8];
	pid_t pid;

	ck_assert_int_eq(pipe(out), 0);
	pid = pt_fork();
	if (pid == 0) {
		dup2(out[1], 1);
		execl("/bin/sh", "sh", "-c", script, (char *)NULL);
		_exit(127);
	}
	ck_assert_int_gt(pid, 0);
	close(out[1]);
	ck_assert_int_eq(read(out[0], line, 6), 6);
	close(out[0]);
	return pid;
}

/*
 * kill --timeout MS SIG (util-linux's): the follow-up goes to the same
 * process if it has not ended within MS, and not at all if it has.
 */
START_TEST(kill_follow_up)
{
	static const char slow_exit[] =
		"trap 'sleep 0.5; exit 7' TERM; echo ready; "
		"while :; do sleep 0.05; done";
	struct pt_tool_run r;
	char pidtext[16];
	pid_t child;

	/* Ends 0.5 s after TERM: a follow-up after 0.1 s kills it. */
	child = start_script(slow_exit);
	ck_assert_int_eq(PT_TOOL(&r, "kill", "--timeout", "100", "KILL",
				 itoa_buf(child, pidtext)), 0);
	ck_assert_int_eq(pt_reap(child), 128 + SIGKILL);
	/* With 5 s to end, it exits by itself: no KILL. */
	child = start_script(slow_exit);
	ck_assert_int_eq(PT_TOOL(&r, "kill", itoa_buf(child, pidtext),
				 "--timeout", "5000", "KILL"), 0);
	ck_assert_int_eq(pt_reap(child), 7);
	ck_assert_msg(r.ms < 4500, "waited %ld ms for a process that ended",
		      r.ms);
}
END_TEST

/* Start "run" whose CMD prints "ready" first, and wait for that line. */
static void start_ready(struct pt_tool_run *r, const char *script)
{
	char line[16];
	ssize_t n;

	pt_tool_start(r, (const char *const[]){ "run", "--", "/bin/sh", "-c", script, NULL });
	n = read(r->out, line, 6);
	ck_assert_int_eq(n, 6);
	ck_assert(!memcmp(line, "ready\n", 6));
}

START_TEST(run_forwards_signals)
{
	struct pt_tool_run r;

	/* SIGTERM to pidfdctl reaches CMD, whose trap decides the status. */
	start_ready(&r, "trap 'exit 42' TERM; echo ready; while :; do sleep 0.05; done");
	ck_assert_int_eq(kill(r.pid, SIGTERM), 0);
	ck_assert_int_eq(pt_tool_finish(&r), 42);

	/* SIGINT likewise; CMD dies of it, and so does pidfdctl (^C). */
	start_ready(&r, "echo ready; exec /bin/sleep 30");
	ck_assert_int_eq(kill(r.pid, SIGINT), 0);
	ck_assert_int_eq(pt_tool_finish_killed(&r), SIGINT);
	ck_assert_msg(r.ms < 5000, "ran %ld ms", r.ms);

	/* A signal CMD handles leaves pidfdctl to exit with its status. */
	start_ready(&r, "trap 'exit 5' HUP; echo ready; while :; do sleep 0.05; done");
	ck_assert_int_eq(kill(r.pid, SIGHUP), 0);
	ck_assert_int_eq(pt_tool_finish(&r), 5);
}
END_TEST

/* ---- doctor ---- */

/* "doctor" with signal_lsm_trust set to @trust ("" for none). */
static void doctor_with_trust(struct pt_tool_run *r, const char *trust)
{
	ck_assert_int_eq(lt_write_trust(trust), 0);
	ck_assert_int_eq(PT_TOOL(r, "doctor"), 0);
}

/*
 * The module as loaded, /dev/pidfd usable, and the signal policy as the
 * parameters make it: with every LSM trusted, nothing refused; with none
 * trusted, the active ones named with the line that trusts them.
 */
START_TEST(doctor_says_what_is_here)
{
	char saved[128], lsms[128], want[192];
	struct pt_tool_run r;

	ck_assert_int_eq(pt_read_text(LT_TRUST_PARAM, saved, sizeof(saved)), 0);
	ck_assert_int_eq(pt_read_text(LT_LSMS_PARAM,
				      lsms, sizeof(lsms)), 0);

	doctor_with_trust(&r, "all");
	ck_assert_msg(strstr(r.stdout_text, "Module: pidfd " PIDFD_DKMS_VERSION " loaded"),
		      "%s", r.stdout_text);
	ck_assert_msg(strstr(r.stdout_text, "/dev/pidfd can be opened"), "%s",
		      r.stdout_text);
	snprintf(want, sizeof(want), "  %-44s %s\n",
		 "PIDFD_GET_PROCFD, from_procdir", "the module's");
	ck_assert_msg(strstr(r.stdout_text, want), "%s", r.stdout_text);
	ck_assert_msg(strstr(r.stdout_text, "no active LSM can tell them"),
		      "%s", r.stdout_text);

	doctor_with_trust(&r, "");
	if (lsms[0]) {
		snprintf(want, sizeof(want), "echo %s > " LT_TRUST_PARAM, lsms);
		ck_assert_msg(strstr(r.stdout_text, "refused (EACCES)"), "%s",
			      r.stdout_text);
		ck_assert_msg(strstr(r.stdout_text, want), "want '%s' in %s",
			      want, r.stdout_text);
	} else {
		ck_assert_msg(strstr(r.stdout_text, "no active LSM can tell them"),
			      "%s", r.stdout_text);
	}
	doctor_with_trust(&r, saved);
}
END_TEST

/*
 * A BPF-LSM program on task_kill that allows everything (r0 = 0; exit),
 * attached as a policy would be: its link fd, or -errno.
 */
static int attach_task_kill_program(void)
{
	struct bpf_insn insns[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	union bpf_attr attr;
	int prog, link;

	memset(&attr, 0, sizeof(attr));
	attr.prog_type = BPF_PROG_TYPE_LSM;
	attr.expected_attach_type = BPF_LSM_MAC;
	attr.insns = (uint64_t)(uintptr_t)insns;
	attr.insn_cnt = 2;
	attr.license = (uint64_t)(uintptr_t)"GPL";
	attr.attach_btf_id = pidfdctl_btf_id("/sys/kernel/btf/vmlinux",
					     "bpf_lsm_task_kill");
	strcpy(attr.prog_name, "pidfd_test_lsm");
	ck_assert_msg(attr.attach_btf_id, "no bpf_lsm_task_kill in the BTF");
	prog = (int)syscall(SYS_bpf, BPF_PROG_LOAD, &attr, sizeof(attr));
	if (prog < 0)
		return -errno;
	memset(&attr, 0, sizeof(attr));
	attr.raw_tracepoint.prog_fd = (uint32_t)prog;
	link = (int)syscall(SYS_bpf, BPF_RAW_TRACEPOINT_OPEN, &attr, sizeof(attr));
	close(prog);	/* the link holds the program */
	return link < 0 ? -errno : link;
}

/*
 * With bpf untrusted, doctor lists the BPF-LSM programs attached now, as
 * root: none, then one on task_kill that it says decides signals; as
 * another user it says it cannot list them.
 */
START_TEST(doctor_lists_bpf_lsm)
{
	char saved[128];
	struct pt_tool_run r;
	int link;

	if (!lt_lsm_active("bpf"))
		PT_SKIP("BPF-LSM is not active on this kernel (" LT_LSM_LIST ")");
	ck_assert_int_eq(pt_read_text(LT_TRUST_PARAM, saved, sizeof(saved)), 0);
	doctor_with_trust(&r, "");
	ck_assert_msg(strstr(r.stdout_text, "none: trusting bpf skips no policy"),
		      "%s", r.stdout_text);
	link = attach_task_kill_program();
	/* ENOTSUPP, the kernel's 524: no BPF trampoline here (arm64 6.1). */
	if (link == -524)
		PT_SKIP("this kernel cannot attach a BPF-LSM program (ENOTSUPP)");
	ck_assert_msg(link >= 0, "attaching a BPF-LSM program: %s",
		      strerror(-link));
	doctor_with_trust(&r, "");
	ck_assert_msg(strstr(r.stdout_text, "task_kill: 'pidfd_test_lsm' (prog ") &&
		      strstr(r.stdout_text, "decides signals: trusting bpf would skip it"),
		      "%s", r.stdout_text);
	ck_assert_int_eq(PT_TOOL(&r, "doctor", "--json"), 0);
	ck_assert_msg(strstr(r.stdout_text, "\"bpf_lsm\": [{\"hook\": \"task_kill\", "
			     "\"prog\": \"pidfd_test_lsm\", \"id\": ") &&
		      strstr(r.stdout_text, "\"decides\": \"signals\"}") &&
		      strstr(r.stdout_text, "\"signal_lsm_trust\": []"),
		      "%s", r.stdout_text);
	close(link);
	doctor_with_trust(&r, saved);
}
END_TEST

static Suite *pidfdctl_suite(void)
{
	Suite *s = suite_create("pidfdctl");
	TCase *tc;

	tc = tcase_create("wait");
	tcase_set_timeout(tc, 60);
	pt_add_tests(tc, wait_non_child_exit_status, wait_non_child_killed,
		     verbose_names_the_backend, wait_several_and_unreaped,
		     wait_count_first, wait_exit_status,
		     wait_timeout_and_missing);
	suite_add_tcase(s, tc);

	tc = tcase_create("kill");
	tcase_set_timeout(tc, 60);
	pt_add_tests(tc, kill_default_and_value, kill_each_scope,
		     kill_unprivileged_eperm, kill_follow_up, info_and_status,
		     pid_colon_id);
	suite_add_tcase(s, tc);

	tc = tcase_create("run");
	tcase_set_timeout(tc, 60);
	pt_add_tests(tc, run_exit_codes, run_timeout, run_forwards_signals);
	suite_add_tcase(s, tc);

	tc = tcase_create("doctor");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, doctor_says_what_is_here);
	tcase_add_test(tc, doctor_lists_bpf_lsm);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(pidfdctl_suite());
	int failed;

	if (access(pt_tool_path(), X_OK) != 0) {
		fprintf(stderr, "pidfdctl not found at %s (set PIDFDCTL)\n", pt_tool_path());
		return EXIT_FAILURE;
	}
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
