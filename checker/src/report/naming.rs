//! Memory locations named as the source names them in counterexamples
//! (issue 21 item 5): `sdata[3]`, `@out[2]`, `%in[1]`, not an address.
//!
//! The engines describe a memory event by its address as the model computes
//! it (`convcheck_ir::exec::memory::place`): an object's name from its base
//! and the byte offset in it (`@_ZZ10reduce_intPKiPiiE5sdata[12]:4`, 4
//! bytes), or a bare address where the access goes through a pointer
//! parameter, whose value is a free value of the scenario
//! (`global[33554432]:4`). The report renames each such place in a
//! counterexample's message:
//!
//! - an object: its source name (a C++ mangled name demangled to its last
//!   component: `_ZZ10reduce_intPKiPiiE5sdata` is `sdata`, a function's
//!   static; an unmangled global keeps its `@`), with the element index
//!   when the offset is a multiple of the access's width (`sdata[3]`: bytes
//!   12 to 15), else the byte offset (`sdata+6`);
//! - a bare address: the pointer parameter it is an offset of, by the
//!   parameters' values in the scenario: the parameter whose value is the
//!   nearest at or below the address, within [`NEAR`] bytes (64 GiB: an index may be
//!   `blockIdx.x`) and a whole
//!   number of elements of the access's width below it (`%out[0]`).
//!   That is an inference from the scenario's values (the model keeps no
//!   provenance in an event), so JSON says `"via": "parameter value"`; an
//!   address near no parameter keeps its number.
//!
//! The raw place stays in JSON (`raw`), so a tool can still match it with
//! the scenario's location names (`@buf[8]:4@1`).

use convcheck_ir::scenario::ThreadValues;
use serde::Serialize;

/// How far past a parameter's value an address is still named after it.
pub const NEAR: i64 = 1 << 36;

/// One location of a counterexample's message, named.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Place {
    /// As the message shows it now: `sdata[3]`, `@out[2]`, `%in[1]`.
    pub name: String,
    /// The object as the module names it: `@_ZZ10reduce_intPKiPiiE5sdata`,
    /// `%in` for a pointer parameter.
    pub object: String,
    /// The byte offset in the object.
    pub offset: i64,
    /// The element index, where the offset is a multiple of the width.
    pub element: Option<i64>,
    /// The access's width in bytes.
    pub bytes: u32,
    /// `object` (its base is the object's) or `parameter value` (the
    /// nearest parameter's value in the scenario, see the module
    /// documentation).
    pub via: &'static str,
    /// The place as the engines wrote it (`@buf[12]:4`,
    /// `global[33554432]:4`).
    pub raw: String,
}

/// A global's or a static's source name: the last component of a C++
/// mangled name (`_ZZ4kernE5sdata`, `_ZL4data`, `_ZN2ns3bufE`), else the
/// name itself with its sigil.
pub fn source_name(object: &str) -> String {
    let bare = object.trim_start_matches('@');
    let Some(rest) = bare.strip_prefix("_Z") else {
        return object.to_string();
    };
    // The last `<length><identifier>` of the name (a local static's
    // follows the function's encoding after `E`).
    let rest = rest.trim_end_matches('E');
    let bytes = rest.as_bytes();
    let mut best = None;
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i].is_ascii_digit() && (i == 0 || !bytes[i - 1].is_ascii_digit()) {
            let mut j = i;
            while j < bytes.len() && bytes[j].is_ascii_digit() {
                j += 1;
            }
            if let Ok(n) = rest[i..j].parse::<usize>() {
                if n > 0 && j + n <= rest.len() {
                    let id = &rest[j..j + n];
                    if id.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
                        && id.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
                    {
                        best = Some(id);
                        i = j + n;
                        continue;
                    }
                }
            }
            i = j;
        } else {
            i += 1;
        }
    }
    best.map_or_else(|| object.to_string(), str::to_string)
}

fn indexed(base: &str, offset: i64, bytes: u32) -> (String, Option<i64>) {
    let w = i64::from(bytes.max(1));
    if offset % w == 0 {
        (format!("{base}[{}]", offset / w), Some(offset / w))
    } else {
        (format!("{base}+{offset}"), None)
    }
}

