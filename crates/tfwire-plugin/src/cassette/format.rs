//! Reading and writing the cassette's JSON Lines (the format is described in the module
//! docs of [`crate::cassette`]).

use super::data::{Call, CallStatus, Cassette, FORMAT, Session};
use crate::error::{Error, ErrorKind};
use crate::handshake::{base64_decode, base64_encode};
use bytes::Bytes;
use tfwire_json::tape::{INPUT_PADDING, TapeParser};
use tfwire_json::view::Json;
use tfwire_json::{Escape, JsonWriter};

/// The longest line a reader accepts: 256 MiB (a session header holds the provider's whole
/// schema; the largest providers' are tens of megabytes).
pub const MAX_LINE_BYTES: usize = 256 << 20;
/// The most sessions a reader accepts in one file.
pub const MAX_SESSIONS: usize = 1 << 20;
/// The most messages a reader accepts in one direction of one call.
pub const MAX_MESSAGES: usize = 1 << 20;
/// The deepest JSON nesting a reader accepts in a line (the readable values of a call nest
/// as deep as the values themselves; tfwire's decoder refuses values deeper than this).
pub const MAX_DEPTH: usize = 256;

/// The header key that starts a session, its value the format's version.
pub(crate) const HEADER_KEY: &str = "tfwire_cassette";
/// The key of a recording tap's open marker, its value the format's version.
pub(crate) const OPEN_KEY: &str = "tfwire_cassette_open";

/// What a reader says of a marker that no session closes.
const CUT_SHORT: &str = "record again; the client kills a provider that has not exited 2 s \
                         after Shutdown";

fn err(line: usize, offset: usize, what: impl core::fmt::Display) -> Error {
    Error::new(
        ErrorKind::Cassette,
        format!("cassette line {line} (byte {offset}): {what}"),
    )
}

/// One line's members, checked as they are read.
struct Line<'j> {
    root: tfwire_json::view::Object<'j>,
    /// The line's number (from 1) and the byte offset of its first byte in the file.
    number: usize,
    start: usize,
}

impl<'j> Line<'j> {
    fn at(&self, v: &Json<'_>) -> usize {
        self.start + v.offset().unwrap_or(0)
    }

    fn err(&self, v: Option<&Json<'_>>, what: impl core::fmt::Display) -> Error {
        err(self.number, v.map_or(self.start, |v| self.at(v)), what)
    }

    fn get(&self, key: &str) -> Option<Json<'j>> {
        self.root
            .iter()
            .filter(|(k, _)| *k == key)
            .map(|(_, v)| v)
            .last()
    }

    fn required(&self, key: &str) -> Result<Json<'j>, Error> {
        self.get(key)
            .ok_or_else(|| self.err(None, format!("the member {key:?} is missing")))
    }

    fn string(&self, key: &str) -> Result<&'j str, Error> {
        let v = self.required(key)?;
        v.expect_str()
            .map_err(|e| self.err(Some(&v), format!("{key}: {e}")))
    }

    fn opt_string(&self, key: &str) -> Result<Option<String>, Error> {
        match self.get(key) {
            None => Ok(None),
            Some(v) => v
                .opt_str()
                .map(|s| s.map(str::to_owned))
                .map_err(|e| self.err(Some(&v), format!("{key}: {e}"))),
        }
    }

    fn uint(&self, key: &str, max: u64) -> Result<u64, Error> {
        let v = self.required(key)?;
        let n = v
            .expect_u64()
            .map_err(|e| self.err(Some(&v), format!("{key}: {e}")))?;
        if n > max {
            return Err(self.err(
                Some(&v),
                format!("{key}: expected at most {max}, found {n}"),
            ));
        }
        Ok(n)
    }

    fn bytes(&self, key: &str, v: &Json<'_>) -> Result<Bytes, Error> {
        let s = v
            .expect_str()
            .map_err(|e| self.err(Some(v), format!("{key}: {e}")))?;
        base64_decode(s)
            .map(Bytes::from)
            .map_err(|e| self.err(Some(v), format!("{key}: {e}")))
    }

    fn messages(&self, key: &str) -> Result<Vec<Bytes>, Error> {
        let v = self.required(key)?;
        let a = v
            .expect_array()
            .map_err(|e| self.err(Some(&v), format!("{key}: {e}")))?;
        if a.len() > MAX_MESSAGES {
            return Err(self.err(
                Some(&v),
                format!(
                    "{key}: expected at most {MAX_MESSAGES} messages, found {}",
                    a.len()
                ),
            ));
        }
        a.iter()
            .enumerate()
            .map(|(i, m)| self.bytes(&format!("{key}[{i}]"), &m))
            .collect()
    }
}

