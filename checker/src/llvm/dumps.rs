//! Stepping through an `opt` pipeline: `opt -passes=PIPELINE
//! -print-changed -print-module-scope -opt-bisect-limit=-1` prints, on
//! standard error, a `BISECT: running pass (N) NAME on UNIT` line before
//! every pass that `-opt-bisect-limit` can skip, and the whole module after
//! every pass that changed it, under a `*** IR Dump After NAME on UNIT ***`
//! header. [`split`] cuts that text into one [`Dump`] per changed pass,
//! with the pass's bisect number when the `BISECT` line just before its
//! dump names the same pass class (passes that opt always runs have none;
//! a loop pass may rename its loop, `LoopRotatePass` runs on `%for.cond`
//! and dumps on `%for.body`).
//!
//! opt prints no module after a pass that changed the function but
//! *invalidated* its unit (a loop pass that deleted or re-queued its loop,
//! `LoopDeletionPass`, `SimpleLoopUnswitchPass`, a full unroll; a CGSCC
//! pass that split its SCC): with `-print-changed=quiet` nothing at all,
//! so the change was credited to the next pass that printed. Without
//! `quiet`, opt says `*** IR Pass NAME invalidated ***`; [`invalidated`]
//! finds those lines, the runner ([`super::tools::run_keeping`]) fetches
//! each such module with `-opt-bisect-limit=N` and [`complete`] puts it
//! after the line under an ordinary header, so that every pass that
//! changed a function is a stage of its own. The other one-line notes of
//! the non-quiet mode (`omitted because no change`, `ignored`, `filtered
//! out`) and its `*** IR Dump At Start ***` module are skipped.
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

/// What a line of opt's standard error is.
enum Marker<'a> {
    /// `BISECT: running pass (N) NAME on UNIT`: `(N, "NAME on UNIT")`.
    Bisect(u64, &'a str),
    /// Any other `BISECT:` line (`NOT running pass`).
    OtherBisect,
    /// `*** IR Dump After NAME on UNIT ***`, a module follows.
    Dump(&'a str),
    /// `*** IR Pass NAME invalidated ***`.
    Invalidated(&'a str),
    /// Any other `*** IR ... ***` line (the start dump, `omitted because
    /// no change`, `ignored`, `filtered out`).
    OtherIr,
    /// Anything else: module text or a tool's message.
    Text,
}

fn marker(line: &str) -> Marker<'_> {
    if let Some(rest) = line.strip_prefix("BISECT: ") {
        return rest
            .strip_prefix("running pass (")
            .and_then(|r| r.split_once(") "))
            .and_then(|(n, name)| Some(Marker::Bisect(n.parse().ok()?, name)))
            .unwrap_or(Marker::OtherBisect);
    }
    let l = line.strip_prefix("; ").unwrap_or(line);
    let Some(inner) = l
        .strip_prefix("*** IR ")
        .and_then(|r| r.strip_suffix(" ***"))
    else {
        return Marker::Text;
    };
    if let Some(pass) = inner
        .strip_prefix("Pass ")
        .and_then(|p| p.strip_suffix(" invalidated"))
    {
        return Marker::Invalidated(pass);
    }
    match inner.strip_prefix("Dump After ") {
        Some(pass)
            if !pass.ends_with(" omitted because no change")
                && !pass.ends_with(" filtered out") =>
        {
            Marker::Dump(pass)
        }
        _ => Marker::OtherIr,
    }
}

/// Splits opt's standard error into its dumps, in order.
pub fn split(stderr: &str) -> Vec<Dump> {
    let mut out: Vec<Dump> = Vec::new();
    // The last `BISECT` line not yet matched with a dump.
    let mut last_bisect: Option<(u64, &str)> = None;
    let mut current: Option<Dump> = None;
    let finish = |d: Option<Dump>, out: &mut Vec<Dump>| {
        if let Some(mut d) = d {
            // A module runs up to whatever opt printed next (a verifier
            // message, a crash) or to the next marker.
            let end = module_end(&d.text);
            d.text.truncate(end);
            out.push(d);
        }
    };
    for (i, line) in stderr.lines().enumerate() {
        match marker(line) {
            Marker::Bisect(n, name) => last_bisect = Some((n, name)),
            Marker::OtherBisect => {}
            Marker::Dump(pass) => {
                finish(current.take(), &mut out);
                let bisect = last_bisect
                    .filter(|(_, name)| pass_class(name) == pass_class(pass))
                    .map(|(n, _)| n);
                if bisect.is_some() {
                    last_bisect = None;
                }
                current = Some(Dump {
                    pass: pass.to_string(),
                    bisect,
                    text: String::new(),
                    line: i + 2,
                });
            }
            Marker::Invalidated(_) | Marker::OtherIr => finish(current.take(), &mut out),
            Marker::Text => {
                if let Some(d) = current.as_mut() {
                    d.text.push_str(line);
                    d.text.push('\n');
                }
            }
        }
    }
    finish(current.take(), &mut out);
    out
}

/// A pass that invalidated its unit after the `BISECT` line that numbers
/// it: opt printed no module after it, whether or not it changed one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Invalidated {
    /// `LoopDeletionPass on loop %for.body in function f`, from the
    /// `BISECT` line.
    pub pass: String,
    /// Its `-opt-bisect-limit` number.
    pub bisect: u64,
    /// The index (0-based) of the `*** IR Pass ... invalidated ***` line.
    pub index: usize,
}

