//! What convcheck's own LLVM IR says that LLVM has no word for.
//!
//! [`crate::write`] prints convcheck's IR as LLVM IR; a few facts of the IR
//! have no LLVM spelling, so the writer states them in places `opt` keeps
//! and this reader looks there first:
//!
//! - the label of a call: the string attribute `"convcheck.label"="L"` at
//!   the call site (or on the callee's declaration); the label of any other
//!   instruction: the attachment `!convcheck.label !{!"L"}`;
//! - the oracle a call or a load reads: `"convcheck.oracle"="O"` at the
//!   call site or on a parameter, `!convcheck.oracle !{!"O"}` on a load;
//! - an observation point: a call to a function whose declaration carries
//!   `"convcheck.observe"`;
//! - the class and domain of every oracle: the named metadata
//!   `!convcheck.oracles = !{!0, ...}` with `!0 = !{!"NAME", !"varying",
//!   !"0,1"}`.
//!
//! Real compiler output has none of these, and then every default of
//! [`super`] applies.
#![deny(unsafe_code)]

use std::collections::HashMap;

use convcheck_ir::OracleClass;

use crate::attrs::Attribute;
use crate::inst::Instruction;
use crate::module::Module;

/// The value of the string attribute `key` in `attrs` (groups resolved).
pub(crate) fn str_attr<'a>(m: &'a Module, attrs: &'a [Attribute], key: &str) -> Option<&'a str> {
    m.resolve_attrs(attrs).find_map(|a| match a {
        Attribute::Str { key: k, value } if k == key => Some(value.as_deref().unwrap_or("")),
        _ => None,
    })
}

/// Whether the string attribute `key` is in `attrs` (groups resolved).
pub(crate) fn has_str_attr(m: &Module, attrs: &[Attribute], key: &str) -> bool {
    m.resolve_attrs(attrs)
        .any(|a| matches!(a, Attribute::Str { key: k, .. } if k == key))
}

/// The strings of a metadata tuple's text (`!{!"a", !"b"}`), or of the
/// tuple a reference (`!5`) names, in order. Items that are not strings
/// are skipped.
pub(crate) fn md_strings(m: &Module, text: &str) -> Vec<String> {
    let text = text.trim();
    let text = text.strip_prefix("distinct").map_or(text, str::trim);
    if let Some(id) = text
        .strip_prefix('!')
        .filter(|r| !r.starts_with(['{', '"']))
    {
        return m
            .metadata
            .iter()
            .find(|d| d.name == id)
            .map(|d| tuple_strings(&d.text))
            .unwrap_or_default();
    }
    tuple_strings(text)
}

/// The `!"..."` strings of a metadata tuple's text, unescaped.
fn tuple_strings(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let b = text.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'!' && b.get(i + 1) == Some(&b'"') {
            let start = i + 2;
            let mut j = start;
            while j < b.len() && b[j] != b'"' {
                j += 1;
            }
            if let Some(s) = text.get(start..j) {
                out.push(crate::lexer::unescape(s));
            }
            i = j + 1;
        } else {
            i += 1;
        }
    }
    out
}

/// The refs `!N` of a named metadata's text `!{!0, !1}`.
fn tuple_refs(text: &str) -> Vec<&str> {
    text.trim()
        .trim_start_matches('!')
        .trim_start_matches('{')
        .trim_end_matches('}')
        .split(',')
        .map(str::trim)
        .filter_map(|r| r.strip_prefix('!'))
        .collect()
}

/// The oracle table the module states (`!convcheck.oracles`): class and
/// domain by name.
pub(crate) fn oracle_table(m: &Module) -> HashMap<String, (OracleClass, Vec<i64>)> {
    let mut out = HashMap::new();
    let Some(list) = m.metadata.iter().find(|d| d.name == "convcheck.oracles") else {
        return out;
    };
    for r in tuple_refs(&list.text) {
        let Some(def) = m.metadata.iter().find(|d| d.name == r) else {
            continue;
        };
        let items = tuple_strings(&def.text);
        let [name, class, domain] = items.as_slice() else {
            continue;
        };
        let Some(class) = OracleClass::from_name(class) else {
            continue;
        };
        let mut dom: Vec<i64> = domain
            .split(',')
            .filter_map(|v| v.trim().parse().ok())
            .collect();
        dom.sort_unstable();
        dom.dedup();
        if dom.is_empty() {
            dom = vec![0, 1];
        }
        out.insert(name.clone(), (class, dom));
    }
    out
}

/// The first string of the metadata attachment `!name` of an instruction.
pub(crate) fn attachment(m: &Module, inst: &Instruction, name: &str) -> Option<String> {
    md_strings(m, inst.attachment(name)?).into_iter().next()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tuple_strings_unescape() {
        assert_eq!(
            tuple_strings(r#"!{!"a", !5, !"b\22c"}"#),
            vec!["a".to_string(), "b\"c".to_string()]
        );
        assert_eq!(tuple_refs("!{!0, !12}"), vec!["0", "12"]);
    }
}
