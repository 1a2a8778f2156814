//! [`Document`]: what a JSON file is (plan, `show -json` state, raw state), told apart by
//! its top-level keys, and the typed model built over the tape.

use crate::build::Cx;
use crate::error::{Error, ErrorKind};
use crate::json::Json;
use crate::plan::Plan;
use crate::rawstate::{self, LegacyState, RawState};
use crate::state::State;
use crate::tape::Tape;
use bumpalo::Bump;

/// A plan or state document of any supported kind.
#[derive(Clone, Copy, Debug)]
pub enum Document<'a> {
    /// `terraform show -json PLANFILE`, or a Terraform Cloud redacted plan (in the arena:
    /// the model of a plan is a few hundred bytes).
    Plan(&'a Plan<'a>),
    /// `terraform show -json` of a state.
    State(State<'a>),
    /// A raw state file (`terraform.tfstate`, version 4).
    RawState(RawState<'a>),
    /// A legacy raw state file (version 3, Terraform ≤ 0.11).
    LegacyState(LegacyState<'a>),
}

/// Which kind of document a JSON value is, from its top-level keys.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DocumentKind {
    /// A plan (`resource_changes`, `planned_values`, ... or `plan_format_version`).
    Plan,
    /// A `show -json` state (`values`, or only `format_version` for an empty state).
    State,
    /// A raw state file (a numeric `version`).
    RawState,
}

impl DocumentKind {
    /// The kind with an article, for messages: `"a plan"`, `"a state (show -json)"`, ...
    pub const fn describe(self) -> &'static str {
        match self {
            DocumentKind::Plan => "a plan",
            DocumentKind::State => "a state (terraform show -json)",
            DocumentKind::RawState => "a raw state file (.tfstate)",
        }
    }
}

const PLAN_KEYS: &[&str] = &[
    "resource_changes",
    "planned_values",
    "prior_state",
    "configuration",
    "output_changes",
    "resource_drift",
    "proposed_unknown",
    "relevant_attributes",
    "plan_format_version",
    "deferred_changes",
    "action_invocations",
    "deferred_action_invocations",
];

impl DocumentKind {
    /// Tells what a document is from its top-level keys.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::NotADocument`] for anything else: not an object, a provider schema
    /// document, or an object with none of the keys that mark a plan or state.
    pub fn detect(root: Json<'_>) -> Result<DocumentKind, Error> {
        let Some(obj) = root.as_object() else {
            return Err(Error::new(ErrorKind::NotADocument(format!(
                "the top-level value is {}, not an object",
                root.kind()
            ))));
        };
        let (mut plan, mut values, mut format_version, mut version, mut schemas) =
            (false, false, false, false, false);
        for (k, v) in obj.iter() {
            match k {
                k if PLAN_KEYS.contains(&k) => plan = true,
                "values" => values = true,
                "format_version" => format_version = true,
                "version" => version = v.as_number().is_some(),
                "provider_schemas" => schemas = true,
                _ => {}
            }
        }
        if plan {
            Ok(DocumentKind::Plan)
        } else if schemas {
            Err(Error::new(ErrorKind::NotADocument(
                "this is a provider schema document (terraform providers schema -json)".into(),
            )))
        } else if values || format_version {
            Ok(DocumentKind::State)
        } else if version {
            Ok(DocumentKind::RawState)
        } else {
            let mut keys: Vec<String> = obj
                .iter()
                .take(6)
                .map(|(k, _)| tfwire_json::Safe(k).to_string())
                .collect();
            if obj.len() > 6 {
                keys.push("...".into());
            }
            let found = if keys.is_empty() {
                "an empty object".to_string()
            } else {
                format!("an object with keys {}", keys.join(", "))
            };
            Err(Error::new(ErrorKind::NotADocument(format!(
                "found {found}; expected format_version, resource_changes, planned_values, \
                 values (show -json) or version (.tfstate)"
            ))))
        }
    }
}

