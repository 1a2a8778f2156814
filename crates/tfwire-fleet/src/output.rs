//! Query results for people and programs: [`Format`] (`table`, `csv`, `json`) written by
//! [`Writer`], and [`canonical_rows`], the canonical text of every cell (what tests
//! compare with a reference's answers).
//!
//! Numbers are exact (decimals as their decimal text, no exponent, no trailing zero after
//! the point); no control character of a value reaches the output raw: in `table` and
//! `csv` a string is written as tfwire writes text inside a line for a person
//! ([`tfwire_json::write_safe_inline`]: `\n`, `\u001b`, ...), in `json` as a JSON string
//! with those characters escaped ([`tfwire_json::write_safe_str`]). Lists are JSON arrays,
//! structs and maps JSON objects.

use datafusion::arrow::array::{
    Array, ArrayRef, AsArray as _, BooleanArray, MapArray, StructArray,
};
use datafusion::arrow::datatypes::{
    DataType, Float16Type, Float32Type, Float64Type, Int8Type, Int16Type, Int32Type, Int64Type,
    SchemaRef, UInt8Type, UInt16Type, UInt32Type, UInt64Type,
};
use datafusion::arrow::record_batch::RecordBatch;
use datafusion::arrow::util::display::{ArrayFormatter, FormatOptions};
use std::fmt::Write as _;
use std::io;

/// How [`Writer`] prints rows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Format {
    /// A table with a header and aligned columns (numbers to the right), `NULL` for null.
    #[default]
    Table,
    /// CSV (RFC 4180): a header line, then one line per row; null is an empty field, the
    /// empty string `""`.
    Csv,
    /// One JSON array, one row (an object, members in column order) a line.
    Json,
}

impl Format {
    /// The format called `name` (`table`, `csv`, `json`).
    pub fn from_name(name: &str) -> Option<Format> {
        match name {
            "table" => Some(Format::Table),
            "csv" => Some(Format::Csv),
            "json" => Some(Format::Json),
            _ => None,
        }
    }
}

/// How strings inside JSON text are escaped.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Strings {
    /// As tfwire's canonical text (and Python's `json.dumps(ensure_ascii=False)`): only
    /// `"`, `\` and C0 controls.
    Canonical,
    /// Safe for a person's terminal: every character of [`tfwire_json::is_unsafe_char`]
    /// escaped too.
    Safe,
}

/// Every cell of `batches` as canonical text, row by row: null → `None`; a string as it
/// is; a number as its exact decimal text (no exponent, no trailing zero after the point,
/// no point when integral, `-0` → `0`); a boolean `true` / `false`; a list, struct or map
/// as its JSON text (arrays, objects with members in field order or map order) whose
/// members are canonical the same way and whose strings are escaped as
/// [`tfwire_json::write_canonical_str`] escapes them.
///
/// ```
/// use std::sync::Arc;
/// use datafusion::arrow::array::{Decimal128Array, StringArray};
/// use datafusion::arrow::record_batch::RecordBatch;
/// let sizes = Decimal128Array::from(vec![Some(1_500_000_000), None])
///     .with_precision_and_scale(38, 9)?;
/// let names = StringArray::from(vec!["a", "b"]);
/// let batch = RecordBatch::try_from_iter([
///     ("name", Arc::new(names) as _), ("size", Arc::new(sizes) as _)])?;
/// assert_eq!(tfwire_fleet::canonical_rows(&[batch]), [
///     [Some("a".to_owned()), Some("1.5".to_owned())],
///     [Some("b".to_owned()), None],
/// ]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn canonical_rows(batches: &[RecordBatch]) -> Vec<Vec<Option<String>>> {
    let mut rows = Vec::new();
    for batch in batches {
        for row in 0..batch.num_rows() {
            rows.push(
                batch
                    .columns()
                    .iter()
                    .map(|c| cell(c.as_ref(), row, Strings::Canonical))
                    .collect(),
            );
        }
    }
    rows
}

/// One cell as text: `None` for null, a string as it is, a number canonical, a nested
/// value as JSON.
fn cell(array: &dyn Array, row: usize, strings: Strings) -> Option<String> {
    if array.is_null(row) {
        return None;
    }
    if let Some(s) = string_at(array, row) {
        return Some(s.to_owned());
    }
    let mut out = String::new();
    match array.data_type() {
        DataType::Boolean => out.push_str(bool_text(array, row)),
        t if is_number(t) => out.push_str(&number_text(array, row)),
        DataType::Dictionary(_, value) => {
            let one = array.slice(row, 1);
            return match datafusion::arrow::compute::cast(&one, value) {
                Ok(v) => cell(v.as_ref(), 0, strings),
                Err(_) => Some(display(array, row)),
            };
        }
        _ => json_value(&mut out, array, row, strings),
    }
    Some(out)
}

