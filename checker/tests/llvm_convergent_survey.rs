//! The survey of LLVM's own tests of convergent operations
//! (`scripts/llvm-tests-survey.sh`, docs/src/llvm.md "LLVM's convergent
//! tests") and its committed tables, `examples/llvm-project-tests/survey-opt19.tsv`
//! and `survey-opt22.tsv`.
//!
//! LLVM's files are not in this repository (see
//! `examples/llvm-project-tests/README.md`): the manifest there names each
//! with its LLVM commit, size and SHA-256. Without them, the tables are
//! checked against the manifest and against their own totals lines. With
//! them (`$CONVCHECK_LLVM_CONVERGENT_TESTS`, else
//! `../shared/llvm-tests/Transforms` beside the repository; checked against
//! the manifest), the script is run with each opt that is installed and
//! must give each (file, RUN line, function) the committed verdict, except
//! that a verdict may become `inconclusive` for lack of time (a loaded
//! machine; printed), and `proved` and `preserved` may trade places (the
//! simulation's proof may need more than its time cap; printed). The `llvm` column (FileCheck's answer) is not
//! compared: it depends on the FileCheck version (the tables were made with
//! LLVM 14's).

mod common;

use common::llvm_files::CONVERGENT_TESTS;
use common::{have, root};
use std::collections::BTreeSet;
use std::process::Command;

/// The tables' header.
const HEADER: &str = "file\trun\tfunction\tllvm\tverdict\treason";

/// One row of a table.
#[derive(Debug, Clone, PartialEq)]
struct Row {
    file: String,
    run: String,
    function: String,
    llvm: String,
    verdict: String,
    reason: String,
}

/// A table: its rows, and the totals lines after the blank line.
fn table(name: &str, text: &str) -> (Vec<Row>, Vec<String>) {
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some(HEADER), "{name}: header");
    let mut rows = Vec::new();
    for l in lines.by_ref() {
        if l.is_empty() {
            break;
        }
        let c: Vec<&str> = l.split('\t').collect();
        assert_eq!(c.len(), 6, "{name}: row {l:?}");
        rows.push(Row {
            file: c[0].into(),
            run: c[1].into(),
            function: c[2].into(),
            llvm: c[3].into(),
            verdict: c[4].into(),
            reason: c[5].into(),
        });
    }
    (rows, lines.map(str::to_string).collect())
}

/// The totals lines the script prints for `rows` (the reasons' counts
/// left out).
fn totals(rows: &[Row]) -> Vec<String> {
    let pairs: Vec<&Row> = rows
        .iter()
        .filter(|r| r.verdict != "opt-error" && r.verdict != "missing")
        .collect();
    let refused = rows.iter().filter(|r| r.verdict == "opt-error").count();
    let count = |rs: &[&Row], v: &[&str]| rs.iter().filter(|r| v.contains(&&*r.verdict)).count();
    let decided = ["proved", "preserved", "violated"];
    let share = |n: usize, of: usize| {
        if of == 0 {
            0.0
        } else {
            100.0 * n as f64 / of as f64
        }
    };
    let ok: Vec<&Row> = pairs.iter().copied().filter(|r| r.llvm != "fail").collect();
    let (v, vok) = (count(&pairs, &decided), count(&ok, &decided));
    vec![
        format!(
            "pairs: {} (plus {refused} RUN lines opt refused)",
            pairs.len()
        ),
        format!("verdicts: {v} ({:.1}%)", share(v, pairs.len())),
        format!(
            "  proved (every iteration count): {}, preserved (within the bounds): {}",
            count(&pairs, &["proved"]),
            count(&pairs, &["preserved"])
        ),
        format!("violated: {}", count(&pairs, &["violated"])),
        format!(
            "pairs whose test does not fail: {}, verdicts {vok} ({:.1}%), violated {}",
            ok.len(),
            share(vok, ok.len()),
            count(&ok, &["violated"])
        ),
    ]
}

fn committed(opt: &str) -> (Vec<Row>, Vec<String>) {
    let name = format!(
        "examples/llvm-project-tests/survey-{}.tsv",
        opt.replace('-', "")
    );
    let text = std::fs::read_to_string(root().join(&name)).expect("the committed table");
    table(&name, &text)
}

