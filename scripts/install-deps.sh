#!/usr/bin/env bash
# Installs what the project needs on a fresh Debian machine of this kind, and nothing twice.
#   scripts/install-deps.sh run    libwebsockets (the server links it)
#   scripts/install-deps.sh test   the above, plus what the integration and browser tests use
set -euo pipefail
want=(libwebsockets-dev pkg-config)
python_packages=()
if [ "${1:-run}" = test ]; then
    want+=(iproute2)          # ss, to prove the loopback-only bind
    want+=(chromium chromium-driver fonts-dejavu-core)  # the page's tests, in a real browser
    python_packages+=(pytest websockets selenium)
fi
missing=()
for pkg in "${want[@]}"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
done
if [ ${#missing[@]} -gt 0 ]; then
    sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
    echo "installing: ${missing[*]}"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi
for pkg in "${python_packages[@]}"; do
    python3 -c "import $pkg" 2>/dev/null || python3 -m pip install -q "$pkg"
done
