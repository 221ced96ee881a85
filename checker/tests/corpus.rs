//! The shared corpus (`examples/corpus/expectations.toml`) run through the
//! checker: every case's verdict and breaking stage, every unsafe pass
//! caught by some case, and every safe pass preserving every example.

use convcheck::check::{run_check, Reference};
use convcheck::cli::{CheckArgs, ReportFormat};
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

fn cases() -> Vec<Case> {
    let text = std::fs::read_to_string(format!("{}/corpus/expectations.toml", examples()))
        .expect("expectations");
    toml::from_str::<Expectations>(&text)
        .expect("valid expectations")
        .case
}

#[test]
fn every_case_has_its_expected_verdict() {
    for c in cases() {
        let reference = match c.reference.as_deref() {
            Some("cfg") => Reference::Cfg,
            _ => Reference::Source,
        };
        let report = run_check(&args(
            &c.kernel,
            c.function.clone(),
            c.passes.clone(),
            c.tokens,
            reference,
        ))
        .unwrap_or_else(|o| panic!("{}: {}", c.kernel, o.stderr));
        let what = format!(
            "{} {:?} {:?} tokens={}",
            c.kernel, c.function, c.passes, c.tokens
        );
        assert_eq!(report.verdict().as_str(), c.verdict, "{what}");
        if let Some(stage) = &c.stage {
            let broken = report
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
                .unwrap_or_else(|o| panic!("{k}: {}", o.stderr));
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
