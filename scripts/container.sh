#!/usr/bin/env bash
# Builds the Dockerfile with Podman and tries the image, on a machine that reaches only Debian's
# packages and the package registries (no Docker Hub): it makes the two base images itself (Debian
# bookworm by debootstrap, and the same with gcc and this machine's Rust toolchain for the build
# stage), builds, runs the image with a volume, waits until its HEALTHCHECK passes, checks it runs
# as a non-root user, plays a move through it, and stops it with SIGTERM.
#
#   bash scripts/container.sh           (as root; about 25 minutes cold, most of it the build)
#
# Not part of scripts/test.sh: building the image compiles everything again from scratch.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

[ "$(id -u)" = 0 ] || die "run as root (podman and debootstrap)"
work="${ALFAKRAFT_CONTAINER_WORK:-/var/tmp/alfakraft-container}"
mkdir -p "$work"
for tool in podman debootstrap; do
    command -v "$tool" >/dev/null || {
        say "apt-get install $tool"
        DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "$tool" >/dev/null
    }
done
# vfs: overlay storage needs kernel support a sandboxed machine may lack.
podman() { command podman --storage-driver vfs "$@"; }

runtime_image=localhost/alfakraft-base/debian:bookworm-slim
build_image=localhost/alfakraft-base/rust:bookworm
if ! podman image exists "$runtime_image"; then
    say "debootstrap: Debian bookworm, minimal (as debian:bookworm-slim)"
    rm -rf "$work/debian"
    debootstrap --variant=minbase --include=passwd,ca-certificates bookworm "$work/debian" \
        http://deb.debian.org/debian >/dev/null
    tar -C "$work/debian" -c . | podman import - "$runtime_image" >/dev/null
fi
if ! podman image exists "$build_image"; then
    say "the build base: Debian with gcc and this machine's Rust $(rustc --version | cut -d' ' -f2)"
    rm -rf "$work/rust"
    cp -a "$work/debian" "$work/rust"
    cp /etc/resolv.conf "$work/rust/etc/resolv.conf"
    # This machine's own certificate authorities (a proxy in front of the registries may sign
    # with one), so that cargo and npm inside reach what they reach here.
    cp -r /usr/local/share/ca-certificates/. "$work/rust/usr/local/share/ca-certificates/" 2>/dev/null || true
    chroot "$work/rust" sh -c 'apt-get update -q >/dev/null &&
        DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends gcc libc6-dev >/dev/null &&
        apt-get clean && update-ca-certificates >/dev/null'
    mkdir -p "$work/rust/usr/local/rust"
    cp -a "$(rustc --print sysroot)/." "$work/rust/usr/local/rust/"
    tar -C "$work/rust" -c . | podman import \
        --change 'ENV PATH=/usr/local/cargo/bin:/usr/local/rust/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
        --change 'ENV CARGO_HOME=/usr/local/cargo' \
        --change 'ENV NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt' - "$build_image" >/dev/null
fi

say "podman build (the Dockerfile)"
started=$(date +%s)
podman build --network host --isolation chroot \
    --build-arg BUILD_IMAGE="$build_image" --build-arg RUNTIME_IMAGE="$runtime_image" \
    -t localhost/alfakraft "$ROOT"
say "built in $(( $(date +%s) - started )) s; image $(podman image inspect localhost/alfakraft --format '{{.Size}}') bytes"

port="${ALFAKRAFT_CONTAINER_PORT:-3917}"
podman rm -f alfakraft-try >/dev/null 2>&1 || true
podman volume rm -f alfakraft-try-data >/dev/null 2>&1 || true
podman run -d --name alfakraft-try --network host -e LEPTOS_SITE_ADDR="127.0.0.1:$port" \
    -v alfakraft-try-data:/var/lib/alfakraft localhost/alfakraft >/dev/null
cleanup() {
    podman rm -f alfakraft-try >/dev/null 2>&1 || true
    podman volume rm -f alfakraft-try-data >/dev/null 2>&1 || true
}
trap cleanup EXIT
for _ in $(seq 50); do
    podman healthcheck run alfakraft-try >/dev/null 2>&1 && break
    sleep 0.2
done
podman healthcheck run alfakraft-try || die "the HEALTHCHECK does not pass"
say "healthy: $(curl -fsS "http://127.0.0.1:$port/healthz")"
uid="$(podman exec alfakraft-try id -u)"
[ "$uid" != 0 ] || die "the server runs as root"
say "runs as uid $uid; data in the volume: $(podman exec alfakraft-try ls /var/lib/alfakraft | tr '\n' ' ')"
curl -fsS -o /dev/null -H 'accept-encoding: br' "http://127.0.0.1:$port/pkg/alfakraft_bg.wasm" \
    || die "the bundle is not served"
# A move through the API, as a browser page makes it.
jar="$work/cookies"
rm -f "$jar"
curl -fsS -c "$jar" -b "$jar" -o /dev/null --data "name=box_$RANDOM&password=a+good+password" \
    "http://127.0.0.1:$port/api/account/sign-up"
game="$(curl -fsS -c "$jar" -b "$jar" -H 'content-type: application/json' --data \
    '{"new":{"variant":"Classic","dictionary":"en","format":"Casual","opponent":{"PassAndPlay":{"players":2}}}}' \
    "http://127.0.0.1:$port/api/games/create" | sed -n 's/.*"id":"\([^"]*\)".*/\1/p')"
[ -n "$game" ] || die "no game was created"
answer="$(curl -fsS -c "$jar" -b "$jar" -H 'content-type: application/json' \
    --data "{\"id\":\"$game\",\"expected_version\":0,\"action\":{\"Pass\":{\"seat\":0}}}" \
    "http://127.0.0.1:$port/api/games/act")"
case "$answer" in '{"Ok"'*) say "a move played in game $game" ;; *) die "the move failed: $answer" ;; esac
asked=$(date +%s%N)
podman stop -t 15 alfakraft-try >/dev/null
say "SIGTERM to exit: $(( ($(date +%s%N) - asked) / 1000000 )) ms"
say "container check passed"
