#!/usr/bin/env bash
# Makes this machine ready to build, run and test the project. Idempotent: every step checks first
# and skips what is already there, so a warm run takes a second. See README, "Setup".
set -euo pipefail
source "$(dirname "$0")/lib.sh"

APT_UPDATED=""
apt_install() {
    command -v apt-get >/dev/null || die "need $* but apt-get is missing: install them by hand"
    [ "$(id -u)" = 0 ] || die "need $* : run as root or install them by hand"
    if [ -z "$APT_UPDATED" ]; then
        say "apt-get update"
        apt-get update -q >/dev/null || die "apt-get update failed"
        APT_UPDATED=1
    fi
    say "apt-get install $*"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "$@" >/dev/null \
        || die "apt-get install $* failed"
}
have_deb() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "ok installed"; }

has_wasm_std() { # $1: a sysroot
    compgen -G "$1/lib/rustlib/wasm32-unknown-unknown/lib/libstd-*.rlib" >/dev/null
}

# 1. A Rust toolchain that builds wasm32.
command -v cargo >/dev/null || die "cargo is missing: install Rust with rustup first"
mkdir -p "$ROOT/target"

use_web_toolchain() {
    # rustup cannot download the target here: build wasm32's std from Debian's rustc-web sources
    # with the matching Debian compiler, and link that toolchain into rustup as `web`.
    say "Rust: using Debian's rustc-web toolchain for wasm32"
    missing=()
    for pkg in rustc-web cargo-web rust-web-src lld-22; do have_deb "$pkg" || missing+=("$pkg"); done
    [ ${#missing[@]} -eq 0 ] || apt_install "${missing[@]}"
    if ! has_wasm_std /usr; then
        say "building std for wasm32 with /usr/bin/rustc (about a minute)"
        scratch="$(mktemp -d)"
        mkdir -p "$scratch/src" && : > "$scratch/src/lib.rs"
        printf '[package]\nname = "wasm-std"\nversion = "0.0.0"\nedition = "2021"\n' > "$scratch/Cargo.toml"
        (cd "$scratch" && env -u RUSTUP_TOOLCHAIN PATH="/usr/bin:$PATH" RUSTC=/usr/bin/rustc RUSTC_BOOTSTRAP=1 \
            /usr/bin/cargo build -q --release --target wasm32-unknown-unknown -Zbuild-std=std,panic_abort) \
            || die "building std for wasm32 failed"
        mkdir -p /usr/lib/rustlib/wasm32-unknown-unknown/lib
        find "$scratch/target/wasm32-unknown-unknown/release/deps" -name 'lib*.rlib' ! -name 'libwasm_std-*' \
            -exec cp {} /usr/lib/rustlib/wasm32-unknown-unknown/lib/ \;
        rm -rf "$scratch"
    fi
    rustup toolchain list | grep -q '^web' || rustup toolchain link web /usr
    echo web > "$TOOLCHAIN_FILE"
    export RUSTUP_TOOLCHAIN=web
}

if [ -n "${ALFAKRAFT_FORCE_WEB_TOOLCHAIN:-}" ] || [ "$(cat "$TOOLCHAIN_FILE" 2>/dev/null)" = web ]; then
    use_web_toolchain
elif has_wasm_std "$(rustc --print sysroot)"; then
    : > "$TOOLCHAIN_FILE"
elif say "rustup target add wasm32-unknown-unknown" && timeout 300 rustup target add wasm32-unknown-unknown; then
    : > "$TOOLCHAIN_FILE"
else
    use_web_toolchain
fi
say "Rust: $(rustc --version), wasm32 ready"
# std's sources, for build.sh to rebuild std with the bundle's size settings (Debian's rustc-web
# has them in rust-web-src). Optional: without them the bundle is only larger.
if ! has_std_sources; then
    say "rustup component add rust-src"
    timeout 300 rustup component add rust-src || say "no rust-src: the bundle will be built without its size flags"
fi

# 2. wasm-bindgen-cli at exactly the version the lock file pins (the two must match).
[ -f Cargo.lock ] || die "Cargo.lock is missing"
wb_version="$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/[^0-9.]/, ""); print; exit }' Cargo.lock)"
[ -n "$wb_version" ] || die "no wasm-bindgen in Cargo.lock"
if [ "$(wasm-bindgen --version 2>/dev/null)" != "wasm-bindgen $wb_version" ]; then
    say "cargo install wasm-bindgen-cli $wb_version (about 5 minutes)"
    # No --locked: its lock file pins a crate version the registry here lacks.
    cargo install -q wasm-bindgen-cli --version "$wb_version" || die "installing wasm-bindgen-cli failed"
fi

# 3. Node tools: wasm-opt (binaryen 132), esbuild, playwright-core and axe-core, pinned by package-lock.json.
if ! command -v npm >/dev/null; then apt_install nodejs npm; fi
if [ ! -x node_modules/.bin/wasm-opt ] || [ ! -x node_modules/.bin/esbuild ] || [ ! -d node_modules/playwright-core ] || [ ! -d node_modules/axe-core ] \
    || [ package-lock.json -nt node_modules/.package-lock.json ]; then
    say "npm ci (binaryen, esbuild, playwright-core, axe-core)"
    npm ci --no-audit --no-fund --loglevel=error || die "npm ci failed"
fi
wasm-opt --version | grep -q "version 132" || die "wasm-opt on PATH is not binaryen 132: $(wasm-opt --version)"

# 4. Chromium for the browser tests (Playwright cannot download its own browser here); not when
# only building (ALFAKRAFT_SETUP_FOR=build, as the Dockerfile does).
if [ "${ALFAKRAFT_SETUP_FOR:-}" != build ] && ! command -v chromium >/dev/null; then apt_install chromium; fi

# 5. For the e-mail and push tests, a real SMTP server (Python's aiosmtpd) and a push service
# (Python's cryptography) on loopback; the tests use the Python on the path or the system's.
has_python_module() { python3 -c "import $1" 2>/dev/null || /usr/bin/python3 -c "import $1" 2>/dev/null; }
if [ "${ALFAKRAFT_SETUP_FOR:-}" != build ]; then
    python_missing=()
    has_python_module aiosmtpd || python_missing+=(python3-aiosmtpd)
    has_python_module cryptography || python_missing+=(python3-cryptography)
    [ ${#python_missing[@]} -eq 0 ] || apt_install "${python_missing[@]}"
fi

say "setup complete"
