//! The `fleet_rows` target: tfwire-arrow's `TableBuilder` (the fleet's rows) on any bytes,
//! the copying reader against the in-place one.

use std::sync::{Arc, OnceLock};
use tfwire_arrow::{FleetSchemas, Options, TableBuilder};

/// The phases a selector byte asks for (`None`: no filter on `phase`).
const PHASES: &[Option<&[&str]>] = &[
    None,
    Some(&["before", "after"]),
    Some(&["prior"]),
    Some(&["drift_before", "drift_after"]),
    Some(&["state"]),
];

/// The schemas of `corpus/fleet` (AWS in two versions, the real clients' providers): every
/// table the selector byte may name.
fn fleet() -> &'static (Arc<FleetSchemas>, Vec<String>) {
    static FLEET: OnceLock<(Arc<FleetSchemas>, Vec<String>)> = OnceLock::new();
    FLEET.get_or_init(|| {
        let dir =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../corpus/fleet/schemas");
        let cache = tfwire_config::SchemaCache::new(&dir, 64 << 20);
        let schemas = Arc::new(FleetSchemas::load(&cache).expect("corpus/fleet/schemas"));
        let names = schemas.tables().into_iter().map(|t| t.name).collect();
        (schemas, names)
    })
}

/// Checks the rows of one document (see the crate documentation): byte 0 picks the table
/// (modulo the fleet's tables) and, by its bit 7, `include_sensitive`; byte 1 picks the
/// phases (none, `before`/`after`, `prior`, the drift phases, `state`; modulo five); the rest
/// is the document.
///
/// - `TableBuilder::add` never panics, and its errors are one line without terminal
///   controls;
/// - `TableBuilder::add_in_place` of the same bytes gives the same batch, or the same
///   error, or `Ok(false)` with no row (the document then given again to `add`, which the
///   check does, must give `add`'s result);
/// - after a failed document the builder still reads a good one.
pub fn fleet_rows(data: &[u8]) {
    let [table, phases, doc @ ..] = data else {
        return;
    };
    let (schemas, names) = fleet();
    let def = schemas
        .table(&names[usize::from(*table & 0x7f) % names.len()])
        .expect("a table the fleet lists");
    let options = Options {
        include_sensitive: table & 0x80 != 0,
        skip_unreadable: false,
    };
    let phases = PHASES[usize::from(*phases) % PHASES.len()];
    let builder = || {
        let b = TableBuilder::new(schemas.clone(), &def, None, options);
        match phases {
            Some(p) => b.with_phases(p),
            None => b,
        }
    };
    let mut copied = builder();
    let added = copied.add("fuzz.json", "ws", doc);
    if let Err(e) = &added {
        crate::clean_message(&e.to_string());
    }
    let mut in_place = builder();
    let mut buffer = Vec::with_capacity(doc.len() + tfwire_plan::INPUT_PADDING);
    buffer.extend_from_slice(doc);
    let again = match in_place.add_in_place("fuzz.json", "ws", &mut buffer) {
        Ok(true) => Ok(()),
        Ok(false) => {
            assert_eq!(in_place.len(), 0, "rows kept by a document given back");
            in_place.add("fuzz.json", "ws", doc)
        }
        Err(e) => Err(e),
    };
    match (&added, &again) {
        (Ok(()), Ok(())) => {
            let (a, b) = (copied.finish(), in_place.finish());
            match (a, b) {
                (Ok(a), Ok(b)) => assert_eq!(a, b, "add and add_in_place give different rows"),
                (a, b) => assert_eq!(
                    a.map(|_| ()).map_err(|e| e.to_string()),
                    b.map(|_| ()).map_err(|e| e.to_string()),
                    "finish after add and after add_in_place"
                ),
            }
        }
        (Err(a), Err(b)) => assert_eq!(a.to_string(), b.to_string(), "different errors"),
        (a, b) => panic!(
            "add gives {:?}, add_in_place {:?}",
            a.as_ref().map_err(ToString::to_string),
            b.as_ref().map_err(ToString::to_string)
        ),
    }
    if added.is_err() {
        // Still usable: a raw state with no resources adds (no row) after the failure.
        copied
            .add(
                "good.json",
                "ws",
                br#"{"version":4,"serial":1,"lineage":"l","resources":[]}"#,
            )
            .expect("the builder after a failed document");
    }
}
