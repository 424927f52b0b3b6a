#!/usr/bin/env bash
# Checks, before anything is compiled, that this machine can build (and test, benchmark) transit:
# the system packages of scripts/system-packages.txt and a Swift toolchain at least as new as
# Package.swift's swift-tools-version. `make demo`, `make test`, `make bench` and .ci/run run it,
# so a fresh clone sets itself up instead of failing at the link a minute and a half in.
#
#   scripts/check-setup.sh [--for GROUP[,GROUP...]]...   GROUP: build (always), test, bench
#
# - Everything present: prints nothing, exit 0, in a few milliseconds (one dpkg-query for all
#   the packages; the Swift version is read from the toolchain's files, not by running swift).
# - Packages missing, as root or where `sudo -n` works: installs them with apt-get (one line says
#   which; apt's own output only if it fails).
# - Packages missing otherwise: one line naming them and the command to run, exit 1.
# - No dpkg-query/apt-get (macOS, Fedora): one line naming what is needed and how to skip, exit 1.
# - Swift missing or too old: one line saying so and where to get it, exit 1.
# TRANSIT_SKIP_SETUP=1 skips all of it. Environment: SWIFT (the swift command, as in the
# Makefile), PATH (the tests put a fake dpkg-query, id and sudo first on it).
# Bash 3.2 (macOS) compatible: no associative arrays, no mapfile.

case "${TRANSIT_SKIP_SETUP:-}" in ''|0) ;; *) exit 0 ;; esac
set -f  # the list's words are package names and groups, never file patterns

