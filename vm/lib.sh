# Shared helpers for the vm/ scripts (sourced, not executed).
# shellcheck shell=bash disable=SC2034 # the variables are for the sourcing scripts

CACHE=${PIDFD_DKMS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pidfd-dkms}
# The top of the source tree: vm/ lives directly below it.
TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${PIDFD_BUILD_DIR:-$TOP/build}

# Debian keeps administrators' tools (depmod, chroot, debootstrap,
# apparmor_parser) in /usr/sbin and /sbin, which a user's default PATH
# lacks: look there too, after everything the caller put first.
for d in /usr/sbin /sbin; do
	case ":$PATH:" in *":$d:"*) ;; *) PATH=$PATH:$d ;; esac
done
export PATH

log() { printf '%s: %s\n' "$(basename "$0")" "$*" >&2; }
die() {
	log "error: $*"
	exit 1
}

# The architecture under test (PIDFD_ARCH; make's ARCH=arm64 sets it):
# amd64, the host's own, or arm64, cross-built and emulated. Each has its
# own guest programs: build/guest and build/guest-arm64.
PIDFD_ARCH=${PIDFD_ARCH:-amd64}
case $PIDFD_ARCH in
amd64) GUEST_DIR=$BUILD/guest ;;
arm64) GUEST_DIR=$BUILD/guest-arm64 ;;
*) die "PIDFD_ARCH must be amd64 or arm64, not '$PIDFD_ARCH'" ;;
esac

# kernel_dir SERIES: the cache directory of that kernel, fetching it first
# if needed (SERIES-debug: building the debug kernel). A path to an
# already fetched directory is accepted as is.
kernel_dir() {
	if [ -f "$1/release" ] && [ -e "$1/vmlinuz" ]; then
		(cd "$1" && pwd)
	elif [ "${1%-debug}" != "$1" ]; then
		# SERIES-debug: the debug kernel, built from source once.
		"$TOP/vm/build-debug-kernel" "$1" || die "could not build the debug kernel $1"
	else
		"$TOP/vm/fetch-kernel" "$1" || die "could not fetch kernel $1"
	fi
}

# has_headers KDIR: whether that kernel came with its headers (a `build`
# tree), so that a module can be built for it. The archive keeps only the
# newest headers of trixie-backports: older series are images only
# (vm/fetch-kernel), and run only what needs no module.
has_headers() { [ -e "$1/build" ]; }

# newest_deb PACKAGE ARCH...: the newest .deb of PACKAGE for one of the
# ARCHs in the download cache (vm/fetch-kernel's), or nothing.
newest_deb() {
	local a f
	for a in "${@:2}"; do
		for f in "$CACHE"/apt/*/archives/"$1"_*_"$a".deb; do
			if [ -f "$f" ]; then printf '%s\n' "$f"; fi
		done
	done | sort -V | tail -n 1
}

# kernel_chroot KDIR: the Debian suite of the chroot (vm/chroot) in which
# a module for that kernel is built, as DKMS builds it on that release with
# the kernel's own compiler; nothing when the host builds it. Debian 13's
# kernels (+deb13: trixie's 6.12 and trixie-backports', gcc-14) build in a
# trixie chroot, sid's (+deb14, gcc-16) in a sid chroot; the older ones
# build with the host's toolchain.
kernel_chroot() {
	case $(cat "$1/release") in
	*+deb13-*) echo trixie ;;
	*+deb1[4-9]-* | *+deb[2-9][0-9]-*) echo sid ;;
	esac
}

# kernel_cc KDIR: the compiler the kernel was built with, as its headers'
# .kernelvariables name it ("CC = $(if ...ccache...) $(CROSS_COMPILE)gcc-N"
# gives gcc-N); gcc when they do not say.
kernel_cc() {
	local cc
	cc=$(sed -n 's/^CC *= *//p' "$1/build/.kernelvariables" 2>/dev/null |
		awk '{ n = $NF; sub(/^.*[)]/, "", n); print n; exit }')
	echo "${cc:-gcc}"
}

