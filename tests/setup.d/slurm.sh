#!/usr/bin/env bash
# Installs what tests/suites/slurm.sh needs: Debian's Slurm (slurmctld,
# slurmd, the client commands) and munge, without their recommends. The
# suite starts its own daemons with a private configuration; nothing here
# configures or starts the system's. Idempotent: checks for the commands
# first.
set -euo pipefail
cd "$(dirname "$0")/../.."
. tests/setup.d/debian-packages

missing=()
command -v slurmctld >/dev/null 2>&1 || missing+=(slurmctld)
command -v slurmd >/dev/null 2>&1 || missing+=(slurmd)
command -v sbatch >/dev/null 2>&1 || missing+=(slurm-client)
command -v munged >/dev/null 2>&1 || missing+=(munge)
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" -ne 0 ] && ! command -v sudo >/dev/null 2>&1; then
    echo "setup slurm: Debian packages missing: ${missing[*]}; installing them needs root (or sudo)" >&2
    exit 1
  fi
  install_debian_packages --no-install-recommends "${missing[@]}"
fi
