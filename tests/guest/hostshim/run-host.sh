#!/bin/sh
# Developer aid: build the guest suites against hostshim/shim.c and run them
# on this host (needs a 6.13+ kernel with real pidfds, and root).
#   tests/guest/hostshim/run-host.sh [check_open ...]
set -e
cd "$(dirname "$0")/../../.."
out=build/hostshim
mkdir -p $out
names=${*:-$(cd tests/guest && ls check_*.c | sed 's/\.c$//')}
rc=0
for n in $names; do
	cc -std=gnu11 -O2 -g -Wall -Wextra -D_GNU_SOURCE -Iuapi \
		-Iuserspace/include -Itests/guest/lib \
		-Wl,--wrap=open,--wrap=ioctl -o $out/$n tests/guest/$n.c \
		tests/lib/*.c tests/guest/lib/*.c userspace/lib/*.c \
		tests/guest/hostshim/shim.c -lcheck -lsubunit -lrt -lm -pthread
	echo "== $n"
	$out/$n || rc=1
done
exit $rc