here=${BASH_SOURCE[0]%/*}
[ "$here" = "${BASH_SOURCE[0]}" ] && here=.
root=$here/..
list=$here/system-packages.txt

# Which groups' lines to check: build always (every command compiles), plus each --for.
groups=" build "
while [ $# -gt 0 ]; do
  case $1 in
    --for) [ $# -ge 2 ] || { echo "usage: $0 [--for build|test|bench]..." >&2; exit 64; }
           groups="$groups${2//,/ } "; shift 2 ;;
    --for=*) value=${1#--for=}; groups="$groups${value//,/ } "; shift ;;
    -h|--help) echo "usage: $0 [--for build|test|bench]...   (TRANSIT_SKIP_SETUP=1 skips)"; exit 0 ;;
    *) echo "usage: $0 [--for build|test|bench]...   (unknown argument: $1)" >&2; exit 64 ;;
  esac
done

status=0
say() { echo "transit setup: $*" >&2; }

# --- The Swift toolchain -------------------------------------------------------------------------

# True when dotted version $1 >= $2 (numerically, part by part; missing parts are 0).
version_at_least() {
  local IFS=.
  local -a have=($1) need=($2)
  local i
  for i in 0 1 2; do
    local h=${have[i]:-0} n=${need[i]:-0}
    h=${h%%[!0-9]*}; n=${n%%[!0-9]*}
    [ "${h:-0}" -gt "${n:-0}" ] && return 0
    [ "${h:-0}" -lt "${n:-0}" ] && return 1
  done
  return 0
}

# The version Package.swift needs, from its first line: `// swift-tools-version:6.0`.
needed=
IFS= read -r first < "$root/Package.swift"
case $first in
  *swift-tools-version:*) needed=${first#*swift-tools-version:}; needed=${needed# }; needed=${needed%%[!0-9.]*} ;;
esac

swift=${SWIFT:-swift}
swift=${swift%% *}
if ! swift_path=$(command -v "$swift"); then
  say "no Swift toolchain ($swift is not on PATH); Package.swift needs Swift ${needed:-6} or newer: https://www.swift.org/install/"
  status=1
else
  # `swift --version` takes 100-150 ms (the driver starts the frontend), more than this whole
  # check may: the toolchain's standard library interface names the compiler that built it,
  # `// swift-compiler-version: Swift version 6.3.1 (...)`, beside the real (symlinks resolved)
  # binary in usr/bin. A swift that is a shim or wrapper (xcrun, swiftly) has no such file
  # beside it, and is asked.
  version=
  real=$(readlink -f "$swift_path" 2>/dev/null) || real=$swift_path
  set +f
  for interface in "${real%/*}"/../lib/swift/*/Swift.swiftmodule/*.swiftinterface; do
    [ -f "$interface" ] || continue
    n=0
    while IFS= read -r line && [ $n -lt 5 ]; do
      n=$((n + 1))
      case $line in "// swift-compiler-version:"*"Swift version "*) version=${line#*Swift version }; break ;; esac
    done < "$interface"
    break
  done
  set -f
  if [ -z "$version" ]; then
    out=$("$swift_path" --version 2>/dev/null)
    case $out in *"Swift version "*) version=${out#*Swift version } ;; esac
  fi
  version=${version%%[!0-9.]*}
  if [ -z "$version" ]; then
    say "cannot tell the version of $swift_path ($swift --version says no \"Swift version\"); Package.swift needs Swift ${needed:-6} or newer: https://www.swift.org/install/"
    status=1
  elif [ -n "$needed" ] && ! version_at_least "$version" "$needed"; then
    say "Swift $version ($swift_path) is older than the $needed Package.swift needs; a newer toolchain: https://www.swift.org/install/"
    status=1
  fi
fi

# --- The system packages -------------------------------------------------------------------------

# The lines of the groups asked for: their package specs (alternatives joined by |), every name
# (for the one dpkg-query), and what each is for.
specs=() names=() purposes=()
while IFS= read -r raw || [ -n "$raw" ]; do
  line=${raw%%#*}
  set -- $line
  [ $# -ge 1 ] || continue
  spec=$1; shift
  [ $# -ge 1 ] || set -- build  # a line without a group is needed by every command
  wanted=
  for group in "$@"; do case $groups in *" $group "*) wanted=1 ;; esac; done
  [ -n "$wanted" ] || continue
  specs+=("$spec")
  names+=(${spec//|/ })
  purpose=
  case $raw in *"#"*) purpose=${raw#*#}; purpose=${purpose# }; purpose=${purpose%% (*} ;; esac
  purposes+=("${purpose:-${spec%%|*}}")
done < "$list"

if ! command -v dpkg-query > /dev/null || ! command -v apt-get > /dev/null; then
  # No apt: which package manager this is, and what its packages are called, is not guessed.
  needs=
  for purpose in "${purposes[@]}"; do needs="${needs:+$needs, }$purpose"; done
  say "no dpkg-query/apt-get here to check the system packages; transit needs: $needs (Debian names in scripts/system-packages.txt); install them, then skip this check with TRANSIT_SKIP_SETUP=1 (e.g. TRANSIT_SKIP_SETUP=1 make test)"
  exit 1
fi

# One dpkg-query for every name: `ii  libsqlite3-dev` per package it knows (the second letter is
# the current state, i = installed); names it does not know are left out (stderr, exit 1: fine).
installed=" "
while read -r state name; do
  [ "${state:1:1}" = i ] && installed="$installed$name "
done <<EOF
$(dpkg-query -W -f='${db:Status-Abbrev} ${Package}\n' "${names[@]}" 2>/dev/null)
EOF

missing=
for spec in "${specs[@]}"; do
  found=
  for name in ${spec//|/ }; do case $installed in *" $name "*) found=1 ;; esac; done
  [ -n "$found" ] || missing="${missing:+$missing }${spec%%|*}"
done

if [ -n "$missing" ]; then
  if [ "$(id -u)" = 0 ]; then
    sudo=
  elif command -v sudo > /dev/null && sudo -n true 2> /dev/null; then
    sudo="sudo -n "
  elif command -v sudo > /dev/null; then
    say "missing $missing (not root, and sudo asks for a password); run: sudo apt-get install -y $missing"
    exit 1
  else
    say "missing $missing (not root, and no sudo); run as root: apt-get install -y $missing"
    exit 1
  fi
  say "installing $missing (${sudo:+sudo }apt-get install -y $missing)"
  # apt's output goes to a log, shown only when something fails. The package lists are
  # refreshed first: a fresh machine (or container) has none, an old one stale ones.
  log=$(mktemp "${TMPDIR:-/tmp}/transit-setup.XXXXXX")
  if ! { ${sudo}env DEBIAN_FRONTEND=noninteractive apt-get update -qq &&
         ${sudo}env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing; } < /dev/null > "$log" 2>&1; then
    cat "$log" >&2
    rm -f "$log"
    say "apt-get could not install $missing (its output is above); run: ${sudo:+sudo }apt-get install -y $missing"
    exit 1
  fi
  rm -f "$log"
fi

exit $status