fn string_at(array: &dyn Array, row: usize) -> Option<&str> {
    match array.data_type() {
        DataType::Utf8 => Some(array.as_string::<i32>().value(row)),
        DataType::LargeUtf8 => Some(array.as_string::<i64>().value(row)),
        DataType::Utf8View => Some(array.as_string_view().value(row)),
        _ => None,
    }
}

fn bool_text(array: &dyn Array, row: usize) -> &'static str {
    let b: &BooleanArray = array.as_boolean();
    if b.value(row) { "true" } else { "false" }
}

fn is_number(t: &DataType) -> bool {
    t.is_numeric()
}

/// A number's canonical text (finite ones; `NaN`, `inf`, `-inf` otherwise).
fn number_text(array: &dyn Array, row: usize) -> String {
    let float = |f: f64| {
        if f.is_finite() {
            canonical_decimal(&format!("{f}"))
        } else if f.is_nan() {
            "NaN".to_owned()
        } else if f > 0.0 {
            "inf".to_owned()
        } else {
            "-inf".to_owned()
        }
    };
    match array.data_type() {
        DataType::Int8 => array.as_primitive::<Int8Type>().value(row).to_string(),
        DataType::Int16 => array.as_primitive::<Int16Type>().value(row).to_string(),
        DataType::Int32 => array.as_primitive::<Int32Type>().value(row).to_string(),
        DataType::Int64 => array.as_primitive::<Int64Type>().value(row).to_string(),
        DataType::UInt8 => array.as_primitive::<UInt8Type>().value(row).to_string(),
        DataType::UInt16 => array.as_primitive::<UInt16Type>().value(row).to_string(),
        DataType::UInt32 => array.as_primitive::<UInt32Type>().value(row).to_string(),
        DataType::UInt64 => array.as_primitive::<UInt64Type>().value(row).to_string(),
        DataType::Float16 => float(array.as_primitive::<Float16Type>().value(row).to_f64()),
        DataType::Float32 => float(f64::from(array.as_primitive::<Float32Type>().value(row))),
        DataType::Float64 => float(array.as_primitive::<Float64Type>().value(row)),
        // Decimals of every width: Arrow writes their exact digits with the scale's point.
        _ => canonical_decimal(&display(array, row)),
    }
}

/// `-1.500` → `-1.5`, `2.000` → `2`, `-0.0` → `0`; text without a point kept (but `-0`).
fn canonical_decimal(text: &str) -> String {
    let (neg, digits) = match text.strip_prefix('-') {
        Some(d) => (true, d),
        None => (false, text),
    };
    let digits = match digits.split_once('.') {
        Some((int, frac)) => {
            let frac = frac.trim_end_matches('0');
            if frac.is_empty() {
                int.to_owned()
            } else {
                format!("{int}.{frac}")
            }
        }
        None => digits.to_owned(),
    };
    if digits.bytes().all(|b| b == b'0' || b == b'.') {
        return "0".to_owned();
    }
    if neg { format!("-{digits}") } else { digits }
}

/// Arrow's own text of a value (dates, times, binary, decimals' digits, ...).
fn display(array: &dyn Array, row: usize) -> String {
    let options = FormatOptions::default();
    match ArrayFormatter::try_new(array, &options) {
        Ok(f) => f.value(row).to_string(),
        Err(e) => format!("<{e}>"),
    }
}

fn write_str(out: &mut String, s: &str, strings: Strings) {
    // Writing to a String cannot fail.
    let _ = match strings {
        Strings::Canonical => tfwire_json::write_canonical_str(out, s),
        Strings::Safe => tfwire_json::write_safe_str(out, s),
    };
}