# Debian mirrors. Nothing here names a mirror: the Debian archive and the
# security archive this machine can reach are taken from the host's own apt
# sources, unless PIDFD_DEBIAN_MIRROR / PIDFD_DEBIAN_SECURITY_MIRROR (full
# URIs, e.g. http://HOST/debian and http://HOST/debian-security) are set.
# PIDFD_APT_ETC (default /etc/apt) is where the sources are read, for tests.
#
# An apt source counts as a Debian archive when its suite is a Debian
# release (a codename such as bullseye, bookworm, trixie, sid, or
# stable/testing/unstable, optionally with -updates, -backports,
# -proposed-updates or -security) or when it is signed by a
# debian-archive-* keyring; of those, suites ending in -security (or the
# old CODENAME/updates) are the security archive and the rest the main one.
# Only http:// and https:// URIs are used (the chroots' apt and debootstrap
# need a network URI). The first match in apt's reading order wins.
# There is no guessing of the security archive from the main one: most
# Debian mirrors do not carry debian-security, so "$MIRROR-security" would
# be wrong as often as right.

# The sources files in the order apt reads them.
apt_source_files() {
	local etc=${PIDFD_APT_ETC:-/etc/apt} f
	[ -f "$etc/sources.list" ] && printf '%s\n' "$etc/sources.list"
	for f in "$etc"/sources.list.d/*; do
		case $f in *.list | *.sources) [ -f "$f" ] && printf '%s\n' "$f" ;; esac
	done
	return 0
}

# Print "main URI" or "security URI" for each Debian archive entry.
apt_debian_entries() {
	local f fmt
	apt_source_files | while IFS= read -r f; do
		case $f in *.sources) fmt=deb822 ;; *) fmt=oneline ;; esac
		awk -v fmt="$fmt" '
		function known(c) {
			return c ~ /^(buzz|rex|bo|hamm|slink|potato|woody|sarge|etch|lenny|squeeze|wheezy|jessie|stretch|buster|bullseye|bookworm|trixie|forky|duke|sid|experimental|rc-buggy|oldoldstable|oldstable|stable|testing|unstable)$/
		}
		# "main", "security" or "" (not a Debian archive).
		function kind(suite, signed,   c) {
			c = suite
			if (sub(/(-security|\/updates)$/, "", c))
				return (known(c) || signed ~ /debian-archive-/) ? "security" : ""
			sub(/-(updates|backports|backports-sloppy|proposed-updates)$/, "", c)
			return (known(c) || signed ~ /debian-archive-/) ? "main" : ""
		}
		function emit(uri, suite, signed,   k) {
			sub(/\/+$/, "", uri)
			if (uri !~ /^https?:\/\/[^\/]/)
				return
			k = kind(suite, signed)
			if (k != "")
				print k, uri
		}
		function stanza(   n, i, j, u, s) {
			if (tolower(f["enabled"]) != "no" && (" " f["types"] " ") ~ /[ \t]deb[ \t]/) {
				n = split(f["uris"], u)
				split(f["suites"], s)
				for (i = 1; i <= n; i++)
					for (j = 1; j in s; j++)
						emit(u[i], s[j], f["signed-by"])
			}
			delete f
			last = ""
		}
		fmt == "oneline" {
			sub(/#.*/, "")
			if ($1 != "deb")
				next
			signed = ""
			if ($2 ~ /^\[/ && match($0, /\[[^]]*\]/)) {
				signed = substr($0, RSTART, RLENGTH)
				$0 = substr($0, 1, RSTART - 1) substr($0, RSTART + RLENGTH)
			}
			emit($2, $3, signed)
			next
		}
		/^#/ { next }
		/^[ \t]*$/ { stanza(); next }
		/^[ \t]/ { if (last != "") f[last] = f[last] " " $0; next }
		{
			i = index($0, ":")
			if (i == 0)
				next
			last = tolower(substr($0, 1, i - 1))
			f[last] = substr($0, i + 1)
			sub(/^[ \t]+/, "", f[last])
			sub(/[ \t]+$/, "", f[last])
		}
		END { if (fmt == "deb822") stanza() }
		' "$f"
	done
}

