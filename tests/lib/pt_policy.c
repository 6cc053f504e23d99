// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "pt_files.h"
#include "pt_policy.h"
#include "pt_text.h"
#include "pt_kernel.h"

/*
 * The burst of the module's pr_notice_ratelimited(); its window is 5 s,
 * looked back on and waited out with a second's room for the kernel's
 * jiffies and its log clock to differ.
 */
#define KLOG_BURST		10
#define KLOG_LOOKBACK_US	INT64_C(6000000)
#define KLOG_WAIT_S		6

#define REFUSAL_LINE		"pidfd: refused signal "

/* @name is one entry of the comma-separated @list. */
static bool listed(const char *list, const char *name)
{
	return pt_listed(list, name, ',');
}

/* The calling thread runs under AppArmor's unconfined label. */
static bool apparmor_unconfined(void)
{
	char label[128];

	if (pt_read_text("/proc/thread-self/attr/apparmor/current", label,
			 sizeof(label)) < 0 &&
	    pt_read_text("/proc/thread-self/attr/current", label,
			 sizeof(label)) < 0)
		return false;
	return strcmp(label, "unconfined") == 0;
}

/*
 * The module's own decision (module/signal_policy.c), made from what it
 * shows: signal_lsms lists the active LSMs that may decide a signal
 * differently from signal 0, signal_lsm_trust those the administrator
 * vouches for ("all" covers every one, also LSMs the module does not
 * know by name). Every listed LSM not trusted refuses, except AppArmor
 * between two unconfined tasks, which it does not mediate: the suites'
 * processes and the children they signal run unconfined (the harness
 * confines nobody; check_lsm confines children of its own only). Puts
 * those that refuse into @buf, comma separated in the module's order, ""
 * for none; false if the parameters cannot be read.
 */
static bool doubted(char *buf, size_t len)
{
	char lsms[256], trust[256], *lsm, *save;
	size_t n = 0;

	buf[0] = '\0';
	if (pt_read_text(PT_SIGNAL_LSMS_PARAM, lsms, sizeof(lsms)) < 0 ||
	    pt_read_text(PT_SIGNAL_TRUST_PARAM, trust, sizeof(trust)) < 0)
		return false;
	if (listed(trust, "all"))
		return true;
	for (lsm = strtok_r(lsms, ",", &save); lsm;
	     lsm = strtok_r(NULL, ",", &save)) {
		if (listed(trust, lsm) ||
		    (strcmp(lsm, "apparmor") == 0 && apparmor_unconfined()))
			continue;
		if (n + strlen(lsm) + 2 > len)
			break;
		n += (size_t)sprintf(buf + n, "%s%s", n ? "," : "", lsm);
	}
	return true;
}

/*
 * Parameters that cannot be read count as refusing, as the module counts
 * an LSM list it cannot read: a test then expects the refusal and says so.
 */
bool pt_policy_refuses_approx(void)
{
	char doubt[256];

	return !doubted(doubt, sizeof(doubt)) || doubt[0];
}

const char *pt_policy_describe(void)
{
	static char text[600];
	char lsms[256] = "?", trust[256] = "?";

	pt_read_text(PT_SIGNAL_LSMS_PARAM, lsms, sizeof(lsms));
	pt_read_text(PT_SIGNAL_TRUST_PARAM, trust, sizeof(trust));
	snprintf(text, sizeof(text), "signal_lsms='%s' signal_lsm_trust='%s'",
		 lsms, trust);
	return text;
}

void pt_policy_note_refusal(const char *what)
{
	printf("[policy] %s: refused as documented (EACCES, nothing "
	       "delivered, logged) with %s\n", what, pt_policy_describe());
	fflush(stdout);
}

/* A log line's time ("<5>[   12.345678] ..."), in µs; -1 if it has none. */
static int64_t line_time_us(const char *line)
{
	unsigned long sec, usec;

	if (*line == '<') {
		line = strchr(line, '>');
		if (!line)
			return -1;
		line++;
	}
	if (sscanf(line, "[%lu.%lu]", &sec, &usec) != 2)
		return -1;
	return (int64_t)sec * 1000000 + (int64_t)usec;
}

/* This process's last mark in the log ("" for none yet). */
static char mark[64];

/*
 * Where the text after the last line containing @needle starts in @log,
 * or NULL if there is no such line.
 */
