#!/usr/bin/env python3
"""Writes the invalid and hostile plan files of this directory (deterministic: fixed dates).

    python3 corpus/planfiles-invalid/generate.py

Each file is small; the ZIP bombs inflate to a few MiB, which is beyond the 1 MiB limit the
library test sets (tfwire-planfile's default limit is 512 MiB; the same code path refuses
them). `expected.txt` (written by hand) gives each file's error message.
"""
import os
import warnings
import struct
import zipfile
import zlib

warnings.simplefilter("ignore")  # zipfile warns about the duplicate name, on purpose
here = os.path.dirname(os.path.abspath(__file__))
DATE = (2024, 1, 1, 0, 0, 0)
# A minimal valid `tfplan` message: version 3 (field 1, varint).
TFPLAN_V3 = bytes([0x08, 0x03])


def zip_bytes(members, method=zipfile.ZIP_STORED):
    import io

    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        for name, data in members:
            info = zipfile.ZipInfo(name, DATE)
            info.compress_type = method
            z.writestr(info, data)
    return buf.getvalue()


def write(name, data):
    with open(os.path.join(here, name), "wb") as f:
        f.write(data)


def patch_sizes(data, name, uncompressed):
    """Sets the declared uncompressed size of member `name` in its local and central headers."""
    data = bytearray(data)
    n = name.encode()
    # Local file header: signature, ... uncompressed size at offset 22, name at 30.
    i = data.find(b"PK\x03\x04")
    while i >= 0:
        nlen = struct.unpack_from("<H", data, i + 26)[0]
        if bytes(data[i + 30 : i + 30 + nlen]) == n:
            struct.pack_into("<I", data, i + 22, uncompressed)
        i = data.find(b"PK\x03\x04", i + 4)
    # Central directory header: uncompressed size at offset 24, name at 46.
    i = data.find(b"PK\x01\x02")
    while i >= 0:
        nlen = struct.unpack_from("<H", data, i + 28)[0]
        if bytes(data[i + 46 : i + 46 + nlen]) == n:
            struct.pack_into("<I", data, i + 24, uncompressed)
        i = data.find(b"PK\x01\x02", i + 4)
    return bytes(data)


basic = open(os.path.join(here, "../planfiles/basic/plan.tfplan"), "rb").read()

write("legacy.tfplan", b"tfplan\x00\x00\x00\x02" + b"\x00" * 8)
write(
    "encrypted.tfplan",
    b'{"meta":{"key_provider.pbkdf2.main":"eyJzYWx0IjoiQUFBQSJ9"},'
    b'"encrypted_data":"c2VjcmV0IHBsYW4gYnl0ZXM=","encryption_version":"v0"}',
)
write("not-a-plan.zip", zip_bytes([("README.txt", b"hello\n")]))
write("empty.zip", zip_bytes([]))
write("version-2.tfplan", zip_bytes([("tfplan", bytes([0x08, 0x02]))]))
write("not-protobuf.tfplan", zip_bytes([("tfplan", b"\xff\xff\xff\xff")]))
write("truncated.tfplan", basic[: len(basic) // 2])
write("random.bin", bytes(range(7, 7 + 64)))
write("empty.tfplan", b"")
# 4 MiB of zeros, deflated: beyond the test's 1 MiB limit, declared honestly.
zeros = b"\x00" * (4 << 20)
write("bomb.tfplan", zip_bytes([("tfplan", zeros)], zipfile.ZIP_DEFLATED))
# The same, declaring 2 bytes: the inflated bytes are counted, not the declaration trusted.
write("bomb-lying.tfplan", patch_sizes(zip_bytes([("tfplan", zeros)], zipfile.ZIP_DEFLATED), "tfplan", 2))
# A member declaring 4 GiB - 2 bytes (not a ZIP64 marker): refused before anything is reserved.
write("declared-4gib.tfplan", patch_sizes(zip_bytes([("tfplan", TFPLAN_V3)]), "tfplan", 0xFFFFFFFE))
# Members overlapping: `tfstate` and `tfstate-prev` share `tfplan`'s compressed data (the
# overlapping-file ZIP bomb); each is counted against the limit.
def overlapping():
    import io

    comp = zlib.compressobj(9, zlib.DEFLATED, -15)
    body = comp.compress(TFPLAN_V3) + comp.flush()
    crc = zlib.crc32(TFPLAN_V3)
    out = io.BytesIO()
    name = b"tfplan"
    local = struct.pack("<IHHHHHIIIHH", 0x04034B50, 20, 0, 8, 0, 0x5821, crc, len(body), 2, len(name), 0)
    out.write(local + name + body)
    central = b""
    for n in [b"tfplan", b"tfstate", b"tfstate-prev"]:
        central += struct.pack(
            "<IHHHHHHIIIHHHHHII", 0x02014B50, 20, 20, 0, 8, 0, 0x5821, crc, len(body), 2, len(n), 0, 0, 0, 0, 0, 0
        ) + n
    cd_offset = out.tell()
    out.write(central)
    out.write(struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, 3, 3, len(central), cd_offset, 0))
    return out.getvalue()


write("overlapping.tfplan", overlapping())
# Two members named `tfplan`.
write(
    "duplicate-tfplan.tfplan",
    zip_bytes([("tfplan", TFPLAN_V3), ("tfplan", bytes([0x08, 0x02]))]),
)
