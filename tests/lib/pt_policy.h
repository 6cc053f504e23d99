/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The module's signal policy (docs/security.md, "The signal policy") as a
 * test sees it: whether the module refuses its approximate signal paths
 * here (thread scope, a caller's siginfo: EACCES, nothing delivered, one
 * rate-limited kernel log line), and that log line. Decided from the
 * module's own parameters, never from the kernel's version, so that a
 * suite asserts delivery under a trusting policy and the refusal under
 * the default one, whichever the harness loaded. No Check.
 */
#ifndef PT_POLICY_H
#define PT_POLICY_H

#include <stdbool.h>
#include <sys/types.h>

#define PT_SIGNAL_LSMS_PARAM	"/sys/module/pidfd/parameters/signal_lsms"
#define PT_SIGNAL_TRUST_PARAM	"/sys/module/pidfd/parameters/signal_lsm_trust"

/*
 * Does the module refuse a signal on its approximate paths between the
 * caller and a process that has the caller's AppArmor label (a child that
 * did not change it)? The exact paths (process and process-group scope
 * without a siginfo, SIGKILL) and signal 0 are never refused by the
 * policy.
 */
bool pt_policy_refuses_approx(void);

/* "signal_lsms='apparmor,bpf' signal_lsm_trust=''", for messages. */
const char *pt_policy_describe(void);

/*
 * Says on stdout that @what was refused as documented, under which
 * parameters: a run under the default policy shows what it asserted in
 * place of the delivery.
 */
void pt_policy_note_refusal(const char *what);

/*
 * Returns once the module's next @n refusal lines (at most 10, the burst
 * of printk's rate limit) will all reach the kernel log, sleeping out the
 * rate limit's window if earlier refusals may have used it up. It leaves
 * a mark in the log: pt_policy_refusal_logged() looks after it only.
 */
void pt_policy_log_ready(int n);

/*
 * Is the module's refusal of @sig from @sender (the sending thread's TID)
 * to @target (the task the kernel's check judged: the thread for thread
 * scope, else the process) in the kernel log, after this process's last
 * pt_policy_log_ready(), naming the LSMs that refused?
 */
bool pt_policy_refusal_logged(int sig, pid_t sender, pid_t target);

#endif /* PT_POLICY_H */