/// An open marker no session has closed yet: its line, byte offset, pid and provider.
struct Marker {
    line: usize,
    start: usize,
    pid: u64,
    provider: Option<String>,
}

/// A session being read: its header's line, the calls it announced.
struct Open {
    session: Session,
    line: usize,
    announced: usize,
}

impl Cassette {
    /// Reads a cassette: every session of the file, in order.
    ///
    /// The reader is bounded for a file of unknown origin: lines of at most
    /// [`MAX_LINE_BYTES`], nesting of at most [`MAX_DEPTH`], at most [`MAX_SESSIONS`]
    /// sessions and [`MAX_MESSAGES`] messages each way per call, nothing allocated beyond
    /// what the file holds. The messages are not decoded here (a replayer decodes them with
    /// the session's schema, and says which one does not decode).
    ///
    /// ```
    /// use tfwire_plugin::cassette::{Call, CallStatus, Cassette, Session};
    /// let cassette = Cassette {
    ///     sessions: vec![Session {
    ///         protocol: 6,
    ///         calls: vec![Call {
    ///             method: "/tfplugin6.Provider/GetMetadata".into(),
    ///             requests: vec![bytes::Bytes::new()],
    ///             responses: vec![bytes::Bytes::from_static(b"\x12\x02\x08\x01")],
    ///             status: CallStatus::OK,
    ///         }],
    ///         ..Default::default()
    ///     }],
    /// };
    /// let mut file = Vec::new();
    /// cassette.write(&mut file)?;
    /// assert_eq!(Cassette::read(&file)?, cassette);
    /// let err = Cassette::read(b"{\"tfwire_cassette\":1,\"protocol\":6}\n").unwrap_err();
    /// assert_eq!(err.to_string(), r#"cassette line 1 (byte 0): the member "calls" is missing"#);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    ///
    /// A line that is not one JSON object, a member missing or of the wrong kind, a message
    /// that is not base64, a session whose calls the file does not hold (a write cut short),
    /// a call line before any session header, a session of another format version, a
    /// recording tap's open marker that no session closes (the tap was killed before it
    /// wrote its session: see [`Session::open_marker`]), a limit exceeded: each as one [`Error`] of kind [`ErrorKind::Cassette`] naming the line and the
    /// byte offset in the file.
    pub fn read(bytes: &[u8]) -> Result<Cassette, Error> {
        let mut cassette = Cassette::default();
        let mut open: Option<Open> = None;
        let mut markers: std::collections::HashMap<String, Marker> =
            std::collections::HashMap::new();
        let mut parser = TapeParser::new(MAX_DEPTH);
        let mut buf = Vec::new();
        let mut start = 0;
        let mut number = 0;
        while start < bytes.len() {
            number += 1;
            let end = memchr_newline(&bytes[start..]).map_or(bytes.len(), |i| start + i);
            let text = &bytes[start..end];
            let next = end + 1;
            if text.len() > MAX_LINE_BYTES {
                return Err(err(
                    number,
                    start,
                    format!("a line of {} bytes (at most {MAX_LINE_BYTES})", text.len()),
                ));
            }
            if text.iter().all(|b| matches!(b, b' ' | b'\t' | b'\r')) {
                start = next;
                continue;
            }
            let shape = tfwire_json::json_shape(text, MAX_DEPTH, usize::MAX)
                .map_err(|e| err(number, start + e.offset(), e))?;
            buf.clear();
            buf.extend_from_slice(text);
            buf.resize(text.len() + INPUT_PADDING, b' ');
            let doc = parser
                .parse_document(&mut buf, text.len(), &shape)
                .map_err(|e| err(number, start + e.offset(), e))?;
            let root = doc.root();
            let object = root.expect_object().map_err(|e| {
                err(
                    number,
                    start,
                    format!("{e}: every line of a cassette is a JSON object"),
                )
            })?;
            let line = Line {
                root: object,
                number,
                start,
            };
            if line.get(OPEN_KEY).is_some() {
                if let Some(o) = open.take() {
                    return Err(truncated(&o, &line));
                }
                if markers.len() >= MAX_SESSIONS {
                    return Err(line.err(None, format!("more than {MAX_SESSIONS} open markers")));
                }
                let version = line.uint(OPEN_KEY, u64::from(u32::MAX))?;
                if version != u64::from(FORMAT) {
                    return Err(line.err(
                        line.get(OPEN_KEY).as_ref(),
                        format!(
                            "a marker of format version {version}; this reader knows version {FORMAT}"
                        ),
                    ));
                }
                let id = line.string("session")?;
                let marker = Marker {
                    line: number,
                    start,
                    pid: line.uint("pid", u64::from(u32::MAX))?,
                    provider: line.opt_string("provider")?,
                };
                if let Some(m) = markers.get(id) {
                    return Err(line.err(
                        line.get("session").as_ref(),
                        format!(
                            "the session id {id:?} was opened already on line {}",
                            m.line
                        ),
                    ));
                }
                markers.insert(id.to_owned(), marker);
            } else if line.get(HEADER_KEY).is_some() {
                if let Some(o) = open.take() {
                    return Err(truncated(&o, &line));
                }
                if cassette.sessions.len() >= MAX_SESSIONS {
                    return Err(line.err(None, format!("more than {MAX_SESSIONS} sessions")));
                }
                let version = line.uint(HEADER_KEY, u64::from(u32::MAX))?;
                if version != u64::from(FORMAT) {
                    return Err(line.err(
                        line.get(HEADER_KEY).as_ref(),
                        format!(
                            "a session of format version {version}; this reader knows version {FORMAT}"
                        ),
                    ));
                }
                let protocol = line.uint("protocol", u64::from(u32::MAX))? as u32;
                let announced = line.uint("calls", usize::MAX as u64)? as usize;
                let redacted = match line.get("redacted") {
                    None => false,
                    Some(v) => v
                        .expect_bool()
                        .map_err(|e| line.err(Some(&v), format!("redacted: {e}")))?,
                };
                let schema = line.bytes("schema", &line.required("schema")?)?;
                let identities = match line.get("identities") {
                    Some(v) if !v.is_null() => Some(line.bytes("identities", &v)?),
                    _ => None,
                };
                let masks = match line.get("masks") {
                    None => Vec::new(),
                    Some(v) => {
                        let a = v
                            .expect_array()
                            .map_err(|e| line.err(Some(&v), format!("masks: {e}")))?;
                        a.iter()
                            .map(|m| {
                                m.expect_str()
                                    .map(str::to_owned)
                                    .map_err(|e| line.err(Some(&m), format!("masks: {e}")))
                            })
                            .collect::<Result<_, _>>()?
                    }
                };
                let id = line.opt_string("session")?;
                if let Some(id) = &id {
                    markers.remove(id);
                }
                let session = Session {
                    id,
                    provider: line.opt_string("provider")?,
                    version: line.opt_string("version")?,
                    protocol,
                    redacted,
                    masks,
                    schema,
                    identities,
                    calls: Vec::new(),
                };
                open = Some(Open {
                    session,
                    line: number,
                    announced,
                });
            } else {
                let Some(o) = open.as_mut() else {
                    return Err(line.err(
                        None,
                        format!("a call before any session header (a line with {HEADER_KEY:?})"),
                    ));
                };
                let code = line.required("code")?;
                let code = code
                    .expect_i64()
                    .ok()
                    .and_then(|c| i32::try_from(c).ok())
                    .ok_or_else(|| line.err(Some(&code), "code: expected a gRPC status code"))?;
                o.session.calls.push(Call {
                    method: line.string("method")?.to_owned(),
                    requests: line.messages("requests")?,
                    responses: line.messages("responses")?,
                    status: CallStatus {
                        code,
                        message: line.opt_string("message")?.unwrap_or_default(),
                    },
                });
            }
            parser.recycle_document(doc);
            if let Some(o) = open.take_if(|o| o.session.calls.len() == o.announced) {
                cassette.sessions.push(o.session);
            }
            start = next;
        }
        if let Some(o) = open {
            return Err(err(
                number,
                bytes.len(),
                format!(
                    "the session of line {} announces {} calls, the file ends after {} \
                     (a write cut short?)",
                    o.line,
                    o.announced,
                    o.session.calls.len()
                ),
            ));
        }
        if let Some(m) = markers.into_values().min_by_key(|m| m.line) {
            return Err(err(
                m.line,
                m.start,
                format!(
                    "a recording tap (pid {}) started a session here for {} and was stopped \
                     before writing it: {CUT_SHORT}",
                    m.pid,
                    m.provider.as_deref().map_or_else(
                        || "a provider of unknown address".to_owned(),
                        |p| format!("the provider {p}")
                    )
                ),
            ));
        }
        Ok(cassette)
    }

