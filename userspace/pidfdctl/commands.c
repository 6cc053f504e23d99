// SPDX-License-Identifier: GPL-2.0-or-later
/* pidfdctl wait, kill, info, status. */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "libpidfd.h"
#include "args.h"
#include "commands.h"
#include "pidfd_ns_kinds.h"

/*
 * How long "wait" keeps asking for the exit status of a process that has
 * exited: its parent (not us) must reap it first, which a live parent
 * does at once, unless the machine is busy (half a second was seen to be
 * too short in an emulated guest), and a parent that does not wait may
 * never do.
 */
#define EXIT_STATUS_GRACE_MS	2000
#define EXIT_STATUS_POLL_MS	5

void pidfdctl_warn(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fprintf(stderr, "%s: ", pidfdctl_progname());
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

int64_t pidfdctl_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int pidfdctl_failure(int err)
{
	return err == ENOPKG ? PIDFDCTL_EXIT_NOMODULE : PIDFDCTL_EXIT_FAILURE;
}

bool pidfdctl_verbose;

void pidfdctl_say_pidfd(pid_t pid, int pidfd)
{
	const char *kind;

	if (!pidfdctl_verbose)
		return;
	switch (libpidfd_pidfd_backend(pidfd)) {
	case LIBPIDFD_BACKEND_NATIVE:
		kind = "the kernel's pidfd (pidfd_open(2))";
		break;
	case LIBPIDFD_BACKEND_MODULE:
		kind = "the module's pidfd (/dev/pidfd)";
		break;
	default:
		kind = "a pidfd of unknown kind";
		break;
	}
	pidfdctl_warn("%d: %s", (int)pid, kind);
}

/*
 * Does @pid name a thread that leads no process? Only for the message:
 * its thread pidfd says (PIDFD_GET_INFO), or where that cannot be asked
 * (before 6.13 without the module), the thread's own /proc/<tid>/status.
 */
static bool is_thread_id(pid_t pid)
{
	int fd = libpidfd_open(pid, PIDFD_THREAD);
	struct pidfd_dev_info info = { .mask = PIDFD_INFO_PID };
	char path[64], line[64];
	bool thread = false;
	FILE *status;

	if (fd >= 0) {
		int asked = libpidfd_get_info(fd, &info, sizeof(info));

		close(fd);
		if (asked == 0)
			return info.pid != info.tgid;
	}
	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	status = fopen(path, "re");
	if (!status)
		return false;
	while (fgets(line, sizeof(line), status))
		if (strncmp(line, "Tgid:", 5) == 0) {
			thread = atoi(line + 5) != pid;
			break;
		}
	fclose(status);
	return thread;
}

/*
 * PID:ID: is @fd's process the one @id names (0: none named)? Through the
 * pidfd, which names its process for good: a PID that another process got
 * is refused, as util-linux's kill refuses PID:INODE. 0, or -1 after
 * saying why, errno ESRCH for another process.
 */
int pidfdctl_check_id(pid_t pid, uint64_t id, int fd)
{
	uint64_t have;
	int err;

	if (!id)
		return 0;
	if (libpidfd_get_id(fd, &have) < 0) {
		err = errno;
		if (err == ENOPKG)
			pidfdctl_warn("%s", libpidfd_strerror(err));
		else
			pidfdctl_warn("cannot tell the identity of %d: %s",
				      (int)pid, libpidfd_strerror(err));
		errno = err;
		return -1;
	}
	if (have != id) {
		pidfdctl_warn("the process with PID %d is not %d:%" PRIu64
			      " (its ID is %" PRIu64 ")", (int)pid, (int)pid,
			      id, have);
		errno = ESRCH;
		return -1;
	}
	return 0;
}

int pidfdctl_open(pid_t pid, uint64_t id, unsigned int flags)
{
	int fd = libpidfd_open(pid, flags);

	if (fd >= 0)
		pidfdctl_say_pidfd(pid, fd);
	if (fd >= 0 && pidfdctl_check_id(pid, id, fd) < 0) {
		int err = errno;

		close(fd);
		errno = err;
		return -1;
	}
	if (fd < 0) {
		int err = errno;

		if (err == ENOPKG)
			pidfdctl_warn("%s", libpidfd_strerror(err));
		else if (!(flags & PIDFD_THREAD) && is_thread_id(pid))
			pidfdctl_warn("%d is a thread, not a process (kill "
				      "--thread signals a thread)", (int)pid);
		else
			pidfdctl_warn("cannot open a pidfd for %d: %s", (int)pid,
				      libpidfd_strerror(err));
		errno = err;
	}
	return fd;
}

static void sleep_ms(int ms)
{
	struct timespec ts = { .tv_sec = ms / 1000,
			       .tv_nsec = (long)(ms % 1000) * 1000000 };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

/*
 * Print how a process exited, "1234: exited with status 3", unless
 * @quiet. Returns its status as the shell's wait gives it (the exit code,
 * or 128 + the signal), -1 if unavailable.
 */
static int report_exit(pid_t pid, int pidfd, bool quiet)
{
	int64_t give_up = pidfdctl_now_ms() + EXIT_STATUS_GRACE_MS;
	char name[32];
	int status;

	while (libpidfd_exit_status(pidfd, &status) < 0) {
		if (errno != EAGAIN || pidfdctl_now_ms() >= give_up) {
			if (!quiet)
				printf("%d: exited (status unavailable)\n", (int)pid);
			return -1;
		}
		sleep_ms(EXIT_STATUS_POLL_MS);
	}
	if (!quiet && WIFEXITED(status))
		printf("%d: exited with status %d\n", (int)pid,
		       WEXITSTATUS(status));
	else if (!quiet && WIFSIGNALED(status))
		printf("%d: killed by signal %s%s\n", (int)pid,
		       pidfdctl_signal_name(WTERMSIG(status), name, sizeof(name)),
		       WCOREDUMP(status) ? " (core dumped)" : "");
	else if (!quiet)
		printf("%d: exited (wait status 0x%x)\n", (int)pid, status);
	fflush(stdout);
	return WIFEXITED(status) ? WEXITSTATUS(status) :
	       WIFSIGNALED(status) ? 128 + WTERMSIG(status) : -1;
}

int pidfdctl_wait(const struct pidfdctl_args *args)
{
	int64_t deadline = args->timeout_ms >= 0 ?
			   pidfdctl_now_ms() + args->timeout_ms : -1;
	struct pollfd *pfds;
	/* How many more must end: all, or --count of them. */
	size_t left = args->count ? args->count : args->npids;
	int code = PIDFDCTL_EXIT_OK, err, last = -1;

	pfds = calloc(args->npids, sizeof(*pfds));
	if (!pfds) {
		pidfdctl_warn("out of memory");
		return PIDFDCTL_EXIT_FAILURE;
	}

	/*
	 * Open every pidfd before waiting: from then on each names its
	 * process for good, whatever happens to the PID numbers.
	 */
	for (size_t i = 0; i < args->npids; i++) {
		pfds[i].fd = libpidfd_open(args->pids[i], 0);
		pfds[i].events = POLLIN;
		if (pfds[i].fd >= 0) {
			pidfdctl_say_pidfd(args->pids[i], pfds[i].fd);
			if (pidfdctl_check_id(args->pids[i], args->ids[i],
					      pfds[i].fd) < 0) {
				code = pidfdctl_failure(errno);
				goto out;
			}
			continue;
		}
		/* Gone already: as if it had ended first. */
		if (errno == ESRCH && args->exited_ok) {
			if (left)
				left--;
			continue;
		}
		err = errno;
		code = pidfdctl_failure(err);
		if (err == ENOPKG)
			pidfdctl_warn("%s", libpidfd_strerror(err));
		else if (err != ESRCH && is_thread_id(args->pids[i]))
			pidfdctl_warn("%d is a thread, not a process (wait waits "
				      "for processes)", (int)args->pids[i]);
		else
			pidfdctl_warn("cannot wait for %d: %s",
				      (int)args->pids[i], libpidfd_strerror(err));
		goto out;
	}

	while (left > 0) {
		int timeout = -1, ready;

		if (deadline >= 0) {
			int64_t rest = deadline - pidfdctl_now_ms();

			timeout = rest > 0 ? (rest > INT32_MAX ? INT32_MAX : (int)rest) : 0;
		}
		ready = poll(pfds, args->npids, timeout);
		if (ready < 0) {
			if (errno == EINTR)
				continue;
			pidfdctl_warn("poll failed: %s", strerror(errno));
			code = PIDFDCTL_EXIT_FAILURE;
			goto out;
		}
		if (ready == 0) {
			if (!args->quiet)
				pidfdctl_warn("timeout expired: %zu process%s still running",
					      left, left == 1 ? "" : "es");
			code = PIDFDCTL_EXIT_TIMEOUT;
			goto out;
		}
		for (size_t i = 0; i < args->npids && left > 0; i++) {
			if (pfds[i].fd < 0 || !pfds[i].revents)
				continue;
			if (!args->quiet || args->exit_status)
				last = report_exit(args->pids[i], pfds[i].fd,
						   args->quiet);
			close(pfds[i].fd);
			pfds[i].fd = -1;	/* poll() skips negative fds */
			left--;
		}
	}
	/* --exit-status: the last one's, as the shell's wait gives it. */
	if (args->exit_status)
		code = last >= 0 ? last : PIDFDCTL_EXIT_FAILURE;
out:
	for (size_t i = 0; i < args->npids; i++)
		if (pfds[i].fd >= 0)
			close(pfds[i].fd);
	free(pfds);
	return code;
}

/*
 * kill -l 0xMASK, as util-linux's: the name of every signal whose bit is
 * set (bit N - 1 for signal N, as /proc/PID/status's SigPnd and the like).
 */
static int translate_mask(const char *text)
{
	char name[32], *end;
	unsigned long long mask;

	errno = 0;
	mask = strtoull(text, &end, 16);
	if (errno || end == text || *end) {
		pidfdctl_warn("invalid signal mask: %s", text - 2);
		return PIDFDCTL_EXIT_FAILURE;
	}
	for (int sig = 1; sig <= 64; sig++) {
		if (!(mask & (1ULL << (sig - 1))))
			continue;
		if (sig > SIGRTMAX || (sig > SIGSYS && sig < SIGRTMIN))
			printf("%d\n", sig);	/* glibc's own, or none */
		else
			printf("%s\n", pidfdctl_signal_name(sig, name,
							   sizeof(name)) + 3);
	}
	return PIDFDCTL_EXIT_OK;
}

/*
 * kill -l SIG, as kill(1): a number (or an exit status above 128, the
 * shell's 128 + N) gives the name, a name the number, a mask 0xHEX the
 * names in it.
 */
static int translate_signal(const char *text)
{
	char name[32];
	int sig;

	if (text[0] == '0' && (text[1] == 'x' || text[1] == 'X'))
		return translate_mask(text + 2);
	if (isdigit((unsigned char)text[0])) {
		char *end;
		long n = strtol(text, &end, 10);

		if (!*end && n > 128 && n - 128 < NSIG)
			n -= 128;
		if (*end || n <= 0 || n > SIGRTMAX ||
		    (n > SIGSYS && n < SIGRTMIN)) {
			pidfdctl_warn("unknown signal: %s", text);
			return PIDFDCTL_EXIT_FAILURE;
		}
		printf("%s\n", pidfdctl_signal_name((int)n, name, sizeof(name)) + 3);
		return PIDFDCTL_EXIT_OK;
	}
	if (pidfdctl_parse_signal(text, &sig) < 0 || sig == 0) {
		pidfdctl_warn("unknown signal: %s", text);
		return PIDFDCTL_EXIT_FAILURE;
	}
	printf("%d\n", sig);
	return PIDFDCTL_EXIT_OK;
}

static int list_signals(void)
{
	char name[32];

	for (int sig = 1; sig <= SIGRTMAX; sig++) {
		/* 32 and 33 belong to glibc's threads; they have no name. */
		if (sig > SIGSYS && sig < SIGRTMIN)
			continue;
		printf("%2d %s\n", sig, pidfdctl_signal_name(sig, name, sizeof(name)) + 3);
	}
	return PIDFDCTL_EXIT_OK;
}

/* One PID of "kill": 0, or the exit code of its failure. */
/*
 * kill --timeout: each follow-up signal goes to the same process, through
 * its pidfd, only if it has not ended within the time (the pidfd polls
 * readable when it has), as util-linux's kill does with pidfds.
 */
static void follow_up(const struct pidfdctl_args *args, pid_t pid, int pidfd)
{
	char name[32];

	for (size_t i = 0; i < args->nfollow; i++) {
		int64_t until = pidfdctl_now_ms() + args->follow[i].ms;
		struct pollfd pfd = { .fd = pidfd, .events = POLLIN };
		int ready;

		do {
			int64_t rest = until - pidfdctl_now_ms();

			ready = poll(&pfd, 1, rest > 0 ? (int)rest : 0);
		} while (ready < 0 && errno == EINTR);
		if (ready != 0)
			return;		/* ended, or poll failed: send nothing */
		if (pidfdctl_verbose)
			pidfdctl_warn("%d still runs: sending %s", (int)pid,
				      pidfdctl_signal_name(args->follow[i].sig,
							   name, sizeof(name)));
		if (libpidfd_send_signal(pidfd, args->follow[i].sig, NULL,
					 args->scope) < 0 && errno != ESRCH)
			pidfdctl_warn("sending %s to %d failed: %s",
				      pidfdctl_signal_name(args->follow[i].sig,
							   name, sizeof(name)),
				      (int)pid, libpidfd_strerror(errno));
	}
}

/*
 * kill(1)'s -PGID: a process group has no pidfd (its members come and go),
 * so it is signalled as kill(1) does, with kill(2).
 */
static int kill_group(const struct pidfdctl_args *args, pid_t pgid)
{
	char name[32];

	if (kill(-pgid, args->signal) == 0)
		return PIDFDCTL_EXIT_OK;
	pidfdctl_warn("sending %s to process group %d failed: %s",
		      pidfdctl_signal_name(args->signal, name, sizeof(name)),
		      (int)pgid, strerror(errno));
	return PIDFDCTL_EXIT_FAILURE;
}

static int kill_one(const struct pidfdctl_args *args, pid_t pid, uint64_t id)
{
	siginfo_t info, *infop = NULL;
	char name[32];
	int pidfd, ret, err;

	if (pid < 0)
		return kill_group(args, -pid);

	/* A thread's own pidfd for --thread: the kernel's need one. */
	pidfd = pidfdctl_open(pid, id, args->scope == PIDFD_SIGNAL_THREAD ?
				   PIDFD_THREAD : 0);
	if (pidfd < 0)
		return pidfdctl_failure(errno);

	if (args->has_value) {
		/* What sigqueue(3) sends: the receiver sees SI_QUEUE. */
		memset(&info, 0, sizeof(info));
		info.si_signo = args->signal;
		info.si_code = SI_QUEUE;
		info.si_pid = getpid();
		info.si_uid = getuid();
		info.si_value.sival_int = args->value;
		infop = &info;
	}
	ret = libpidfd_send_signal(pidfd, args->signal, infop, args->scope);
	err = errno;
	if (ret == 0)
		follow_up(args, pid, pidfd);
	close(pidfd);
	if (ret < 0) {
		if (err == ESRCH && args->scope == PIDFD_SIGNAL_PROCESS_GROUP)
			pidfdctl_warn("sending %s to process group %d failed: "
				      "%d leads no process group",
				      pidfdctl_signal_name(args->signal, name,
							   sizeof(name)),
				      (int)pid, (int)pid);
		else
			pidfdctl_warn("sending %s to %d failed: %s%s",
				      pidfdctl_signal_name(args->signal, name,
							   sizeof(name)),
				      (int)pid, libpidfd_strerror(err),
				      err == EACCES ? " (pidfdctl doctor says "
				      "whether the module's signal policy "
				      "refuses it here, and why)" : "");
		return pidfdctl_failure(err);
	}
	return PIDFDCTL_EXIT_OK;
}

/*
 * As util-linux's kill(1): every PID is tried; 64 if some failed and some
 * did not, else the first failure's code.
 */
int pidfdctl_kill(const struct pidfdctl_args *args)
{
	int rc = PIDFDCTL_EXIT_OK;
	bool some_ok = false;

	if (args->list_arg)
		return translate_signal(args->list_arg);
	if (args->list_signals)
		return list_signals();
	for (size_t i = 0; i < args->npids; i++) {
		int one = kill_one(args, args->pids[i], args->ids[i]);

		if (one == PIDFDCTL_EXIT_OK)
			some_ok = true;
		else if (rc == PIDFDCTL_EXIT_OK)
			rc = one;
	}
	return rc != PIDFDCTL_EXIT_OK && some_ok ? PIDFDCTL_EXIT_SOMEOK : rc;
}

/*
 * The inode number of each namespace of @pidfd's process (what readlink
 * shows as "uts:[N]"), 0 where the caller may not see it (EACCES), the
 * process has exited or the kernel lacks that kind.
 */
static bool read_namespaces(int pidfd, uint64_t *inodes)
{
	bool gone = true;
	struct stat st;
	unsigned int i;
	int fd;

	for (i = 0; i < PIDFD_NS_KINDS; i++) {
		inodes[i] = 0;
		fd = libpidfd_get_namespace(pidfd, pidfd_ns_kinds[i].cmd);
		if (fd < 0) {
			gone = gone && errno == ESRCH;
			continue;
		}
		gone = false;
		if (fstat(fd, &st) == 0)
			inodes[i] = st.st_ino;
		close(fd);
	}
	return gone;
}

/* The names of PIDFD_INFO_* bits, as JSON strings. */
static void print_mask_json(uint64_t mask)
{
	static const struct { uint64_t bit; const char *name; } bits[] = {
		{ PIDFD_INFO_PID, "pid" },
		{ PIDFD_INFO_CREDS, "creds" },
		{ PIDFD_INFO_CGROUPID, "cgroupid" },
		{ PIDFD_INFO_EXIT, "exit" },
		{ PIDFD_INFO_COREDUMP, "coredump" },
		{ PIDFD_INFO_SUPPORTED_MASK, "supported_mask" },
	};
	const char *sep = "";

	printf("[");
	for (size_t i = 0; i < sizeof(bits) / sizeof(bits[0]); i++) {
		if (!(mask & bits[i].bit))
			continue;
		printf("%s\"%s\"", sep, bits[i].name);
		sep = ", ";
	}
	printf("]");
}

/* A wait status, decoded: {"code": N} or {"signal": "KILL", ...}. */
static void print_exit_json(int status)
{
	char name[32];

	if (WIFEXITED(status))
		printf("{\"code\": %d}", WEXITSTATUS(status));
	else if (WIFSIGNALED(status))
		printf("{\"signal\": \"%s\", \"core_dumped\": %s}",
		       pidfdctl_signal_name(WTERMSIG(status), name, sizeof(name)) + 3,
		       WCOREDUMP(status) ? "true" : "false");
	else
		printf("null");
}

static void print_info_text(const struct pidfd_dev_info *info, uint64_t id,
			    const uint64_t *ns_inodes)
{
	unsigned int i, shown = 0;

	if (id)
		printf("id:       %" PRIu64 "\n", id);
	if (info->mask & PIDFD_INFO_PID) {
		printf("pid:      %u\n", info->pid);
		printf("tgid:     %u\n", info->tgid);
		printf("ppid:     %u\n", info->ppid);
	}
	if (info->mask & PIDFD_INFO_CREDS) {
		printf("uid:      %u %u %u %u (real effective saved fs)\n",
		       info->ruid, info->euid, info->suid, info->fsuid);
		printf("gid:      %u %u %u %u (real effective saved fs)\n",
		       info->rgid, info->egid, info->sgid, info->fsgid);
	}
	if (info->mask & PIDFD_INFO_CGROUPID)
		printf("cgroupid: %" PRIu64 "\n", (uint64_t)info->cgroupid);
	if (info->mask & PIDFD_INFO_EXIT)
		printf("exit:     0x%x (wait status)\n", (unsigned int)info->exit_code);
	else
		printf("exit:     (not exited, or not reaped yet)\n");
	if (info->mask & PIDFD_INFO_SUPPORTED_MASK)
		printf("supported: 0x%" PRIx64 "\n", (uint64_t)info->supported_mask);
	printf("ns:      ");
	for (i = 0; i < PIDFD_NS_KINDS; i++) {
		if (!ns_inodes[i])
			continue;
		printf(" %s:[%" PRIu64 "]", pidfd_ns_kinds[i].name,
		       ns_inodes[i]);
		shown++;
	}
	printf("%s\n", shown ? "" : " (none visible: exited, or no access)");
}

/* The keys are documented in pidfdctl(1). */
static void print_info_json(const struct pidfd_dev_info *info, uint64_t id,
			    const uint64_t *ns_inodes, bool gone)
{
	const char *sep = "", *ns_sep = "";
	unsigned int i;

#define FIELD(fmt, ...) do { printf("%s" fmt, sep, __VA_ARGS__); sep = ", "; } while (0)
	printf("{");
	FIELD("\"mask\": %s", "");
	print_mask_json(info->mask);
	if (id)
		FIELD("\"id\": %" PRIu64, id);
	else
		FIELD("\"id\": %s", "null");
	if (info->mask & PIDFD_INFO_PID) {
		FIELD("\"pid\": %u", info->pid);
		FIELD("\"tgid\": %u", info->tgid);
		FIELD("\"ppid\": %u", info->ppid);
	}
	if (info->mask & PIDFD_INFO_CREDS) {
		FIELD("\"ruid\": %u", info->ruid);
		FIELD("\"euid\": %u", info->euid);
		FIELD("\"suid\": %u", info->suid);
		FIELD("\"fsuid\": %u", info->fsuid);
		FIELD("\"rgid\": %u", info->rgid);
		FIELD("\"egid\": %u", info->egid);
		FIELD("\"sgid\": %u", info->sgid);
		FIELD("\"fsgid\": %u", info->fsgid);
	}
	if (info->mask & PIDFD_INFO_CGROUPID)
		FIELD("\"cgroupid\": %" PRIu64, (uint64_t)info->cgroupid);
	FIELD("\"exit\": %s", "");
	if (info->mask & PIDFD_INFO_EXIT)
		print_exit_json(info->exit_code);
	else
		printf("null");
	if (info->mask & PIDFD_INFO_EXIT)
		FIELD("\"wait_status\": %d", info->exit_code);
	if (info->mask & PIDFD_INFO_SUPPORTED_MASK) {
		FIELD("\"supported_mask\": %s", "");
		print_mask_json(info->supported_mask);
	}
	/* null: it has exited (a zombie too); {} only for no access. */
	if (gone) {
		FIELD("\"namespaces\": %s", "null");
	} else {
		FIELD("\"namespaces\": {%s", "");
		for (i = 0; i < PIDFD_NS_KINDS; i++) {
			if (!ns_inodes[i])
				continue;
			printf("%s\"%s\": %" PRIu64, ns_sep,
			       pidfd_ns_kinds[i].name, ns_inodes[i]);
			ns_sep = ", ";
		}
		printf("}");
	}
	printf("}\n");
#undef FIELD
}

int pidfdctl_info(const struct pidfdctl_args *args)
{
	uint64_t ns_inodes[PIDFD_NS_KINDS], id;
	struct pidfd_dev_info info;
	int pidfd, ret, err;
	bool gone = false;

	pidfd = pidfdctl_open(args->pids[0], args->ids[0], 0);
	if (pidfd < 0)
		return pidfdctl_failure(errno);
	if (libpidfd_get_id(pidfd, &id) < 0)
		id = 0;	/* a kernel pidfd before 6.9 without the module */
	memset(&info, 0, sizeof(info));
	info.mask = PIDFD_INFO_PID | PIDFD_INFO_CREDS | PIDFD_INFO_CGROUPID |
		    PIDFD_INFO_EXIT | PIDFD_INFO_SUPPORTED_MASK;
	ret = libpidfd_get_info(pidfd, &info, sizeof(info));
	err = errno;
	if (ret == 0)
		gone = read_namespaces(pidfd, ns_inodes);
	close(pidfd);
	if (ret < 0) {
		pidfdctl_warn("PIDFD_GET_INFO on %d failed: %s",
			      (int)args->pids[0], libpidfd_strerror(err));
		return pidfdctl_failure(err);
	}
	if (args->json)
		print_info_json(&info, id, ns_inodes, gone);
	else
		print_info_text(&info, id, ns_inodes);
	return PIDFDCTL_EXIT_OK;
}

int pidfdctl_status(const struct pidfdctl_args *args)
{
	pid_t pid = args->pids[0];
	int pidfd, dirfd, fd, err;
	char buf[4096];
	ssize_t n;

	pidfd = pidfdctl_open(pid, args->ids[0], 0);
	if (pidfd < 0)
		return pidfdctl_failure(errno);
	dirfd = libpidfd_open_procdir(pidfd);
	err = errno;
	close(pidfd);
	if (dirfd < 0) {
		pidfdctl_warn("PIDFD_GET_PROCFD on %d failed: %s", (int)pid,
			      libpidfd_strerror(err));
		return pidfdctl_failure(err);
	}
	fd = openat(dirfd, "status", O_RDONLY | O_CLOEXEC);
	err = errno;
	close(dirfd);
	if (fd < 0) {
		pidfdctl_warn("cannot open /proc/%d/status: %s", (int)pid,
			      strerror(err));
		return PIDFDCTL_EXIT_FAILURE;
	}
	while ((n = read(fd, buf, sizeof(buf))) != 0) {
		if (n < 0) {
			if (errno == EINTR)
				continue;
			err = errno;
			close(fd);
			pidfdctl_warn("cannot read /proc/%d/status: %s", (int)pid,
				      strerror(err));
			return PIDFDCTL_EXIT_FAILURE;
		}
		fwrite(buf, 1, (size_t)n, stdout);
	}
	close(fd);
	return PIDFDCTL_EXIT_OK;
}
