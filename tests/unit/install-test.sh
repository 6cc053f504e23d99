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
for f in bin/pidfdctl lib/libpidfd.a lib/libpidfd.so lib/libpidfd.so.0 \
	include/libpidfd.h include/linux/pidfd_dev.h lib/pkgconfig/libpidfd.pc \
	share/man/man1/pidfdctl.1 share/man/man3/libpidfd.3 \
	share/man/man3/libpidfd_open.3 share/man/man3/libpidfd_getpid.3; do
	[ -e "$root$prefix/$f" ] || fail "not installed: $prefix/$f"
done

# The shared library: soname, and only libpidfd_* exported, versioned.
so=$root$prefix/lib/libpidfd.so
readelf -d "$so" | grep -q 'SONAME.*\[libpidfd\.so\.0\]' || fail "soname"
exports=$(readelf --dyn-syms -W "$so" | awk '$5 == "GLOBAL" && $7 != "UND" { print $8 }')
[ -n "$exports" ] || fail "no exported symbols"
for sym in $exports; do
	case $sym in
	LIBPIDFD_0.[1234] | LIBPIDFD_0.[1234]@@LIBPIDFD_0.[1234]) ;;
	libpidfd_get_namespace@@LIBPIDFD_0.2 | libpidfd_from_procdir@@LIBPIDFD_0.2) ;;
	libpidfd_*_backend@@LIBPIDFD_0.3 | libpidfd_to_*@@LIBPIDFD_0.3) ;;
	libpidfd_fork@@LIBPIDFD_0.3 | libpidfd_spawn@LIBPIDFD_0.3) ;;
	libpidfd_spawn@@LIBPIDFD_0.4 | libpidfd_spawnp@@LIBPIDFD_0.4) ;;
	libpidfd_waitid@@LIBPIDFD_0.3) ;;
	libpidfd_peer_open@@LIBPIDFD_0.4) ;;
	libpidfd_*@@LIBPIDFD_0.1) ;;
	*) fail "unexpected export: $sym" ;;
	esac
done
echo "$exports" | grep -q '^libpidfd_open@@LIBPIDFD_0.1$' || fail "libpidfd_open not versioned"

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
readelf -d "$stage/prog-shared" | grep -q 'NEEDED.*libpidfd\.so\.0' || fail "not linked to libpidfd.so.0"
objdump -T "$stage/prog-shared" | grep -q 'LIBPIDFD_0.1.*libpidfd_open' || fail "no versioned reference"

# A program linked against LIBPIDFD_0.3 keeps its libpidfd_spawn (pid,
# pidfd, flags, path, ...); new ones get glibc's order (LIBPIDFD_0.4).
cat > "$stage/old-spawn.c" <<'PROG'
#define _GNU_SOURCE
#include <dlfcn.h>
#include <spawn.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>
#include <libpidfd.h>

typedef int (*spawn_0_3)(pid_t *, int *, unsigned int, const char *,
			 const posix_spawn_file_actions_t *,
			 const posix_spawnattr_t *, char *const[], char *const[]);

int main(void)
{
	void *lib = dlopen("libpidfd.so.0", RTLD_NOW);
	spawn_0_3 old = lib ? (spawn_0_3)dlvsym(lib, "libpidfd_spawn",
					       "LIBPIDFD_0.3") : NULL;
	char *argv[] = { "true", NULL }, *envp[] = { NULL };
	int pidfd = -1, status = -1, ret;
	pid_t pid = 0;

	if (!old)
		return 2;
	ret = old(&pid, &pidfd, PIDFD_NONBLOCK, "/bin/true", NULL, NULL, argv,
		  envp);
	if (ret || pid <= 0 || pidfd < 0 || waitpid(pid, &status, 0) != pid)
		return 3;
	ret = libpidfd_spawnp(&pidfd, "true", NULL, NULL, argv, envp);
	printf("%d %d\n", status, ret);
	return 0;
}
PROG
# shellcheck disable=SC2086
cc -Wall -Wextra -Werror -o "$stage/old-spawn" "$stage/old-spawn.c" $cflags $libs -ldl
[ "$(LD_LIBRARY_PATH="$root$prefix/lib" "$stage/old-spawn")" = "0 0" ] ||
	fail "libpidfd_spawn@LIBPIDFD_0.3 or libpidfd_spawnp"

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

"$root$prefix/bin/pidfdctl" --version | grep -q "^pidfdctl from pidfd-dkms $(cat VERSION)$" ||
	fail "installed pidfdctl --version"

make -s uninstall-userspace DESTDIR="$root" PREFIX="$prefix" >/dev/null
left=$(find "$root" -type f -o -type l)
[ -z "$left" ] || fail "left after uninstall: $left"
rm -rf "$stage"
echo "install-test: ok"