    /// Writes every session, each as its header line and one line per call (see the module
    /// docs of [`crate::cassette`]). Appending a session to a file is writing a cassette of
    /// one session at its end ([`Session::append_to`]).
    ///
    /// # Errors
    ///
    /// What `w` returns.
    pub fn write(&self, w: &mut impl std::io::Write) -> std::io::Result<()> {
        let mut line = String::new();
        for s in &self.sessions {
            line.clear();
            write_header(&mut line, s);
            line.push('\n');
            w.write_all(line.as_bytes())?;
            let view = super::show::Viewer::new(s);
            for c in &s.calls {
                line.clear();
                write_call(&mut line, c, &view);
                line.push('\n');
                w.write_all(line.as_bytes())?;
            }
        }
        Ok(())
    }
}

fn truncated(o: &Open, line: &Line<'_>) -> Error {
    line.err(
        None,
        format!(
            "a session header, but the session of line {} announced {} calls and has {} \
             (a write cut short?)",
            o.line,
            o.announced,
            o.session.calls.len()
        ),
    )
}

fn memchr_newline(b: &[u8]) -> Option<usize> {
    b.iter().position(|&c| c == b'\n')
}

/// The line of a recording tap's open marker (without its newline).
pub(crate) fn marker_line(id: &str, pid: u32, provider: Option<&str>) -> String {
    let mut out = String::new();
    let mut w = JsonWriter::new(&mut out, Escape::Safe);
    // Writing to a String cannot fail.
    let _ = (|| {
        w.begin_object()?;
        w.member_uint(OPEN_KEY, u64::from(FORMAT))?;
        w.member_str("session", id)?;
        w.member_uint("pid", u64::from(pid))?;
        w.key("provider")?;
        match provider {
            Some(p) => w.string(p),
            None => w.null(),
        }?;
        w.end_object()
    })();
    out
}

