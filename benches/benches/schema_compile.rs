//! Schema compile: the full aws, google and azurerm provider schemas of the corpus
//! (`terraform providers schema -json` documents, 1.5–4.2 MB), loaded
//! (`ProviderSchemas::from_json`), then every resource type and data source compiled into a
//! [`Program`] (`Program::from_block`): what a proxy or a provider framework does once at
//! start-up. Three timings per document: `load`, `compile` (from the loaded model) and
//! `load_and_compile`, all with the document's bytes as throughput.
//!
//! The answer: the number of schemas, and the object attributes of every compiled program's
//! type (`Program::ty`), against `benches/answers.json` (computed by Python from the
//! document's JSON).

use criterion::{BenchmarkId, Throughput};
use std::hint::black_box;
use tfwire::schema::ProviderSchemas;
use tfwire::{Program, Type};
use tfwire_benches::answers::{SchemaCounts, check};
use tfwire_benches::inputs::{SCHEMAS, schema_document};

/// Every resource type's and data source's program.
fn compile(schemas: &ProviderSchemas) -> Vec<Program> {
    schemas
        .providers
        .values()
        .flat_map(|p| p.resources.values().chain(p.data_sources.values()))
        .map(|s| Program::from_block(&s.block))
        .collect()
}

/// Object attributes in a type, at every depth.
fn type_attributes(ty: &Type) -> u64 {
    match ty {
        Type::Bool | Type::Number | Type::String | Type::Dynamic => 0,
        Type::List(t) | Type::Set(t) | Type::Map(t) => type_attributes(t),
        Type::Object(o) => o
            .attributes()
            .iter()
            .map(|a| 1 + type_attributes(&a.ty))
            .sum(),
        Type::Tuple(ts) => ts.iter().map(type_attributes).sum(),
    }
}

fn counts(bytes: &[u8], programs: &[Program]) -> SchemaCounts {
    SchemaCounts {
        bytes: bytes.len() as u64,
        schemas: programs.len() as u64,
        type_attributes: programs.iter().map(|p| type_attributes(&p.ty())).sum(),
    }
}

fn main() {
    let mut c = tfwire_benches::criterion();
    let mut g = tfwire_benches::group(&mut c, "schema_compile");
    for name in SCHEMAS {
        let doc = schema_document(name);
        let answer = SchemaCounts::for_schema(name)
            .unwrap_or_else(|| panic!("answers.json has no schema:{name}"));
        let schemas = ProviderSchemas::from_json(&doc).expect("the schema document loads");
        check(
            &format!("schema_compile {name}"),
            counts(&doc, &compile(&schemas)),
            answer,
        );
        g.throughput(Throughput::Bytes(doc.len() as u64));
        g.bench_function(BenchmarkId::new("load", name), |b| {
            b.iter(|| ProviderSchemas::from_json(black_box(&doc)).expect("loads"))
        });
        g.bench_function(BenchmarkId::new("compile", name), |b| {
            b.iter(|| compile(black_box(&schemas)))
        });
        g.bench_function(BenchmarkId::new("load_and_compile", name), |b| {
            b.iter(|| compile(&ProviderSchemas::from_json(black_box(&doc)).expect("loads")))
        });
    }
    g.finish();
    c.final_summary();
}
