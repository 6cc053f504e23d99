#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The Debian mirror lookup of vm/lib.sh (debian_mirror, debian_sources_list)
# on sample apt configurations: deb822 and one-line sources, entries that
# are not Debian archives, overrides, and the error when nothing is found.
# Usage: tests/unit/mirror-test.sh
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=vm/lib.sh
. "$top/vm/lib.sh"
unset PIDFD_DEBIAN_MIRROR PIDFD_DEBIAN_SECURITY_MIRROR
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
expect() { # WHAT WANT GOT
	if [ "$2" = "$3" ]; then
		echo "ok: $1"
	else
		printf 'FAIL: %s\n  want: %s\n  got:  %s\n' "$1" "$2" "$3" >&2
		fails=$((fails + 1))
	fi
}
etc() { # NAME: a fresh apt dir, made the current one
	export PIDFD_APT_ETC=$tmp/$1
	mkdir -p "$PIDFD_APT_ETC/sources.list.d"
}

# deb822, as Debian 12 installs it, next to third-party repositories whose
# suites are not Debian releases (one names one inside its own).
etc deb822
cat >"$PIDFD_APT_ETC/sources.list.d/a-thirdparty.sources" <<'S'
Types: deb
URIs: https://REPO-HOST/node_20.x
Suites: nodistro
Components: main
Signed-By: /usr/share/keyrings/nodesource.gpg
S
echo 'deb https://CLOUD-HOST/apt cloud-sdk-bookworm main' \
	>"$PIDFD_APT_ETC/sources.list.d/b-cloud.list"
cat >"$PIDFD_APT_ETC/sources.list.d/debian.sources" <<'S'
Types: deb
# a comment
URIs: http://MIRROR-HOST/debian/
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb
URIs: http://SECURITY-HOST/debian-security
Suites:
 bookworm-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
S
echo 'nothing here' >"$PIDFD_APT_ETC/sources.list.d/c.sources.disabled"
expect "deb822: main" http://MIRROR-HOST/debian "$(debian_mirror)"
expect "deb822: security (folded Suites)" http://SECURITY-HOST/debian-security \
	"$(debian_mirror security)"
expect "sources.list" "deb http://MIRROR-HOST/debian sid main
deb http://SECURITY-HOST/debian-security bullseye-security main" \
	"$(debian_sources_list sid bullseye-security)"

# A disabled stanza and a deb-src stanza are skipped; an unknown suite
# signed by a Debian archive keyring counts.
etc deb822-skip
cat >"$PIDFD_APT_ETC/sources.list.d/debian.sources" <<'S'
Types: deb
URIs: http://OFF-HOST/debian
Suites: bookworm
Enabled: no

Types: deb-src
URIs: http://SRC-HOST/debian
Suites: bookworm

Types: deb
URIs: http://FUTURE-HOST/debian
Suites: newcodename
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
S
expect "deb822: Enabled: no, deb-src, keyring rule" http://FUTURE-HOST/debian \
	"$(debian_mirror)"

# One-line sources.list, with options, comments and an old-style security
# suite; it is read before sources.list.d.
etc oneline
cat >"$PIDFD_APT_ETC/sources.list" <<'S'
# deb http://COMMENTED-HOST/debian bookworm main
deb-src http://SRC-HOST/debian bullseye main
deb cdrom:[Debian 11]/ bullseye main
deb [arch=amd64 signed-by=/usr/share/keyrings/other.gpg] http://ONE-HOST/debian bullseye main # trailing
deb http://ONE-HOST/debian-security bullseye/updates main
S
echo 'deb http://LATER-HOST/debian bookworm main' >"$PIDFD_APT_ETC/sources.list.d/x.list"
expect "one-line: main" http://ONE-HOST/debian "$(debian_mirror)"
expect "one-line: security (CODENAME/updates)" http://ONE-HOST/debian-security \
	"$(debian_mirror security)"

# Overrides win; an empty configuration fails, saying what to set.
expect "override" http://O-HOST/d "$(PIDFD_DEBIAN_MIRROR=http://O-HOST/d debian_mirror)"
etc empty
rc=0
msg=$(debian_sources_list bookworm 2>&1) || rc=$?
expect "nothing found: fails" 1 "$rc"
expect "nothing found: names the variable" 1 "$(grep -c 'set PIDFD_DEBIAN_MIRROR' <<<"$msg")"
# A main mirror but no security one: only a -security suite fails.
echo 'deb http://M-HOST/debian sid main' >"$PIDFD_APT_ETC/sources.list"
expect "no security mirror: sid works" "deb http://M-HOST/debian sid main" \
	"$(debian_sources_list sid)"
rc=0
msg=$(debian_sources_list bookworm bookworm-security 2>&1) || rc=$?
expect "no security mirror: -security fails" 1 "$rc"
expect "no security mirror: names the variable" 1 \
	"$(grep -c 'set PIDFD_DEBIAN_SECURITY_MIRROR' <<<"$msg")"
expect "security override" "deb http://S-HOST/ds bookworm-security main" \
	"$(PIDFD_DEBIAN_SECURITY_MIRROR=http://S-HOST/ds debian_sources_list bookworm-security)"

[ "$fails" -eq 0 ] || { echo "mirror-test: $fails failed" >&2; exit 1; }
echo "mirror-test: ok"
