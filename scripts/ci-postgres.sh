#!/usr/bin/env bash
# Provision a throwaway PostgreSQL 15 + pgvector database for CI / local tests.
#
# Usage:
#   scripts/ci-postgres.sh [DBNAME]      ensure server + pgvector, create DBNAME
#                                        (default: credo_test_<pid>_<random>),
#                                        CREATE EXTENSION vector in it, and print
#                                        its DSN as the only line on stdout:
#                                          postgresql://postgres@127.0.0.1:5432/DBNAME
#   scripts/ci-postgres.sh --drop DBNAME drop DBNAME (DROP DATABASE IF EXISTS ... WITH (FORCE))
#   scripts/ci-postgres.sh --help
#
# Example:
#   export CREDO_TEST_DSN="$(scripts/ci-postgres.sh)"
#   ...; scripts/ci-postgres.sh --drop "${CREDO_TEST_DSN##*/}"
#
# Assumes Debian 12, root (for apt/make install), PostgreSQL 15 on 127.0.0.1:5432
# with trust auth for user postgres. Idempotent; a second run takes well under 2 s.
#
# pgvector is not packaged for Debian 12: on first use it is built from the
# Debian next-release (trixie) `pgvector` source package. That source is fetched
# with a PRIVATE apt configuration (temporary sources list + lists dir under a
# temp dir), so /etc/apt and /var/lib/apt/lists are never modified by that step.
# The mirror URI is taken from the machine's own apt configuration.
set -euo pipefail

PGVER=15
PGHOST=127.0.0.1
PGPORT=5432
PGUSER=postgres
PGBIN=/usr/lib/postgresql/${PGVER}/bin
PG_CONFIG=${PGBIN}/pg_config
SRC_SUITE=trixie   # Debian release whose pgvector source package is built
LOCKFILE=/var/lock/credo-ci-postgres.lock

export DEBIAN_FRONTEND=noninteractive

# Keep the real stdout (fd 3) for the DSN only; everything else goes to stderr.
exec 3>&1 1>&2

log() { printf 'ci-postgres: %s\n' "$*" >&2; }
die() { log "ERROR: $*"; exit 1; }

