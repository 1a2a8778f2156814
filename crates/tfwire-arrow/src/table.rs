//! The tables: their definitions ([`TableDef`], [`TableKind`]) and [`TableBuilder`], which
//! turns documents into record batches of one table.

pub use crate::def::{Mode, TableDef, TableKind};
use crate::error::Error;
use crate::mapping::{Acc, Col, Walk};
use crate::marks::Marks;
use crate::rows::{self, Object, OutputRow};
use crate::schemas::{FleetSchemas, TypeTable};
use arrow_array::{ArrayRef, RecordBatch, RecordBatchOptions};
use arrow_schema::SchemaRef;
use std::sync::Arc;
use tfwire::{Program, TypedJson as _};

/// The most bytes one document may hold ([`TableBuilder::add`] refuses larger ones; binary
/// plan files may inflate to as much again): 256 MiB, the CLI's default
/// `--max-input-bytes`.
pub const MAX_DOCUMENT_BYTES: usize = 256 << 20;

/// Options of the rows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Options {
    /// Write sensitive values into the cells (by default they are null and their paths
    /// listed in `sensitive_paths`).
    pub include_sensitive: bool,
    /// Skip inputs whose content is not a state or plan (counted) instead of failing.
    pub skip_unreadable: bool,
}

/// Rows of one table from documents, only the projected columns decoded.
///
/// `Send`: create one per partition (cheap: compiled programs for the projected
/// attributes; [`FleetSchemas`] is `Send + Sync` and shared in an `Arc`);
/// [`TableBuilder::add`] each document, then [`TableBuilder::finish`] for a batch (the
/// builder is reusable after).
///
/// ```
/// # fn main() -> Result<(), Box<dyn std::error::Error>> {
/// use std::sync::Arc;
/// let dir = std::env::temp_dir().join(format!("tfwire-arrow-doc-builder-{}", std::process::id()));
/// let cache = tfwire_config::SchemaCache::new(&dir, 1 << 20);
/// cache.add(br#"{"format_version":"1.0","provider_schemas":{"registry.terraform.io/hashicorp/aws":
///   {"resource_schemas":{"aws_s3_bucket":{"version":0,"block":{"attributes":{
///     "bucket":{"type":"string","optional":true},"acl":{"type":"string","optional":true}}}}}}}}"#,
///   |_| Some("5.0.0".to_owned()))?;
/// let fleet = Arc::new(tfwire_arrow::FleetSchemas::load(&cache)?);
/// let def = fleet.table("aws_s3_bucket").unwrap();
/// let acl = def.schema.index_of("acl")?;
/// let workspace = def.schema.index_of("workspace")?;
/// let mut builder = tfwire_arrow::TableBuilder::new(fleet.clone(), &def, Some(vec![workspace, acl]),
///     tfwire_arrow::Options::default());
/// builder.add("prod.tfstate", "default", br#"{"version":4,"serial":3,"lineage":"l","resources":[
///   {"mode":"managed","type":"aws_s3_bucket","name":"b","provider":"provider[\"registry.terraform.io/hashicorp/aws\"]",
///    "instances":[{"schema_version":0,"attributes":{"bucket":"logs","acl":"public-read"},"sensitive_attributes":[]}]}]}"#)?;
/// let batch = builder.finish()?;
/// assert_eq!(batch.num_rows(), 1);
/// let acl = batch.column(1).as_any().downcast_ref::<arrow_array::StringArray>().unwrap();
/// assert_eq!(acl.value(0), "public-read");
/// # std::fs::remove_dir_all(&dir).ok();
/// # Ok(()) }
/// ```
pub struct TableBuilder {
    schemas: Arc<FleetSchemas>,
    kind: TableKind,
    schema: SchemaRef,
    projection: Vec<usize>,
    options: Options,
    /// One accumulator per column of the table, `Some` for the projected ones.
    columns: Vec<Option<Acc>>,
    /// For a type table: per attribute, its program and a scratch accumulator when it is
    /// decoded without being projected (to list its sensitive, unknown and inexact paths).
    attrs: Vec<AttrState>,
    /// The `"type"` text the cheap refusal looks for.
    needle: Option<Vec<u8>>,
    /// The keys (quoted) of which a JSON document must hold one to have rows in the
    /// phases asked for ([`TableBuilder::with_phases`]); `None`: any document may.
    phase_needles: Option<Vec<&'static [u8]>>,
    rows: usize,
    skipped: usize,
    refused: usize,
    /// Columns of rows kept from before a document that failed (see `truncate`).
    carried: Vec<Vec<ArrayRef>>,
    carried_rows: usize,
    decoded: u64,
    parser: tfwire_plan::Parser,
    /// The arenas of a document's model and of its decoded values (reset for each).
    arenas: (bumpalo::Bump, bumpalo::Bump),
    decoder_plain: tfwire::Decoder,
    decoder_wrapped: tfwire::Decoder,
    walk: Walk,
}