/// The passes that invalidated their unit and have a bisect number, in
/// order (one per number: the pass managers around a loop pass report the
/// invalidation too, and have no number of their own).
pub fn invalidated(stderr: &str) -> Vec<Invalidated> {
    let mut out: Vec<Invalidated> = Vec::new();
    let mut last_bisect: Option<(u64, &str)> = None;
    for (i, line) in stderr.lines().enumerate() {
        match marker(line) {
            Marker::Bisect(n, name) => last_bisect = Some((n, name)),
            Marker::Invalidated(pass) => {
                if let Some((n, name)) = last_bisect {
                    if pass_class(name) == pass_class(pass)
                        && out.last().map(|x| x.bisect) != Some(n)
                    {
                        out.push(Invalidated {
                            pass: name.to_string(),
                            bisect: n,
                            index: i,
                        });
                    }
                }
            }
            _ => {}
        }
    }
    out
}

/// `stderr` with each fetched module (the whole module after an
/// [`Invalidated`] pass, as `-opt-bisect-limit=N` prints it) put after
/// that pass's `invalidated` line under an ordinary dump header, which
/// [`split`] then reads as the pass's dump.
pub fn complete(stderr: &str, fetched: &[(Invalidated, String)]) -> String {
    let mut out = String::with_capacity(stderr.len());
    for (i, line) in stderr.lines().enumerate() {
        out.push_str(line);
        out.push('\n');
        for (inv, module) in fetched.iter().filter(|(inv, _)| inv.index == i) {
            out.push_str(&format!("{HEADER}{} ***\n", inv.pass));
            out.push_str(module);
            if !module.ends_with('\n') {
                out.push('\n');
            }
        }
    }
    out
}

/// The length of the module at the start of `text`: up to the first line
/// that opt prints and no module has. Inside a function body every line is
/// the module's (a block label `L1:` included) until its closing `}`,
/// except opt's own messages of a crash (`LLVM ERROR:`, `PLEASE submit`,
/// `Stack dump:`); outside one, a line must look like a top-level line of
/// a module ([`looks_like_ir`]).
fn module_end(text: &str) -> usize {
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let n = module_lines(lines.iter().map(|l| l.trim_end_matches('\n')));
    lines[..n].iter().map(|l| l.len()).sum()
}

/// The number of lines of `lines` that belong to the module they start
/// with (see [`module_end`]).
fn module_lines<'a>(lines: impl Iterator<Item = &'a str>) -> usize {
    let mut in_body = false;
    let mut n = 0;
    for line in lines {
        if in_body {
            if is_opt_message(line) {
                return n;
            }
            if line == "}" {
                in_body = false;
            }
        } else if !line.is_empty() && !looks_like_ir(line) {
            return n;
        } else if line.starts_with("define") && line.trim_end().ends_with('{') {
            in_body = true;
        }
        n += 1;
    }
    n
}

/// opt's own messages when it stops, which no module line starts with.
fn is_opt_message(line: &str) -> bool {
    [
        "LLVM ERROR:",
        "PLEASE submit",
        "Stack dump:",
        "*** IR ",
        "BISECT: ",
    ]
    .iter()
    .any(|p| line.starts_with(p))
}

/// The lines of opt's standard error that are not part of a module it
/// printed and not a marker (`BISECT:`, `*** IR ... ***`): its messages.
pub fn messages(stderr: &str) -> Vec<&str> {
    let lines: Vec<&str> = stderr.lines().collect();
    let mut out = Vec::new();
    let mut k = 0;
    while k < lines.len() {
        match marker(lines[k]) {
            Marker::Dump(_) | Marker::OtherIr => {
                // A module may follow (the start dump too): skip it.
                k += 1 + module_lines(lines[k + 1..].iter().copied());
            }
            Marker::Text => {
                out.push(lines[k]);
                k += 1;
            }
            _ => k += 1,
        }
    }
    out
}

