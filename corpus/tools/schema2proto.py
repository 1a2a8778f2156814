#!/usr/bin/env python3
"""Builds protobuf GetProviderSchema.Response messages from `providers schema -json` documents,
with Google's protobuf runtime and the plugin protocol's own .proto files (an encoder
independent of tfwire's reader), for tfwire's tests.

usage: schema2proto.py PROTO_DIR (5|6) SCHEMA.json PROVIDER_ADDRESS OUT.bin
needs: pip install grpcio-tools protobuf
PROTO_DIR holds tfplugin5.10.proto / tfplugin6.10.proto (the project's shared specs)."""
import importlib, json, os, subprocess, sys, tempfile

proto_dir, major, schema_path, address, out = sys.argv[1:6]
proto = f"tfplugin{major}.10.proto"
tmp = tempfile.mkdtemp()
subprocess.run([sys.executable, "-m", "grpc_tools.protoc", f"-I{proto_dir}", f"--python_out={tmp}", proto], check=True)
sys.path.insert(0, tmp)
pb = importlib.import_module(proto.replace(".proto", "_pb2").replace(".", "_", 0))

NESTING = {"single": 1, "list": 2, "set": 3, "map": 4, "group": 5}

def attribute(name, a):
    m = pb.Schema.Attribute(name=name)
    if "type" in a:
        m.type = json.dumps(a["type"], separators=(",", ":")).encode()
    if "nested_type" in a:
        if major != "6":
            sys.exit(f"attribute {name}: nested attributes need protocol 6")
        nt = a["nested_type"]
        obj = m.nested_type
        for n in sorted(nt.get("attributes", {})):
            obj.attributes.append(attribute(n, nt["attributes"][n]))
        obj.nesting = NESTING[nt["nesting_mode"]]
    for flag in ("required", "optional", "computed", "sensitive", "deprecated", "write_only"):
        if a.get(flag):
            setattr(m, flag, True)
    if a.get("description"):
        m.description = a["description"]
    return m

def block(b, m):
    # Real providers send attributes in no particular order: reverse them to make sure the
    # reader sorts.
    for n in sorted(b.get("attributes", {}), reverse=True):
        m.attributes.append(attribute(n, b["attributes"][n]))
    for n in sorted(b.get("block_types", {}), reverse=True):
        nb = b["block_types"][n]
        x = m.block_types.add(type_name=n, nesting=NESTING[nb["nesting_mode"]])
        x.min_items = nb.get("min_items", 0)
        x.max_items = nb.get("max_items", 0)
        block(nb.get("block", {}), x.block)
    if b.get("description"):
        m.description = b["description"]
    if b.get("deprecated"):
        m.deprecated = True

def schema(s, m):
    m.version = s.get("version", 0)
    block(s.get("block", {}), m.block)

doc = json.load(open(schema_path))
p = doc["provider_schemas"][address]
resp = pb.GetProviderSchema.Response()
if "provider" in p:
    schema(p["provider"], resp.provider)
for key, field in (("resource_schemas", resp.resource_schemas), ("data_source_schemas", resp.data_source_schemas)):
    for name, s in (p.get(key) or {}).items():
        schema(s, field[name])
open(out, "wb").write(resp.SerializeToString())
print(f"{out}: {os.path.getsize(out)} bytes")