struct AttrState {
    program: Option<Arc<Program>>,
    scratch: Option<Acc>,
}

/// The number of common columns (before a type table's attributes).
const COMMON: usize = crate::schemas::COMMON_COLUMNS.len();
const SENSITIVE_PATHS: usize = 16;
const UNKNOWN_PATHS: usize = 17;
const INEXACT_NUMBERS: usize = 18;

impl TableBuilder {
    /// A builder of `def`'s rows (a table of `schemas`), decoding only the columns of
    /// `projection` (indexes into `def.schema`; `None`: every column). A projection that
    /// holds `sensitive_paths`, `unknown_paths` or `inexact_numbers` decodes every
    /// attribute, since those columns speak of all of them.
    pub fn new(
        schemas: Arc<FleetSchemas>,
        def: &TableDef,
        projection: Option<Vec<usize>>,
        options: Options,
    ) -> TableBuilder {
        let n = def.schema.fields().len();
        let projection: Vec<usize> = projection
            .unwrap_or_else(|| (0..n).collect())
            .into_iter()
            .filter(|i| *i < n)
            .collect();
        let mut columns: Vec<Option<Acc>> = (0..n).map(|_| None).collect();
        for &i in &projection {
            columns[i] = Some(Acc::new(def.schema.field(i).data_type()));
        }
        let mut attrs = Vec::new();
        let mut needle = None;
        if let (TableKind::Type { .. }, Some(t)) = (&def.kind, schemas.type_table(&def.name)) {
            {
                let all = [SENSITIVE_PATHS, UNKNOWN_PATHS, INEXACT_NUMBERS]
                    .iter()
                    .any(|c| projection.contains(c));
                for (i, a) in t.attrs.iter().enumerate() {
                    let projected = projection.contains(&(COMMON + i));
                    let decoded = projected || all;
                    attrs.push(AttrState {
                        program: decoded.then(|| Arc::new(Program::compile(&a.ty))),
                        scratch: (decoded && !projected).then(|| Acc::new(&a.col.data_type())),
                    });
                }
                needle = Some(format!("\"{}\"", t.type_name).into_bytes());
            }
        }
        TableBuilder {
            schemas,
            kind: def.kind.clone(),
            schema: def.schema.clone(),
            projection,
            options,
            columns,
            attrs,
            needle,
            phase_needles: None,
            rows: 0,
            skipped: 0,
            refused: 0,
            carried: Vec::new(),
            carried_rows: 0,
            decoded: 0,
            parser: tfwire_plan::Parser::new(),
            arenas: Default::default(),
            decoder_plain: tfwire::Decoder::new(tfwire::Config::default().plain_dynamic(true)),
            decoder_wrapped: tfwire::Decoder::new(tfwire::Config::default()),
            walk: Walk::default(),
        }
    }

    /// The schema of the batches [`TableBuilder::finish`] returns (the projected columns).
    pub fn schema(&self) -> SchemaRef {
        Arc::new(
            self.schema
                .project(&self.projection)
                .unwrap_or_else(|_| (*self.schema).clone()),
        )
    }

