//! Function names as users write them and as clang prints them.
//!
//! clang compiles CUDA and HIP as C++, so a kernel `find_tid` is defined as
//! `@_Z8find_tidPi`, while the kernel language, reading the same file,
//! names it `find_tid`, and so do users. Two rules, used by every command
//! that takes `--function` on LLVM IR (`check`, `run`, `corpus`):
//!
//! - clang's output of a CUDA or HIP file is read with each mangled
//!   function under its source name when that is unambiguous
//!   ([`source_names`]);
//! - a name given with `--function` is found as written, else as the
//!   source name of exactly one mangled function, else as the mangled
//!   name of a function shown under its source name ([`resolve`]).

/// The source name of an Itanium-mangled function name (`_Z8find_tidPi`
/// is `find_tid`, `_ZL5tid_xv` is `tid_x`), if it is one of a plain
/// identifier at namespace scope.
pub fn mangled_base(name: &str) -> Option<&str> {
    let rest = name.strip_prefix("_Z")?;
    let rest = rest.strip_prefix('L').unwrap_or(rest);
    let digits = rest.chars().take_while(char::is_ascii_digit).count();
    let len: usize = rest.get(..digits)?.parse().ok()?;
    rest.get(digits..digits.checked_add(len)?)
}

/// Whether `c` may continue an LLVM identifier after `@`.
fn ident_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '-' | '$' | '.' | '_')
}

/// The identifiers written after `@` in `text`.
fn global_names(text: &str) -> Vec<&str> {
    text.split('@')
        .skip(1)
        .map(|r| &r[..r.find(|c: char| !ident_char(c)).unwrap_or(r.len())])
        .collect()
}

/// Whether `s` is a C identifier.
fn is_identifier(s: &str) -> bool {
    !s.is_empty()
        && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        && !s.starts_with(|c: char| c.is_ascii_digit())
}

/// Gives each defined function of `text` its source name when it is
/// mangled (not `_ZL`: a file-local helper keeps its name), no other
/// defined function mangles to the same name (overloads keep theirs) and
/// nothing in the module is called that already. Returns the new text and
/// the renamings (mangled, source), in module order.
pub fn source_names(text: &str, defined: &[String]) -> (String, Vec<(String, String)>) {
    let used = global_names(text);
    fn base(d: &str) -> Option<&str> {
        mangled_base(d).filter(|_| !d.starts_with("_ZL"))
    }
    let renames: Vec<(String, String)> = defined
        .iter()
        .filter_map(|d| {
            let b = base(d)?;
            let unique = defined.iter().filter(|o| base(o) == Some(b)).count() == 1;
            (is_identifier(b) && unique && !used.contains(&b)).then(|| (d.clone(), b.to_string()))
        })
        .collect();
    if renames.is_empty() {
        return (text.to_string(), renames);
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find('@') {
        out.push_str(&rest[..=at]);
        rest = &rest[at + 1..];
        let end = rest.find(|c: char| !ident_char(c)).unwrap_or(rest.len());
        let ident = &rest[..end];
        match renames.iter().find(|(m, _)| m == ident) {
            Some((_, s)) => out.push_str(s),
            None => out.push_str(ident),
        }
        rest = &rest[end..];
    }
    out.push_str(rest);
    (out, renames)
}

/// The defined function that `wanted` names (`@` optional): itself, else
/// the one mangled function whose source name it is, else, for a mangled
/// `wanted`, the function under its source name (clang's output read with
/// [`source_names`]). The second value says how it was found, when not as
/// written.
pub fn resolve(defined: &[String], wanted: &str) -> Result<(String, Option<String>), String> {
    let wanted = wanted.strip_prefix('@').unwrap_or(wanted);
    if defined.iter().any(|d| d == wanted) {
        return Ok((wanted.to_string(), None));
    }
    if let Some(s) = mangled_base(wanted).filter(|s| defined.iter().any(|d| d == s)) {
        return Ok((
            s.to_string(),
            Some(format!("@{wanted} is checked under its source name `{s}`")),
        ));
    }
    let by_base: Vec<&String> = defined
        .iter()
        .filter(|d| mangled_base(d) == Some(wanted))
        .collect();
    match by_base.as_slice() {
        [one] => Ok((
            one.to_string(),
            Some(format!("--function {wanted} is @{one}")),
        )),
        [] => Err(format!("defines no function @{wanted}")),
        many => Err(format!(
            "defines several functions named `{wanted}` (overloads): {}; give one of these \
             names",
            many.iter()
                .map(|m| format!("@{m}"))
                .collect::<Vec<_>>()
                .join(", ")
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mangled_kernels_get_their_source_names() {
        assert_eq!(mangled_base("_Z8find_tidPi"), Some("find_tid"));
        assert_eq!(mangled_base("_ZL10__syncwarpj"), Some("__syncwarp"));
        assert_eq!(mangled_base("find_tid"), None);
        assert_eq!(mangled_base("_Z99x"), None);
        let text = "define void @_Z8find_tidPi(ptr %out) {\n  call void @_Z8find_tidPi_x()\n  ret void\n}\n";
        let defined = vec!["_Z8find_tidPi".to_string()];
        let (t, r) = source_names(text, &defined);
        assert_eq!(r, [("_Z8find_tidPi".to_string(), "find_tid".to_string())]);
        assert!(t.starts_with("define void @find_tid(ptr %out)"), "{t}");
        // A longer identifier with the same prefix is left alone.
        assert!(t.contains("@_Z8find_tidPi_x()"), "{t}");
        // Overloads keep their names, and so does a function whose source
        // name the module uses already, and a file-local helper.
        let defined = vec!["_Z1fi".to_string(), "_Z1fv".to_string()];
        assert!(source_names("", &defined).1.is_empty());
        let text = "declare void @g()\ndefine void @_Z1gv() {\n  ret void\n}\n";
        assert!(source_names(text, &["_Z1gv".to_string()]).1.is_empty());
        assert!(source_names("", &["_ZL5tid_xv".to_string()]).1.is_empty());
    }

    #[test]
    fn functions_are_found_by_plain_or_mangled_name() {
        let defined: Vec<String> = ["find_tid", "_Z1fi", "_Z1fv", "_Z3sumPi"]
            .map(String::from)
            .to_vec();
        assert_eq!(resolve(&defined, "@find_tid").unwrap().0, "find_tid");
        let (f, how) = resolve(&defined, "_Z8find_tidPi").unwrap();
        assert_eq!(f, "find_tid");
        assert!(how.unwrap().contains("source name"));
        assert_eq!(resolve(&defined, "sum").unwrap().0, "_Z3sumPi");
        let e = resolve(&defined, "f").unwrap_err();
        assert!(e.contains("@_Z1fi, @_Z1fv"), "{e}");
        assert!(resolve(&defined, "g").is_err());
    }
}
