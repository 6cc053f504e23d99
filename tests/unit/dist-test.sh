#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# make dist: the tarball is the same bytes from two runs (another umask,
# another temporary directory, a second later), holds exactly what git
# tracks, and builds the userspace, the module (for the kernel named, with
# its headers, as DKMS does) and the Debian packages.
#
#   tests/unit/dist-test.sh SERIES      (run from the top dir)
set -euo pipefail

series=${1:?usage: dist-test.sh SERIES}
fail() { printf 'dist-test: FAIL: %s\n' "$*" >&2; exit 1; }
version=$(cat VERSION)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

(umask 022 && tools/make-dist "$work/a.tar.gz" >/dev/null)
sleep 1
(umask 077 && TMPDIR=$work tools/make-dist "$work/b.tar.gz" >/dev/null)
cmp -s "$work/a.tar.gz" "$work/b.tar.gz" || fail "two runs differ"
echo "dist-test: ok: two runs, the same $(stat -c %s "$work/a.tar.gz") bytes"

diff <(git ls-files | sort) \
	<(tar -tzf "$work/a.tar.gz" | grep -v '/$' | sed "s|^pidfd-dkms-$version/||" | sort) >/dev/null ||
	fail "the tarball does not hold exactly what git tracks"

tar -C "$work" -xzf "$work/a.tar.gz"
src=$work/pidfd-dkms-$version
make -s -C "$src" userspace >"$work/userspace.log" 2>&1 ||
	{ tail -n 20 "$work/userspace.log"; fail "make userspace from the tarball"; }
echo "dist-test: ok: libpidfd and pidfdctl build from the tarball"

ko=$(vm/build-module --src "$src" --name pidfd-dist "$series") ||
	fail "the module from the tarball does not build for $series"
[ "$(modinfo -F version "$ko")" = "$version" ] || fail "module version is not $version"
echo "dist-test: ok: the module builds for $series"

# With this machine's tools (make check-packages builds each release's).
"$src/packaging/build-debs" "$work/debs" host >"$work/debs.log" 2>&1 ||
	{ tail -n 20 "$work/debs.log"; fail "packaging/build-debs from the tarball"; }
for p in pidfd-dkms libpidfd1 libpidfd-dev pidfdctl; do
	ls "$work/debs/host/${p}_$version"*.deb >/dev/null 2>&1 || fail "no $p package"
done
echo "dist-test: ok: the Debian packages build from the tarball"