    /// Says that only rows of `phases` (values of the `phase` column) are wanted, so that a
    /// JSON document that cannot hold any is refused without parsing: rows of the plan
    /// phases come only from documents naming the plan member they are read from
    /// (`resource_changes` for `before` and `after`, `output_changes` for an output's,
    /// `resource_drift` for `drift_before` and `drift_after`, `prior_state` for `prior`),
    /// so a state is not parsed for a question about plans. Documents that are read still
    /// give their rows of every phase (the query filters them); with `state` among
    /// `phases`, or a phase this builder does not know, nothing is refused.
    ///
    /// ```
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # use std::sync::Arc;
    /// # let dir = std::env::temp_dir().join(format!("tfwire-arrow-doc-phases-{}", std::process::id()));
    /// # let cache = tfwire_config::SchemaCache::new(&dir, 1 << 20);
    /// # let fleet = Arc::new(tfwire_arrow::FleetSchemas::load(&cache)?);
    /// let def = fleet.table("resources").unwrap();
    /// let mut builder = tfwire_arrow::TableBuilder::new(fleet.clone(), &def, None, Default::default())
    ///     .with_phases(&["before", "after"]);
    /// // A raw state has no resource changes: refused unread (even though it is not JSON).
    /// builder.add("s.tfstate", "default", br#"{"version":4,"resources":[ not read "#)?;
    /// assert_eq!(builder.finish()?.num_rows(), 0);
    /// # std::fs::remove_dir_all(&dir).ok();
    /// # Ok(()) }
    /// ```
    pub fn with_phases<S: AsRef<str>>(mut self, phases: &[S]) -> TableBuilder {
        let outputs = matches!(self.kind, TableKind::Outputs);
        let mut needles: Vec<&'static [u8]> = Vec::new();
        for phase in phases {
            let key: &'static [u8] = match phase.as_ref() {
                "before" | "after" if outputs => b"\"output_changes\"",
                "before" | "after" => b"\"resource_changes\"",
                "drift_before" | "drift_after" if !outputs => b"\"resource_drift\"",
                "prior" => b"\"prior_state\"",
                _ => {
                    self.phase_needles = None;
                    return self;
                }
            };
            if !needles.contains(&key) {
                needles.push(key);
            }
        }
        self.phase_needles = Some(needles);
        self
    }

    /// Decodes one document (told by content: raw state v3 or v4, `show -json` state, plan
    /// JSON, binary plan file) and appends its rows for this table. Cheap refusal first: for
    /// a type table, a JSON document whose bytes do not hold the type's name (quoted) is
    /// skipped without parsing, as is one that cannot hold rows of the phases asked for
    /// ([`TableBuilder::with_phases`]).
    ///
    /// # Errors
    ///
    /// A document that is not a state or plan, too large ([`MAX_DOCUMENT_BYTES`]), damaged,
    /// or whose values do not conform to the schema (naming `source`, the address, the
    /// attribute path and the byte offset); sensitivity that cannot be read (fail
    /// closed). Rows of a document that fails are not kept.
    pub fn add(&mut self, source: &str, workspace: &str, bytes: &[u8]) -> Result<(), Error> {
        let mut input = Vec::with_capacity(bytes.len() + tfwire_plan::INPUT_PADDING);
        input.extend_from_slice(bytes);
        if !self.add_checked(source, workspace, &mut input, true)? {
            input.clear();
            input.extend_from_slice(bytes);
            self.add_checked(source, workspace, &mut input, false)?;
        }
        Ok(())
    }

    /// As [`TableBuilder::add`], for a document in the caller's buffer: parsed where it
    /// lies, without the copy `add` makes (give it [`tfwire_plan::INPUT_PADDING`] bytes
    /// of spare capacity, as [`crate::Input::read_padded`] does, or it is moved once to
    /// make room). The parse changes the buffer's bytes (strings are unescaped in place);
    /// its allocation is the caller's to reuse for the next document.
    ///
    /// Returns `Ok(false)`, having added no row, when the parse that skips the shape
    /// pre-pass refused the document (a number beyond `f64`'s range, or a document that is
    /// not valid JSON): the buffer no longer holds the document as it was read, and the
    /// caller gives its bytes again, read anew, to [`TableBuilder::add`] for its rows or
    /// its error. `Ok(true)` when it was added (or refused cheaply, or skipped as
    /// unreadable).
    ///
    /// ```
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # use std::sync::Arc;
    /// # let dir = std::env::temp_dir().join(format!("tfwire-arrow-doc-in-place-{}", std::process::id()));
    /// # let cache = tfwire_config::SchemaCache::new(&dir, 1 << 20);
    /// # let fleet = Arc::new(tfwire_arrow::FleetSchemas::load(&cache)?);
    /// let def = fleet.table("resources").unwrap();
    /// let mut builder = tfwire_arrow::TableBuilder::new(fleet.clone(), &def, None, Default::default());
    /// let state = br#"{"version":4,"serial":1,"lineage":"l","resources":[{"mode":"managed",
    ///   "type":"null_resource","name":"n","provider":"provider[\"registry.terraform.io/hashicorp/null\"]",
    ///   "instances":[{"schema_version":0,"attributes":{"id":"1"}}]}]}"#;
    /// let wide = br#"{"version":4,"serial":1,"lineage":"l","outputs":{"n":{"value":1e400,"type":"number"}},"resources":[]}"#;
    /// for text in [&state[..], &wide[..]] {
    ///     let mut document = Vec::with_capacity(text.len() + tfwire_plan::INPUT_PADDING);
    ///     document.extend_from_slice(text);
    ///     if !builder.add_in_place("s.tfstate", "default", &mut document)? {
    ///         builder.add("s.tfstate", "default", text)?; // `1e400`: read again, added here
    ///     }
    /// }
    /// assert_eq!(builder.finish()?.num_rows(), 1);
    /// # std::fs::remove_dir_all(&dir).ok();
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    ///
    /// As [`TableBuilder::add`], for what the parse with the shape pre-pass would refuse
    /// as well (a document too large, a damaged plan file, values not conforming to the
    /// schema).
    pub fn add_in_place(
        &mut self,
        source: &str,
        workspace: &str,
        document: &mut Vec<u8>,
    ) -> Result<bool, Error> {
        self.add_checked(source, workspace, document, true)
    }

    /// [`TableBuilder::add`] of `input` (the document, maybe with spare capacity), its JSON
    /// parsed without the shape pre-pass when `fast`; `Ok(false)` when that parse refused it.
    fn add_checked(
        &mut self,
        source: &str,
        workspace: &str,
        input: &mut Vec<u8>,
        fast: bool,
    ) -> Result<bool, Error> {
        let bytes = &input[..];
        if bytes.len() > MAX_DOCUMENT_BYTES {
            return Err(Error::new(format!(
                "the document holds {} bytes, more than the limit of {MAX_DOCUMENT_BYTES}",
                bytes.len()
            ))
            .with_source(source));
        }
        let zip = tfwire_planfile::is_zip(bytes);
        // Cheap refusals, of UTF-8 JSON only: a type table's type, or the member of the
        // phases asked for, nowhere in the text (not even spelled with escapes).
        let utf8 = !zip
            && !bytes.starts_with(&[0xff, 0xfe])
            && !bytes.starts_with(&[0xfe, 0xff])
            && !bytes.iter().take(4).any(|b| *b == 0);
        let absent = |needles: &[&[u8]]| {
            needles
                .iter()
                .all(|n| memchr::memmem::find(bytes, n).is_none())
                && !escapes_a_name(bytes)
        };
        if utf8
            && (self.needle.as_ref().is_some_and(|n| absent(&[n]))
                || self.phase_needles.as_ref().is_some_and(|n| absent(n)))
        {
            self.refused += 1;
            return Ok(true);
        }
        let rows = self.rows;
        let r = self.add_document(workspace, source, input, zip, fast);
        if !matches!(r, Ok(true)) {
            // Keep the columns aligned: a failed document's rows (and the cells of a row
            // it left half-written) are dropped.
            self.truncate(rows);
        }
        match r {
            Err(e) if e.is_unreadable() && self.options.skip_unreadable => {
                self.skipped += 1;
                Ok(true)
            }
            r => r.map_err(|e| e.with_source(source)),
        }
    }

    /// Parses `input` and appends its rows; `Ok(false)` when `fast` and the parse without
    /// the shape pre-pass refused it.
    fn add_document(
        &mut self,
        workspace: &str,
        source: &str,
        input: &mut Vec<u8>,
        zip: bool,
        fast: bool,
    ) -> Result<bool, Error> {
        if zip {
            let config =
                tfwire_planfile::Config::default().max_inflated_bytes(MAX_DOCUMENT_BYTES as u64);
            let planfile = tfwire_planfile::Planfile::read_with(input, &config)
                .map_err(|e| Error::from(e).unreadable())?;
            let lock = planfile
                .lock_file()
                .and_then(|b| tfwire_config::LockFile::parse(b).ok());
            let cache = self.schemas.for_plan(lock.as_ref());
            let options = tfwire_planfile::ShowJson::default().configuration(false);
            let json = planfile.show_json_with(&cache, &options)?.into_bytes();
            *input = json;
        }
        let mut parser = core::mem::replace(&mut self.parser, tfwire_plan::Parser::new());
        // The compiled programs outlive the document's values that borrow them.
        let programs: Vec<Option<Arc<Program>>> =
            self.attrs.iter().map(|a| a.program.clone()).collect();
        // The arenas of the document's model and of its decoded values, reused.
        let (mut arena, mut values) = core::mem::take(&mut self.arenas);
        arena.reset();
        values.reset();
        let r = (|| {
            // A file is parsed without the shape pre-pass (the JSON a plan file gives is
            // parsed with it); what simd-json refuses then is the caller's to give again.
            let parsed = if fast && !zip {
                parser.parse_unshaped(input)
            } else {
                parser.parse(input)
            };
            let tape = match parsed {
                Ok(tape) => tape,
                Err(_) if fast && !zip => return Ok(false),
                Err(e) => return Err(Error::from(e).unreadable()),
            };
            let doc = tape
                .document(&arena)
                .map_err(|e| Error::from(e).unreadable())?;
            let visited = match self.kind.clone() {
                TableKind::Outputs => rows::visit_outputs(&doc, &mut |o| {
                    self.push_output(source, workspace, &o);
                    Ok(())
                }),
                kind => {
                    let only = match &kind {
                        TableKind::Type { mode, type_name } => Some((mode.name(), &**type_name)),
                        _ => None,
                    };
                    rows::visit_objects(&doc, only, &mut |o| match &kind {
                        TableKind::Resources => self.push_resource(source, workspace, &o),
                        TableKind::Attributes => self.push_long(source, workspace, &o),
                        TableKind::Type { .. } => {
                            self.push_typed(source, workspace, &o, &values, &programs)
                        }
                        TableKind::Outputs => Ok(()),
                    })
                }
            };
            visited.map(|()| true)
        })();
        self.parser = parser;
        self.arenas = (arena, values);
        r
    }

    /// Appends the common columns.
    fn push_common(
        &mut self,
        source: &str,
        workspace: &str,
        o: &Object<'_>,
        sensitive: &[String],
        unknown: &[String],
        inexact: &[(String, String)],
    ) {
        let m = &o.meta;
        for (i, acc) in self.columns.iter_mut().take(COMMON).enumerate() {
            let Some(acc) = acc else { continue };
            match i {
                0 => acc.push_str(Some(source)),
                1 => acc.push_str(Some(workspace)),
                2 => acc.push_str(Some(m.phase)),
                3 => acc.push_str_list(m.actions.as_deref()),
                4 => acc.push_str(Some(&m.address)),
                5 => acc.push_str(m.module.as_deref()),
                6 => acc.push_str(Some(m.mode)),
                7 => acc.push_str(Some(m.type_name)),
                8 => acc.push_str(Some(m.name)),
                9 => acc.push_str(m.index_key.as_deref()),
                10 => acc.push_str(m.deposed),
                11 => acc.push_str(m.provider),
                12 => acc.push_u64(m.schema_version),
                13 => acc.push_str(m.identity.map(rows::json_text).as_deref()),
                14 => acc.push_u64(m.serial),
                15 => acc.push_str(m.lineage),
                SENSITIVE_PATHS => acc.push_str_list(Some(sensitive)),
                UNKNOWN_PATHS => acc.push_str_list(Some(unknown)),
                _ => acc.push_str_map(inexact),
            }
        }
    }

    fn push_resource(
        &mut self,
        source: &str,
        workspace: &str,
        o: &Object<'_>,
    ) -> Result<(), Error> {
        let (mut sensitive, mut unknown) = (Vec::new(), Vec::new());
        if self.columns[SENSITIVE_PATHS].is_some() && !self.options.include_sensitive && !o.flat {
            self.marked_paths(o, &o.sensitive_marks()?, &mut sensitive);
        }
        if self.columns[UNKNOWN_PATHS].is_some() {
            self.marked_paths(o, &o.unknown_marks()?, &mut unknown);
        }
        self.push_common(source, workspace, o, &sensitive, &unknown, &[]);
        self.rows += 1;
        Ok(())
    }

    /// The paths `marks` marks in an object's value, told as a typed table tells them
    /// where a schema describes the type (map keys as `["k"]`).
    fn marked_paths(&self, o: &Object<'_>, marks: &Marks, out: &mut Vec<String>) {
        let table = match o.meta.mode {
            "managed" => self.schemas.type_table(o.meta.type_name),
            "data" => self
                .schemas
                .type_table(&format!("data_{}", o.meta.type_name)),
            _ => None,
        }
        .filter(|t| t.type_name == o.meta.type_name);
        let mut path = String::new();
        match (marks, table) {
            (Marks::Members(ms), Some(t)) => {
                for (name, m) in ms {
                    let col = t.attrs.iter().find(|a| a.name == *name).map(|a| &a.col);
                    let len = path.len();
                    path.push_str(
                        &tfwire::PathStep::Attr(std::borrow::Cow::Borrowed(name)).to_string(),
                    );
                    Col::marked_paths(col, m, &mut path, out);
                    path.truncate(len);
                }
            }
            _ => Col::marked_paths(None, marks, &mut path, out),
        }
    }

    fn push_typed<'v>(
        &mut self,
        source: &str,
        workspace: &str,
        o: &Object<'v>,
        arena: &'v bumpalo::Bump,
        programs: &'v [Option<Arc<Program>>],
    ) -> Result<(), Error> {
        let address = || o.meta.address.to_string();
        if o.flat {
            return Err(Error::new(
                "the object's attributes are a legacy flatmap (a version 3 state, or attributes_flat), \
                 which cannot be typed: read it through the `attributes` table, or upgrade the state \
                 with Terraform 0.12 or later",
            )
            .with_address(address()));
        }
        let sensitive = if self.options.include_sensitive {
            Marks::None
        } else {
            o.sensitive_marks()?
        };
        let unknown = o.unknown_marks()?;
        let schemas = self.schemas.clone();
        let table: &TypeTable = match &self.kind {
            TableKind::Type { mode, type_name } => schemas
                .type_table(&crate::schemas::table_name(*mode, type_name))
                .ok_or_else(|| Error::new("the table is not in the schemas"))?,
            _ => return Ok(()),
        };
        if let Some(v) = o.value.filter(|v| !v.is_null() && v.as_object().is_none()) {
            {
                let mut e = Error::new(format!("an object is required, found {}", v.kind()))
                    .with_address(address());
                if let Some(off) = v.offset() {
                    e = e.with_offset(off);
                }
                return Err(e);
            }
        }
        self.walk.reset(self.options.include_sensitive);
        let decoder = if o.wrapped_dynamic {
            &mut self.decoder_wrapped
        } else {
            &mut self.decoder_plain
        };
        for (i, a) in table.attrs.iter().enumerate() {
            let state = &mut self.attrs[i];
            let Some(program) = programs.get(i).and_then(Option::as_deref) else {
                continue;
            };
            let acc = match (&mut self.columns[COMMON + i], &mut state.scratch) {
                (Some(acc), _) | (None, Some(acc)) => acc,
                (None, None) => continue,
            };
            let member = o.value.and_then(|v| v.get(&a.name));
            // Values live as long as the document's arena: decode into it.
            let value = match member {
                None => tfwire::Value::Null,
                Some(j) => {
                    self.decoded += 1;
                    j.decode_typed(program, decoder, arena).map_err(|e| {
                        let e = Error::from(e);
                        let inner = e.path().map(str::to_owned);
                        let path = match inner {
                            Some(p) if p.starts_with('[') => format!("{}{p}", a.name),
                            Some(p) => format!("{}.{p}", a.name),
                            None => a.name.clone(),
                        };
                        let mut out = Error::new(e.message())
                            .with_address(address())
                            .with_path(path);
                        if let Some(off) = e.offset() {
                            out = out.with_offset(off);
                        }
                        out
                    })?
                }
            };
            let s = if a.sensitive {
                Marks::All
            } else {
                sensitive.member(&a.name)
            };
            let at = self.walk.push_attr(&a.name);
            let r = acc.push_value(&a.col, value, &s, &unknown.member(&a.name), &mut self.walk);
            self.walk.pop(at);
            r.map_err(|e| e.with_address(address()))?;
        }
        let walk = core::mem::take(&mut self.walk);
        self.push_common(
            source,
            workspace,
            o,
            &walk.sensitive,
            &walk.unknown,
            &walk.inexact,
        );
        self.walk = walk;
        self.rows += 1;
        Ok(())
    }

    fn push_long(&mut self, source: &str, workspace: &str, o: &Object<'_>) -> Result<(), Error> {
        let Ok(mode) = (match o.meta.mode {
            "managed" => Ok(crate::table::Mode::Managed),
            "data" => Ok(crate::table::Mode::Data),
            _ => Err(()),
        }) else {
            return Ok(());
        };
        if self.schemas.has_type(mode, o.meta.type_name) && !o.flat {
            return Ok(());
        }
        let Some(value) = o.value.filter(|v| !v.is_null()) else {
            return Ok(());
        };
        let sensitive = if self.options.include_sensitive || o.flat {
            Marks::None
        } else {
            o.sensitive_marks()?
        };
        let unknown = o.unknown_marks()?;
        let mut leaves: Vec<(String, Option<String>, bool, bool)> = Vec::new();
        if o.flat {
            for (k, v) in value.as_object().into_iter().flat_map(|o| o.iter()) {
                leaves.push((k.to_owned(), Some(rows::json_text(v)), false, false));
            }
        } else {
            long_leaves(
                value,
                &sensitive,
                &unknown,
                &mut tfwire_plan::Path::root(),
                &mut leaves,
            );
        }
        for (path, text, s, u) in leaves {
            let cells: [Option<&str>; 6] = [
                Some(source),
                Some(workspace),
                Some(&o.meta.address),
                Some(o.meta.phase),
                Some(&path),
                text.as_deref(),
            ];
            for (i, acc) in self.columns.iter_mut().enumerate() {
                let Some(acc) = acc else { continue };
                match i {
                    0..=5 => acc.push_str(cells[i]),
                    6 => acc.push_bool(Some(s)),
                    _ => acc.push_bool(Some(u)),
                }
            }
            self.rows += 1;
        }
        Ok(())
    }

    fn push_output(&mut self, source: &str, workspace: &str, o: &OutputRow<'_>) {
        let unknown = o.unknown.is_some_and(|u| u.contains_true());
        let sensitive = o.sensitive
            || o.sensitive_tree.is_some_and(|t| {
                t.contains_true()
                    || (!t.is_null()
                        && t.as_bool().is_none()
                        && t.as_object().is_none()
                        && t.as_array().is_none())
            });
        let value = if unknown || (sensitive && !self.options.include_sensitive) {
            None
        } else {
            o.value.map(rows::json_text)
        };
        let ty = o.ty.map(rows::json_text);
        for (i, acc) in self.columns.iter_mut().enumerate() {
            let Some(acc) = acc else { continue };
            match i {
                0 => acc.push_str(Some(source)),
                1 => acc.push_str(Some(workspace)),
                2 => acc.push_str(Some(o.phase)),
                3 => acc.push_str(Some(o.name)),
                4 => acc.push_str(value.as_deref()),
                5 => acc.push_str(ty.as_deref()),
                6 => acc.push_bool(Some(sensitive)),
                _ => acc.push_bool(Some(unknown)),
            }
        }
        self.rows += 1;
    }

    /// Drops the rows appended after the first `rows`: the columns are finished, cut, and
    /// carried to the next [`TableBuilder::finish`] (rare: only a document that fails
    /// after some of its rows were appended).
    fn truncate(&mut self, rows: usize) {
        let keep = rows.saturating_sub(self.carried_rows);
        let mut chunk = Vec::with_capacity(self.projection.len());
        for &i in &self.projection {
            if let Some(acc) = &mut self.columns[i] {
                match acc.finish() {
                    Ok(array) => chunk.push(array.slice(0, keep.min(array.len()))),
                    // Cannot happen for arrays this builder made; drop the chunk whole.
                    Err(_) => return self.reset_after_failure(),
                }
            }
        }
        self.carried.push(chunk);
        self.carried_rows = rows;
        for a in &mut self.attrs {
            if let Some(s) = &mut a.scratch {
                let _ = s.finish();
            }
        }
        self.rows = rows;
    }

    fn reset_after_failure(&mut self) {
        self.carried.clear();
        self.carried_rows = 0;
        self.rows = 0;
    }

    /// The number of rows appended since the last [`TableBuilder::finish`].
    pub fn len(&self) -> usize {
        self.rows
    }

    /// Whether no row was appended since the last [`TableBuilder::finish`].
    pub fn is_empty(&self) -> bool {
        self.rows == 0
    }

    /// The number of documents skipped as not a state or plan (with
    /// [`Options::skip_unreadable`]).
    pub fn skipped(&self) -> usize {
        self.skipped
    }

    /// The number of attribute values decoded so far (a projection's effect shows here).
    pub fn decoded_values(&self) -> u64 {
        self.decoded
    }

    /// The number of documents refused unread so far: a type table's type, or the member of
    /// the phases asked for ([`TableBuilder::with_phases`]), nowhere in their text.
    pub fn refused(&self) -> usize {
        self.refused
    }

    /// The rows appended so far as a batch of the projected schema; the builder starts
    /// afresh.
    ///
    /// # Errors
    ///
    /// An Arrow error building the arrays (a column longer than Arrow's 32-bit offsets
    /// hold).
    pub fn finish(&mut self) -> Result<RecordBatch, Error> {
        let schema = self.schema();
        let mut arrays = Vec::with_capacity(self.projection.len());
        for &i in &self.projection {
            if let Some(acc) = &mut self.columns[i] {
                arrays.push(acc.finish()?);
            }
        }
        for a in &mut self.attrs {
            if let Some(s) = &mut a.scratch {
                s.finish()?;
            }
        }
        if !self.carried.is_empty() {
            let carried = core::mem::take(&mut self.carried);
            let mut joined = Vec::with_capacity(arrays.len());
            for (c, array) in arrays.iter().enumerate() {
                let mut parts: Vec<&dyn arrow_array::Array> =
                    carried.iter().map(|chunk| chunk[c].as_ref()).collect();
                parts.push(array.as_ref());
                joined.push(arrow_select::concat::concat(&parts)?);
            }
            arrays = joined;
        }
        let options = RecordBatchOptions::new().with_row_count(Some(self.rows));
        self.rows = 0;
        self.carried_rows = 0;
        Ok(RecordBatch::try_new_with_options(schema, arrays, &options)?)
    }
}