/// The value at `row` as JSON text.
fn json_value(out: &mut String, array: &dyn Array, row: usize, strings: Strings) {
    if array.is_null(row) {
        out.push_str("null");
        return;
    }
    if let Some(s) = string_at(array, row) {
        write_str(out, s, strings);
        return;
    }
    match array.data_type() {
        DataType::Null => out.push_str("null"),
        DataType::Boolean => out.push_str(bool_text(array, row)),
        t if is_number(t) => {
            let n = number_text(array, row);
            if n.starts_with(|c: char| c == '-' || c.is_ascii_digit()) && n != "-inf" {
                out.push_str(&n);
            } else {
                write_str(out, &n, strings);
            }
        }
        DataType::List(_) => {
            let l = array.as_list::<i32>();
            json_array(out, &l.value(row), strings);
        }
        DataType::LargeList(_) => {
            let l = array.as_list::<i64>();
            json_array(out, &l.value(row), strings);
        }
        DataType::FixedSizeList(..) => {
            let l = array.as_fixed_size_list();
            json_array(out, &l.value(row), strings);
        }
        DataType::Struct(fields) => {
            let s: &StructArray = array.as_struct();
            out.push('{');
            for (i, f) in fields.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_str(out, f.name(), strings);
                out.push(':');
                json_value(out, s.column(i).as_ref(), row, strings);
            }
            out.push('}');
        }
        DataType::Map(..) => {
            let m: &MapArray = array.as_map();
            let entries = m.value(row);
            let (keys, values) = (entries.column(0), entries.column(1));
            out.push('{');
            for i in 0..entries.len() {
                if i > 0 {
                    out.push(',');
                }
                let key = cell(keys.as_ref(), i, strings).unwrap_or_else(|| "null".to_owned());
                write_str(out, &key, strings);
                out.push(':');
                json_value(out, values.as_ref(), i, strings);
            }
            out.push('}');
        }
        DataType::Dictionary(_, value) => {
            let one = array.slice(row, 1);
            match datafusion::arrow::compute::cast(&one, value) {
                Ok(v) => json_value(out, v.as_ref(), 0, strings),
                Err(_) => write_str(out, &display(array, row), strings),
            }
        }
        _ => write_str(out, &display(array, row), strings),
    }
}

fn json_array(out: &mut String, items: &ArrayRef, strings: Strings) {
    out.push('[');
    for i in 0..items.len() {
        if i > 0 {
            out.push(',');
        }
        json_value(out, items.as_ref(), i, strings);
    }
    out.push(']');
}

/// A cell for a line of text: its canonical text with unsafe characters escaped, nested
/// values as safe JSON.
fn line_cell(array: &dyn Array, row: usize) -> Option<String> {
    let text = cell(array, row, Strings::Safe)?;
    if string_at(array, row).is_some() {
        let mut out = String::with_capacity(text.len());
        let _ = tfwire_json::write_safe_inline(&mut out, &text);
        Some(out)
    } else {
        Some(text)
    }
}

/// Writes query results in a [`Format`] as batches arrive: `csv` and `json` row by row,
/// `table` at [`Writer::finish`] (its columns are as wide as their widest cell).
///
/// ```
/// use std::sync::Arc;
/// use datafusion::arrow::array::{Int64Array, StringArray};
/// use datafusion::arrow::record_batch::RecordBatch;
/// use tfwire_fleet::output::{Format, Writer};
/// let batch = RecordBatch::try_from_iter([
///     ("workspace", Arc::new(StringArray::from(vec!["prod\u{1b}[2J", "qa"])) as _),
///     ("buckets", Arc::new(Int64Array::from(vec![12, 3])) as _)])?;
/// let mut out = Vec::new();
/// let mut w = Writer::new(Format::Table, batch.schema(), &mut out);
/// w.write(&batch)?;
/// w.finish()?;
/// assert_eq!(String::from_utf8(out)?, r#"+---------------+---------+
/// | workspace     | buckets |
/// +---------------+---------+
/// | prod\u001b[2J |      12 |
/// | qa            |       3 |
/// +---------------+---------+
/// "#);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct Writer<W: io::Write> {
    format: Format,
    schema: SchemaRef,
    out: W,
    rows: usize,
    /// The table's cells so far (`table` only).
    cells: Vec<Vec<Option<String>>>,
    started: bool,
}

impl<W: io::Write> Writer<W> {
    /// A writer of rows of `schema` to `out`.
    pub fn new(format: Format, schema: SchemaRef, out: W) -> Writer<W> {
        Writer {
            format,
            schema,
            out,
            rows: 0,
            cells: Vec::new(),
            started: false,
        }
    }

    /// The rows written so far.
    pub fn rows(&self) -> usize {
        self.rows
    }

    fn names(&self) -> Vec<String> {
        self.schema
            .fields()
            .iter()
            .map(|f| {
                let mut s = String::new();
                let _ = tfwire_json::write_safe_inline(&mut s, f.name());
                s
            })
            .collect()
    }

