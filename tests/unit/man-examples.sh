#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The man pages render without a warning, and the program in libpidfd(3)'s
# EXAMPLES compiles cleanly against the built library and runs.
# Usage: tests/unit/man-examples.sh BUILD_DIR   (run from the top dir)
set -eu

build=${1:?usage: $0 BUILD_DIR}
fail() { printf 'man-examples: FAIL: %s\n' "$*" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

for page in docs/man/*.[0-9]; do
	warn=$(groff -man -Tutf8 -ww -z "$page" 2>&1)
	[ -z "$warn" ] || fail "$page: $warn"
done

# The lines between the marker and .fi, with groff's escapes undone.
sed -n '/tests\/unit\/man-examples.sh compiles this program/,/^\.fi$/p' \
	docs/man/libpidfd.3 | sed -e '1d' -e '$d' -e 's/\\e/\\/g' -e 's/\\-/-/g' \
	>"$work/example.c"
[ -s "$work/example.c" ] || fail "libpidfd(3) has no marked example"
cc -std=gnu11 -Wall -Wextra -Werror -Iuserspace/include -Iuapi \
	-o "$work/example" "$work/example.c" -L"$build" -lpidfd ||
	fail "libpidfd(3)'s example does not compile"
# It kills what it is given: a child of ours, which it then sees gone.
sleep 30 &
victim=$!
LD_LIBRARY_PATH=$build "$work/example" "$victim" >"$work/out" ||
	fail "libpidfd(3)'s example failed"
grep -q "^Pid:	$victim$" "$work/out" || fail "the example printed no status"
status=0
wait "$victim" 2>/dev/null || status=$?
[ "$status" -eq 137 ] || fail "the victim did not die of KILL: $status"
echo "man-examples: ok"
