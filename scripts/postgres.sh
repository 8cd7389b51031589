#!/usr/bin/env bash
# Installs (if missing) and starts a local Postgres for the test suite, with a role and a fresh
# database for it, and prints the URL to use. Needs root for apt-get and for su postgres.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
# Only the URL goes to stdout (callers capture it): everything the tools print, such as
# pg_ctlcluster's "Removed stale pid file." after a machine restart, goes to stderr.
# The server started below must not inherit fd 3, or the caller's $(...) would wait for it.
exec 3>&1 1>&2

if ! ls /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1; then
    command -v apt-get >/dev/null || die "Postgres is missing and apt-get is not here: install it by hand"
    say "apt-get install postgresql" >&2
    apt-get update -q >/dev/null || die "apt-get update failed"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends postgresql >/dev/null \
        || die "apt-get install postgresql failed"
fi
version="$(ls /usr/lib/postgresql | sort -n | tail -1)"
if ! pg_lsclusters -h 2>/dev/null | grep -q "^$version main"; then
    pg_createcluster "$version" main >/dev/null || die "pg_createcluster failed"
fi
if ! pg_lsclusters -h | grep -q "^$version main .* online"; then
    say "starting Postgres $version" >&2
    if ! pg_ctlcluster "$version" main start 3>&- 2>/dev/null; then
        # A server killed moments ago may leave backends holding its lock for a while: wait for
        # them to go, then try once more.
        for _ in $(seq 20); do pgrep -u postgres -x postgres >/dev/null || break; sleep 0.5; done
        pg_ctlcluster "$version" main start 3>&- || die "Postgres did not start (see /var/log/postgresql/)"
    fi
fi
port="$(pg_lsclusters -h | awk -v v="$version" '$1 == v && $2 == "main" { print $3 }')"
psql_admin() { su postgres -c "psql -p $port -qtAX -c \"$1\""; }
if [ "$(psql_admin "SELECT 1 FROM pg_roles WHERE rolname = 'alfakraft'")" != 1 ]; then
    psql_admin "CREATE ROLE alfakraft LOGIN PASSWORD 'alfakraft' CREATEDB" || die "creating the role failed"
fi
# A fresh database every run: a database left by an earlier checkout (with migrations this one
# does not know) must not decide the result.
psql_admin "DROP DATABASE IF EXISTS alfakraft_test WITH (FORCE)" || die "dropping the old test database failed"
psql_admin "CREATE DATABASE alfakraft_test OWNER alfakraft" || die "creating the database failed"
echo "postgres://alfakraft:alfakraft@127.0.0.1:$port/alfakraft_test" >&3
