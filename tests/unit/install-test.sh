#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Install into a staging directory and use what was installed: build a
# program with pkg-config against the shared and the static library, check
# the symbol versions and the man pages, then uninstall.
# Usage: tests/unit/install-test.sh STAGING_DIR   (run from the top dir)
set -eu

stage=${1:?usage: $0 STAGING_DIR}
prefix=/usr
fail() { printf '%s: FAIL: %s\n' "$(basename "$0")" "$*" >&2; exit 1; }

rm -rf "$stage"
mkdir -p "$stage"
make -s install-userspace DESTDIR="$stage/root" PREFIX="$prefix" >/dev/null

root=$stage/root
for f in bin/pidfdctl lib/libpidfd.a lib/libpidfd.so lib/libpidfd.so.1 \
	include/libpidfd.h include/linux/pidfd_dev.h lib/pkgconfig/libpidfd.pc \
	share/man/man1/pidfdctl.1 share/man/man3/libpidfd.3 \
	share/bash-completion/completions/pidfdctl \
	share/man/man3/libpidfd_open.3 share/man/man3/libpidfd_getpid.3; do
	[ -e "$root$prefix/$f" ] || fail "not installed: $prefix/$f"
done

# The shared library: soname, and exactly the functions of the version
# script exported, all in the one node of 1.0; each is declared in
# <libpidfd.h> and documented in libpidfd(3) and docs/libpidfd.md.
so=$root$prefix/lib/libpidfd.so
readelf -d "$so" | grep -q 'SONAME.*\[libpidfd\.so\.1\]' || fail "soname"
exports=$(readelf --dyn-syms -W "$so" | awk '$5 == "GLOBAL" && $7 != "UND" { print $8 }')
[ -n "$exports" ] || fail "no exported symbols"
mapped=$(sed -n 's/^[[:space:]]*\(libpidfd_[a-z_]*\);$/\1/p' userspace/lib/libpidfd.map | sort)
[ "$(echo "$exports" | grep -v '^LIBPIDFD_1\.0$' | sed 's/@@LIBPIDFD_1\.0$//' | sort)" = "$mapped" ] ||
	fail "exports are not the version script's functions at LIBPIDFD_1.0: $exports"
for fn in $mapped; do
	grep -q "^[a-z].*[ *]$fn(" userspace/include/libpidfd.h || fail "$fn: not declared in libpidfd.h"
	grep -q "$fn" docs/man/libpidfd.3 || fail "$fn: not in libpidfd(3)"
	grep -q "$fn" docs/libpidfd.md || fail "$fn: not in docs/libpidfd.md"
done

# pidfdctl is a client of the shared library, installed without a RUNPATH.
readelf -d "$root$prefix/bin/pidfdctl" | grep -q 'NEEDED.*\[libpidfd\.so\.1\]' ||
	fail "pidfdctl does not use libpidfd.so.1"
! readelf -d "$root$prefix/bin/pidfdctl" | grep -q 'RPATH\|RUNPATH' ||
	fail "the installed pidfdctl has a RUNPATH"

# A program built the way a user would, against the staged install. It
# includes glibc's <sys/pidfd.h> too, where glibc has it: the names must
# not clash.
cat > "$stage/prog.c" <<'PROG'
#include <errno.h>
#include <stdio.h>
#include <string.h>
#if __has_include(<sys/pidfd.h>)	/* glibc 2.36 */
#include <sys/pidfd.h>
#endif
#include <unistd.h>
#include <libpidfd.h>

int main(void)
{
	int fd = libpidfd_open(getpid(), 0);

	if (fd >= 0) {
		printf("open ok %d\n", libpidfd_getpid(fd) == getpid());
		return 0;
	}
	printf("%s|%s\n", errno == ENOPKG ? "ENOPKG" : strerror(errno),
	       libpidfd_version());
	return 0;
}
PROG
export PKG_CONFIG_SYSROOT_DIR="$root"
export PKG_CONFIG_LIBDIR="$root$prefix/lib/pkgconfig"
# Keep -I/usr/include and -L/usr/lib, to be prefixed with the sysroot:
# older pkgconf (Debian 11's) drops system directories first.
export PKG_CONFIG_ALLOW_SYSTEM_CFLAGS=1 PKG_CONFIG_ALLOW_SYSTEM_LIBS=1
cflags=$(pkg-config --cflags libpidfd)
libs=$(pkg-config --libs libpidfd)
static_libs=$(pkg-config --static --libs libpidfd)
[ "$(pkg-config --modversion libpidfd)" = "$(cat VERSION)" ] || fail "pkg-config version"
# shellcheck disable=SC2086 # word splitting of the flags is intended
cc -Wall -Wextra -Werror -o "$stage/prog-shared" "$stage/prog.c" $cflags $libs
# shellcheck disable=SC2086
cc -Wall -Wextra -Werror -static -o "$stage/prog-static" "$stage/prog.c" $cflags $static_libs
readelf -d "$stage/prog-shared" | grep -q 'NEEDED.*libpidfd\.so\.1' || fail "not linked to libpidfd.so.1"
objdump -T "$stage/prog-shared" | grep -q 'LIBPIDFD_1.0.*libpidfd_open' || fail "no versioned reference"

# With the module backend forced, and by default (the kernel's pidfds
# where it has pidfd_open(2), which every kernel since 5.3 has).
for backend in module auto; do
	out_shared=$(LIBPIDFD_BACKEND=$backend LD_LIBRARY_PATH="$root$prefix/lib" \
		"$stage/prog-shared")
	out_static=$(LIBPIDFD_BACKEND=$backend "$stage/prog-static")
	[ "$out_shared" = "$out_static" ] ||
		fail "$backend: shared '$out_shared' != static '$out_static'"
	if [ "$backend" = auto ] || [ -e /dev/pidfd ]; then
		want="open ok 1"
	else
		want="ENOPKG|$(cat VERSION)"
	fi
	[ "$out_shared" = "$want" ] || fail "$backend backend: '$out_shared', want '$want'"
done

# Man pages: render without warnings, and the function links resolve.
for page in man1/pidfdctl.1 man3/libpidfd.3; do
	warn=$(groff -man -Tutf8 -ww -z "$root$prefix/share/man/$page" 2>&1)
	[ -z "$warn" ] || fail "$page: $warn"
done
(cd "$root$prefix/share/man" && groff -s -man -Tutf8 -ww -z man3/libpidfd_wait_exit.3) ||
	fail "libpidfd_wait_exit.3 link"

LD_LIBRARY_PATH="$root$prefix/lib" "$root$prefix/bin/pidfdctl" --version | grep -q "^pidfdctl from pidfd-dkms $(cat VERSION)$" ||
	fail "installed pidfdctl --version"

make -s uninstall-userspace DESTDIR="$root" PREFIX="$prefix" >/dev/null
left=$(find "$root" -type f -o -type l)
[ -z "$left" ] || fail "left after uninstall: $left"
rm -rf "$stage"
echo "install-test: ok"
