//! The shared corpus (`examples/corpus/expectations.toml`) run through the
//! checker: every case's verdict and breaking stage, every unsafe pass
//! caught by some case, and every safe pass preserving every example.

mod common;

use convcheck::config::Reference;
use convcheck::config::{CheckJob as CheckArgs, Format as ReportFormat};
use serde::Deserialize;

#[derive(Deserialize)]
struct Expectations {
    case: Vec<Case>,
}

#[derive(Deserialize)]
struct Case {
    kernel: String,
    function: Option<String>,
    passes: Vec<String>,
    #[serde(default)]
    tokens: bool,
    #[serde(default)]
    reference: Option<String>,
    verdict: String,
    stage: Option<String>,
    /// A second kernel file, the target (`check SRC TGT`).
    #[serde(default)]
    target: Option<String>,
    /// The group size when fixed; absent for every `N >= 2` (the default).
    #[serde(default)]
    threads: Option<u32>,
    /// The iteration bound; absent for the default.
    #[serde(default)]
    max_iters: Option<u32>,
}

fn examples() -> String {
    concat!(env!("CARGO_MANIFEST_DIR"), "/../examples").to_string()
}

fn args(
    kernel: &str,
    function: Option<String>,
    passes: Vec<String>,
    tokens: bool,
    reference: Reference,
) -> CheckArgs {
    CheckArgs {
        src: format!("{}/{kernel}", examples()),
        tgt: None,
        function,
        passes,
        tokens,
        reference,
        threads: 2,
        max_iters: 2,
        fuel: 100_000,
        max_paths: 20_000,
        format: ReportFormat::Text,
    }
}

/// A case's check: the defaults of `convcheck check` unless the case
/// sets its group size or iteration bound.
fn case_args(c: &Case) -> CheckArgs {
    let reference = match c.reference.as_deref() {
        Some("cfg") => Reference::Cfg,
        _ => Reference::Source,
    };
    let defaults = convcheck::config::CheckConfig::default();
    let mut a = args(
        &c.kernel,
        c.function.clone(),
        c.passes.clone(),
        c.tokens,
        reference,
    );
    a.tgt = c.target.as_ref().map(|t| format!("{}/{t}", examples()));
    a.threads = c.threads.unwrap_or(defaults.threads);
    a.max_iters = c.max_iters.unwrap_or(defaults.max_iters);
    a
}

/// A check with the explicit engine (the engine the corpus command runs).
fn run_check(a: &CheckArgs) -> Result<convcheck::report::Report, convcheck::Error> {
    let settings = convcheck::pipeline::with_engine(convcheck::config::Engine::Explicit);
    convcheck::pipeline::check(a, &settings, &convcheck::pipeline::Silent)
}

fn cases() -> Vec<Case> {
    let text = std::fs::read_to_string(format!("{}/corpus/expectations.toml", examples()))
        .expect("expectations");
    toml::from_str::<Expectations>(&text)
        .expect("valid expectations")
        .case
}

/// Runs the replay lines of a violated check's report: each must run, and
/// the reference's and the target's tables must differ (the replay shows
/// the counterexample).
fn replays(text: &str, what: &str) {
    let lines: Vec<&str> = text
        .lines()
        .filter_map(|l| l.trim_start().strip_prefix("replay"))
        .filter_map(|l| l.split_once("convcheck ").map(|(_, r)| r))
        .collect();
    assert!(!lines.is_empty(), "{what}: no replay line in\n{text}");
    let outputs: Vec<String> = lines
        .iter()
        .map(|l| {
            let o = common::main_with_args(
                std::iter::once("convcheck".to_string()).chain(common::shell_words(l)),
            );
            assert_ne!(o.code, 2, "{what}: replay `{l}` fails: {}", o.stderr);
            o.stdout
        })
        .collect();
    if outputs.len() == 2 {
        assert_ne!(
            outputs[0], outputs[1],
            "{what}: the replays show the same run"
        );
    }
}

#[test]
fn every_case_has_its_expected_verdict() {
    for c in cases() {
        let report = run_check(&case_args(&c)).unwrap_or_else(|e| panic!("{}: {e}", c.kernel));
        let what = format!(
            "{} {:?} {:?} {:?} tokens={}",
            c.kernel, c.target, c.function, c.passes, c.tokens
        );
        assert_eq!(report.verdict().as_str(), c.verdict, "{what}");
        if c.verdict == "violated" {
            replays(&convcheck::report::text::render(&report), &what);
        }
        if let Some(stage) = &c.stage {
            let broken = report.functions[0]
                .stages
                .iter()
                .find(|s| !matches!(s.outcome, convcheck::engine::Outcome::Preserved { .. }))
                .map(|s| s.name.clone());
            assert_eq!(broken.as_deref(), Some(stage.as_str()), "{what}");
        }
    }
}

#[test]
fn every_unsafe_pass_is_caught_by_a_named_case() {
    let cases = cases();
    for p in convcheck_transforms::registry() {
        if p.safe {
            continue;
        }
        let caught = cases.iter().any(|c| {
            c.verdict == "violated"
                && c.passes
                    .iter()
                    .any(|q| q == p.name || q.starts_with(&format!("{}<", p.name)))
        });
        assert!(caught, "unsafe pass `{}` is not caught by any case", p.name);
    }
}

#[test]
fn every_safe_pass_preserves_every_example() {
    let mut kernels = Vec::new();
    for dir in ["seed", "llvm", "corpus", "hazards"] {
        for e in std::fs::read_dir(format!("{}/{dir}", examples())).expect("dir") {
            let path = e.expect("entry").path();
            if path.extension().is_some_and(|x| x == "c") {
                kernels.push(format!(
                    "{dir}/{}",
                    path.file_name().expect("name").to_string_lossy()
                ));
            }
        }
    }
    kernels.sort();
    let (mut checked, mut preserved) = (0, 0);
    for p in convcheck_transforms::registry()
        .into_iter()
        .filter(|p| p.safe)
    {
        for k in &kernels {
            let src = std::fs::read_to_string(format!("{}/{k}", examples())).expect("read");
            let kernel = convcheck_lang::sema::Kernel::parse(k, &src).expect("parses");
            for f in &kernel.functions {
                let report = run_check(&args(
                    k,
                    Some(f.name.clone()),
                    vec![p.name.to_string()],
                    false,
                    Reference::Cfg,
                ))
                .unwrap_or_else(|e| panic!("{k}: {e}"));
                assert_ne!(
                    report.verdict(),
                    "violated",
                    "safe pass {} on {k} `{}`",
                    p.name,
                    f.name
                );
                checked += 1;
                if report.verdict() == "preserved" {
                    preserved += 1;
                }
            }
        }
    }
    assert!(checked > 50, "{checked}");
    // Inconclusive answers are allowed but must stay the exception.
    assert!(
        preserved * 10 >= checked * 9,
        "{preserved} of {checked} preserved"
    );
}
