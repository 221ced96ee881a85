//! Stepping through an `opt` pipeline: `opt -passes=PIPELINE
//! -print-changed=quiet -print-module-scope -opt-bisect-limit=-1` prints,
//! on standard error, a `BISECT: running pass (N) NAME on UNIT` line before
//! every pass that `-opt-bisect-limit` can skip, and the whole module after
//! every pass that changed it, under a `*** IR Dump After NAME on UNIT ***`
//! header. [`split`] cuts that text into one [`Dump`] per changed pass,
//! with the pass's bisect number when the line just before its dump names
//! the same pass (passes that opt always runs, such as `LoopSimplifyPass`,
//! have none).
//!
//! With the number, `opt -passes=PIPELINE -opt-bisect-limit=N` reproduces
//! the module just after the blamed pass, and `N-1` the one before it.

/// The module after one pass that changed it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Dump {
    /// The header without its stars: `IndVarSimplifyPass on loop
    /// %<unnamed loop> in function find_tid`.
    pub pass: String,
    /// The pass's number for `-opt-bisect-limit`, when it has one.
    pub bisect: Option<u64>,
    /// The whole module after the pass.
    pub text: String,
    /// The line of the module's first line in the tool's standard error
    /// (1-based), to locate parse errors.
    pub line: usize,
}

const HEADER: &str = "*** IR Dump After ";

/// Splits opt's standard error into its dumps, in order.
pub fn split(stderr: &str) -> Vec<Dump> {
    let mut out: Vec<Dump> = Vec::new();
    let mut last_bisect: Option<(u64, String)> = None;
    let mut current: Option<Dump> = None;
    for (i, line) in stderr.lines().enumerate() {
        if let Some(rest) = line.strip_prefix("BISECT: running pass (") {
            if let Some((n, name)) = rest.split_once(") ") {
                if let Ok(n) = n.parse::<u64>() {
                    last_bisect = Some((n, name.to_string()));
                }
            }
            continue;
        }
        let header = line
            .strip_prefix("; ")
            .unwrap_or(line)
            .strip_prefix(HEADER)
            .and_then(|r| r.strip_suffix(" ***"));
        if let Some(pass) = header {
            if let Some(d) = current.take() {
                out.push(d);
            }
            let bisect = last_bisect
                .as_ref()
                .filter(|(_, name)| name == pass)
                .map(|(n, _)| *n);
            current = Some(Dump {
                pass: pass.to_string(),
                bisect,
                text: String::new(),
                line: i + 2,
            });
            continue;
        }
        if let Some(d) = current.as_mut() {
            d.text.push_str(line);
            d.text.push('\n');
        }
    }
    if let Some(mut d) = current.take() {
        // The last dump runs up to whatever opt printed when it stopped (a
        // verifier message, a crash): the module ends at the first line
        // that is not LLVM IR.
        let mut kept = String::new();
        for l in d.text.lines() {
            if !l.is_empty() && !looks_like_ir(l) {
                break;
            }
            kept.push_str(l);
            kept.push('\n');
        }
        d.text = kept;
        out.push(d);
    }
    out
}

/// What opt said after its last dump when it stopped (its verifier's
/// message and the instruction it names), without the stack dump.
pub fn trailer(stderr: &str) -> String {
    let lines: Vec<&str> = stderr.lines().collect();
    let start = lines
        .iter()
        .rposition(|l| l.starts_with(HEADER))
        .map_or(0, |k| {
            lines[k + 1..]
                .iter()
                .position(|l| !l.is_empty() && !looks_like_ir(l))
                .map_or(lines.len(), |p| k + 1 + p)
        });
    lines[start..]
        .iter()
        .take_while(|l| !l.starts_with("PLEASE submit") && !l.starts_with("Stack dump"))
        .filter(|l| !l.starts_with("BISECT: "))
        .map(|l| l.trim())
        .filter(|l| !l.is_empty())
        .take(4)
        .collect::<Vec<_>>()
        .join(" / ")
}

/// Whether a line can belong to a module printed by opt (so that a tool's
/// message after its last dump can be told from the module).
pub fn looks_like_ir(l: &str) -> bool {
    l.starts_with(' ')
        || l.starts_with('\t')
        || l.starts_with(';')
        || l.starts_with('!')
        || l.starts_with('}')
        || l.starts_with('@')
        || l.starts_with('%')
        || l.starts_with('$')
        || l.starts_with('#')
        || l.split_whitespace().next().is_some_and(|w| {
            [
                "define",
                "declare",
                "attributes",
                "source_filename",
                "target",
                "module",
                "uselistorder",
                "uselistorder_bb",
            ]
            .contains(&w)
                || (w.ends_with(':') && !w.chars().next().is_some_and(|c| c.is_ascii_uppercase()))
                || w.starts_with('"')
        })
}

/// The short name of a pass as the dump header gives it:
/// `IndVarSimplifyPass`.
pub fn pass_class(pass: &str) -> &str {
    pass.split(" on ").next().unwrap_or(pass)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_dumps_and_matches_bisect_numbers() {
        let text = "BISECT: running pass (1) SROAPass on f\n\
                    *** IR Dump After SROAPass on f ***\n\
                    define void @f() {\n  ret void\n}\n\
                    BISECT: running pass (2) EarlyCSEPass on f\n\
                    *** IR Dump After LoopSimplifyPass on f ***\n\
                    ; module 2\n";
        let d = split(text);
        assert_eq!(d.len(), 2);
        assert_eq!(d[0].pass, "SROAPass on f");
        assert_eq!(d[0].bisect, Some(1));
        assert_eq!(d[0].text, "define void @f() {\n  ret void\n}\n");
        assert_eq!(d[0].line, 3);
        assert_eq!(d[1].bisect, None, "{d:?}");
        assert_eq!(d[1].text, "; module 2\n");
        let crashed = split(
            "*** IR Dump After JumpThreadingPass on f ***\ndefine void @f() {\nentry:\n  ret void\n}\n\
             Loop intrinsic cannot be preceded by a convergent operation in the same basic block.\n\
             \x20 %t = call token @llvm.experimental.convergence.loop()\nLLVM ERROR: Broken module found\n",
        );
        assert_eq!(
            crashed[0].text,
            "define void @f() {\nentry:\n  ret void\n}\n"
        );
        assert_eq!(pass_class(&d[1].pass), "LoopSimplifyPass");
    }
}
