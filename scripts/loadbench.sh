#!/usr/bin/env bash
# The load bench: starts the release server on a fresh SQLite file, then on Postgres, and runs the
# load generator against each; prints per database one JSON line, then one plain line
# `<database>: commits/s X p99 Y ms rss Z MB` (the servers' memory at the end, every stream still
# open). Arguments go to the generator (e.g. --players 64 --seconds 30 --watchers 5000), except
# `--instances N`, which runs Postgres only, with N instances on the one database behind the
# tests' balancer (end2end/support/balancer.mjs; N may be 1, to compare with the balancer's own
# cost included); SQLite, one file, is one instance. `ALFAKRAFT_BIN=path` runs another build of
# the server (an earlier commit's, to compare) under the same generator.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cargo build -q --release -p server --bin alfakraft --bin loadgen
SERVER="${ALFAKRAFT_BIN:-target/release/alfakraft}"

# Starts an instance with `env` arguments; sets PID and URL once it listens.
start_instance() {
    local dir log
    dir="$(mktemp -d)"
    DIRS+=("$dir")
    log="$dir/server.log"
    # Every guest and stream comes from this one address: the per-address limits would refuse them.
    env "$@" ALFAKRAFT_ACCOUNTS_PER_HOUR=1000000 ALFAKRAFT_CONNECTIONS_PER_ADDRESS=1000000 \
        "$SERVER" --addr 127.0.0.1:0 --data-dir "$dir" --log warn >"$log" 2>&1 &
    PID=$!
    for _ in $(seq 100); do
        URL="$(sed -n 's/^Alfa Kraft is running at //p' "$log")"
        [ -n "$URL" ] && break
        sleep 0.1
    done
    [ -n "$URL" ] || { cat "$log"; die "the server did not start"; }
}

run_against() { # label, instances (0: one, not behind the balancer), then `env` arguments
    local label="$1" count="$2" pids=() urls=() url balancer=""
    shift 2
    DIRS=()
    for _ in $(seq "$((count > 0 ? count : 1))"); do
        start_instance "$@"
        pids+=("$PID")
        urls+=("$URL")
    done
    url="${urls[0]}"
    if [ "$count" -gt 0 ]; then
        coproc BALANCER { exec node scripts/balancer.mjs "${urls[@]}"; }
        balancer=$BALANCER_PID
        read -r url <&"${BALANCER[0]}"
    fi
    local measured=()
    for pid in "${pids[@]}"; do measured+=(--server-pid "$pid"); done
    # The Postgres server's own CPU time per commit, when it runs here.
    postmaster="$(pgrep -o -x postgres || true)"
    [ "$label" = sqlite ] || [ -z "$postmaster" ] || measured+=(--postgres-pid "$postmaster")
    [ "$label" = sqlite ] || measured+=(--database-url "$DATABASE")
    # shellcheck disable=SC2086 # the arguments are meant to split
    target/release/loadgen --url "$url" --label "$label" "${measured[@]}" $LOADGEN_ARGS
    if [ -n "$balancer" ]; then
        # The balancer shares the machine: its CPU time over the whole run, to read the rest by.
        awk '{ printf "balancer: cpu %.1f s\n", ($14 + $15) / 100 }' "/proc/$balancer/stat"
        kill "$balancer"
    fi
    kill "${pids[@]}"
    wait "${pids[@]}" 2>/dev/null || true
    rm -rf "${DIRS[@]}"
}

INSTANCES=0
args=()
while [ $# -gt 0 ]; do
    case "$1" in
        --instances) INSTANCES="$2"; shift 2 ;;
        *) args+=("$1"); shift ;;
    esac
done
LOADGEN_ARGS="${args[*]}"
if [ "$INSTANCES" -gt 0 ]; then
    say "Postgres, $INSTANCES instance(s) behind the balancer" >&2
    DATABASE="$(bash scripts/postgres.sh)"
    run_against "postgres-$INSTANCES" "$INSTANCES" DATABASE_URL="$DATABASE"
    exit
fi
say "SQLite (WAL, one file)" >&2
run_against sqlite 0 -u DATABASE_URL
say "Postgres" >&2
DATABASE="$(bash scripts/postgres.sh)"
run_against postgres 0 DATABASE_URL="$DATABASE"
