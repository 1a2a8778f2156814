//! Generates the `tfplan` protobuf types from `proto/planfile.proto` with protox (a pure-Rust
//! protobuf compiler, so no `protoc` is needed) and prost-build, into `OUT_DIR`.

fn main() -> Result<(), Box<dyn std::error::Error>> {
    println!("cargo:rerun-if-changed=proto/planfile.proto");
    let descriptors = protox::compile(["planfile.proto"], ["proto"])?;
    prost_build::Config::new()
        // Payload bytes (MessagePack values, the provider's private blob) stay `Vec<u8>`:
        // each is decoded once, in place.
        .compile_fds(descriptors)?;
    Ok(())
}