/// The places of `message`, named, with `params` the parameters' values in
/// the scenario (by parameter name).
pub fn places(message: &str, params: &[(String, i64)]) -> Vec<Place> {
    static PLACE: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    let re = PLACE.get_or_init(|| {
        regex::Regex::new(
            r"(?P<obj>@[^\s\[\]`]+|global|shared|constant|mem)\[(?P<off>0x[0-9a-f]+|-?[0-9]+)\]:(?P<bytes>[0-9]+)",
        )
        .expect("a valid pattern")
    });
    let mut out: Vec<Place> = Vec::new();
    for c in re.captures_iter(message) {
        let raw = c[0].to_string();
        // A location's name with its phase (`@buf[8]:4@1`, a scenario's
        // free value) is a name, not a place.
        let whole = c.get(0).map_or(0, |m| m.end());
        if message[whole..].starts_with('@') || out.iter().any(|p| p.raw == raw) {
            continue;
        }
        let off = &c["off"];
        let value = match off.strip_prefix("0x") {
            Some(h) => u64::from_str_radix(h, 16).map(|v| v as i64).ok(),
            None => off.parse::<i64>().ok(),
        };
        let (Some(value), Ok(bytes)) = (value, c["bytes"].parse::<u32>()) else {
            continue;
        };
        let obj = &c["obj"];
        let place = if obj.starts_with('@') {
            let (name, element) = indexed(&source_name(obj), value, bytes);
            Place {
                name,
                object: obj.to_string(),
                offset: value,
                element,
                bytes,
                via: "object",
                raw,
            }
        } else {
            let nearest = params
                .iter()
                .filter(|(_, v)| {
                    // (Checked: a parameter far below the address, e.g.
                    // -2^63, would overflow.)
                    *v <= value
                        && value
                            .checked_sub(*v)
                            .is_some_and(|d| d < NEAR && d % i64::from(bytes.max(1)) == 0)
                })
                .max_by_key(|(n, v)| (*v, std::cmp::Reverse(n.clone())));
            let Some((p, v)) = nearest else { continue };
            let object = format!("%{p}");
            let (name, element) = indexed(&object, value - v, bytes);
            Place {
                name,
                object,
                offset: value - v,
                element,
                bytes,
                via: "parameter value",
                raw,
            }
        };
        out.push(place);
    }
    out
}

/// `message` with each place's raw text replaced by its name.
pub fn named(message: &str, places: &[Place]) -> String {
    places
        .iter()
        .fold(message.to_string(), |m, p| m.replace(&p.raw, &p.name))
}

/// The parameters' values in a scenario: each of `params` (the function's
/// parameters, by oracle name) with its first value in the first thread
/// that reads it (a kernel's arguments are the same in every thread).
pub fn parameter_values(params: &[String], threads: &[ThreadValues]) -> Vec<(String, i64)> {
    params
        .iter()
        .filter_map(|p| {
            threads
                .iter()
                .find_map(|t| t.0.get(p).and_then(|v| v.first()).copied())
                .map(|v| (p.clone(), v))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mangled_names_lose_their_mangling() {
        assert_eq!(source_name("@_ZZ10reduce_intPKiPiiE5sdata"), "sdata");
        assert_eq!(source_name("@_ZZ4kernvE4tile"), "tile");
        assert_eq!(source_name("@_ZL4data"), "data");
        assert_eq!(source_name("@_ZN2ns3bufE"), "buf");
        assert_eq!(source_name("@out"), "@out");
        assert_eq!(source_name("@_Z"), "@_Z");
    }

    #[test]
    fn places_are_named_by_object_or_parameter() {
        let m = "event 2 of thread 1 is `store @_ZZ10reduce_intPKiPiiE5sdata[12]:4 = 7` in the \
                 reference but `store @_ZZ10reduce_intPKiPiiE5sdata[12]:4 = 8` in the target";
        let ps = places(m, &[]);
        assert_eq!(ps.len(), 1);
        assert_eq!(ps[0].name, "sdata[3]");
        assert_eq!(ps[0].element, Some(3));
        assert_eq!(
            named(m, &ps),
            "event 2 of thread 1 is `store sdata[3] = 7` in the reference but `store sdata[3] \
             = 8` in the target"
        );
        let params = vec![
            ("in".to_string(), 6_291_456),
            ("out".to_string(), 33_554_432),
        ];
        let m =
            "`store global[33554440]:4 = 1` but `store @lock[6]:2 = 0` and `mem[0x7000000000]:8`";
        let ps = places(m, &params);
        let names: Vec<&str> = ps.iter().map(|p| p.name.as_str()).collect();
        assert_eq!(names, ["%out[2]", "@lock[3]"]);
        assert_eq!(ps[0].via, "parameter value");
        // 2 bytes past `in`: not a whole element of `in`, so not named.
        assert!(!ps.iter().any(|p| p.raw == "global[6291458]:4"));
        assert!(places("reads `@buf[8]:4@1`", &params).is_empty());
        let ps = places("`load @t[6]:4`", &params);
        assert_eq!(ps[0].name, "@t+6");
    }
}
