//! LLVM's own UniformityAnalysis tests (`llvm/test/Analysis/UniformityAnalysis/`)
//! against the uniformity oracle (issue 23, docs/src/uniformity.md "LLVM's
//! own tests").
//!
//! The tests are LLVM's files, not convcheck's: they are not in this
//! repository (see `examples/uniformity-tests/README.md`). This test reads
//! them from `$CONVCHECK_LLVM_UA_TESTS`, else from
//! `../shared/llvm-tests/UniformityAnalysis` beside the repository, checks
//! each against the manifest (`examples/uniformity-tests/manifest.tsv`:
//! the LLVM commit each was read at, its size and SHA-256), and skips with
//! a printed reason when they are absent.
//!
//! For every file of [`SUBSET`] and every opt that is installed (opt-19,
//! opt-22), it runs `convcheck uniformity` and reads the file's FileCheck
//! lines ([`Assertions`]) against opt's own printout, and asserts:
//!
//! - no finding is on a value or branch the file asserts uniform (a
//!   `CHECK-NOT: DIVERGENT: ...` naming it, a bare `CHECK-NOT: DIVERGENT`
//!   after the function's divergent ones, `ALL VALUES UNIFORM`, or a
//!   positive check of its definition without `DIVERGENT:`), except the
//!   ones in [`KNOWN_WRONG`], where the file records the analysis's wrong
//!   answer and says so;
//! - the findings are exactly the documented ones ([`expected`]): the
//!   `phi-join` findings of #137277's tests on opt-19 (fixed in opt-22),
//!   the cycle-exit findings of #216100 / PR #216296 on both.
//!
//! An undecided value (out of time) is never a failure; budgets are small
//! (`--timeout 20` per file). The reader of FileCheck lines is tested on
//! its own, without LLVM's files, in
//! `the_check_line_reader_follows_filecheck_rules`, and against FileCheck
//! itself on LLVM's files in `the_reader_finds_every_value_filecheck_protects`.

mod common;

use common::llvm_files::UA_TESTS;
use common::{convcheck, have};
use regex::Regex;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::process::Command;

/// The files the test runs (paths under `UniformityAnalysis/`): every file
/// of the manifest whose examination takes a few seconds. The others
/// (irreducible CFGs, several hierarchies each, 5 to 60 s) are in the
/// tables that `scripts/uniformity-tests.sh` writes.
const SUBSET: &[&str] = &[
    "AMDGPU/always_uniform.ll",
    "AMDGPU/branch-after-join.ll",
    "AMDGPU/divergent-cycle-exit-join.ll",
    "AMDGPU/divergent-cycle-exit-phi.ll",
    "AMDGPU/hidden_diverge.ll",
    "AMDGPU/hidden_loopdiverge.ll",
    "AMDGPU/incorrect-assertion-issue-170048.ll",
    "AMDGPU/join-at-loop-exit.ll",
    "AMDGPU/kernel-args.ll",
    "AMDGPU/no-return-blocks.ll",
    "AMDGPU/nodivergencesource.ll",
    "AMDGPU/phi-undef.ll",
    "AMDGPU/phi_div_branch.ll",
    "AMDGPU/phi_div_loop.ll",
    "AMDGPU/phi_no_divergence.ll",
    "AMDGPU/propagate-loop-live-out.ll",
    "AMDGPU/temporal_diverge.ll",
    "AMDGPU/trivial-join-at-loop-exit.ll",
    "AMDGPU/uniform_intrinsic.ll",
    "AMDGPU/unreachable-loop-block.ll",
    "AMDGPU/unstructured-branch.ll",
    "AMDGPU/vgpr-address-space-load.ll",
    "AMDGPU/workitem-expr.ll",
    "AMDGPU/irreducible/diverged-entry-basic.ll",
    "AMDGPU/irreducible/hidden-post-dom.ll",
    "AMDGPU/irreducible/reducible-subgraph.ll",
    "NVPTX/alloca-tid-load.ll",
    "NVPTX/daorder.ll",
    "NVPTX/diverge.ll",
    "NVPTX/generic-load-divergence.ll",
    "NVPTX/hidden_diverge.ll",
    "NVPTX/non-header-join.ll",
];

/// (opt, file, why): a file that opt rejects (`convcheck uniformity`
/// exits 2 with opt's message).
const REJECTED: &[(&str, &str, &str)] = &[(
    "opt-19",
    "AMDGPU/nodivergencesource.ll",
    "the `nodivergencesource` attribute is newer than LLVM 19",
)];

