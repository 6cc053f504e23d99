// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pidfdctl doctor: what this machine has, in plain words. The kernel's
 * own pidfd features are libpidfd's probe of them (tried, never read from
 * the version number), so doctor says what the library decides by; the
 * module's state comes from /sys/module/pidfd.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "libpidfd.h"
#include "bpf_lsm.h"
#include "commands.h"

#define MODULE_SYSFS "/sys/module/pidfd"

static void say(const char *what, bool yes, const char *detail)
{
	printf("  %-44s %s%s%s\n", what, yes ? "yes" : "no",
	       detail ? ": " : "", detail ? detail : "");
}

/* What libpidfd found the kernel can do: what its routes are chosen by. */
static void kernel_features(void)
{
	unsigned int has = libpidfd_kernel_features();
	struct utsname u;

	uname(&u);
	printf("Kernel %s (%s)\n", u.release, u.machine);
	say("pidfd_open(2), pidfd_send_signal(2), poll",
	    has & LIBPIDFD_KERNEL_PIDFD_OPEN, NULL);
	if (!(has & LIBPIDFD_KERNEL_PIDFD_OPEN))
		return;
	say("waitid(P_PIDFD) (5.4)", has & LIBPIDFD_KERNEL_WAITID, NULL);
	say("thread pidfds (6.9)", has & LIBPIDFD_KERNEL_THREAD, NULL);
	say("signal scopes (6.9)", has & LIBPIDFD_KERNEL_SIGNAL_SCOPE, NULL);
	say("PIDFD_GET_*_NAMESPACE (6.11)", has & LIBPIDFD_KERNEL_NAMESPACES,
	    NULL);
	say("PIDFD_GET_INFO (6.13)", has & LIBPIDFD_KERNEL_GET_INFO, NULL);
	say("exit status after the reap (6.15)",
	    has & LIBPIDFD_KERNEL_EXIT_INFO, NULL);
}

/* The first line of a sysfs file of the module, or NULL. */
static char *module_value(const char *name, char *buf, size_t size)
{
	char path[128];
	FILE *f;

	snprintf(path, sizeof(path), MODULE_SYSFS "/%s", name);
	f = fopen(path, "re");
	if (!f)
		return NULL;
	if (!fgets(buf, (int)size, f))
		buf[0] = '\0';
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	return buf;
}

/* @lsm is in the comma-separated @list. */
static bool listed(const char *list, const char *lsm)
{
	size_t n = strlen(lsm);

	for (const char *p = list; (p = strstr(p, lsm)); p += n)
		if ((p == list || p[-1] == ',') && (p[n] == ',' || !p[n]))
			return true;
	return false;
}

/* The hooks the module's refusals stand in for (signal_policy.c). */
static const char *hook_matters(const char *hook)
{
	if (!strcmp(hook, "task_kill"))
		return "signals";
	if (!strcmp(hook, "socket_getsockopt"))
		return "peer pidfds";
	return NULL;
}

/*
 * What trusting "bpf" would skip: the BPF-LSM programs attached now, as
 * bpftool lists them (root only), and which of them decide what the
 * module cannot ask about.
 */
static void bpf_lsm_programs(void)
{
	struct pidfdctl_bpf_lsm progs[32];
	int n = pidfdctl_bpf_lsm_list(progs, 32);

	printf("    BPF-LSM programs attached now (what trusting bpf would skip):\n");
	if (n < 0) {
		printf("      cannot list them: %s%s\n", strerror(-n),
		       n == -EPERM ? " (run pidfdctl doctor as root)" : "");
		return;
	}
	if (n == 0) {
		printf("      none: trusting bpf skips no policy loaded now (one\n"
		       "      loaded later would be skipped too)\n");
		return;
	}
	for (int i = 0; i < n && i < 32; i++) {
		const char *what = hook_matters(progs[i].hook);

		printf("      %s: '%s' (prog %u)%s%s%s\n",
		       progs[i].hook[0] ? progs[i].hook :
		       progs[i].cgroup ? "a cgroup's hook" : "a hook this kernel does not name",
		       progs[i].prog_name, progs[i].prog_id,
		       what ? ", decides " : "", what ? what : "",
		       what ? ": trusting bpf would skip it" : "");
	}
	if (n > 32)
		printf("      and %d more\n", n - 32);
}

/*
 * Which active LSMs the module cannot ask about the real signal on its
 * approximate paths, and what an administrator can do (security.md).
 */
