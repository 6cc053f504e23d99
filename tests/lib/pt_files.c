// SPDX-License-Identifier: GPL-2.0
/* /proc, sysfs and scratch files for tests: see pt_files.h. */
#include "pt_files.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

pid_t pt_pidfd_pid(int pidfd)
{
	char buf[32];

	if (pt_fdinfo_field(NULL, 0, pidfd, "Pid:", buf, sizeof(buf)) < 0)
		return 0;
	return atoi(buf);
}

static int read_field_fd(int fd, const char *key, char *out, size_t len)
{
	size_t klen = strlen(key);
	char *line = NULL;
	size_t n = 0;
	int ret = -1;
	FILE *f;

	f = fdopen(fd, "r");
	if (!f) {
		close(fd);
		return -1;
	}
	while (getline(&line, &n, f) != -1) {
		size_t l;

		if (strncmp(line, key, klen))
			continue;
		l = strlen(line + klen);
		if (l && line[klen + l - 1] == '\n')
			line[klen + --l] = '\0';
		if (l >= len)
			break;
		memcpy(out, line + klen, l + 1);
		ret = 0;
		break;
	}
	free(line);
	fclose(f);
	return ret;
}

int pt_read_field_at(int dirfd, const char *path, const char *key,
		     char *out, size_t len)
{
	int fd = openat(dirfd, path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -1;
	return read_field_fd(fd, key, out, len);
}

int pt_read_field(const char *path, const char *key, char *out, size_t len)
{
	return pt_read_field_at(AT_FDCWD, path, key, out, len);
}

int pt_fdinfo_field(const char *procroot, pid_t pid, int fd, const char *key,
		    char *out, size_t len)
{
	char path[PATH_MAX];

	if (pid)
		snprintf(path, sizeof(path), "%s/%d/fdinfo/%d",
			 procroot ? procroot : "/proc", pid, fd);
	else
		snprintf(path, sizeof(path), "%s/self/fdinfo/%d",
			 procroot ? procroot : "/proc", fd);
	return pt_read_field(path, key, out, len);
}

int pt_thread_pending(pid_t pid, pid_t tid, uint64_t *sigpnd,
		      uint64_t *shdpnd)
{
	char path[128], buf[64];

	snprintf(path, sizeof(path), "/proc/%d/task/%d/status", pid, tid);
	if (pt_read_field(path, "SigPnd:", buf, sizeof(buf)) < 0)
		return -1;
	*sigpnd = strtoull(buf, NULL, 16);
	if (pt_read_field(path, "ShdPnd:", buf, sizeof(buf)) < 0)
		return -1;
	*shdpnd = strtoull(buf, NULL, 16);
	return 0;
}

int pt_set_ns_last_pid(pid_t last)
{
	char buf[32];
	int fd, n, ret;

	fd = open("/proc/sys/kernel/ns_last_pid", O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = snprintf(buf, sizeof(buf), "%d", last);
	ret = write(fd, buf, (size_t)n) == n ? 0 : -1;
	close(fd);
	return ret;
}

ssize_t pt_fd_link(int fd, char *buf, size_t len)
{
	char path[64];
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	n = readlink(path, buf, len - 1);
	if (n >= 0)
		buf[n] = '\0';
	return n;
}

int pt_read_long(const char *path, long *val)
{
	char buf[64];
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	errno = 0;
	*val = strtol(buf, NULL, 10);
	return errno ? -1 : 0;
}

unsigned long pt_env_ulong(const char *name, unsigned long dflt)
{
	const char *v = getenv(name);

	return v && *v ? strtoul(v, NULL, 0) : dflt;
}

int pt_try_unload(void)
{
	return (int)syscall(SYS_delete_module, "pidfd", O_NONBLOCK);
}

int pt_read_text(const char *path, char *buf, size_t len)
{
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -1;
	while (n > 0 && buf[n - 1] == '\n')
		n--;
	buf[n] = '\0';
	return 0;
}

int pt_private_mounts(void)
{
	if (unshare(CLONE_NEWNS) < 0)
		return -1;
	return mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL);
}

int pt_tmpdir(char *buf, size_t len)
{
	if (snprintf(buf, len, "/tmp/pidfd-test.XXXXXX") >= (int)len)
		return -1;
	return mkdtemp(buf) ? 0 : -1;
}

void pt_close_list(const int *fds, size_t n)
{
	for (size_t i = 0; i < n; i++)
		close(fds[i]);
}

int pt_use_every_fd(void)
{
	struct rlimit rl = { 64, 64 };

	if (setrlimit(RLIMIT_NOFILE, &rl))
		return -1;
	while (open("/dev/null", O_RDONLY | O_CLOEXEC) >= 0)
		;
	return errno == EMFILE ? 0 : -1;
}

int pt_send_fd(int sock, int fd)
{
	char cbuf[CMSG_SPACE(sizeof(int))] = { 0 };
	char byte = 0;
	struct iovec iov = { &byte, 1 };
	struct msghdr msg = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = cbuf, .msg_controllen = sizeof(cbuf),
	};
	struct cmsghdr *c = CMSG_FIRSTHDR(&msg);

	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(c), &fd, sizeof(int));
	return sendmsg(sock, &msg, MSG_NOSIGNAL) == 1 ? 0 : -1;
}

int pt_recv_fd(int sock)
{
	char cbuf[CMSG_SPACE(sizeof(int))] = { 0 };
	char byte;
	struct iovec iov = { &byte, 1 };
	struct msghdr msg = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = cbuf, .msg_controllen = sizeof(cbuf),
	};
	struct cmsghdr *c;
	int fd;

	if (recvmsg(sock, &msg, MSG_CMSG_CLOEXEC) != 1)
		return -1;
	c = CMSG_FIRSTHDR(&msg);
	if (!c || c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS)
		return -1;
	memcpy(&fd, CMSG_DATA(c), sizeof(int));
	return fd;
}
