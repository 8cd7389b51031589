#!/usr/bin/env bash
# Sets up what is missing, builds, and starts the app on http://127.0.0.1:3000 with its SQLite
# database in ./data (created on first start). Settings: target/release/alfakraft --help.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
bash scripts/setup.sh
bash scripts/build.sh
exec target/release/alfakraft "$@"