#[test]
fn the_survey_tables_cover_the_manifest_and_add_up() {
    let manifest: BTreeSet<String> = CONVERGENT_TESTS
        .manifest()
        .into_iter()
        .map(|e| e.file)
        .collect();
    assert_eq!(manifest.len(), 14, "the manifest's files");
    for opt in ["opt-19", "opt-22"] {
        let (rows, tail) = committed(opt);
        let files: BTreeSet<String> = rows.iter().map(|r| r.file.clone()).collect();
        assert_eq!(
            files, manifest,
            "{opt}: the table's files are the manifest's"
        );
        for r in &rows {
            assert!(
                [
                    "proved",
                    "preserved",
                    "violated",
                    "inconclusive",
                    "error",
                    "opt-error"
                ]
                .contains(&&*r.verdict),
                "{opt}: {r:?}"
            );
            assert!(["pass", "fail", "-"].contains(&&*r.llvm), "{opt}: {r:?}");
        }
        for line in totals(&rows) {
            assert!(
                tail.contains(&line),
                "{opt}: the table's totals lack {line:?}:\n{}",
                tail.join("\n")
            );
        }
        // No verdict is a false alarm: every LLVM output here is correct.
        assert!(rows.iter().all(|r| r.verdict != "violated"), "{opt}");
    }
}

#[test]
fn the_survey_gives_the_committed_verdicts_on_llvms_files() {
    let test = "the_survey_gives_the_committed_verdicts_on_llvms_files";
    let dir = match CONVERGENT_TESTS.files() {
        Ok((d, _)) => d,
        Err(why) => {
            println!("skipping {test}: {why}");
            return;
        }
    };
    if Command::new("jq").arg("--version").output().is_err() {
        println!("skipping {test}: the survey script needs `jq` (apt-get install jq)");
        return;
    }
    let mut ran = 0;
    for opt in ["opt-19", "opt-22"] {
        if !have(opt, test) {
            continue;
        }
        ran += 1;
        let out = Command::new("bash")
            .arg(root().join("scripts/llvm-tests-survey.sh"))
            .arg(&dir)
            .arg(env!("CARGO_BIN_EXE_convcheck"))
            .arg(opt)
            .env_remove("CONVCHECK_ARGS")
            .output()
            .expect("the script runs");
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "{opt}: the survey failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let (rows, _) = table(&format!("the survey with {opt}"), &stdout);
        let (want, _) = committed(opt);
        let key = |r: &Row| (r.file.clone(), r.run.clone(), r.function.clone());
        assert_eq!(
            rows.iter().map(key).collect::<Vec<_>>(),
            want.iter().map(key).collect::<Vec<_>>(),
            "{opt}: the survey's (file, RUN line, function) rows"
        );
        let mut slow = 0;
        for (got, want) in rows.iter().zip(&want) {
            if got.verdict == want.verdict {
                continue;
            }
            let out_of_time = got.verdict == "inconclusive"
                && ["proved", "preserved"].contains(&&*want.verdict)
                && (got.reason.contains("time budget") || got.reason.contains("timeout"));
            // Proved and preserved are both sound; which one a pair gets
            // can depend on whether the simulation's wall-clock cap (5 s a
            // stage) covered its proof on this machine (LoopUnroll's
            // `pragma_unroll`, unrolled by 8, takes 3 to 7 s under load).
            let either = [&*got.verdict, &*want.verdict] == ["proved", "preserved"]
                || [&*got.verdict, &*want.verdict] == ["preserved", "proved"];
            let out_of_time = out_of_time || either;
            assert!(
                out_of_time,
                "{opt}: {} RUN line {} @{}: {} (committed: {})\n{}",
                got.file, got.run, got.function, got.verdict, want.verdict, got.reason
            );
            slow += 1;
            println!(
                "{opt}: {} @{}: {} (committed: {}): the verdict depends on the time left",
                got.file, got.function, got.verdict, want.verdict
            );
        }
        println!(
            "{opt}: {} rows as committed, {slow} out of time",
            rows.len() - slow
        );
    }
    if ran == 0 {
        println!("skipping {test}: neither opt-19 nor opt-22 is installed");
    }
}
