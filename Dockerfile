# The Alfa Kraft server as a container image. The build stage runs the project's own setup and
# build scripts; the runtime stage holds the one binary (the site and the five dictionaries are
# inside it), runs it as a non-root user and keeps the data in a volume.
#
#   podman build -t alfakraft .            (docker build works the same)
#   podman run -p 3000:3000 -v alfakraft-data:/var/lib/alfakraft alfakraft
#
# The base images are arguments, so a machine that cannot reach Docker Hub can build from images
# of its own (scripts/container.sh makes them from Debian's packages and builds this file).
ARG BUILD_IMAGE=docker.io/library/rust:1-slim-bookworm
ARG RUNTIME_IMAGE=docker.io/library/debian:bookworm-slim

FROM ${BUILD_IMAGE} AS build
WORKDIR /src
COPY . .
# Only what building needs (no browser for the tests). The binary, stripped of its symbols, is
# all that leaves this stage; the build's gigabytes go in the same step, so no layer keeps them.
ENV ALFAKRAFT_SETUP_FOR=build
RUN bash scripts/setup.sh \
    && bash scripts/build.sh \
    && strip -o /usr/local/bin/alfakraft target/release/alfakraft \
    && alfakraft --version \
    && rm -rf target node_modules "${CARGO_HOME:-$HOME/.cargo}/registry"

FROM ${RUNTIME_IMAGE}
RUN useradd --system --user-group --uid 10001 --home-dir /var/lib/alfakraft --create-home alfakraft
COPY --from=build /usr/local/bin/alfakraft /usr/local/bin/alfakraft
USER alfakraft
WORKDIR /var/lib/alfakraft
ENV ALFAKRAFT_DATA_DIR=/var/lib/alfakraft \
    LEPTOS_SITE_ADDR=0.0.0.0:3000 \
    ALFAKRAFT_LOG_FORMAT=json
VOLUME ["/var/lib/alfakraft"]
EXPOSE 3000
# SIGTERM drains: the server stops accepting, finishes what is under way and exits within 10 s.
STOPSIGNAL SIGTERM
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
    CMD ["alfakraft", "healthcheck"]
ENTRYPOINT ["alfakraft"]
