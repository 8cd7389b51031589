# Shared by the scripts: the project root, the toolchain that builds wasm32 here, and the tools'
# PATH. Sourced, not run.

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

# `setup.sh` records which Rust toolchain can build wasm32 on this machine: empty for the default
# toolchain (rustup could add the target), or `web` for Debian's rustc-web linked into rustup.
TOOLCHAIN_FILE="$ROOT/target/.wasm-toolchain"
if [ -s "$TOOLCHAIN_FILE" ]; then
    RUSTUP_TOOLCHAIN="$(cat "$TOOLCHAIN_FILE")"
    export RUSTUP_TOOLCHAIN
fi

# The project's own wasm-opt (binaryen 132) comes first: Debian's binaryen 108 breaks hydration.
export PATH="$ROOT/node_modules/.bin:$HOME/.cargo/bin:$PATH"

SITE_ROOT="$ROOT/target/site"
OUTPUT_NAME="alfakraft"

# Whether the toolchain in force has std's sources, which build.sh needs to rebuild std with the
# bundle's size settings.
has_std_sources() { [ -d "$(rustc --print sysroot)/lib/rustlib/src/rust/library" ]; }

say() { printf '\033[1m==> %s\033[0m\n' "$*"; }
die() { printf '\033[1;31merror: %s\033[0m\n' "$*" >&2; exit 1; }