usage() { sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//' >&2; }

psql_q() { psql -X -q -v ON_ERROR_STOP=1 -h "$PGHOST" -p "$PGPORT" -U "$PGUSER" "$@"; }

valid_dbname() { [[ $1 =~ ^[A-Za-z_][A-Za-z0-9_]{0,62}$ ]]; }

as_root() {
  [[ $(id -u) -eq 0 ]] || die "need root to $* (re-run as root or provision manually)"
}

apt_updated=0
apt_update() { # refresh the system package lists at most once per run
  if [[ $apt_updated -eq 0 ]]; then
    log "apt-get update"
    apt-get update -q
    apt_updated=1
  fi
}

pkg_installed() {
  [[ $(dpkg-query -W -f='${db:Status-Status}' "$1" 2>/dev/null || true) == installed ]]
}

apt_install() { # install the given packages that are missing; update lists only if needed
  local missing=() p
  for p in "$@"; do pkg_installed "$p" || missing+=("$p"); done
  [[ ${#missing[@]} -eq 0 ]] && return 0
  as_root "install ${missing[*]}"
  local opts=(-y -q --no-install-recommends -o Dpkg::Options::=--force-confdef -o Dpkg::Options::=--force-confold)
  log "apt-get install ${missing[*]}"
  if ! apt-get install "${opts[@]}" "${missing[@]}"; then
    # Lists absent or stale (e.g. 404 on an old version): refresh once and retry.
    apt_update
    apt-get install "${opts[@]}" "${missing[@]}"
  fi
}

wait_ready() { # $1 = seconds
  local i
  for ((i = 0; i < $1; i++)); do
    pg_isready -q -h "$PGHOST" -p "$PGPORT" && return 0
    sleep 1
  done
  return 1
}

ensure_server() {
  if [[ ! -x $PGBIN/postgres ]] || ! command -v pg_isready >/dev/null || ! command -v pg_ctlcluster >/dev/null; then
    log "PostgreSQL ${PGVER} server binaries missing; installing postgresql-${PGVER}"
    apt_install "postgresql-${PGVER}"
  fi
  pg_isready -q -h "$PGHOST" -p "$PGPORT" && return 0
  as_root "start PostgreSQL"
  if ! pg_lsclusters -h 2>/dev/null | awk -v v="$PGVER" '$1 == v && $2 == "main" {f = 1} END {exit !f}'; then
    log "creating cluster ${PGVER}/main"
    pg_createcluster "$PGVER" main --port "$PGPORT"
  fi
  log "starting PostgreSQL ${PGVER}/main"
  pg_ctlcluster "$PGVER" main start || service postgresql start || true
  wait_ready 30 || die "PostgreSQL not accepting connections on ${PGHOST}:${PGPORT} after 30 s"
}

ensure_auth() { # fresh installs default to scram for TCP; this script relies on trust
  psql_q -d postgres -tAc 'select 1' >/dev/null 2>&1 && return 0
  as_root "configure pg_hba.conf"
  local hba
  hba=$(runuser -u postgres -- psql -X -qtA -p "$PGPORT" -c 'show hba_file') || die "cannot connect to PostgreSQL"
  log "adding trust entries for ${PGUSER}@127.0.0.1/::1 to $hba"
  sed -i "1i host all ${PGUSER} 127.0.0.1/32 trust\nhost all ${PGUSER} ::1/128 trust" "$hba"
  runuser -u postgres -- psql -X -qtA -p "$PGPORT" -c 'select pg_reload_conf()' >/dev/null
  psql_q -d postgres -tAc 'select 1' >/dev/null || die "cannot connect as ${PGUSER}@${PGHOST}:${PGPORT}"
}

vector_available() {
  local sharedir=/usr/share/postgresql/${PGVER} libdir=/usr/lib/postgresql/${PGVER}/lib
  [[ -f $sharedir/extension/vector.control && -f $libdir/vector.so ]]
}

mirror_uri() { # the machine's main Debian mirror URI (not the security one)
  local codename uri=""
  codename=$(. /etc/os-release && echo "${VERSION_CODENAME:-bookworm}")
  local f=/etc/apt/sources.list.d/debian.sources
  if [[ -f $f ]]; then
    # deb822 stanzas: prefer the stanza whose Suites contains the bare codename.
    uri=$(awk -v cn="$codename" '
      BEGIN { RS = ""; FS = "\n" }
      {
        u = ""; s = ""; t = ""
        for (i = 1; i <= NF; i++) {
          if ($i ~ /^[ \t]*#/) continue
          if (tolower($i) ~ /^uris:/)   { u = $i; sub(/^[^:]*:[ \t]*/, "", u) }
          if (tolower($i) ~ /^suites:/) { s = " " $i " " }
          if (tolower($i) ~ /^types:/)  { t = $i }
        }
        split(u, a, /[ \t]+/)
        if (t ~ /deb/ && a[1] != "" && s ~ ("[ \t:]" cn "[ \t]")) { found = a[1]; exit }
        if (a[1] != "" && a[1] !~ /security/ && first == "") first = a[1]
      }
      END { if (found != "") print found; else if (first != "") print first }' "$f")
  fi
  if [[ -z $uri && -f /etc/apt/sources.list ]]; then
    uri=$(awk -v cn="$codename" '
      /^[ \t]*deb(-src)?[ \t]/ {
        i = 2; if ($i ~ /^\[/) { while ($i !~ /\]$/ && i < NF) i++; i++ }
        if ($(i + 1) == cn) { print $i; exit }
      }' /etc/apt/sources.list)
  fi
  [[ -n $uri ]] || die "could not determine the Debian mirror URI from /etc/apt/sources.list.d/debian.sources or /etc/apt/sources.list"
  printf '%s\n' "${uri%/}"
}

build_pgvector() {
  as_root "build and install pgvector"
  local t0=$SECONDS
  log "pgvector not installed; building it from Debian ${SRC_SUITE} source"
  apt_install "postgresql-server-dev-${PGVER}" dpkg-dev make gcc
  # Installing server-dev may upgrade the PostgreSQL 15 minor version (and restart it).
  ensure_server

  local uri keyring=/usr/share/keyrings/debian-archive-keyring.gpg opts=()
  uri=$(mirror_uri)
  log "using mirror ${uri} for deb-src ${SRC_SUITE}"

  tmp=$(mktemp -d /tmp/ci-postgres.XXXXXX)
  trap 'rm -rf "$tmp"' EXIT
  mkdir -p "$tmp/apt/sources.list.d" "$tmp/apt/lists/partial" "$tmp/src"
  if [[ -f $keyring ]]; then
    echo "deb-src [signed-by=${keyring}] ${uri} ${SRC_SUITE} main" >"$tmp/apt/sources.list"
  else
    echo "deb-src ${uri} ${SRC_SUITE} main" >"$tmp/apt/sources.list"
  fi
  # Private apt state: the temporary deb-src entry never touches /etc/apt or
  # /var/lib/apt/lists, so nothing has to be restored afterwards.
  opts=(-q
    -o "Dir::Etc::SourceList=$tmp/apt/sources.list"
    -o "Dir::Etc::SourceParts=$tmp/apt/sources.list.d"
    -o "Dir::State::Lists=$tmp/apt/lists"
    -o "Dir::Cache::pkgcache=" -o "Dir::Cache::srcpkgcache="
    -o "APT::Sandbox::User=root")
  apt-get "${opts[@]}" update
  (cd "$tmp/src" && apt-get "${opts[@]}" source pgvector)

  local dir
  dir=$(find "$tmp/src" -mindepth 1 -maxdepth 1 -type d -name 'pgvector-*' | head -n1)
  [[ -n $dir ]] || die "apt-get source pgvector produced no source directory"
  local mk=(PG_CONFIG="$PG_CONFIG" with_llvm=no OPTFLAGS="")
  make -C "$dir" -j"$(nproc)" "${mk[@]}"
  make -C "$dir" "${mk[@]}" install
  rm -rf "$tmp"
  trap - EXIT
  vector_available || die "pgvector build finished but vector.control/vector.so are not installed"
  log "pgvector built and installed in $((SECONDS - t0)) s"
}

# ---------------------------------------------------------------- main
mode=create
dbname=""
case "${1:-}" in
  -h | --help) usage; exit 0 ;;
  --drop)
    [[ $# -eq 2 ]] || { usage; exit 2; }
    mode=drop; dbname=$2 ;;
  -*) usage; exit 2 ;;
  "") [[ $# -le 1 ]] || { usage; exit 2; } ;;
  *) [[ $# -eq 1 ]] || { usage; exit 2; }; dbname=$1 ;;
esac
if [[ -z $dbname ]]; then
  dbname="credo_test_$$_$(od -An -N4 -tx4 /dev/urandom | tr -d ' \n')"
fi
valid_dbname "$dbname" || die "invalid database name '$dbname' (use [A-Za-z_][A-Za-z0-9_]*, at most 63 chars)"

if [[ $mode == drop ]]; then
  ensure_server
  log "dropping database $dbname"
  psql_q -d postgres -v db="$dbname" <<<'DROP DATABASE IF EXISTS :"db" WITH (FORCE);'
  exit 0
fi

ensure_server
if ! vector_available; then
  # Serialise first-time setup between concurrent CI jobs.
  if command -v flock >/dev/null && [[ -w ${LOCKFILE%/*} ]]; then
    exec 9>"$LOCKFILE"
    flock 9
  fi
  vector_available || build_pgvector
fi
ensure_auth

exists=$(psql_q -d postgres -tA -v db="$dbname" <<<"SELECT 1 FROM pg_database WHERE datname = :'db';")
if [[ $exists != 1 ]]; then
  log "creating database $dbname"
  psql_q -d postgres -v db="$dbname" <<<'CREATE DATABASE :"db";'
else
  log "database $dbname already exists; reusing it"
fi
PGOPTIONS='-c client_min_messages=warning' psql_q -d "$dbname" -c 'CREATE EXTENSION IF NOT EXISTS vector;'

printf 'postgresql://%s@%s:%s/%s\n' "$PGUSER" "$PGHOST" "$PGPORT" "$dbname" >&3
