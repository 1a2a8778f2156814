#!/usr/bin/env python3
"""Writes the hostile inputs of the bounded-reads checks (plan files whose members inflate
past the input limit, or decode to millions of elements; `dump` folders with special files
and many schemas) into a folder, for `benches/hostile-memory.sh`-style runs of the release
CLI. The inputs are generated, not committed (some inflate to hundreds of MiB).

    python3 corpus/tools/mkinputs.py OUT_DIR

Each sample and the command it is meant for:

    OUT/tfplan-huge-field.tfplan     tfwire plan summary FILE   (tfplan: a 510 MiB field)
    OUT/tfstate-huge-nodes.tfplan    tfwire state list FILE     (tfstate: 32 Mi nodes, 510 MiB)
    OUT/tfstate-whitespace.tfplan    tfwire state list FILE     (tfstate: 400 MiB of spaces)
    OUT/tfstate-whitespace-200m.tfplan  the same, 200 MiB (within the default limit)
    OUT/empty-resource-changes.tfplan   tfwire plan summary FILE (4 Mi empty entries)
    OUT/empty-resource-drift.tfplan     tfwire plan summary FILE
    OUT/empty-output-changes.tfplan     tfwire plan summary FILE
    OUT/dump-many-schemas/           tfwire dump DIR --schemas DIR/schemas.json
                                     (an 8 MiB value, 300 schemas, no index)
    OUT/dump-fifo-value/             tfwire dump DIR --schemas DIR/schemas.json (a FIFO value)
    OUT/dump-fifo-index/             the same, `index.json` a FIFO
"""

import json
import os
import sys
import zipfile

MIB = 1 << 20


def varint(n):
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def key(field, wire):
    return varint(field << 3 | wire)


VERSION3 = key(1, 0) + varint(3)


def planfile(path, members):
    """Writes a ZIP with deflated members; a member is bytes or (prefix, chunk, count, suffix)."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, allowZip64=True) as z:
        for name, body in members:
            if isinstance(body, bytes):
                z.writestr(name, body)
                continue
            prefix, chunk, count, suffix = body
            with z.open(name, "w", force_zip64=True) as f:
                f.write(prefix)
                block = chunk * max(1, MIB // len(chunk))
                per = len(block) // len(chunk)
                left = count
                while left >= per:
                    f.write(block)
                    left -= per
                f.write(chunk * left)
                f.write(suffix)


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    p = lambda n: os.path.join(out, n)

    # tfplan with one 510 MiB field (target_addrs, field 5).
    size = 510 * MIB
    planfile(p("tfplan-huge-field.tfplan"),
             [("tfplan", (VERSION3 + key(5, 2) + varint(size), b"a", size, b""))])
    # tfstate of 32 Mi JSON nodes ("0," pairs), padded with spaces to 510 MiB.
    nodes = 32 * MIB // 2
    head = b'{"version":4,"resources":['
    planfile(p("tfstate-huge-nodes.tfplan"),
             [("tfplan", VERSION3),
              ("tfstate", (head, b"[],", nodes, b"[]]}" + b" " * (510 * MIB - len(head) - 3 * nodes - 4)))])
    # tfstate of whitespace around an empty state.
    for name, n in (("tfstate-whitespace.tfplan", 400 * MIB), ("tfstate-whitespace-200m.tfplan", 200 * MIB)):
        planfile(p(name), [("tfplan", VERSION3),
                           ("tfstate", (b"", b" ", n, b'{"version":4,"resources":[]}'))])
    # 4 Mi empty entries of a repeated message field.
    for name, field in (("empty-resource-changes", 3), ("empty-resource-drift", 18), ("empty-output-changes", 4)):
        planfile(p(name + ".tfplan"),
                 [("tfplan", VERSION3 + (key(field, 2) + b"\x00") * (4 * MIB))])

    # dump: an 8 MiB value that 300 schemas (one string attribute each) all accept.
    schemas = {"format_version": "1.0", "provider_schemas": {"registry.opentofu.org/x/x": {
        "provider": {"version": 0, "block": {}},
        "resource_schemas": {f"x_r{i}": {"version": 0, "block": {"attributes": {
            "v": {"type": "string", "optional": True}}}} for i in range(300)}}}}
    d = p("dump-many-schemas")
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "schemas.json"), "w") as f:
        json.dump(schemas, f)
    value = b"\x81\xa1v\xdb" + (8 * MIB).to_bytes(4, "big") + b"x" * (8 * MIB)
    with open(os.path.join(d, "1_PlanResourceChange_Request_Config.msgpack"), "wb") as f:
        f.write(value)
    # dump: FIFOs where a value and where the index is.
    for sub, fifo in (("dump-fifo-value", "1_PlanResourceChange_Request_Config.msgpack"),
                      ("dump-fifo-index", "index.json")):
        d = p(sub)
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, "schemas.json"), "w") as f:
            json.dump(schemas, f)
        path = os.path.join(d, fifo)
        if not os.path.exists(path):
            os.mkfifo(path)


if __name__ == "__main__":
    main()
