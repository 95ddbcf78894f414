#!/usr/bin/env bash
# Installs what the project needs on a fresh Debian machine of this kind, and nothing twice.
#   scripts/install-deps.sh run    libwebsockets (the server links it)
#   scripts/install-deps.sh test   the above, plus the programs the integration and browser tests use
#   scripts/install-deps.sh venv   what `python3 -m venv` needs (the tests' Python packages go into
#                                  .venv, pinned by Tests/requirements.txt: see the Makefile)
# CI's other steps need nothing more: `make lint` runs swift-format and `make fuzz-smoke` links
# libFuzzer, both shipped with the Swift toolchain; `make release-check` needs what `run` installs.
set -euo pipefail
case "${1:-run}" in
    run|test) want=(libwebsockets-dev pkg-config) ;;
    venv) want=() ;;
    *) echo "usage: $0 run|test|venv" >&2; exit 64 ;;
esac
if [ "${1:-run}" = test ]; then
    want+=(iproute2)          # ss, to prove the loopback-only bind
    want+=(chromium chromium-driver fonts-dejavu-core)  # the page's tests, in a real browser
    want+=(openssl)           # the TLS tests make a self-signed certificate
    want+=(haproxy)           # the balancer test: two servers behind Debian's HAProxy
fi
if [ "${1:-run}" = venv ]; then
    # Debian's python3 cannot make a venv with pip without it.
    want+=(python3-venv)
fi
missing=()
for pkg in ${want[@]+"${want[@]}"}; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
done
if [ ${#missing[@]} -gt 0 ]; then
    sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
    echo "installing: ${missing[*]}"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi
