//! The element budget of the `tfplan` member: one pass over its protobuf wire format,
//! before prost decodes it, that adds up the memory its decoded messages will take and
//! refuses a member that, with its decoded messages, would take more than
//! [`Config::max_nodes`](crate::Config::max_nodes) nodes of 8 bytes.
//!
//! The rule is the JSON plan reader's (`tfwire_plan::ParserConfig::max_nodes`, one node per 8
//! bytes of the input limit in the CLI): a few kilobytes of deflated `tfplan` can hold
//! millions of empty entries (`resource_changes`, `resource_drift`, `output_changes`), each
//! two bytes on the wire and hundreds in memory. Each message costs the size of its
//! generated Rust type (a map entry its key and value), each string or bytes field its
//! length (and a repeated one its `Vec` too), each repeated scalar 8 bytes a value. The
//! pass allocates nothing; fields it does not know (which prost skips) cost nothing, and a
//! malformed message ends the pass (prost then reports it).

use crate::error::{Error, ErrorKind};

/// What a field holds.
#[derive(Clone, Copy)]
pub(crate) enum Kind {
    /// A message, by index in [`MESSAGES`].
    Message(usize),
    /// A string or bytes.
    Bytes,
    /// A number, a bool or an enum.
    Scalar,
}

/// A field of a message.
pub(crate) struct Field {
    pub(crate) number: i32,
    pub(crate) kind: Kind,
    pub(crate) repeated: bool,
}

/// A message of `planfile.proto`.
pub(crate) struct Message {
    #[allow(dead_code)]
    pub(crate) name: &'static str,
    pub(crate) fields: &'static [Field],
}

include!(concat!(env!("OUT_DIR"), "/wire_table.rs"));

/// The bytes a node of the budget stands for.
pub(crate) const NODE_BYTES: u64 = 8;

/// Checks that `tfplan` decodes within `max_nodes` nodes of [`NODE_BYTES`], read as the
/// message `root` ([`PLAN`] for OpenTofu's dialect, [`TERRAFORM_PLAN`] for Terraform's).
pub(crate) fn check(tfplan: &[u8], root: usize, max_nodes: usize) -> Result<(), Error> {
    let max = (max_nodes as u64).saturating_mul(NODE_BYTES);
    // The member itself is held while it is decoded: it counts too.
    let mut used = tfplan.len() as u64 + MESSAGE_SIZES[root] as u64;
    walk(tfplan, root, &mut used, max);
    if used > max {
        return Err(Error::new(ErrorKind::TooManyNodes {
            max: max_nodes as u64,
        }));
    }
    Ok(())
}

/// A base-128 varint at `*at`, or `None` at the end or on a malformed one.
pub(crate) fn varint(b: &[u8], at: &mut usize) -> Option<u64> {
    let mut v = 0u64;
    for shift in (0..64).step_by(7) {
        let byte = *b.get(*at)?;
        *at += 1;
        v |= u64::from(byte & 0x7f) << shift;
        if byte < 0x80 {
            return Some(v);
        }
    }
    None
}

/// Adds up the cost of the fields of one `message` in `b` into `used`, stopping as soon as
/// it passes `max`. The schemas' messages nest at most seven deep (no message contains
/// itself), so the recursion is bounded by the table, not by the input.
fn walk(b: &[u8], message: usize, used: &mut u64, max: u64) {
    let fields = MESSAGES[message].fields;
    let mut at = 0;
    while at < b.len() && *used <= max {
        let Some(key) = varint(b, &mut at) else {
            return;
        };
        let (number, wire) = (key >> 3, key & 7);
        let field = fields.iter().find(|f| f.number as u64 == number);
        match wire {
            0 => {
                if varint(b, &mut at).is_none() {
                    return;
                }
                if field.is_some_and(|f| f.repeated) {
                    *used += 8;
                }
            }
            1 | 5 => {
                at += if wire == 1 { 8 } else { 4 };
                if field.is_some_and(|f| f.repeated) {
                    *used += 8;
                }
            }
            2 => {
                let Some(len) = varint(b, &mut at) else {
                    return;
                };
                let Some(body) = usize::try_from(len)
                    .ok()
                    .and_then(|len| b.get(at..at.checked_add(len)?))
                else {
                    return;
                };
                at += body.len();
                match field.map(|f| (f.kind, f.repeated)) {
                    Some((Kind::Message(m), _)) => {
                        *used += MESSAGE_SIZES[m] as u64;
                        walk(body, m, used, max);
                    }
                    Some((Kind::Bytes, repeated)) => {
                        *used += body.len() as u64;
                        if repeated {
                            *used += core::mem::size_of::<Vec<u8>>() as u64;
                        }
                    }
                    // Packed scalars: at least one byte each, 8 in memory at most.
                    Some((Kind::Scalar, _)) => *used += body.len() as u64 * 8,
                    None => {}
                }
            }
            // Groups (3, 4) and invalid wire types: prost rejects them.
            _ => return,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(field: u64, wire: u64) -> Vec<u8> {
        let mut out = Vec::new();
        let mut n = field << 3 | wire;
        loop {
            let b = (n & 0x7f) as u8;
            n >>= 7;
            if n == 0 {
                out.push(b);
                return out;
            }
            out.push(b | 0x80);
        }
    }

    #[test]
    fn the_table_names_the_plan_and_its_repeated_changes() {
        assert_eq!(MESSAGES[PLAN].name, ".tfplan.Plan");
        let rc = MESSAGES[PLAN]
            .fields
            .iter()
            .find(|f| f.number == 3)
            .unwrap();
        assert!(rc.repeated);
        let Kind::Message(m) = rc.kind else {
            panic!("resource_changes is not a message field")
        };
        assert_eq!(MESSAGES[m].name, ".tfplan.ResourceInstanceChange");
        assert_eq!(
            MESSAGE_SIZES[m],
            core::mem::size_of::<crate::proto::ResourceInstanceChange>()
        );
    }

    #[test]
    fn empty_entries_cost_their_decoded_size() {
        let entry = [key(3, 2), vec![0]].concat();
        let plan: Vec<u8> = entry.repeat(1000);
        let each = core::mem::size_of::<crate::proto::ResourceInstanceChange>() as u64;
        let need = (plan.len() as u64 + MESSAGE_SIZES[PLAN] as u64 + 1000 * each)
            .div_ceil(NODE_BYTES) as usize;
        assert!(check(&plan, PLAN, need).is_ok());
        let err = check(&plan, PLAN, need - 1).unwrap_err();
        assert_eq!(
            err.kind(),
            &ErrorKind::TooManyNodes {
                max: need as u64 - 1
            }
        );
    }

    #[test]
    fn terraforms_repeated_fields_cost_their_decoded_size() {
        // deferred_changes (27), action_invocations (30), function_results (22).
        for (number, name) in [
            (27, ".tfplan.terraform.DeferredChange"),
            (30, ".tfplan.terraform.ActionInvocation"),
            (22, ".tfplan.terraform.FunctionResult"),
        ] {
            let field = MESSAGES[TERRAFORM_PLAN]
                .fields
                .iter()
                .find(|f| f.number == number)
                .unwrap();
            let Kind::Message(m) = field.kind else {
                panic!("{name} is not a message field")
            };
            assert_eq!(MESSAGES[m].name, name);
            let plan: Vec<u8> = [key(number as u64, 2), vec![0]].concat().repeat(1000);
            let need = (plan.len() as u64
                + MESSAGE_SIZES[TERRAFORM_PLAN] as u64
                + 1000 * MESSAGE_SIZES[m] as u64)
                .div_ceil(NODE_BYTES) as usize;
            assert!(check(&plan, TERRAFORM_PLAN, need).is_ok(), "{name}");
            assert!(check(&plan, TERRAFORM_PLAN, need - 1).is_err(), "{name}");
        }
        assert_eq!(
            MESSAGE_SIZES[TERRAFORM_PLAN],
            core::mem::size_of::<crate::proto::terraform::Plan>()
        );
    }

    #[test]
    fn unknown_fields_and_truncated_messages_cost_nothing_more() {
        let mut plan = [key(1000, 2), vec![3, 1, 2, 3]].concat();
        plan.extend([key(3, 2), vec![200]].concat()); // a length past the end
        let need = (plan.len() + MESSAGE_SIZES[PLAN]).div_ceil(8);
        assert!(check(&plan, PLAN, need).is_ok());
        assert!(check(&plan, PLAN, need - 1).is_err());
    }
}