/// (file, function, value, why): a finding on a value the file asserts
/// uniform, because the file records LLVM's wrong answer as its expected
/// output and says so.
const KNOWN_WRONG: &[(&str, &str, &str, &str)] = &[(
    "AMDGPU/divergent-cycle-exit-join.ll",
    "constant_phi_at_cycle_exit",
    "%exit.phi",
    "llvm/llvm-project#216100: the file's comment says `BUG: The uniformity analysis \
     incorrectly classifies %exit.phi as uniform`, and its CHECK lines record that answer",
)];

/// The findings documented in docs/src/uniformity.md for `opt` (opt-19 or
/// opt-22): (file, function, value).
fn expected(opt: &str) -> BTreeSet<(String, String, String)> {
    let mut v: Vec<(&str, &str, &str)> = vec![
        // #216100 / PR #216296: still wrong in LLVM 22.
        (
            "AMDGPU/divergent-cycle-exit-join.ll",
            "constant_phi_at_cycle_exit",
            "%exit.phi",
        ),
        (
            "AMDGPU/divergent-cycle-exit-phi.ll",
            "divergent_cycle_exit_phi",
            "%acc",
        ),
        (
            "AMDGPU/divergent-cycle-exit-phi.ll",
            "nested_cycle_exit_phi",
            "%acc",
        ),
    ];
    if opt == "opt-19" {
        // #137277, fixed by PR #139667 before LLVM 22.
        for f in ["AMDGPU/phi_div_branch.ll", "AMDGPU/unstructured-branch.ll"] {
            for x in ["%div_a", "%div_b", "%div_c"] {
                v.push((f, "test_ctrl_divergence", x));
            }
        }
        v.push((
            "AMDGPU/phi_div_loop.ll",
            "test_loop_ctrl_divergence",
            "%div_a",
        ));
    }
    v.into_iter()
        .map(|(a, b, c)| (a.to_string(), b.to_string(), c.to_string()))
        .collect()
}

/// One value, argument or terminator as opt printed it.
#[derive(Debug)]
struct Item {
    /// `%x`, `br in %b` (a terminator) or `arg %x`.
    subject: String,
    /// The instruction (or argument) as printed, without `DIVERGENT:`.
    text: String,
    /// Its line in the printout (from 0).
    line: usize,
    /// Whether opt printed it `DIVERGENT:`.
    divergent: bool,
}

/// opt's printout, per function.
fn printed(printout: &str) -> BTreeMap<String, Vec<Item>> {
    let mut out: BTreeMap<String, Vec<Item>> = BTreeMap::new();
    let mut function = String::new();
    let mut block = String::new();
    let mut terms = false;
    for (n, line) in printout.lines().enumerate() {
        if let Some(rest) = line.strip_prefix("UniformityInfo for function '") {
            function = rest.trim_end_matches("':").to_string();
            out.entry(function.clone()).or_default();
            block.clear();
            terms = false;
            continue;
        }
        let t = line.trim();
        if let Some(b) = t.strip_prefix("BLOCK ") {
            block = b.trim_start_matches('%').to_string();
            terms = false;
            continue;
        }
        match t {
            "TERMINATORS" => terms = true,
            "DEFINITIONS" | "END BLOCK" => terms = false,
            _ => {}
        }
        let body = t.strip_prefix("DIVERGENT:").map_or(t, str::trim);
        let subject = if terms {
            if matches!(body, "" | "TERMINATORS") {
                continue;
            }
            format!("br in %{block}")
        } else if let Some((lhs, _)) = body.split_once(" = ") {
            if !lhs.starts_with('%') || lhs.contains(' ') {
                continue;
            }
            lhs.to_string()
        } else if block.is_empty() && t.starts_with("DIVERGENT:") {
            // An argument under DIVERGENT ARGUMENTS: `i32 %x`.
            match body.rsplit_once(' ') {
                Some((_, n)) if n.starts_with('%') => format!("arg {n}"),
                _ => continue,
            }
        } else {
            continue;
        };
        if let Some(items) = out.get_mut(&function) {
            items.push(Item {
                subject,
                text: body.to_string(),
                line: n,
                divergent: t.starts_with("DIVERGENT:"),
            });
        }
    }
    out
}

