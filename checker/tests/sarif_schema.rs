//! Every kind of SARIF log convcheck prints validates against the SARIF
//! 2.1.0 JSON schema (the OASIS schema as the `serde-sarif` package ships
//! it, found through `cargo metadata`), and deserializes into
//! `serde-sarif`'s types generated from that schema: a violated check, an
//! inconclusive one, a proved one, a check of several LLVM functions, an
//! error, a corpus run.

mod common;

use common::{convcheck, have, temp};
use serde_json::Value;

/// The SARIF 2.1.0 schema from the `serde-sarif` package.
fn schema() -> Value {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = std::process::Command::new(cargo)
        .args(["metadata", "--format-version", "1"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("cargo metadata runs");
    let meta: Value = serde_json::from_slice(&out.stdout).expect("cargo metadata prints JSON");
    let manifest = meta["packages"]
        .as_array()
        .and_then(|ps| ps.iter().find(|p| p["name"] == "serde-sarif"))
        .and_then(|p| p["manifest_path"].as_str())
        .expect("serde-sarif is a dev-dependency")
        .to_string();
    let path = std::path::Path::new(&manifest)
        .parent()
        .expect("package folder")
        .join("src/schema.json");
    let text = std::fs::read_to_string(&path).expect("the schema is in the package");
    let mut v: Value = serde_json::from_str(&text).expect("the schema is JSON");
    // The schema's pattern for a `language` has a stray `]`
    // (`^[a-zA-Z]{2}|^[a-zA-Z]{2}-[a-zA-Z]{2}]?$`), which is not a regular
    // expression a draft-7 validator accepts; it becomes the language tag
    // the specification describes (two letters, optionally a region). No
    // log of convcheck has a `language`.
    let fixed = fix_patterns(&mut v);
    assert!(fixed >= 1, "the schema's language pattern was not found");
    assert_eq!(
        v["title"],
        "Static Analysis Results Format (SARIF) Version 2.1.0 JSON Schema"
    );
    v
}

/// Replaces the schema's malformed language pattern wherever it stands;
/// returns how many it replaced.
fn fix_patterns(v: &mut Value) -> usize {
    const BAD: &str = "^[a-zA-Z]{2}|^[a-zA-Z]{2}-[a-zA-Z]{2}]?$";
    match v {
        Value::Object(m) => {
            let mut n = 0;
            for (k, x) in m.iter_mut() {
                if k == "pattern" && *x == BAD {
                    *x = Value::String("^[a-zA-Z]{2}(-[a-zA-Z]{2})?$".into());
                    n += 1;
                } else {
                    n += fix_patterns(x);
                }
            }
            n
        }
        Value::Array(a) => a.iter_mut().map(fix_patterns).sum(),
        _ => 0,
    }
}

/// Validates `out` (one SARIF log) and returns it.
fn valid(validator: &jsonschema::Validator, out: &str, what: &str) -> Value {
    let log: Value = serde_json::from_str(out).unwrap_or_else(|e| panic!("{what}: {e}: {out}"));
    let errors: Vec<String> = validator
        .iter_errors(&log)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect();
    assert!(errors.is_empty(), "{what}: {}\n{out}", errors.join("\n"));
    let typed: Result<serde_sarif::sarif::Sarif, _> = serde_json::from_str(out);
    assert!(typed.is_ok(), "{what}: {:?}", typed.err());
    log
}

#[test]
fn every_sarif_log_validates_against_the_schema() {
    let validator = jsonschema::draft7::new(&schema()).expect("the schema compiles");
    // The validator is not vacuous: a log without `runs` is rejected.
    assert!(!validator.is_valid(&serde_json::json!({"version": "2.1.0"})));
    let amb = "examples/seed/ambiguity-source.c";
    let mut cases: Vec<(Vec<String>, i32)> = vec![
        (
            vec![
                "check",
                amb,
                "--function",
                "loop_nest",
                "--pass",
                "simplifycfg",
            ],
            1,
        ),
        (
            vec![
                "check",
                amb,
                "--function",
                "loop_continue",
                "--pass",
                "simplifycfg",
            ],
            0,
        ),
        (
            vec![
                "check",
                amb,
                "--function",
                "loop_nest",
                "--pass",
                "simplifycfg",
                "--engine",
                "explicit",
                "--max-pairs",
                "1",
            ],
            3,
        ),
        (vec!["check", "no/such/file.c"], 2),
        (vec!["check", amb, "--no-such-flag"], 2),
        (vec!["corpus", "examples/corpus/expectations.toml"], 0),
    ]
    .into_iter()
    .map(|(a, c)| (a.into_iter().map(String::from).collect(), c))
    .collect();
    if have(
        "opt-19",
        "every_sarif_log_validates_against_the_schema (LLVM IR)",
    ) {
        let a = temp(
            "two.ll",
            "define void @f() {\n  ret void\n}\ndefine void @g() {\n  ret void\n}\n",
        );
        cases.push((
            vec!["check".into(), a, "--opt".into(), "instcombine".into()],
            0,
        ));
    }
    let mut results = 0;
    for (args, code) in &cases {
        let mut args = args.clone();
        args.extend(["--format".into(), "sarif".into()]);
        let words: Vec<&str> = args.iter().map(String::as_str).collect();
        let (got, out, err) = convcheck(&words);
        assert_eq!(got, *code, "{args:?}: {err}");
        let log = valid(&validator, &out, &args.join(" "));
        results += log["runs"][0]["results"].as_array().map_or(0, Vec::len);
    }
    // Results of every kind were validated.
    assert!(results >= 2, "{results}");
}
