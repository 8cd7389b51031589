#!/usr/bin/env bash
# The load bench: starts the release server on a fresh SQLite file, then on Postgres, and runs the
# load generator against each; prints per database one JSON line, then one plain line
# `<database>: commits/s X p99 Y ms rss Z MB` (the server's memory at the end, every stream still
# open). Arguments go to the generator (e.g. --players 64 --seconds 30 --watchers 5000).
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cargo build -q --release -p server --bin alfakraft --bin loadgen

run_against() { # label, then `env` arguments for the server
    local label="$1" dir log url
    shift
    dir="$(mktemp -d)"
    log="$dir/server.log"
    # Every guest and stream comes from this one address: the per-address limits would refuse them.
    env "$@" ALFAKRAFT_ACCOUNTS_PER_HOUR=1000000 ALFAKRAFT_CONNECTIONS_PER_ADDRESS=1000000 \
        target/release/alfakraft --addr 127.0.0.1:0 --data-dir "$dir" --log warn >"$log" 2>&1 &
    local pid=$!
    for _ in $(seq 100); do
        url="$(sed -n 's/^Alfa Kraft is running at //p' "$log")"
        [ -n "$url" ] && break
        sleep 0.1
    done
    [ -n "$url" ] || { cat "$log"; die "the server did not start"; }
    # shellcheck disable=SC2086 # the arguments are meant to split
    target/release/loadgen --url "$url" --label "$label" --server-pid "$pid" $LOADGEN_ARGS
    kill "$pid"
    wait "$pid" 2>/dev/null || true
    rm -rf "$dir"
}

LOADGEN_ARGS="$*"
say "SQLite (WAL, one file)" >&2
run_against sqlite -u DATABASE_URL
say "Postgres" >&2
run_against postgres DATABASE_URL="$(bash scripts/postgres.sh)"
