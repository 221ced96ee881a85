//! What `convcheck fuzz` is asked ([`FuzzArgs`]), independent of the
//! command line.

use crate::config::Format;
use crate::pass_cmd::Exchange;

/// What `fuzz` is asked: the transform under test (exactly one of
/// `pass`, `pass_cmd` and `opt`), the programs, the bounds and where the
/// cases go.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FuzzArgs {
    /// A built-in pass under test.
    pub pass: Option<String>,
    /// An external transform: `sh -c 'CMD FILE'` prints the transformed
    /// program, in the exchange format, on standard output.
    pub pass_cmd: Option<String>,
    /// The format programs go to `pass_cmd` in and come back in.
    pub exchange: Exchange,
    /// Seconds the external command may take per program.
    pub cmd_timeout: u64,
    /// A real `opt -passes=PIPELINE` instead.
    pub opt: Option<String>,
    /// With `opt`: the `opt` binary (default: `opt-19`, else `opt`).
    pub opt_bin: Option<String>,
    /// With `opt`: arguments for opt after convcheck's own (a triple,
    /// cl::opts), as `check --opt-arg` takes them.
    pub opt_args: Vec<String>,
    /// With `opt`: the clang binary (default: `clang-19`, else `clang`).
    pub clang_bin: Option<String>,
    /// With `opt`: seconds each run of clang or opt may take.
    pub tool_timeout: u64,
    /// Check these kernel files (as they are) instead of generated ones.
    pub input: Vec<String>,
    /// Generator settings `KEY=VALUE` (docs/src/fuzzing.md).
    pub gen: Vec<String>,
    /// A TOML file of generator settings, applied before `gen`.
    pub gen_config: Option<String>,
    /// The run's seed.
    pub seed: u64,
    /// Programs to check.
    pub count: Option<u64>,
    /// Seconds to run.
    pub time: Option<u64>,
    /// `I/N`: check only programs i with i % N == I.
    pub shard: Option<String>,
    /// Folder for every violation, inconclusive program and failure.
    pub out: Option<String>,
    /// Largest iteration number of any loop execution in a scenario.
    pub max_iters: u32,
    /// Paths per thread before a program's check is inconclusive.
    pub max_paths: usize,
    /// Stop at the first violation.
    pub stop_at_first: bool,
    /// Output format (text or JSON).
    pub format: Format,
}

impl Default for FuzzArgs {
    fn default() -> FuzzArgs {
        FuzzArgs {
            pass: None,
            pass_cmd: None,
            exchange: Exchange::Kernel,
            cmd_timeout: 10,
            opt: None,
            opt_bin: None,
            opt_args: Vec::new(),
            clang_bin: None,
            tool_timeout: 60,
            input: Vec::new(),
            gen: Vec::new(),
            gen_config: None,
            seed: 1,
            count: None,
            time: None,
            shard: None,
            out: None,
            max_iters: 1,
            max_paths: 2_000,
            stop_at_first: false,
            format: Format::Text,
        }
    }
}