/// Literal pattern text as a regex: a run of blanks is one or more blanks
/// (FileCheck's default, without `--strict-whitespace`).
fn literal(s: &str) -> String {
    let mut out = String::new();
    let mut blank = false;
    for ch in s.chars() {
        if ch == ' ' || ch == '\t' {
            if !blank {
                out.push_str("[ \\t]+");
            }
            blank = true;
        } else {
            blank = false;
            out.push_str(&regex::escape(ch.encode_utf8(&mut [0; 4])));
        }
    }
    out
}

/// A FileCheck pattern as a regex: `{{re}}` and `[[VAR:re]]` are regexes,
/// everything else literal, runs of blanks one or more blanks.
fn pattern(p: &str) -> Regex {
    let marker = Regex::new(r"\{\{(.*?)\}\}|\[\[(?:[A-Za-z_][A-Za-z0-9_]*)(?::(.*?))?\]\]")
        .expect("marker regex");
    let mut re = String::new();
    let mut last = 0;
    for m in marker.captures_iter(p) {
        let whole = m.get(0).expect("match");
        re.push_str(&literal(&p[last..whole.start()]));
        match (m.get(1), m.get(2)) {
            (Some(r), _) => re.push_str(&format!("(?:{})", r.as_str())),
            (None, Some(r)) => re.push_str(&format!("(?:{})", r.as_str())),
            (None, None) => re.push_str(".*?"),
        }
        last = whole.end();
    }
    re.push_str(&literal(&p[last..]));
    Regex::new(&re).unwrap_or_else(|e| panic!("pattern {p:?} as {re:?}: {e}"))
}

/// What a test file's FileCheck lines say of one function.
#[derive(Debug, Default)]
struct Assertions {
    /// Subjects asserted uniform.
    uniform: BTreeSet<String>,
    /// Subjects asserted divergent.
    divergent: BTreeSet<String>,
    /// `ALL VALUES UNIFORM`.
    all_uniform: bool,
    /// A bare `CHECK-NOT: DIVERGENT`: every subject not asserted divergent
    /// is uniform.
    rest_uniform: bool,
}

impl Assertions {
    fn asserts_uniform(&self, subject: &str) -> bool {
        self.all_uniform
            || self.uniform.contains(subject)
            || (self.rest_uniform && !self.divergent.contains(subject))
    }
}

/// The check prefixes of the file's first RUN line that pipes to
/// FileCheck (`CHECK` when it names none).
fn prefixes(test: &str) -> Vec<String> {
    let run = test
        .lines()
        .find(|l| l.contains("RUN:") && l.contains("FileCheck"))
        .unwrap_or_default();
    let re = Regex::new(r"--?check-prefix(?:es)?[= ]([A-Za-z0-9_,-]+)").expect("regex");
    match re.captures(run) {
        Some(c) => c[1].split(',').map(str::to_string).collect(),
        None => vec!["CHECK".to_string()],
    }
}

/// Reads the FileCheck lines of `test` against `printout`, per function.
/// A check line belongs to the function named by the last line before it
/// that says `for function 'F'` or is a `-LABEL` with `'F'` in it; lines
/// before any such line belong to every function.
fn assertions(test: &str, printout: &str) -> BTreeMap<String, Assertions> {
    let items = printed(printout);
    let names = prefixes(test).join("|");
    let directive = Regex::new(&format!(
        r"(?:^|[^A-Za-z0-9_-])(?:{names})(-NOT|-NEXT|-SAME|-DAG|-LABEL)?:(.*)$"
    ))
    .expect("directive regex");
    let named = Regex::new(r"for function '([^']+)'|-LABEL:\s*'([^']+)'").expect("regex");
    let divergent_word = Regex::new(r"DIVERGENT\s*:?").expect("regex");
    let definition = Regex::new(r"%[-A-Za-z0-9_.$]+ =").expect("regex");
    let mut out: BTreeMap<String, Assertions> = BTreeMap::new();
    let mut current: Option<String> = None;
    for line in test.lines() {
        if !line.trim_start().starts_with(';') {
            continue;
        }
        if let Some(c) = named.captures(line) {
            let n = c.get(1).or(c.get(2)).expect("a name").as_str();
            current = Some(n.to_string());
            continue;
        }
        let Some(d) = directive.captures(line) else {
            continue;
        };
        let kind = d.get(1).map_or("", |m| m.as_str());
        let body = d[2].trim();
        if kind == "-LABEL" || body.is_empty() {
            continue;
        }
        let targets: Vec<String> = match &current {
            Some(f) => vec![f.clone()],
            None => items.keys().cloned().collect(),
        };
        for f in targets {
            let a = out.entry(f.clone()).or_default();
            let fitems = items.get(&f).map(Vec::as_slice).unwrap_or_default();
            let mentions_divergent = divergent_word.is_match(body);
            if body == "ALL VALUES UNIFORM" && kind != "-NOT" {
                a.all_uniform = true;
                continue;
            }
            if kind == "-NOT" {
                let norm = divergent_word.replace(body, "DIVERGENT:").to_string();
                if mentions_divergent && norm.trim_end() == "DIVERGENT:" {
                    a.rest_uniform = true;
                    continue;
                }
                let re = pattern(&norm);
                for it in fitems {
                    if re.is_match(&format!("DIVERGENT: {}", it.text)) {
                        a.uniform.insert(it.subject.clone());
                    }
                }
            } else if mentions_divergent {
                let norm = divergent_word.replace(body, "DIVERGENT:").to_string();
                let re = pattern(&norm);
                for it in fitems {
                    if re.is_match(&format!("DIVERGENT: {}", it.text)) {
                        a.divergent.insert(it.subject.clone());
                    }
                }
            } else if definition.is_match(body) {
                // A positive check of a definition without DIVERGENT: the
                // test means it uniform (phi-undef.ll anchors it with
                // `{{^  *}}`; phi_div_loop.ll's `%uni_a` does not).
                let re = pattern(body);
                for it in fitems {
                    if re.is_match(&format!("    {}", it.text)) {
                        a.uniform.insert(it.subject.clone());
                    }
                }
            }
        }
    }
    out
}