/// What opt said after its last dump when it stopped (its verifier's
/// message and the instruction it names), without the stack dump.
pub fn trailer(stderr: &str) -> String {
    let lines: Vec<&str> = stderr.lines().collect();
    let start = lines
        .iter()
        .rposition(|l| matches!(marker(l), Marker::Dump(_)))
        .map_or(0, |k| k + 1 + module_lines(lines[k + 1..].iter().copied()));
    lines[start..]
        .iter()
        .take_while(|l| !l.starts_with("PLEASE submit") && !l.starts_with("Stack dump"))
        .filter(|l| matches!(marker(l), Marker::Text))
        .map(|l| l.trim())
        .filter(|l| !l.is_empty())
        .take(4)
        .collect::<Vec<_>>()
        .join(" / ")
}

/// Whether a line can be a top-level line of a module printed by opt
/// (outside function bodies), so that a tool's message after its last
/// dump can be told from the module. Inside a body, [`split`] takes every
/// line up to the closing `}`.
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

    /// What `opt -print-changed` (not quiet) prints around a loop pass that
    /// deletes its loop (the shape of opt-19's output, names our own).
    const LOUD: &str = "*** IR Dump At Start ***\n\
        define void @f() {\nentry:\n  ret void\n}\n\
        BISECT: running pass (1) LoopSimplifyPass on f\n\
        *** IR Dump After LoopSimplifyPass on f omitted because no change ***\n\
        *** IR Pass PassManager<Function> on f ignored ***\n\
        BISECT: running pass (2) LoopRotatePass on loop %head in function f\n\
        *** IR Dump After LoopRotatePass on loop %body in function f ***\n\
        define void @f() {\nentry:\n  br label %Exit\nExit:\n  ret void\n}\n\
        BISECT: running pass (3) LoopDeletionPass on loop %body in function f\n\
        *** IR Pass LoopDeletionPass invalidated ***\n\
        *** IR Pass PassManager<Loop> invalidated ***\n\
        BISECT: running pass (4) InstCombinePass on f\n\
        *** IR Dump After InstCombinePass on f ***\n\
        define void @f() {\nL1:\n  ret void\n}\n\
        *** IR Pass ModuleToFunctionPassAdaptor on [module] ignored ***\n";

    #[test]
    fn the_loud_mode_and_invalidated_passes() {
        let d = split(LOUD);
        let names: Vec<(&str, Option<u64>)> =
            d.iter().map(|x| (x.pass.as_str(), x.bisect)).collect();
        // The loop pass that renamed its loop keeps its number.
        assert_eq!(
            names,
            [
                ("LoopRotatePass on loop %body in function f", Some(2)),
                ("InstCombinePass on f", Some(4)),
            ]
        );
        assert_eq!(
            d[0].text,
            "define void @f() {\nentry:\n  br label %Exit\nExit:\n  ret void\n}\n"
        );
        assert_eq!(d[1].text, "define void @f() {\nL1:\n  ret void\n}\n");
        let gone = invalidated(LOUD);
        assert_eq!(
            gone,
            [Invalidated {
                pass: "LoopDeletionPass on loop %body in function f".into(),
                bisect: 3,
                index: 17,
            }]
        );
        let module = "define void @f() {\nentry:\n  unreachable\n}\n".to_string();
        let done = complete(LOUD, &[(gone[0].clone(), module.clone())]);
        let d = split(&done);
        assert_eq!(d.len(), 3);
        assert_eq!(d[1].pass, "LoopDeletionPass on loop %body in function f");
        assert_eq!(d[1].bisect, Some(3));
        assert_eq!(d[1].text, module);
        assert_eq!(d[2].bisect, Some(4));
        assert!(messages(&done).is_empty(), "{:?}", messages(&done));
        assert_eq!(trailer(&done), "");
    }

    #[test]
    fn labels_end_no_dump_and_messages_do() {
        // Blocks named like C labels, at the end of the last dump, followed
        // by what opt says when its verifier stops it.
        let text = "*** IR Dump After SimplifyCFGPass on k ***\n\
            define void @k() {\nentry:\n  br label %L1\nL1:\n  br label %Done\n\
            Done:                                          ; preds = %L1\n  ret void\n}\n\
            \n!0 = !{}\n\
            Basic Block in function 'k' does not have terminator!\n\
            label %Done\nLLVM ERROR: Broken module found, compilation aborted!\n\
            PLEASE submit a bug report\nStack dump:\n0. Program arguments: opt-19\n";
        let d = split(text);
        assert_eq!(d.len(), 1);
        assert!(
            d[0].text.ends_with("  ret void\n}\n\n!0 = !{}\n"),
            "{}",
            d[0].text
        );
        assert_eq!(
            trailer(text),
            "Basic Block in function 'k' does not have terminator! / label %Done / LLVM \
             ERROR: Broken module found, compilation aborted!"
        );
        assert_eq!(
            messages(text)[0],
            "Basic Block in function 'k' does not have terminator!"
        );
        // A crash in the middle of a body ends the module there.
        let cut = split("*** IR Dump After X on k ***\ndefine void @k() {\nA:\nLLVM ERROR: out\n");
        assert_eq!(cut[0].text, "define void @k() {\nA:\n");
    }
}