static char *after_line(char *log, const char *needle)
{
	char *p = log, *hit = NULL;

	while ((p = strstr(p, needle))) {
		hit = p;
		p += strlen(needle);
	}
	if (!hit)
		return NULL;
	p = strchr(hit, '\n');
	return p ? p + 1 : hit + strlen(hit);
}

/*
 * Writes a mark into the log (through /dev/kmsg, at debug level: it stays
 * off the console) and returns its time in µs, or -1.
 */
static int64_t write_mark(void)
{
	static unsigned int count;
	char line[96], *log, *start;
	int64_t now = -1;
	int fd, len;

	/* The colon ends it: mark 1 is no prefix of mark 10. */
	snprintf(mark, sizeof(mark), "pidfd-test: policy mark %d.%u:",
		 (int)getpid(), ++count);
	fd = open("/dev/kmsg", O_WRONLY | O_CLOEXEC);
	if (fd < 0) {
		mark[0] = '\0';
		return -1;
	}
	len = snprintf(line, sizeof(line), "<7>%s\n", mark);
	if (write(fd, line, (size_t)len) != len)
		mark[0] = '\0';
	close(fd);
	if (!mark[0] || !(log = pt_klog_read()))
		return -1;
	start = after_line(log, mark);
	if (start) {
		/* Back to the start of the mark's own line. */
		char *line_start = start - 1;

		while (line_start > log && line_start[-1] != '\n')
			line_start--;
		now = line_time_us(line_start);
	}
	free(log);
	return now;
}

/* Refusal lines logged at or after @since (µs of the log's clock). */
static int refusals_since(int64_t since)
{
	char *log = pt_klog_read(), *line, *save;
	int count = 0;

	if (!log)
		return KLOG_BURST;
	for (line = strtok_r(log, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save))
		if (strstr(line, REFUSAL_LINE) && line_time_us(line) >= since)
			count++;
	free(log);
	return count;
}

/*
 * printk's rate limit lets KLOG_BURST lines through in a window of 5 s
 * that opens at the first call after the previous window closed. A
 * window still open began less than 5 s ago and every line it let
 * through is younger, so at most KLOG_BURST - @n refusal lines in the
 * last KLOG_LOOKBACK_US leave room for @n more. Otherwise (or where the
 * log has no times) wait longer than a window: the suites run one at a
 * time, so nothing else refuses meanwhile, and the next call opens a new
 * window.
 */
void pt_policy_log_ready(int n)
{
	struct timespec wait = { .tv_sec = KLOG_WAIT_S };
	int64_t now = write_mark();

	if (now >= 0 && refusals_since(now - KLOG_LOOKBACK_US) + n <= KLOG_BURST)
		return;
	while (nanosleep(&wait, &wait) < 0 && errno == EINTR)
		;
}

/*
 * The line names the LSMs in doubt and the signal_lsm_trust that would
 * trust them ("all" for one the parameter does not know by name); where
 * AppArmor confines one side it names AppArmor and advises nothing.
 */
bool pt_policy_refusal_logged(int sig, pid_t sender, pid_t target)
{
	char want[96], doubt[256], names[300] = "", advice[300] = "";
	char *log, *start, *line, *save, *lsm, *lsave, list[256];
	bool found = false, other = false;

	snprintf(want, sizeof(want), REFUSAL_LINE "%d from pid %d to pid %d: ",
		 sig, (int)sender, (int)target);
	if (doubted(doubt, sizeof(doubt)) && doubt[0]) {
		strcpy(list, doubt);
		for (lsm = strtok_r(list, ",", &lsave); lsm;
		     lsm = strtok_r(NULL, ",", &lsave))
			other |= !listed("apparmor,selinux,smack,bpf", lsm);
		if (listed(doubt, "apparmor")) {
			strcpy(names, "AppArmor confines one of them");
		} else {
			snprintf(names, sizeof(names), "the active LSM '%s' ", doubt);
			snprintf(advice, sizeof(advice),
				 "set pidfd.signal_lsm_trust=%s ",
				 other ? "all" : doubt);
		}
	}
	log = pt_klog_read();
	if (!log)
		return false;
	start = mark[0] ? after_line(log, mark) : log;
	for (line = start ? strtok_r(start, "\n", &save) : NULL;
	     line && !found; line = strtok_r(NULL, "\n", &save))
		found = strstr(line, want) && strstr(line, names) &&
			strstr(line, advice);
	free(log);
	return found;
}
