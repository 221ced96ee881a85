//! `convcheck demo`: the embedded default job.
//!
//! It runs seed 000's two loops of "Ambiguity in a Simplified CFG"
//! (`loop_continue` and `loop_nest`) on the seed's scenario, prints both
//! trace tables, compares each with the table printed in the seed, and
//! explains why they differ; then does the same for the divergent loop
//! exit, at the source level, on its CFG as clang -O0 lowers it (the seed's
//! second table) and on its CFG with convergence-control tokens (the
//! first again). The comparison is real: a mismatch makes the demo fail
//! with exit code 1. The published tables and their scenarios come from
//! the example corpus (`examples/corpus/tables.toml`, embedded).

use crate::corpus::{tables, TableCase, TABLES};
use crate::run::run_report_at;
use crate::{Error, Output, Status};
use convcheck_ir::exec::cfg::CfgProgram;
use convcheck_lang::lower::lower;
use convcheck_lang::sema::Kernel;
use std::fmt::Write;

/// Seed 000's two loops with the same single-threaded behaviour.
pub const AMBIGUITY_SOURCE: &str = include_str!("../../examples/seed/ambiguity-source.c");
/// Seed 000's loop with a divergent exit.
pub const DIVERGENT_EXIT_SOURCE: &str = include_str!("../../examples/seed/divergent-exit-source.c");

/// The table named `name` of the embedded corpus
/// (`examples/corpus/tables.toml`).
pub fn table(name: &str) -> Result<TableCase, Error> {
    let cases = tables(TABLES).map_err(|e| Error::usage(format!("tables.toml: {e}")))?;
    cases
        .into_iter()
        .find(|c| c.name == name)
        .ok_or_else(|| Error::usage(format!("tables.toml has no table `{name}`")))
}

/// Runs the corpus table `name` on `kernel` (at the source level, or on
/// `program`), prints it and whether it is the published one.
fn section_at(
    out: &mut String,
    kernel: &Kernel,
    program: Option<&CfgProgram>,
    name: &str,
) -> Result<bool, Error> {
    let case = table(name)?;
    let scenario = case.scenario().map_err(Error::usage)?;
    let report = run_report_at(kernel, program, Some(&case.function), &scenario, 100_000)?;
    let _ = writeln!(out, "{}, scenario:", case.function);
    for (t, v) in report.values.iter().enumerate() {
        let _ = writeln!(out, "  tid {t}: {}", v.render());
    }
    out.push_str(&report.table.render());
    let ok = report.table.labels() == case.expected();
    let _ = writeln!(
        out,
        "{}\n",
        if ok {
            "  = the table printed in seed 000"
        } else {
            "  !! differs from the table printed in seed 000"
        }
    );
    Ok(ok)
}

/// Checks SimplifyCFG on the two loops: lowering and the pass, the
/// verdicts, the counterexample, then the ambiguity. Returns whether every
/// verdict is the expected one.
fn transform_section(out: &mut String, amb: &Kernel) -> Result<bool, Error> {
    use crate::ambiguity::AmbiguityArgs;
    use crate::config::CheckConfig;
    let args = |function: &str, tokens: bool| CheckConfig {
        function: Some(function.into()),
        passes: vec!["simplifycfg".into()],
        tokens,
        max_iters: 2,
        ..CheckConfig::default()
    };
    let _ = writeln!(
        out,
        "checking LLVM-style SimplifyCFG (late run: loop headers may be folded)\n"
    );
    let mut ok = true;
    for (function, tokens, expect) in [
        ("loop_nest", false, "violated"),
        ("loop_continue", false, "preserved"),
        ("loop_nest", true, "preserved"),
    ] {
        let report = crate::pipeline::check_kernels(
            "examples/seed/ambiguity-source.c",
            amb.clone(),
            None,
            &args(function, tokens),
            &crate::pipeline::with_engine(crate::config::Engine::Explicit),
        )?;
        let _ = writeln!(
            out,
            "$ convcheck check examples/seed/ambiguity-source.c --function {function} --pass simplifycfg{}",
            if tokens { " --tokens" } else { "" }
        );
        out.push_str(&crate::report::text::render(&report));
        out.push('\n');
        ok &= report.verdict() == expect;
    }
    let _ = writeln!(
        out,
        "$ convcheck ambiguity examples/seed/ambiguity-source.c --pass simplifycfg"
    );
    let a = AmbiguityArgs {
        files: vec!["examples/seed/ambiguity-source.c".into()],
        passes: vec!["simplifycfg".into()],
        max_iters: 2,
    };
    let found = crate::ambiguity::ambiguity_on(
        &[("examples/seed/ambiguity-source.c".into(), amb.clone())],
        &a,
    )?;
    out.push_str(&found.text);
    ok &= found.status == Status::Found;
    Ok(ok)
}

/// The `demo` command.
pub fn demo() -> Result<Output, Error> {
    let mut out = String::new();
    let run = |out: &mut String| -> Result<bool, Error> {
        let amb = Kernel::parse("examples/seed/ambiguity-source.c", AMBIGUITY_SOURCE)
            .map_err(Error::from)?;
        let exit = Kernel::parse(
            "examples/seed/divergent-exit-source.c",
            DIVERGENT_EXIT_SOURCE,
        )
        .map_err(Error::from)?;
        let _ = writeln!(
            out,
            "convcheck demo: seed 000, \"Ambiguity in a Simplified CFG\" (source level)\n"
        );
        let a = section_at(out, &amb, None, "seed-loop-continue")?;
        let b = section_at(out, &amb, None, "seed-loop-nest")?;
        out.push_str(
            "Why they differ: both functions run A, B, C, D in the same order in each\n\
             thread, but in loop_continue every `continue` ends an iteration of the one\n\
             `for`, so B and C are keyed by that loop's iteration and tid 0's second B\n\
             meets tid 1's second B. In loop_nest B is keyed by the outer and the inner\n\
             iteration: tid 0 repeats B inside the first outer iteration, alone, while\n\
             tid 1 meets C first and runs B again in the second outer iteration. After\n\
             SimplifyCFG both become the same CFG, so the CFG cannot tell which\n\
             convergence was meant.\n\n",
        );
        let _ = writeln!(out, "seed 000, \"Divergent Loop Exits\" (source level)\n");
        let c = section_at(out, &exit, None, "seed-divergent-exit")?;
        out.push_str(
            "C runs in different iterations in the two threads, so its two instances\n\
             are not converged; both threads are converged again at D.\n\n",
        );
        let plain = CfgProgram::new(lower(&exit, false));
        let _ = writeln!(
            out,
            "the same kernel lowered to a CFG as clang -O0 does (maximal convergence)\n"
        );
        let d = section_at(out, &exit, Some(&plain), "seed-divergent-exit-cfg")?;
        out.push_str(
            "C's block lies outside the natural loop headed by for.cond, so the CFG\n\
             converges the two exits at C: lowering without tokens changed convergence.\n\n",
        );
        let tokens = CfgProgram::new(lower(&exit, true));
        let _ = writeln!(
            out,
            "lowered with convergence-control tokens placed from the source loops\n"
        );
        let e = section_at(out, &exit, Some(&tokens), "seed-divergent-exit")?;
        out.push_str(
            "C is controlled by the loop's token, so its instances stay apart, as in\n\
             the source.\n\n",
        );
        let f = transform_section(out, &amb)?;
        Ok(a && b && c && d && e && f)
    };
    let ok = run(&mut out)?;
    Ok(Output {
        text: out,
        status: if ok { Status::Holds } else { Status::Found },
        remark: (!ok).then(|| "error: a table differs from seed 000".to_string()),
    })
}