fn write_header(out: &mut String, s: &Session) {
    let mut w = JsonWriter::new(out, Escape::Safe);
    let opt = |w: &mut JsonWriter<&mut String>, k: &str, v: &Option<String>| {
        w.key(k)?;
        match v {
            Some(v) => w.string(v),
            None => w.null(),
        }
    };
    // Writing to a String cannot fail.
    let _ = (|| {
        w.begin_object()?;
        w.member_uint(HEADER_KEY, u64::from(FORMAT))?;
        if let Some(id) = &s.id {
            w.member_str("session", id)?;
        }
        opt(&mut w, "provider", &s.provider)?;
        opt(&mut w, "version", &s.version)?;
        w.member_uint("protocol", u64::from(s.protocol))?;
        w.member_bool("redacted", s.redacted)?;
        if !s.masks.is_empty() {
            w.key("masks")?;
            w.begin_array()?;
            for m in &s.masks {
                w.string(m)?;
            }
            w.end_array()?;
        }
        w.member_uint("calls", s.calls.len() as u64)?;
        w.member_str("schema", &base64_encode(&s.schema))?;
        w.key("identities")?;
        match &s.identities {
            Some(b) => w.string(&base64_encode(b))?,
            None => w.null()?,
        }
        w.end_object()
    })();
}

fn write_call(out: &mut String, c: &Call, view: &super::show::Viewer) {
    let mut w = JsonWriter::new(&mut *out, Escape::Safe);
    let _ = (|| {
        w.begin_object()?;
        w.member_str("method", &c.method)?;
        w.key("code")?;
        w.int(i64::from(c.status.code))?;
        w.member_str("message", &c.status.message)?;
        for (k, list) in [("requests", &c.requests), ("responses", &c.responses)] {
            w.key(k)?;
            w.begin_array()?;
            for m in list {
                w.string(&base64_encode(m))?;
            }
            w.end_array()?;
        }
        Ok::<(), core::fmt::Error>(())
    })();
    view.write_values(out, c);
    out.push('}');
}
