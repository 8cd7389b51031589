#!/usr/bin/env bash
# Builds what the server serves and the server itself, in release, without cargo-leptos:
# the wasm bundle (cargo → wasm-bindgen → wasm-opt) with the CSS and public assets into
# target/site, then the server binary target/release/alfakraft. Run setup.sh first.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

# Size first for what the browser fetches (issue 18): std is rebuilt with the bundle, so a panic
# aborts at once instead of formatting a message, and neither panic locations nor `Debug` output
# are compiled in (about 7 % of the bundle). These flags are unstable: RUSTC_BOOTSTRAP lets the
# stable compiler take them. Without std's sources (setup.sh adds them) the bundle builds as
# before, larger. The flags add to `.cargo/config.toml`'s for wasm32.
wasm_build=(cargo build --target wasm32-unknown-unknown --profile wasm-release)
if has_std_sources; then
    export RUSTC_BOOTSTRAP=1
    export CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS="-Zlocation-detail=none -Zfmt-debug=none -Zunstable-options -Cpanic=immediate-abort"
    wasm_build+=(-Zbuild-std=std,panic_abort)
else
    say "no std sources for $(rustc --version): the bundle is built without its size flags"
fi

# The pages' bundles, built the same way three times: the app's (every other page), with the
# frontend's `game` feature the game page's own (the game's route alone, so a smaller module on
# the page players open most), and with `device` the device game page's (so the rules' game
# state stays out of the others); see app::Bundle.
# The pages' bundles also take std's smaller, slower routines (sorting, mostly): they sort little.
# The analysis module below searches moves and keeps the fast ones.
pages_std=()
if has_std_sources; then
    pages_std=(-Zbuild-std-features=optimize_for_size)
fi
pkg="$SITE_ROOT/pkg"
mkdir -p "$pkg"
wasm_in="target/wasm32-unknown-unknown/wasm-release/frontend.wasm"
esbuild="$PWD/node_modules/.bin/esbuild"
# page_bundle NAME BOOT [FEATURES]: builds the frontend into $pkg/NAME.js and NAME_bg.wasm, and
# its start-up script $pkg/BOOT: the glue with the call that hydrates the page, bundled into one
# module and minified (the server puts it inside a browser's first page, app::assets).
page_bundle() {
    local name="$1" boot="$2"; shift 2
    say "building the browser bundle $name (wasm32, profile wasm-release)"
    "${wasm_build[@]}" "${pages_std[@]}" -p frontend --lib "$@"
    # wasm-bindgen and wasm-opt take a while: redo them only when the compiled module changed.
    local stamp="$pkg/.$name-sha256" source_hash
    source_hash="$(sha256sum "$wasm_in" | cut -d' ' -f1)"
    if [ "$(cat "$stamp" 2>/dev/null)" != "$source_hash" ] || [ ! -f "$pkg/${name}_bg.wasm" ]; then
        wasm-bindgen --target web --no-typescript --out-dir "$pkg" --out-name "$name" "$wasm_in"
        # --converge repeats -Oz until it stops shrinking the module: 1.6 KB brotli for ~30 s.
        say "wasm-opt -Oz --converge"
        wasm-opt -Oz --converge --enable-reference-types --enable-bulk-memory --enable-nontrapping-float-to-int \
            --enable-sign-ext --enable-mutable-globals \
            -o "$pkg/${name}_bg.wasm" "$pkg/${name}_bg.wasm"
        # Similar functions side by side, and short import names: about 17 KB less brotli. The
        # check first proves the renumbering exact on this very module (identity, and reversed
        # twice).
        node scripts/pack-wasm.mjs --check "$pkg/${name}_bg.wasm"
        node scripts/pack-wasm.mjs "$pkg/${name}_bg.wasm" "$pkg/$name.js"
        echo "$source_hash" > "$stamp"
    fi
    (cd "$pkg" && echo "import init, { hydrate } from './$name.js';
init({ module_or_path: '/pkg/${name}_bg.wasm' }).then(() => hydrate());" \
        | "$esbuild" --bundle --minify --format=esm --log-level=warning --outfile="$boot")
}
page_bundle "$OUTPUT_NAME" boot.js
page_bundle game game-boot.js --features game
page_bundle device device-boot.js --features device
# The analysis module: the engine for the browser, which a Web Worker loads only when a player
# opens analysis (never part of the pages' bundle).
say "building the analysis module (wasm32, profile wasm-release)"
"${wasm_build[@]}" -p analysis --lib --no-default-features
analysis_in="target/wasm32-unknown-unknown/wasm-release/analysis.wasm"
analysis_stamp="$pkg/.analysis-sha256"
analysis_hash="$(sha256sum "$analysis_in" | cut -d' ' -f1)"
if [ "$(cat "$analysis_stamp" 2>/dev/null)" != "$analysis_hash" ] || [ ! -f "$pkg/analysis_bg.wasm" ]; then
    wasm-bindgen --target web --no-typescript --out-dir "$pkg" --out-name analysis "$analysis_in"
    wasm-opt -Oz --enable-reference-types --enable-bulk-memory --enable-nontrapping-float-to-int \
        --enable-sign-ext --enable-mutable-globals \
        -o "$pkg/analysis_bg.wasm" "$pkg/analysis_bg.wasm"
    node scripts/pack-wasm.mjs --check "$pkg/analysis_bg.wasm"
    node scripts/pack-wasm.mjs "$pkg/analysis_bg.wasm" "$pkg/analysis.js"
    echo "$analysis_hash" > "$analysis_stamp"
fi
# The stylesheet goes inside a browser's first page too (app::assets), and as a file after that.
"$esbuild" style/main.css --minify --log-level=warning --log-override:css-syntax-error=error \
    --outfile="$pkg/$OUTPUT_NAME.css"
cp -r public/. "$SITE_ROOT/"
# Precompressed copies: the server sends brotli to browsers that accept it, else gzip.
bundle=("$pkg/${OUTPUT_NAME}_bg.wasm" "$pkg/$OUTPUT_NAME.js" "$pkg/$OUTPUT_NAME.css" "$pkg/boot.js"
        "$pkg/game_bg.wasm" "$pkg/game.js" "$pkg/game-boot.js"
        "$pkg/device_bg.wasm" "$pkg/device.js" "$pkg/device-boot.js"
        "$pkg/analysis_bg.wasm" "$pkg/analysis.js" "$SITE_ROOT/analysis-worker.js"
        "$SITE_ROOT/bot-worker.js" "$SITE_ROOT/app.js" "$SITE_ROOT/sw.js")
for f in "${bundle[@]}"; do
    gzip -9 -n -k -f "$f"
done
node scripts/brotli.mjs "${bundle[@]}"
size() { stat -c %s "$1"; }
for f in "${bundle[@]}"; do
    say "bundle: $(basename "$f") $(size "$f") bytes, $(size "$f.gz") gzipped, $(size "$f.br") brotli"
done
say "inline in a browser's first page: boot.js $(size "$pkg/boot.js") bytes (a game page: game-boot.js $(size "$pkg/game-boot.js"), a device game: device-boot.js $(size "$pkg/device-boot.js")), $OUTPUT_NAME.css $(size "$pkg/$OUTPUT_NAME.css") bytes"

say "building the server (release)"
unset RUSTC_BOOTSTRAP CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS
cargo build -p server --release
