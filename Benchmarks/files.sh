#!/usr/bin/env bash
# Issue #82's figures: the release demo uploading a file attached offline to the sample API.
#
#   swift build -c release --product demo
#   bash Benchmarks/files.sh big [BYTES]      # demo sync's time and peak RSS; curl -T of the same file
#   bash Benchmarks/files.sh resume [BYTES]   # demo sync killed -9 at half, run again: bytes received
#
# Each starts the sample API on a free port, with a database and files in a temporary folder.
# `big` uploads 1 GiB by default, `resume` 200 MB. For `resume` to land mid-upload on a fast
# machine, shape loopback first (root): tc qdisc add dev lo root tbf rate 1gbit burst 1mb limit 16mb
set -euo pipefail
mode=${1:-big}
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
python3 "$root/Examples/api/server.py" "$port" > "$work/api.log" 2>&1 &
api=$!
trap 'kill $api 2>/dev/null; [ -n "${KEEP:-}" ] && echo "$work" || rm -rf "$work"' EXIT
for _ in $(seq 1 100); do curl -s -o /dev/null "http://127.0.0.1:$port/orders" && break; sleep 0.1; done
run=("$root/.build/release/demo" --database "$work/app.sqlite" --api "http://127.0.0.1:$port/")
demo() { "${run[@]}" "$@"; }
demo orders create --offline --first-name Eve --last-name Elder --email eve@example.com --street "5 Elm St" \
    --city Boston --zip 02101 --card "4111 1111 1111 1111" --expires 2031-01 --cvv 123 --item "Tea:2:3.50" \
    --shipping one-day > /dev/null
order=$(demo orders --offline | awk '$NF == "waiting" {print $1}' | head -1)
received() { curl -s "http://127.0.0.1:$port/uploads" | python3 -c 'import json,sys; print(json.load(sys.stdin)["received"])'; }

case $mode in
big)
    size=${2:-1073741824}
    head -c "$size" /dev/urandom > "$work/big.bin"
    /usr/bin/time -f "orders attach: %e s, peak RSS %M kB" "${run[@]}" orders attach "$order" "$work/big.bin" --offline > /dev/null
    /usr/bin/time -f "demo sync: %e s, peak RSS %M kB" "${run[@]}" sync > "$work/sync.log"
    location=$(curl -si -X POST -H "Tus-Resumable: 1.0.0" -H "Upload-Length: $size" "http://127.0.0.1:$port/uploads" \
        | tr -d '\r' | awk '/^Location/ {print $2}')
    /usr/bin/time -f "curl -T, one PATCH: %e s, peak RSS %M kB" curl -s -o /dev/null -X PATCH -H "Tus-Resumable: 1.0.0" \
        -H "Upload-Offset: 0" -H "Content-Type: application/offset+octet-stream" -T "$work/big.bin" \
        "http://127.0.0.1:$port$location"
    ;;
resume)
    size=${2:-200000000}
    head -c "$size" /dev/urandom > "$work/file.bin"
    demo orders attach "$order" "$work/file.bin" --offline > /dev/null
    "${run[@]}" sync > "$work/sync1.log" 2>&1 &
    sync=$!
    # Polls the API until half the file is there (pacing a benchmark, not synchronising a test).
    while kill -0 "$sync" 2>/dev/null; do
        if [ "$(received)" -ge $((size / 2)) ]; then kill -9 "$sync"; break; fi
    done
    wait "$sync" 2>/dev/null || true
    echo "killed -9 with $(received) bytes received"
    demo sync > "$work/sync2.log" 2>&1 || { cat "$work/sync2.log"; exit 1; }
    echo "after the second demo sync: $(received) bytes received in all, for a file of $size"
    ;;
*) echo "usage: bash Benchmarks/files.sh big|resume [BYTES]" >&2; exit 2 ;;
esac