static void signal_policy(void)
{
	char lsms[256], trust[256], untrusted[256] = "";
	char *save, *lsm;

	if (!module_value("parameters/signal_lsms", lsms, sizeof(lsms)) ||
	    !module_value("parameters/signal_lsm_trust", trust, sizeof(trust)))
		return;
	for (lsm = strtok_r(lsms, ",", &save); lsm;
	     lsm = strtok_r(NULL, ",", &save)) {
		if (listed(trust, lsm) || listed(trust, "all"))
			continue;
		if (untrusted[0])
			strncat(untrusted, ",", sizeof(untrusted) -
				strlen(untrusted) - 1);
		strncat(untrusted, lsm, sizeof(untrusted) - strlen(untrusted) - 1);
	}
	if (!untrusted[0]) {
		say("thread-directed signals, signals with a siginfo", true,
		    "no active LSM can tell them from signal 0");
		return;
	}
	printf("  %-44s %s\n", "thread-directed signals, signals with a siginfo",
	       "refused (EACCES) where these LSMs might decide them");
	printf("    differently from signal 0: %s%s\n", untrusted,
	       listed(untrusted, "apparmor") ?
	       " (AppArmor not between unconfined processes)" : "");
	/* The parameter knows these by name; any other only as "all". */
	for (lsm = strtok_r(strcpy(lsms, untrusted), ",", &save); lsm;
	     lsm = strtok_r(NULL, ",", &save))
		if (!listed("apparmor,selinux,smack,bpf", lsm))
			strcpy(untrusted, "all");
	if (listed(untrusted, "bpf"))
		bpf_lsm_programs();
	printf("    Process-directed signals without a siginfo, and SIGKILL, are not\n"
	       "    affected. If no policy of theirs tells signals apart here, an\n"
	       "    administrator may say so:\n"
	       "      echo %s > " MODULE_SYSFS "/parameters/signal_lsm_trust\n"
	       "    (or signal_lsm_trust=%s in /etc/modprobe.d; docs/security.md)\n",
	       untrusted, untrusted);
}

static void module_state(void)
{
	char version[64], live[32];
	int fd;

	if (!module_value("version", version, sizeof(version))) {
		printf("Module: not loaded (modprobe pidfd; the kernel's own pidfds "
		       "are used meanwhile)\n");
		return;
	}
	printf("Module: pidfd %s loaded", version);
	if (module_value("parameters/live_pidfds", live, sizeof(live)))
		printf(", %s pidfds open", live);
	printf("\n");
	fd = open(LIBPIDFD_DEVICE, O_RDWR | O_CLOEXEC);
	say(LIBPIDFD_DEVICE " can be opened", fd >= 0,
	    fd < 0 ? strerror(errno) : NULL);
	if (fd >= 0)
		close(fd);
	signal_policy();
}

/* Which kind of pidfd libpidfd_open() makes here, and what needs the module. */
static void library_routes(void)
{
	static const char *const kinds[] = {
		[LIBPIDFD_BACKEND_NATIVE] = "the kernel's",
		[LIBPIDFD_BACKEND_MODULE] = "the module's",
	};
	int fd = libpidfd_open(getpid(), 0);
	int kind = fd >= 0 ? libpidfd_pidfd_backend(fd) : -1;
	bool module;

	printf("libpidfd %s\n", libpidfd_version());
	if (fd < 0) {
		printf("  libpidfd_open(): %s\n", libpidfd_strerror(errno));
		return;
	}
	printf("  libpidfd_open() makes %s pidfds\n",
	       kind == LIBPIDFD_BACKEND_NATIVE || kind == LIBPIDFD_BACKEND_MODULE ?
	       kinds[kind] : "unknown");
	/* Without the module the library proves the first two itself. */
	module = libpidfd_probe() == 0;
	printf("  %-44s %s\n", "PIDFD_GET_PROCFD, from_procdir",
	       module ? "the module's" : "proved in userspace (libpidfd)");
	printf("  %-44s %s\n", "PIDFD_AUTOKILL",
	       module ? "the module's" : "needs the module");
	close(fd);
}

/* ---- doctor --json: the same findings, keys documented in pidfdctl(1) ---- */

static void json_str(const char *text)
{
	putchar('"');
	for (const unsigned char *c = (const unsigned char *)text; *c; c++) {
		if (*c == '"' || *c == '\\')
			printf("\\%c", *c);
		else if (*c < 0x20)
			printf("\\u%04x", *c);
		else
			putchar(*c);
	}
	putchar('"');
}

/* A comma-separated list as a JSON array of strings. */
static void json_list(const char *list)
{
	char copy[256], *save, *item;
	const char *sep = "";

	snprintf(copy, sizeof(copy), "%s", list);
	putchar('[');
	for (item = strtok_r(copy, ",", &save); item;
	     item = strtok_r(NULL, ",", &save)) {
		printf("%s", sep);
		json_str(item);
		sep = ", ";
	}
	putchar(']');
}

