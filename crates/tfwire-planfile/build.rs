//! Generates the `tfplan` protobuf types from `proto/planfile.proto` (OpenTofu's dialect)
//! and `proto/terraform.proto` (Terraform's) with protox (a pure-Rust
//! protobuf compiler, so no `protoc` is needed) and prost-build, into `OUT_DIR`; and, from the
//! same descriptors, the wire table the element budget walks (`wire_table.rs`: every message,
//! its fields' numbers and kinds, and the size of its generated Rust type).

use std::fmt::Write as _;

// `FieldDescriptorProto` types and labels (descriptor.proto).
const TYPE_STRING: i32 = 9;
const TYPE_MESSAGE: i32 = 11;
const TYPE_BYTES: i32 = 12;
const LABEL_REPEATED: i32 = 3;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    println!("cargo:rerun-if-changed=proto/planfile.proto");
    println!("cargo:rerun-if-changed=proto/terraform.proto");
    let descriptors = protox::compile(["planfile.proto", "terraform.proto"], ["proto"])?;

    // Every message with its full name (`.tfplan.Plan.resource_attr`), its Rust path and
    // whether it is a map entry (which has no Rust type: its size is its fields').
    let mut messages = Vec::new();
    for file in &descriptors.file {
        let package = file.package.clone().unwrap_or_default();
        // `tfplan` is `crate::proto`, `tfplan.terraform` is `crate::proto::terraform`.
        let module = package
            .split('.')
            .skip(1)
            .fold("crate::proto".to_string(), |m, p| format!("{m}::{p}"));
        let mut stack: Vec<(String, String, &_)> = file
            .message_type
            .iter()
            .map(|m| {
                let name = m.name.clone().unwrap_or_default();
                (
                    format!(".{package}.{name}"),
                    format!("{module}::{}", camel(&name)),
                    m,
                )
            })
            .collect();
        while let Some((full, rust, m)) = stack.pop() {
            let module = rust.rsplit_once("::").map_or("", |(_, last)| last);
            let parent = rust.rsplit_once("::").map_or("", |(p, _)| p);
            for n in &m.nested_type {
                let name = n.name.clone().unwrap_or_default();
                stack.push((
                    format!("{full}.{name}"),
                    format!("{parent}::{}::{}", snake(module), camel(&name)),
                    n,
                ));
            }
            let map_entry = m.options.as_ref().and_then(|o| o.map_entry) == Some(true);
            messages.push((full, rust, map_entry, m));
        }
    }
    messages.sort_by(|a, b| a.0.cmp(&b.0));
    let index = |name: &str| messages.iter().position(|m| m.0 == name);
    let size_of_field = |f: &prost_build_field::Field| -> String {
        match f.ty {
            // A map's value is a message with a Rust type (never another map entry).
            TYPE_MESSAGE => match index(&f.type_name) {
                Some(i) => format!("::core::mem::size_of::<{}>()", messages[i].1),
                None => "0".to_string(),
            },
            TYPE_STRING | TYPE_BYTES => "::core::mem::size_of::<::std::vec::Vec<u8>>()".into(),
            _ => "8".into(),
        }
    };
    let mut sizes = String::new();
    let mut table = String::new();
    for (i, (full, rust, map_entry, m)) in messages.iter().enumerate() {
        let fields: Vec<prost_build_field::Field> = m
            .field
            .iter()
            .map(|f| prost_build_field::Field {
                number: f.number.unwrap_or_default(),
                ty: f.r#type.unwrap_or_default(),
                repeated: f.label == Some(LABEL_REPEATED),
                type_name: f.type_name.clone().unwrap_or_default(),
            })
            .collect();
        if *map_entry {
            // A map entry lives in a hash table: its key, its value and a word of overhead.
            let parts: Vec<String> = fields.iter().map(size_of_field).collect();
            writeln!(sizes, "    {} + 8, // {full}", parts.join(" + "))?;
        } else {
            writeln!(sizes, "    ::core::mem::size_of::<{rust}>(), // {full}")?;
        }
        write!(table, "    Message {{ name: {full:?}, fields: &[")?;
        for f in &fields {
            let kind = match f.ty {
                TYPE_MESSAGE => match index(&f.type_name) {
                    Some(i) => format!("Kind::Message({i})"),
                    None => "Kind::Scalar".to_string(),
                },
                TYPE_STRING | TYPE_BYTES => "Kind::Bytes".to_string(),
                _ => "Kind::Scalar".to_string(),
            };
            write!(
                table,
                "Field {{ number: {}, kind: {kind}, repeated: {} }}, ",
                f.number, f.repeated
            )?;
        }
        writeln!(table, "] }}, // {i}")?;
    }
    let root = index(".tfplan.Plan").ok_or("no message tfplan.Plan")?;
    let terraform_root =
        index(".tfplan.terraform.Plan").ok_or("no message tfplan.terraform.Plan")?;
    let out = format!(
        "/// The size in memory of each message's decoded form, by index.\n\
         pub(crate) static MESSAGE_SIZES: [usize; {n}] = [\n{sizes}];\n\n\
         /// Every message of `planfile.proto`, by index.\n\
         pub(crate) static MESSAGES: [Message; {n}] = [\n{table}];\n\n\
         /// The index of `tfplan.Plan` (OpenTofu's dialect).\n\
         pub(crate) const PLAN: usize = {root};\n\n\
         /// The index of `tfplan.terraform.Plan` (Terraform's dialect).\n\
         pub(crate) const TERRAFORM_PLAN: usize = {terraform_root};\n",
        n = messages.len()
    );
    let dir = std::env::var("OUT_DIR")?;
    std::fs::write(std::path::Path::new(&dir).join("wire_table.rs"), out)?;

    prost_build::Config::new()
        // Payload bytes (MessagePack values, the provider's private blob) stay `Vec<u8>`:
        // each is decoded once, in place.
        .compile_fds(descriptors)?;
    Ok(())
}

mod prost_build_field {
    /// A field, as the table needs it.
    pub(crate) struct Field {
        pub(crate) number: i32,
        pub(crate) ty: i32,
        pub(crate) repeated: bool,
        pub(crate) type_name: String,
    }
}

/// `resource_attr` → `ResourceAttr` (prost's type names).
fn camel(s: &str) -> String {
    let mut out = String::new();
    let mut up = true;
    for c in s.chars() {
        if c == '_' {
            up = true;
        } else if up {
            out.extend(c.to_uppercase());
            up = false;
        } else {
            out.push(c);
        }
    }
    out
}

/// `CheckResults` → `check_results` (prost's module names).
fn snake(s: &str) -> String {
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if c.is_ascii_uppercase() {
            if i > 0 {
                out.push('_');
            }
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}