# debian_mirror [main|security]: the URI of that archive, or an error
# saying what was looked at and what to set.
debian_mirror() {
	local kind=${1:-main} var uri
	case $kind in
	main) var=PIDFD_DEBIAN_MIRROR ;;
	security) var=PIDFD_DEBIAN_SECURITY_MIRROR ;;
	*) die "debian_mirror: unknown archive '$kind'" ;;
	esac
	uri=${!var:-}
	[ -n "$uri" ] || uri=$(apt_debian_entries | awk -v k="$kind" '$1 == k { print $2; exit }')
	if [ -z "$uri" ]; then
		local etc=${PIDFD_APT_ETC:-/etc/apt} what=archive sfx=''
		[ "$kind" = security ] && what="security archive (needed for the *-security suites)" sfx=-security
		log "error: no mirror of the Debian $what in the host's apt sources"
		log "  looked at: $etc/sources.list, $etc/sources.list.d/*.list and *.sources"
		log "  for an http(s) entry whose suite is a Debian release (e.g. bookworm$sfx)"
		log "  set $var to its URI, e.g. $var=http://MIRROR/debian$sfx"
		return 1
	fi
	printf '%s\n' "${uri%/}"
}

# debian_sources_list SUITE...: one "deb URI SUITE main" line per suite,
# from the security archive for *-security suites.
debian_sources_list() {
	local s main='' sec=''
	for s in "$@"; do
		case $s in
		*-security)
			[ -n "$sec" ] || sec=$(debian_mirror security) || return 1
			echo "deb $sec $s main"
			;;
		*)
			[ -n "$main" ] || main=$(debian_mirror main) || return 1
			echo "deb $main $s main"
			;;
		esac
	done
}

# private_apt DIR ARCH SUITE...: a private apt configuration in DIR that
# fetches ARCH's packages from those suites of the host's Debian mirrors;
# the system's apt setup is never touched. Sets the array apt_opts (for
# apt-get and apt-cache), refreshes the package lists at most once a day
# (PIDFD_REFRESH=1: now) and holds DIR's lock on fd 9 from then on: several
# checkouts may share the cache. DIR/lists/.updated is the last refresh.
private_apt() {
	local dir=$1 arch=$2 sources stamp
	shift 2
	mkdir -p "$dir/lists/partial" "$dir/archives/partial"
	exec 9>"$dir/.lock"
	flock 9
	sources=$(debian_sources_list "$@") || exit 1
	stamp=$dir/lists/.updated
	# Other mirrors than last time: the lists must be fetched again.
	if [ "$sources" != "$(cat "$dir/sources.list" 2>/dev/null)" ]; then
		rm -f "$stamp"
		printf '%s\n' "$sources" >"$dir/sources.list"
	fi
	apt_opts=(-o "Dir::Etc::SourceList=$dir/sources.list"
		-o Dir::Etc::SourceParts=/dev/null
		-o "Dir::State::Lists=$dir/lists"
		-o "Dir::State::status=/dev/null"
		-o "Dir::Cache=$dir"
		-o "Dir::Cache::archives=$dir/archives"
		-o Debug::NoLocking=1
		-o APT::Sandbox::User=root
		-o "APT::Architecture=$arch" -o "APT::Architectures::=$arch")
	if [ -n "${PIDFD_REFRESH:-}" ] || [ -z "$(find "$stamp" -mmin -1440 2>/dev/null)" ]; then
		log "fetching the package lists of $* ($arch) from Debian"
		apt-get "${apt_opts[@]}" -qq update >&2 || die "apt-get update failed for $* ($arch)"
		touch "$stamp"
	fi
}
