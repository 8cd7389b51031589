#!/usr/bin/env bash
# Sets up what is missing, builds, and runs every test: formatting, lints, the code checks
# (module cycles, long functions), the Rust unit and integration tests, the rules crate's wasm32
# build, and the browser tests in headless Chromium. Ends with one line "tests: N passed, N failed".
set -euo pipefail
source "$(dirname "$0")/lib.sh"
bash scripts/setup.sh
bash scripts/build.sh

log="$(mktemp -d)"
trap 'rm -rf "$log"' EXIT

# Lints need rustfmt and clippy, which Debian's rustc-web lacks: use rustup's stable where the
# toolchain in force has none.
lint_toolchain=""
if ! cargo clippy --version >/dev/null 2>&1 && rustup run stable cargo clippy --version >/dev/null 2>&1; then
    lint_toolchain="stable"
fi
lint() { if [ -n "$lint_toolchain" ]; then RUSTUP_TOOLCHAIN="$lint_toolchain" cargo "$@"; else cargo "$@"; fi; }
if lint fmt --version >/dev/null 2>&1; then
    say "cargo fmt --check"
    lint fmt --all --check || die "code is not formatted: run cargo fmt --all"
fi
if lint clippy --version >/dev/null 2>&1; then
    say "cargo clippy (native crates, all targets)"
    lint clippy -q --workspace --exclude frontend --all-targets -- -D warnings || die "clippy found problems"
fi

say "no import cycle between modules, no function over 150 lines in any crate"
python3 scripts/module-cycles.py || die "modules import each other in a circle (python3 scripts/module-cycles.py --why)"
python3 scripts/long-functions.py --over 150 || die "a function is longer than 150 lines: split it"

say "rules builds for wasm32"
cargo build -q -p rules --target wasm32-unknown-unknown

say "Postgres for the database tests"
ALFAKRAFT_TEST_POSTGRES_URL="$(bash scripts/postgres.sh)" || die "Postgres could not be started"
case "$ALFAKRAFT_TEST_POSTGRES_URL" in
    postgres://*) export ALFAKRAFT_TEST_POSTGRES_URL ;;
    *) die "scripts/postgres.sh printed no URL but: $ALFAKRAFT_TEST_POSTGRES_URL" ;;
esac

# From here on a failure is counted, not fatal, so the summary line always comes out.
set +e
say "cargo test (release; frontend is wasm-only and built above)"
# A hung test must fail the run, not outlast CI's limit: both steps take a few minutes normally.
timeout 45m cargo test --workspace --exclude frontend --release --no-fail-fast 2>&1 | tee "$log/cargo.txt"
cargo_status=${PIPESTATUS[0]}

say "browser tests (node --test, playwright-core, Chromium)"
timeout 30m node --test end2end/ 2>&1 | tee "$log/node.txt"
node_status=${PIPESTATUS[0]}

passed=$(awk '/^test result:/ { for (i = 1; i <= NF; i++) if ($(i+1) ~ /^passed/) s += $i } END { print s + 0 }' "$log/cargo.txt")
failed=$(awk '/^test result:/ { for (i = 1; i <= NF; i++) if ($(i+1) ~ /^failed/) s += $i } END { print s + 0 }' "$log/cargo.txt")
passed=$((passed + $(awk '/^# pass / { n = $3 } END { print n + 0 }' "$log/node.txt")))
failed=$((failed + $(awk '/^# fail / { n = $3 } END { print n + 0 }' "$log/node.txt")))
[ "$cargo_status" = 0 ] || failed=$((failed > 0 ? failed : 1))
[ "$node_status" = 0 ] || failed=$((failed > 0 ? failed : 1))
echo "tests: $passed passed, $failed failed"
[ "$failed" = 0 ]