impl<'a> Document<'a> {
    /// The document's kind.
    pub fn kind(&self) -> DocumentKind {
        match self {
            Document::Plan(_) => DocumentKind::Plan,
            Document::State(_) => DocumentKind::State,
            Document::RawState(_) | Document::LegacyState(_) => DocumentKind::RawState,
        }
    }

    /// The Terraform (or OpenTofu) version that wrote the document, if it says.
    pub fn terraform_version(&self) -> Option<&'a str> {
        match self {
            Document::Plan(p) => p.terraform_version,
            Document::State(s) => s.terraform_version,
            Document::RawState(s) => s.header.terraform_version,
            Document::LegacyState(s) => s.header.terraform_version,
        }
    }
}

impl<'a> Tape<'a> {
    fn cx<'t>(&'t self, arena: &'t Bump) -> Cx<'t> {
        Cx {
            arena,
            skeleton: self.is_compacted(),
        }
    }

    /// Builds the typed model of a plan or state, telling which it is from the top-level
    /// keys (see [`DocumentKind::detect`]). Lists live in `arena`; strings and values
    /// borrow from the tape and the input.
    ///
    /// Unknown properties are ignored (each model object keeps its `raw` JSON); `null` is
    /// read as absent for every optional property.
    ///
    /// # Errors
    ///
    /// Not a plan or state, an unsupported version (format versions 2.0 and above, raw
    /// state versions other than 3 and 4), or a known property of the wrong kind; the
    /// error names the property's path and byte offset.
    pub fn document<'t>(&'t self, arena: &'t Bump) -> Result<Document<'t>, Error> {
        self.model(arena).map_err(|e| self.original_offsets(e))
    }

    fn model<'t>(&'t self, arena: &'t Bump) -> Result<Document<'t>, Error> {
        let root = self.root();
        let cx = self.cx(arena);
        match DocumentKind::detect(root)? {
            DocumentKind::Plan => Ok(Document::Plan(arena.alloc(Plan::build(&cx, root)?))),
            DocumentKind::State => State::build(&cx, root).map(Document::State),
            DocumentKind::RawState => {
                let v = root.get("version").unwrap_or(Json::null());
                let version = rawstate::state_version(v).map_err(|e| cx.in_key(e, "version", v))?;
                if version == 3 {
                    LegacyState::build(&cx, root, version).map(Document::LegacyState)
                } else {
                    RawState::build(&cx, root, version).map(Document::RawState)
                }
            }
        }
    }

    /// Builds a plan.
    ///
    /// # Errors
    ///
    /// As [`Tape::document`]; also [`ErrorKind::WrongDocument`] for a state.
    pub fn plan<'t>(&'t self, arena: &'t Bump) -> Result<&'t Plan<'t>, Error> {
        match self.document(arena)? {
            Document::Plan(p) => Ok(p),
            other => Err(wrong("a plan", other.kind())),
        }
    }

    /// Builds a `show -json` state.
    ///
    /// # Errors
    ///
    /// As [`Tape::document`]; also [`ErrorKind::WrongDocument`] for anything else.
    pub fn state<'t>(&'t self, arena: &'t Bump) -> Result<State<'t>, Error> {
        match self.document(arena)? {
            Document::State(s) => Ok(s),
            other => Err(wrong("a state (terraform show -json)", other.kind())),
        }
    }

    /// Builds a raw state (version 4).
    ///
    /// # Errors
    ///
    /// As [`Tape::document`]; also [`ErrorKind::WrongDocument`] for anything else
    /// (including a version 3 state: use [`Tape::document`] for those).
    pub fn raw_state<'t>(&'t self, arena: &'t Bump) -> Result<RawState<'t>, Error> {
        match self.document(arena)? {
            Document::RawState(s) => Ok(s),
            Document::LegacyState(_) => Err(wrong(
                "a raw state file of version 4",
                DocumentKind::RawState,
            )),
            other => Err(wrong("a raw state file (.tfstate)", other.kind())),
        }
    }
}

#[cold]
fn wrong(expected: &'static str, found: DocumentKind) -> Error {
    Error::new(ErrorKind::WrongDocument {
        expected,
        found: found.describe(),
    })
}
