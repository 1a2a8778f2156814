#!/usr/bin/env bash
# Peak memory of `tfwire plan summary` on hostile plan files (ZIP bombs), with
# /usr/bin/time -f %M: the inflate limit (512 MiB in total, tfwire-planfile's
# Config::max_inflated_bytes) bounds memory whatever the archive declares.
#
#   benches/planfile-memory.sh [TFWIRE]     (default: target/release/tfwire)
#
# Prints, per case, the file size, the peak RSS in MiB, the exit code and the message.
set -euo pipefail
cd "$(dirname "$0")/.."
tfwire=${1:-target/release/tfwire}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

python3 - "$work" <<'PY'
import os, struct, sys, zlib
work = sys.argv[1]

def deflated_zeros(n):
    c = zlib.compressobj(9, zlib.DEFLATED, -15)
    chunk = b"\0" * (1 << 20)
    body = b"".join(c.compress(chunk) for _ in range(n >> 20)) + c.flush()
    crc = 0
    for _ in range(n >> 20):
        crc = zlib.crc32(chunk, crc)
    return body, crc

def archive(entries, body, crc, size, declared):
    """One deflated stream (`body`), named by every entry (overlapping when several)."""
    out = bytearray()
    local = struct.pack("<IHHHHHIIIHH", 0x04034B50, 20, 0, 8, 0, 0x5821, crc, len(body), declared, 6, 0)
    out += local + b"tfplan" + body
    central = b""
    for name in entries:
        n = name.encode()
        central += struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, 20, 20, 0, 8, 0, 0x5821, crc,
                               len(body), declared, len(n), 0, 0, 0, 0, 0, 0) + n
    cd = len(out)
    out += central
    out += struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, len(entries), len(entries), len(central), cd, 0)
    return bytes(out)

gib, crc_g = deflated_zeros(1 << 30)
half, crc_h = deflated_zeros(480 << 20)
cases = {
    "bomb-1gib-declared": archive(["tfplan"], gib, crc_g, 1 << 30, 1 << 30),
    "bomb-1gib-declares-2-bytes": archive(["tfplan"], gib, crc_g, 1 << 30, 2),
    "bomb-480mib-within-limit": archive(["tfplan"], half, crc_h, 480 << 20, 480 << 20),
    "overlapping-100-members": archive(["tfplan"] + [f"m{i}" for i in range(99)], half, crc_h, 480 << 20, 480 << 20),
}
for name, data in cases.items():
    with open(os.path.join(work, name + ".tfplan"), "wb") as f:
        f.write(data)
PY

printf '| case | file | peak RSS | exit | message |\n|---|---:|---:|---:|---|\n'
for f in "$work"/*.tfplan; do
    name=$(basename "$f" .tfplan)
    set +e
    /usr/bin/time -f %M -o "$work/rss" "$tfwire" plan summary "$f" >/dev/null 2>"$work/err"
    code=$?
    set -e
    msg=$(sed "s|$f|FILE|" "$work/err" | head -c 160)
    printf '| %s | %s KiB | %s MiB | %s | %s |\n' "$name" "$(( $(stat -c %s "$f") / 1024 ))" \
        "$(( $(tail -n 1 "$work/rss") / 1024 ))" "$code" "$msg"
done
