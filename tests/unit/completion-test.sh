#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The bash completion of pidfdctl: what each position offers.
# Usage: tests/unit/completion-test.sh BUILD_DIR   (run from the top dir)
set -euo pipefail

build=${1:?usage: $0 BUILD_DIR}
fail() { printf 'completion-test: FAIL: %s\n' "$*" >&2; exit 1; }
PATH=$build:$PATH
# shellcheck source=completion/pidfdctl.bash
. completion/pidfdctl.bash

# The words offered for the command line "$@", the last word being
# completed.
offered()
{
	COMP_WORDS=(pidfdctl "$@")
	COMP_CWORD=$#
	COMPREPLY=()
	_pidfdctl
	[ ${#COMPREPLY[@]} -eq 0 ] || printf '%s\n' "${COMPREPLY[@]}" | sort | tr '\n' ' '
}

expect()
{
	local want=$1 got
	shift
	got=$(offered "$@")
	[ "$got" = "$want" ] || fail "pidfdctl $*: offered '$got', want '$want'"
}

expect "doctor " "do"
expect "wait " w
expect "--verbose " --verb
expect "kill " -v k
expect "auto module native " --backend ""
expect "--thread --thread-group " kill --thread
expect "--count " wait --cou
expect "--json " info --j
expect "KILL " kill -s KIL
expect "KILL " kill --signal KIL
expect "" run --timeout ""
# A PID: this shell's is among them.
offered kill "$$" | grep -qw "$$" || fail "kill: no PID offered"
# run: after its options, commands.
offered run -t 5 ech | grep -qw echo || fail "run: no command offered"
offered run 5 ech | grep -qw echo || fail "run DURATION: no command offered"
offered run -- ech | grep -qw echo || fail "run --: no command offered"
# exec: a command, then its arguments.
expect "exec " exe
offered exec -- ech | grep -qw echo || fail "exec --: no command offered"
offered exec ech | grep -qw echo || fail "exec: no command offered"
echo "completion-test: ok"
