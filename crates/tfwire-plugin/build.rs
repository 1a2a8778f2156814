//! Generates the tfplugin5 and tfplugin6 types and tonic services from `proto/*.proto`.
//!
//! The `.proto` files are parsed by protox, a pure-Rust protobuf compiler, so building needs
//! no `protoc`. Every `bytes` field (`DynamicValue.msgpack`/`json`, `RawState.json`, private
//! state, ...) is a `bytes::Bytes`: decoding a message from a tonic body slices it without
//! copying the value.

use std::path::Path;

const PROTOS: [&str; 2] = ["tfplugin5.11.proto", "tfplugin6.11.proto"];

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let dir = Path::new("proto");
    for p in PROTOS {
        println!("cargo:rerun-if-changed={}", dir.join(p).display());
    }
    let fds = protox::compile(PROTOS, [dir])?;
    let out = std::path::PathBuf::from(std::env::var("OUT_DIR")?);
    // The descriptors too: the tests read them to check that every `DynamicValue` of every
    // message is found.
    std::fs::write(out.join("plugin.fds"), prost::Message::encode_to_vec(&fds))?;
    tonic_prost_build::configure()
        .bytes(".")
        .build_client(true)
        .build_server(true)
        .build_transport(false)
        // Servers implement only what they need (a test provider, a partial proxy); the rest
        // answers `Unimplemented`.
        .generate_default_stubs(true)
        .compile_fds(fds)?;
    Ok(())
}
