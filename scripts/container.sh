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
    # As the slim image: no package files or lists left behind.
    rm -rf "$work/debian/var/cache/apt/archives/"*.deb "$work/debian/var/lib/apt/lists/"*
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
podman build --format docker --network host --isolation chroot \
    --build-arg BUILD_IMAGE="$build_image" --build-arg RUNTIME_IMAGE="$runtime_image" \
    -t localhost/alfakraft "$ROOT"
say "built in $(( $(date +%s) - started )) s; image $(podman image inspect localhost/alfakraft --format '{{.Size}}') bytes"

port="${ALFAKRAFT_CONTAINER_PORT:-3917}"
name=alfakraft-try
cleanup() {
    [ -n "${chroot_pid:-}" ] && kill "$chroot_pid" 2>/dev/null
    [ -n "${root:-}" ] && { umount "$root/var/lib/alfakraft" 2>/dev/null; podman umount "$name" >/dev/null 2>&1; }
    podman rm -f "$name" >/dev/null 2>&1 || true
    podman volume rm -f "$name-data" >/dev/null 2>&1 || true
}
cleanup
trap cleanup EXIT
health_cmd="$(podman image inspect localhost/alfakraft --format '{{json .Config.Healthcheck.Test}}')"
[ "$health_cmd" = '["CMD","alfakraft","healthcheck"]' ] || die "the image has no HEALTHCHECK: $health_cmd"
user="$(podman image inspect localhost/alfakraft --format '{{.Config.User}}')"
# Some machines cannot start containers at all (a sandbox that forbids the runtime's setrlimit):
# there the image's own filesystem runs under chroot, as its user, with its environment, working
# folder and a folder bound at its volume, which is what the runtime would do short of isolation.
if podman run -d --name "$name" --network host -e LEPTOS_SITE_ADDR="127.0.0.1:$port" \
    -v "$name-data:/var/lib/alfakraft" localhost/alfakraft >/dev/null 2>"$work/run.err"; then
    in_image() { podman exec "$name" "$@"; }
    stop_it() { podman stop -t 15 "$name" >/dev/null; }
    say "running under podman"
else
    say "podman cannot start containers here ($(tail -1 "$work/run.err")): running the image's filesystem under chroot"
    podman rm -f "$name" >/dev/null 2>&1 || true
    podman create --name "$name" localhost/alfakraft >/dev/null
    root="$(podman mount "$name")"
    uid="$(awk -F: -v u="$user" '$1 == u { print $3 ":" $4 }' "$root/etc/passwd")"
    [ -n "$uid" ] || die "no user $user in the image"
    mkdir -p "$work/volume" && rm -rf "$work/volume/"* && chown "$uid" "$work/volume"
    mount --bind "$work/volume" "$root/var/lib/alfakraft"
    mapfile -t image_env < <(podman image inspect localhost/alfakraft --format '{{range .Config.Env}}{{println .}}{{end}}' | sed '/^$/d')
    workdir="$(podman image inspect localhost/alfakraft --format '{{.Config.WorkingDir}}')"
    in_image() {
        chroot --userspec="$uid" "$root" /usr/bin/env -i "${image_env[@]}" LEPTOS_SITE_ADDR="127.0.0.1:$port" \
            /bin/sh -c 'cd "$0" && exec "$@"' "$workdir" "$@"
    }
    in_image alfakraft > "$work/server.log" 2>&1 &
    chroot_pid=$!
    stop_it() {
        kill -TERM "$(pgrep -f "^alfakraft$" | head -1)"
        wait "$chroot_pid" || die "the server did not exit cleanly"
        chroot_pid=""
    }
fi
for _ in $(seq 50); do
    in_image alfakraft healthcheck >/dev/null 2>&1 && break
    sleep 0.2
done
in_image alfakraft healthcheck || die "the HEALTHCHECK does not pass"
say "healthy: $(curl -fsS "http://127.0.0.1:$port/healthz")"
running_uid="$(in_image id -u)"
[ "$running_uid" != 0 ] || die "the server runs as root"
say "runs as uid $running_uid; data in the volume: $(in_image ls /var/lib/alfakraft | tr '\n' ' ')"
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
in_image alfakraft backup /var/lib/alfakraft/backup.db >/dev/null || die "backup in the image failed"
asked=$(date +%s%N)
stop_it
say "SIGTERM to exit: $(( ($(date +%s%N) - asked) / 1000000 )) ms"
say "container check passed"