/// opt's printout for `file` (the module's triple, else amdgcn, as
/// `convcheck uniformity` runs it).
fn opt_printout(opt: &str, file: &Path, text: &str) -> String {
    let triple = text
        .lines()
        .find_map(|l| {
            l.strip_prefix("target triple = \"")
                .map(|t| t.trim_end_matches('"').to_string())
        })
        .unwrap_or_else(|| convcheck::uniformity::DEFAULT_TRIPLE.to_string());
    let out = Command::new(opt)
        .arg(format!("-mtriple={triple}"))
        .arg("-passes=print<uniformity>")
        .arg("-disable-output")
        .arg(file)
        .output()
        .expect("opt runs");
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// (function, value) of every finding of `convcheck uniformity FILE`, and
/// the number of values left undecided.
fn findings(opt: &str, file: &Path) -> Result<(BTreeSet<(String, String)>, usize), String> {
    let f = file.display().to_string();
    let (code, out, err) = convcheck(&[
        "uniformity",
        &f,
        "--opt-bin",
        opt,
        "--timeout",
        "20",
        "--format",
        "json",
    ]);
    if code == 2 {
        return Err(err);
    }
    let v: serde_json::Value =
        serde_json::from_str(&out).unwrap_or_else(|e| panic!("{f}: {e}: {out}{err}"));
    let mut found = BTreeSet::new();
    let mut undecided = 0;
    for func in v["functions"].as_array().into_iter().flatten() {
        let name = func["name"].as_str().unwrap_or_default().to_string();
        undecided += func["unknown"].as_array().map_or(0, Vec::len);
        for x in func["findings"].as_array().into_iter().flatten() {
            found.insert((name.clone(), x["value"].as_str().unwrap_or("").to_string()));
        }
    }
    Ok((found, undecided))
}

#[test]
fn llvm_uniformity_tests_get_no_finding_on_what_they_assert_uniform() {
    let test = "llvm_uniformity_tests_get_no_finding_on_what_they_assert_uniform";
    let dir = match UA_TESTS.files() {
        Ok((d, files)) => {
            for f in SUBSET {
                assert!(
                    files.iter().any(|(e, _)| e.file == *f),
                    "{f}: not in the manifest"
                );
            }
            d
        }
        Err(why) => {
            println!("skipping {test}: {why}");
            return;
        }
    };
    let mut ran = 0;
    for opt in ["opt-19", "opt-22"] {
        if !have(opt, test) {
            continue;
        }
        ran += 1;
        let mut all = BTreeSet::new();
        let mut undecided = 0;
        let mut asserted_uniform = 0;
        for f in SUBSET {
            let p = dir.join(f);
            let text = std::fs::read_to_string(&p).expect("read");
            let (found, u) = match findings(opt, &p) {
                Ok(x) => x,
                Err(e) if REJECTED.iter().any(|r| (r.0, r.1) == (opt, *f)) => {
                    assert!(e.contains("failed"), "{opt} {f}: {e}");
                    continue;
                }
                Err(e) => panic!("{opt} {f}: convcheck failed: {e}"),
            };
            undecided += u;
            let printout = opt_printout(opt, &p, &text);
            let asserted = assertions(&text, &printout);
            for (func, items) in printed(&printout) {
                if let Some(a) = asserted.get(&func) {
                    let subjects: BTreeSet<&str> =
                        items.iter().map(|i| i.subject.as_str()).collect();
                    asserted_uniform += subjects.iter().filter(|s| a.asserts_uniform(s)).count();
                }
            }
            for (func, value) in &found {
                let says_uniform = asserted.get(func).is_some_and(|a| a.asserts_uniform(value));
                let known = KNOWN_WRONG
                    .iter()
                    .any(|k| (k.0, k.1, k.2) == (*f, func.as_str(), value.as_str()));
                assert!(
                    !says_uniform || known,
                    "{opt} {f}: a finding on {value} of @{func}, which the test asserts uniform"
                );
                all.insert((f.to_string(), func.clone(), value.clone()));
            }
        }
        assert_eq!(
            all,
            expected(opt),
            "{opt}: the findings on LLVM's tests are not the documented ones \
             ({undecided} values undecided)"
        );
        println!(
            "{opt}: {} files, {asserted_uniform} values and branches asserted uniform, {} \
             findings, all documented; {undecided} values undecided",
            SUBSET.len(),
            all.len()
        );
    }
    if ran == 0 {
        println!("skipping {test}: neither opt-19 nor opt-22 is installed");
    }
}

/// The reader of FileCheck lines on a file of our own (no LLVM files
/// needed): labels, prefixes, `CHECK-NOT` with and without a value, a
/// bare `CHECK-NOT: DIVERGENT`, `ALL VALUES UNIFORM`, anchored positive
/// checks, typos FileCheck ignores, and lines before any label.
#[test]
fn the_check_line_reader_follows_filecheck_rules() {
    let test = "; RUN: opt -passes='print<uniformity>' %s | FileCheck --check-prefixes=GCN,X %s
; GCN-NOT: DIVERGENT:       %g = phi
; GCN-LABEL: for function 'f':
; GCN-NOT: DIVERGENT: %uni.
; GCN: DIVERGENT: %div =
; GCN-NOT: DIVERGENT: br i1 %uni.c,
; X: {{^}} %shr = lshr
; CHECK-NOT: DIVERGENT: %div2
; GCN-NIT: DIVERGENT: %uni.b
; GCN=LABEL: UniformityInfo for function 'g':
; GCN: DIVERGENT: i32 %a
; GCN-NOT: DIVERGENT
; GCN-LABEL: 'h':
; GCN: ALL VALUES UNIFORM
";
    let printout = "UniformityInfo for function 'f':
BLOCK entry
DEFINITIONS
  DIVERGENT:   %div = add i32 %tid, 1
               %uni.a = add i32 %n, 1
  DIVERGENT:   %uni.b = add i32 %div, 1
  DIVERGENT:   %div2 = add i32 %tid, 2
               %shr = lshr i32 %tid, 6
               %g = phi i32 [ 1, %entry ]
TERMINATORS
               br i1 %uni.c, label %a, label %b
END BLOCK
UniformityInfo for function 'g':
DIVERGENT ARGUMENTS:
  DIVERGENT:  i32 %a
  DIVERGENT:  i32 %b
BLOCK entry
DEFINITIONS
               %x = add i32 %a, 1
TERMINATORS
               ret void
END BLOCK
UniformityInfo for function 'h':
ALL VALUES UNIFORM
";
    let a = assertions(test, printout);
    let f = &a["f"];
    let uniform: Vec<&str> = f.uniform.iter().map(String::as_str).collect();
    // %uni.b by the `%uni.` prefix, %shr by the anchored X check, the
    // branch by its CHECK-NOT, %g by the line before every label; not
    // %div2 (CHECK is no prefix of this RUN line) and not by CHECK-NIT.
    assert_eq!(
        uniform,
        vec!["%g", "%shr", "%uni.a", "%uni.b", "br in %entry"],
        "{f:?}"
    );
    assert!(f.divergent.contains("%div"), "{f:?}");
    assert!(!f.asserts_uniform("%div") && !f.asserts_uniform("%div2"));
    // `GCN=LABEL` is no directive, but it names function g.
    let g = &a["g"];
    assert!(g.rest_uniform && g.divergent.contains("arg %a"), "{g:?}");
    assert!(g.asserts_uniform("%x") && g.asserts_uniform("arg %b"));
    assert!(!g.asserts_uniform("arg %a"));
    assert!(a["h"].all_uniform && a["h"].asserts_uniform("%anything"));
    assert_eq!(prefixes(test), vec!["GCN", "X"]);
    assert_eq!(prefixes("; RUN: opt %s | FileCheck %s"), vec!["CHECK"]);
    assert!(pattern("DIVERGENT:{{.*}}%exit.phi").is_match("DIVERGENT: %exit.phi = phi i32"));
    assert!(!pattern("DIVERGENT:   %acc").is_match("DIVERGENT: %iv = phi i32"));
}

/// A FileCheck that runs: `$FILECHECK`, LLVM 19's (CI installs it with
/// llvm-19-tools), or any other on this machine.
fn filecheck() -> Option<String> {
    let mut candidates: Vec<String> = std::env::var("FILECHECK").into_iter().collect();
    for c in [
        "/usr/lib/llvm-19/bin/FileCheck",
        "FileCheck-19",
        "/usr/lib/llvm-22/bin/FileCheck",
        "FileCheck",
        "/usr/lib/llvm-14/bin/FileCheck",
    ] {
        candidates.push(c.to_string());
    }
    candidates.into_iter().find(|c| {
        Command::new(c)
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success())
    })
}

