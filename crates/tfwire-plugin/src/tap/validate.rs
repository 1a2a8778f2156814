//! What `tfwire tap --validate` checks of a configuration beyond its type.

use tfwire::Value;
use tfwire::schema::{Block, Nesting};

/// The problems of a configuration value (a `config` field, decoded with `block`'s
/// program) beyond its type, which decoding checks: a required attribute null, a
/// computed-only attribute set, a nested block's count outside its `min_items`/`max_items`.
/// Unknown values (not yet known when validating) pass. Each problem is one line, the path
/// first (`.name: required, but null`, `.rule[1].port: required, but null`).
///
/// ```
/// use tfwire::schema::{Attribute, Block};
/// let block = Block {
///     attributes: vec![Attribute {
///         name: "name".into(),
///         ty: tfwire::schema::AttributeType::Type(tfwire::Type::String),
///         required: true,
///         optional: false,
///         computed: false,
///         sensitive: false,
///         deprecated: false,
///         write_only: false,
///         description: String::new(),
///     }],
///     ..Block::default()
/// };
/// let value = tfwire::Value::Object(&[("name", tfwire::Value::Null)]);
/// assert_eq!(
///     tfwire_plugin::tap::validate_config(&value, &block),
///     [".name: required, but null"],
/// );
/// ```
pub fn validate_config(value: &Value<'_>, block: &Block) -> Vec<String> {
    let mut problems = Vec::new();
    check(value, block, &mut String::new(), &mut problems);
    problems
}

fn check(value: &Value<'_>, block: &Block, path: &mut String, problems: &mut Vec<String>) {
    let Value::Object(entries) = value.unwrap_dynamic() else {
        return;
    };
    let get = |name: &str| {
        entries
            .binary_search_by(|(k, _)| (*k).cmp(name))
            .ok()
            .map(|i| entries[i].1)
    };
    for a in &block.attributes {
        let v = get(&a.name).unwrap_or(Value::Null);
        if a.required && matches!(v, Value::Null) {
            problems.push(format!("{path}.{}: required, but null", a.name));
        }
        if a.computed && !a.optional && !a.required && !matches!(v, Value::Null) {
            problems.push(format!(
                "{path}.{}: computed only, but set in configuration",
                a.name
            ));
        }
    }
    for b in &block.block_types {
        let v = get(&b.type_name).unwrap_or(Value::Null);
        let items: &[Value<'_>] = match v {
            Value::List(items) | Value::Set(items) => items,
            Value::Unknown(_) => continue,
            _ => &[],
        };
        let n = items.len() as u64;
        if matches!(b.nesting, Nesting::List | Nesting::Set) {
            if n < b.min_items {
                problems.push(format!(
                    "{path}.{}: {n} blocks, at least {} required",
                    b.type_name, b.min_items
                ));
            }
            if b.max_items > 0 && n > b.max_items {
                problems.push(format!(
                    "{path}.{}: {n} blocks, at most {} allowed",
                    b.type_name, b.max_items
                ));
            }
        }
        let len = path.len();
        match v {
            Value::List(items) | Value::Set(items) => {
                for (i, item) in items.iter().enumerate() {
                    path.push_str(&format!(".{}[{i}]", b.type_name));
                    check(item, &b.block, path, problems);
                    path.truncate(len);
                }
            }
            Value::Map(entries) => {
                for (k, item) in entries {
                    path.push_str(&format!(".{}[{k:?}]", b.type_name));
                    check(item, &b.block, path, problems);
                    path.truncate(len);
                }
            }
            Value::Object(_) => {
                path.push('.');
                path.push_str(&b.type_name);
                check(&v, &b.block, path, problems);
                path.truncate(len);
            }
            _ => {}
        }
    }
}