    /// Writes (or, for `table`, keeps) `batch`'s rows.
    ///
    /// # Errors
    ///
    /// Writing to the output failed.
    pub fn write(&mut self, batch: &RecordBatch) -> io::Result<()> {
        if !self.started {
            self.started = true;
            match self.format {
                Format::Table => {}
                Format::Csv => {
                    let header: Vec<String> =
                        self.names().iter().map(|n| csv_field(Some(n))).collect();
                    writeln!(self.out, "{}", header.join(","))?;
                }
                Format::Json => self.out.write_all(b"[")?,
            }
        }
        let names: Vec<String> = if self.format == Format::Json {
            self.schema
                .fields()
                .iter()
                .map(|f| {
                    let mut s = String::new();
                    write_str(&mut s, f.name(), Strings::Safe);
                    s
                })
                .collect()
        } else {
            Vec::new()
        };
        let mut line = String::new();
        for row in 0..batch.num_rows() {
            line.clear();
            match self.format {
                Format::Table => {
                    self.cells.push(
                        batch
                            .columns()
                            .iter()
                            .map(|c| line_cell(c.as_ref(), row))
                            .collect(),
                    );
                }
                Format::Csv => {
                    for (i, c) in batch.columns().iter().enumerate() {
                        if i > 0 {
                            line.push(',');
                        }
                        line.push_str(&csv_field(line_cell(c.as_ref(), row).as_deref()));
                    }
                    line.push('\n');
                }
                Format::Json => {
                    line.push_str(if self.rows == 0 { "\n{" } else { ",\n{" });
                    for (i, c) in batch.columns().iter().enumerate() {
                        if i > 0 {
                            line.push(',');
                        }
                        line.push_str(&names[i]);
                        line.push(':');
                        json_value(&mut line, c.as_ref(), row, Strings::Safe);
                    }
                    line.push('}');
                }
            }
            self.out.write_all(line.as_bytes())?;
            self.rows += 1;
        }
        Ok(())
    }

    /// Ends the output (prints the table; closes the JSON array) and flushes it.
    ///
    /// # Errors
    ///
    /// Writing to the output failed.
    pub fn finish(mut self) -> io::Result<()> {
        match self.format {
            Format::Table => self.print_table()?,
            Format::Csv => {
                if !self.started {
                    let header: Vec<String> =
                        self.names().iter().map(|n| csv_field(Some(n))).collect();
                    writeln!(self.out, "{}", header.join(","))?;
                }
            }
            Format::Json => {
                if !self.started {
                    self.out.write_all(b"[")?;
                }
                self.out
                    .write_all(if self.rows == 0 { b"]\n" } else { b"\n]\n" })?;
            }
        }
        self.out.flush()
    }

    fn print_table(&mut self) -> io::Result<()> {
        let names = self.names();
        let right: Vec<bool> = self
            .schema
            .fields()
            .iter()
            .map(|f| f.data_type().is_numeric())
            .collect();
        let mut widths: Vec<usize> = names.iter().map(|n| n.chars().count()).collect();
        for row in &self.cells {
            for (w, c) in widths.iter_mut().zip(row) {
                *w = (*w).max(c.as_deref().unwrap_or("NULL").chars().count());
            }
        }
        let mut rule = String::from("+");
        for w in &widths {
            rule.push_str(&"-".repeat(w + 2));
            rule.push('+');
        }
        rule.push('\n');
        let line = |cells: &mut dyn Iterator<Item = (&str, bool)>| {
            let mut s = String::from("|");
            for ((text, right), w) in cells.zip(&widths) {
                let pad = w - text.chars().count();
                let _ = if right {
                    write!(s, " {}{text} |", " ".repeat(pad))
                } else {
                    write!(s, " {text}{} |", " ".repeat(pad))
                };
            }
            s.push('\n');
            s
        };
        let mut text = rule.clone();
        text.push_str(&line(&mut names.iter().map(|n| (n.as_str(), false))));
        text.push_str(&rule);
        self.out.write_all(text.as_bytes())?;
        for row in &self.cells {
            let s = line(
                &mut row
                    .iter()
                    .zip(&right)
                    .map(|(c, r)| (c.as_deref().unwrap_or("NULL"), *r)),
            );
            self.out.write_all(s.as_bytes())?;
        }
        self.out.write_all(rule.as_bytes())
    }
}

/// A CSV field: quoted when it holds `,`, `"`, a leading or trailing space, or is the
/// empty string (null is the empty field).
fn csv_field(text: Option<&str>) -> String {
    match text {
        None => String::new(),
        Some(t)
            if t.is_empty() || t.contains([',', '"']) || t.starts_with(' ') || t.ends_with(' ') =>
        {
            format!("\"{}\"", t.replace('"', "\"\""))
        }
        Some(t) => t.to_owned(),
    }
}