/// Whether FileCheck (`bin`, with the file's prefixes) accepts `printout`
/// for the test file `test`.
fn filecheck_accepts(bin: &str, test: &Path, prefixes: &[String], printout: &str) -> bool {
    use std::io::Write as _;
    let mut child = Command::new(bin)
        .arg(format!("--check-prefixes={}", prefixes.join(",")))
        .arg(test)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("FileCheck runs");
    if let Some(mut input) = child.stdin.take() {
        input
            .write_all(printout.as_bytes())
            .expect("FileCheck reads");
    }
    child.wait().is_ok_and(|s| s.success())
}

/// The reader against FileCheck itself: on every file of [`SUBSET`] whose
/// CHECK lines accept opt-19's printout, each value or branch opt calls
/// uniform is marked `DIVERGENT:` in a copy of the printout; when FileCheck
/// then rejects the copy, the file asserts that value uniform, and the
/// reader must say so too. (The reader may say more: it reads a
/// `CHECK-NOT` for its whole function, where FileCheck checks only the
/// lines up to the next match.)
#[test]
fn the_reader_finds_every_value_filecheck_protects() {
    let test = "the_reader_finds_every_value_filecheck_protects";
    let dir = match UA_TESTS.files() {
        Ok((d, _)) => d,
        Err(why) => {
            println!("skipping {test}: {why}");
            return;
        }
    };
    if !have("opt-19", test) {
        return;
    }
    let Some(fc) = filecheck() else {
        println!("skipping {test}: no FileCheck (apt-get install llvm-19-tools)");
        return;
    };
    let (mut files, mut protected) = (0, 0);
    for f in SUBSET {
        let p = dir.join(f);
        let text = std::fs::read_to_string(&p).expect("read");
        let printout = opt_printout("opt-19", &p, &text);
        let prefixes = prefixes(&text);
        if !filecheck_accepts(&fc, &p, &prefixes, &printout) {
            continue;
        }
        files += 1;
        let asserted = assertions(&text, &printout);
        let lines: Vec<&str> = printout.lines().collect();
        for (func, items) in printed(&printout) {
            for it in items
                .iter()
                .filter(|i| !i.divergent && !i.subject.starts_with("arg "))
            {
                let mut copy: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
                copy[it.line] = format!("  DIVERGENT:   {}", it.text);
                if filecheck_accepts(&fc, &p, &prefixes, &(copy.join("\n") + "\n")) {
                    continue;
                }
                protected += 1;
                assert!(
                    asserted
                        .get(&func)
                        .is_some_and(|a| a.asserts_uniform(&it.subject)),
                    "{f}: FileCheck protects {} of @{func} as uniform, the reader does not",
                    it.subject
                );
            }
        }
    }
    assert!(files >= 10, "only {files} files pass FileCheck with opt-19");
    println!("{fc}: {files} files pass on opt-19; {protected} values FileCheck protects, all read");
}
