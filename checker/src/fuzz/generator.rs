//! The generator configuration of `convcheck fuzz`: [`fuzz_config`], and
//! the settings `--gen KEY=VALUE` and `--gen-config FILE.toml` change
//! ([`set_knob`]: every field of [`convcheck_generators::Config`], listed
//! with its default in docs/src/fuzzing.md).

use super::FuzzArgs;
use convcheck_generators::Config;

// The generator settings `--gen KEY=VALUE` and `--gen-config` can change:
// every field of `convcheck_generators::Config` (documented there and in
// docs/src/fuzzing.md).
macro_rules! knobs {
    ($($field:ident : $ty:ty),* $(,)?) => {
        /// The names of the generator settings.
        pub const KNOBS: &[&str] = &[$(stringify!($field)),*];

        /// Sets generator setting `key` to `value` (a number or `true` /
        /// `false`).
        pub fn set_knob(c: &mut Config, key: &str, value: &str) -> Result<(), String> {
            match key {
                $(stringify!($field) => {
                    c.$field = value.trim().parse::<$ty>().map_err(|e| {
                        format!("generator setting {key}={value}: {e}")
                    })?;
                })*
                _ => {
                    return Err(format!(
                        "unknown generator setting `{key}` (settings: {})",
                        KNOBS.join(", ")
                    ))
                }
            }
            Ok(())
        }

        /// Every generator setting with its value.
        pub fn knob_values(c: &Config) -> Vec<(&'static str, String)> {
            vec![$((stringify!($field), c.$field.to_string())),*]
        }
    };
}

knobs! {
    max_block_len: usize, max_depth: u32, max_helpers: usize, max_observations: usize,
    max_statements: usize, max_switch_cases: usize, max_paths: u32, iteration_bound: u32,
    statement_percent: u8, observe_weight: u32, operation_weight: u32, if_weight: u32,
    loop_weight: u32, switch_weight: u32, jump_weight: u32, call_weight: u32,
    noconvergent_weight: u32, goto_cycle_weight: u32, if_else: bool, while_loops: bool,
    do_while_loops: bool, for_loops: bool, breaks: bool, continues: bool, returns: bool,
    switches: bool, forward_gotos: bool, backward_gotos: bool, jumps_into_loops: bool,
    noconvergent: bool, barriers: bool, data_barriers: bool, memory: bool,
    helper_calls: bool, convergent_calls: bool, varying: bool, uniform: bool, invariant: bool,
    tid_bounds: bool, counter_tests: bool, uniform_invariant: bool,
}

/// The generator configuration of a run: [`fuzz_config`] (without
/// `noconvergent` for `--opt`), then the settings of `--gen-config FILE.toml` (a TOML table `key = value`), then
/// each `--gen KEY=VALUE` in order.
pub fn generator_config(a: &FuzzArgs) -> Result<Config, String> {
    let mut c = fuzz_config();
    // clang 19 has no `[[clang::noconvergent]]` statement in C, so the
    // plain C that `--opt` compiles would read it as a plain statement.
    if a.opt.is_some() {
        c.noconvergent = false;
    }
    if let Some(path) = &a.gen_config {
        let text =
            std::fs::read_to_string(path).map_err(|e| format!("--gen-config {path}: {e}"))?;
        let table: toml::Table = toml::from_str(&text).map_err(|e| format!("{path}: {e}"))?;
        for (k, v) in &table {
            let value = match v {
                toml::Value::Integer(i) => i.to_string(),
                toml::Value::Boolean(b) => b.to_string(),
                other => {
                    return Err(format!(
                        "{path}: `{k}`: expected a number or a boolean, found {other}"
                    ))
                }
            };
            set_knob(&mut c, k, &value).map_err(|e| format!("{path}: {e}"))?;
        }
    }
    for g in &a.gen {
        let (k, v) = g
            .split_once('=')
            .ok_or_else(|| format!("--gen {g}: expected KEY=VALUE"))?;
        set_knob(&mut c, k.trim(), v).map_err(|e| format!("--gen {e}"))?;
    }
    if c.max_statements == 0 || c.max_block_len == 0 || c.max_paths == 0 {
        return Err(
            "generator settings: max_statements, max_block_len and max_paths must be at least 1"
                .into(),
        );
    }
    Ok(c)
}

/// The generator configuration of `convcheck fuzz`: the generator's
/// defaults with loops weighted up and small bodies, since loop structure
/// is where CFG passes change convergence (seed 000's loop_nest /
/// loop_continue), and nested loops that decide their exits need the path
/// budget.
pub fn fuzz_config() -> Config {
    Config {
        loop_weight: 12,
        if_weight: 3,
        jump_weight: 2,
        max_statements: 10,
        max_block_len: 3,
        max_paths: 1024,
        // With one iteration in the generator's path estimate, loops that
        // decide their exit fit inside each other within the budget.
        iteration_bound: 1,
        ..Config::default()
    }
}