/// Whether the text escapes a character a type name may hold (`\u0061` for `a`): then the
/// type's name may be in it unseen by a byte search, and the document is parsed. The
/// clients escape only `<`, `>`, `&`, controls and a few others, never these.
fn escapes_a_name(bytes: &[u8]) -> bool {
    memchr::memmem::find_iter(bytes, b"\\u00").any(|at| {
        let hex = |i: usize| bytes.get(at + i).map(u8::to_ascii_lowercase);
        match (hex(4), hex(5)) {
            (Some(b'3'), Some(d)) => d.is_ascii_digit(),
            (Some(b'5'), Some(b'f')) => true,
            (Some(b'6' | b'7'), Some(_)) => true,
            _ => false,
        }
    })
}

/// The leaves of an untyped value, with their markers.
fn long_leaves(
    v: tfwire_plan::Json<'_>,
    sensitive: &Marks,
    unknown: &Marks,
    path: &mut tfwire_plan::Path<'static>,
    out: &mut Vec<(String, Option<String>, bool, bool)>,
) {
    let text = |p: &tfwire_plan::Path<'_>| {
        let t = p.to_string();
        t.strip_prefix('.').unwrap_or(&t).to_owned()
    };
    if unknown.is_all() {
        out.push((text(path), None, false, true));
        return;
    }
    if sensitive.is_all() {
        out.push((text(path), None, true, false));
        return;
    }
    if let Some(o) = v.as_object().filter(|o| !o.is_empty()) {
        for (k, m) in o.iter() {
            path.push(tfwire_plan::PathStep::Attr(std::borrow::Cow::Owned(
                k.to_owned(),
            )));
            long_leaves(m, &sensitive.member(k), &unknown.member(k), path, out);
            path.pop();
        }
        return;
    }
    if let Some(a) = v.as_array().filter(|a| !a.is_empty()) {
        for (i, m) in a.iter().enumerate() {
            path.push(tfwire_plan::PathStep::Index(i as u64));
            long_leaves(m, &sensitive.element(i), &unknown.element(i), path, out);
            path.pop();
        }
        return;
    }
    out.push((text(path), Some(rows::json_text(v)), false, false));
}