static void json_kernel(void)
{
	static const struct { unsigned int bit; const char *name; } features[] = {
		{ LIBPIDFD_KERNEL_PIDFD_OPEN, "pidfd_open" },
		{ LIBPIDFD_KERNEL_SEND_SIGNAL, "send_signal" },
		{ LIBPIDFD_KERNEL_WAITID, "waitid" },
		{ LIBPIDFD_KERNEL_THREAD, "thread" },
		{ LIBPIDFD_KERNEL_SIGNAL_SCOPE, "signal_scope" },
		{ LIBPIDFD_KERNEL_NAMESPACES, "namespaces" },
		{ LIBPIDFD_KERNEL_GET_INFO, "get_info" },
		{ LIBPIDFD_KERNEL_EXIT_INFO, "exit_info" },
	};
	unsigned int has = libpidfd_kernel_features();
	const char *sep = "";
	struct utsname u;

	uname(&u);
	printf("\"kernel\": {\"release\": ");
	json_str(u.release);
	printf(", \"machine\": ");
	json_str(u.machine);
	printf(", \"features\": [");
	for (size_t i = 0; i < sizeof(features) / sizeof(features[0]); i++) {
		if (!(has & features[i].bit))
			continue;
		printf("%s\"%s\"", sep, features[i].name);
		sep = ", ";
	}
	printf("]}");
}

static void json_bpf_lsm(void)
{
	struct pidfdctl_bpf_lsm progs[32];
	int n = pidfdctl_bpf_lsm_list(progs, 32);
	const char *sep = "";

	if (n < 0) {
		printf("\"bpf_lsm\": null, \"bpf_lsm_error\": ");
		json_str(strerror(-n));
		return;
	}
	printf("\"bpf_lsm\": [");
	for (int i = 0; i < n && i < 32; i++) {
		const char *what = hook_matters(progs[i].hook);

		printf("%s{\"hook\": ", sep);
		if (progs[i].hook[0])
			json_str(progs[i].hook);
		else
			printf("null");
		printf(", \"prog\": ");
		json_str(progs[i].prog_name);
		printf(", \"id\": %u, \"cgroup\": %s, \"decides\": ",
		       progs[i].prog_id, progs[i].cgroup ? "true" : "false");
		if (what)
			json_str(what);
		else
			printf("null");
		putchar('}');
		sep = ", ";
	}
	putchar(']');
}

static void json_module(void)
{
	char version[64], live[32], lsms[256], trust[256];
	int fd;

	if (!module_value("version", version, sizeof(version))) {
		printf("\"module\": null");
		return;
	}
	printf("\"module\": {\"version\": ");
	json_str(version);
	printf(", \"live_pidfds\": %s",
	       module_value("parameters/live_pidfds", live, sizeof(live)) &&
	       live[0] ? live : "null");
	fd = open(LIBPIDFD_DEVICE, O_RDWR | O_CLOEXEC);
	printf(", \"device\": %s", fd >= 0 ? "true" : "false");
	if (fd >= 0)
		close(fd);
	if (module_value("parameters/signal_lsms", lsms, sizeof(lsms)) &&
	    module_value("parameters/signal_lsm_trust", trust, sizeof(trust))) {
		printf(", \"signal_lsms\": ");
		json_list(lsms);
		printf(", \"signal_lsm_trust\": ");
		json_list(trust);
		if (listed(lsms, "bpf")) {
			printf(", ");
			json_bpf_lsm();
		}
	}
	putchar('}');
}

static void json_library(void)
{
	int fd = libpidfd_open(getpid(), 0);
	int kind = fd >= 0 ? libpidfd_pidfd_backend(fd) : -1;
	bool module = libpidfd_probe() == 0;

	if (fd >= 0)
		close(fd);
	printf("\"libpidfd\": {\"version\": ");
	json_str(libpidfd_version());
	printf(", \"open\": %s",
	       kind == LIBPIDFD_BACKEND_NATIVE ? "\"kernel\"" :
	       kind == LIBPIDFD_BACKEND_MODULE ? "\"module\"" : "null");
	printf(", \"procfd\": \"%s\", \"autokill\": %s}",
	       module ? "module" : "userspace", module ? "\"module\"" : "null");
}

int pidfdctl_doctor(const struct pidfdctl_args *args)
{
	if (args->json) {
		putchar('{');
		json_kernel();
		printf(", ");
		json_module();
		printf(", ");
		json_library();
		printf("}\n");
		return PIDFDCTL_EXIT_OK;
	}
	kernel_features();
	module_state();
	library_routes();
	return PIDFDCTL_EXIT_OK;
}
