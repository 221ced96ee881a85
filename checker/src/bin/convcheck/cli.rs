//! Command-line parsing (clap) and dispatch to the library's commands:
//! the only module that knows clap. Each clap struct converts into the
//! library's own arguments (`convcheck::run::RunArgs`, ...), which know no
//! clap.

use clap::{Parser, Subcommand, ValueEnum};

/// Checks whether compiler transforms preserve GPU thread convergence.
#[derive(Parser, Debug)]
#[command(name = "convcheck", version, about)]
pub struct Cli {
    /// The command.
    #[command(subcommand)]
    pub command: Command,
}

/// The reference semantics of `check` and `corpus`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ReferenceArg {
    /// The kernel's source-level convergence (lowering is checked too).
    Source,
    /// The lowered CFG's own semantics.
    Cfg,
}

/// The engines of `check` and `bench`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum EngineArg {
    /// The symbolic product for every stage it models, the explicit engine
    /// for a stage it does not, never for one it ran out of budget on.
    Auto,
    /// Explicit enumeration of scenarios and paths.
    Explicit,
    /// The symbolic two-thread product solved by z3; on LLVM IR the
    /// explicit engine decides what it does not model.
    Smt,
}

/// How a program goes to an external command of `fuzz --pass-cmd` and
/// comes back.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ExchangeArg {
    /// Kernel-language text (`.c`); compared at the source level.
    #[value(alias = "c")]
    Kernel,
    /// The IR text form (`.cvir`); compared at the CFG level.
    #[value(alias = "cvir")]
    Ir,
    /// LLVM IR (`.ll`); compared at the CFG level.
    #[value(alias = "ll")]
    Llvm,
}

/// Output formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// Human-readable text.
    Text,
    /// One JSON object on standard output.
    Json,
}

/// The commands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// The embedded default job: seed 000's examples and their tables.
    Demo,
    /// Runs a kernel on one scenario and prints its trace table.
    Run(RunArgs),
    /// Lowers a kernel to its CFG and prints it.
    Lower(LowerArgs),
    /// Checks that a pipeline of passes preserves convergence.
    Check(CheckCommand),
    /// Lists every pass and variant.
    Passes,
    /// Finds functions that a pipeline makes identical although their
    /// convergence differs.
    Ambiguity(AmbiguityArgs),
    /// Measures how fast `check` runs on the example corpus.
    Bench(BenchArgs),
    /// Checks a pass on random kernels; minimizes every violation.
    Fuzz(FuzzArgs),
    /// Runs an expectations file (every case's verdict and every table),
    /// or checks every function of one kernel file.
    Corpus(CorpusArgs),
    /// Serves a local web page (127.0.0.1 only) to study kernels, passes
    /// and counterexamples.
    Explore(ExploreArgs),
    /// Runs a kernel on one warp of an NVIDIA GPU (or replays recorded
    /// logs) and compares what the hardware did with the model.
    Gpu(crate::gpu::GpuArgs),
    /// Reduces a violating LLVM IR file with llvm-reduce, keeping the same
    /// violation (function, blamed pass, property).
    Reduce(crate::reduce::ReduceCommand),
    /// Checks LLVM's UniformityAnalysis (`opt -passes='print<uniformity>'`)
    /// against the model: every value LLVM calls uniform that two
    /// converged threads can compute differently is a finding (exit 1).
    Uniformity(UniformityArgs),
}

/// Arguments of `convcheck uniformity`.
#[derive(clap::Args, Debug, Clone)]
pub struct UniformityArgs {
    /// An LLVM IR file.
    pub file: String,
    /// Only this function.
    #[arg(long)]
    pub function: Option<String>,
    /// The target triple opt runs with (default: the module's, else
    /// amdgcn-amd-amdhsa).
    #[arg(long)]
    pub mtriple: Option<String>,
    /// The `opt` binary (default: `opt-19`, else `opt`).
    #[arg(long, value_name = "PATH")]
    pub opt_bin: Option<String>,
    /// Iterations of each cycle the model's runs may start.
    #[arg(long, default_value_t = 3)]
    pub max_iters: u32,
    /// The group size (default: every group of two threads or more).
    #[arg(long)]
    pub threads: Option<u32>,
    /// The two threads are in one wave of this many lanes (default: any
    /// two threads of the group).
    #[arg(long)]
    pub wave: Option<u32>,
    /// Seconds the whole file may take.
    #[arg(long, default_value_t = 120)]
    pub timeout: u64,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

/// Arguments of `convcheck explore`.
#[derive(clap::Args, Debug, Clone)]
pub struct ExploreArgs {
    /// A kernel file to start with (default: seed 000's ambiguity example).
    pub file: Option<String>,
    /// The port on 127.0.0.1 (0: any free port; the URL is printed).
    #[arg(long, default_value_t = convcheck::explore::DEFAULT_PORT)]
    pub port: u16,
    /// Seconds one request may take before it is answered with 503.
    #[arg(long, default_value_t = convcheck::explore::DEFAULT_BUDGET_SECS)]
    pub budget: u64,
    /// Let checks of LLVM IR run `opt` pipelines (the page's "opt
    /// pipeline"); the binary and its arguments are fixed here.
    #[arg(long)]
    pub allow_tools: bool,
    /// With --allow-tools: the opt binary (default opt-19, else opt).
    #[arg(long, requires = "allow_tools")]
    pub opt_bin: Option<String>,
    /// With --allow-tools: an argument for opt before the input
    /// (repeatable; `-mtriple=amdgcn--`, cl::opts).
    #[arg(
        long = "opt-arg",
        value_name = "ARG",
        allow_hyphen_values = true,
        requires = "allow_tools"
    )]
    pub opt_args: Vec<String>,
    /// With --allow-tools: the clang binary that compiles `.cu`, `.hip`,
    /// `.cl` (and C) sources (default clang-19, else clang, if present).
    #[arg(long, value_name = "PATH", requires = "allow_tools")]
    pub clang_bin: Option<String>,
    /// With --allow-tools: seconds one run of opt or clang may take.
    #[arg(long, default_value_t = 60)]
    pub tool_timeout: u64,
}

/// Arguments of `convcheck fuzz`.
#[derive(clap::Args, Debug, Clone)]
pub struct FuzzArgs {
    /// The pass under test.
    #[arg(long)]
    pub pass: Option<String>,
    /// An external transform: `sh -c 'CMD FILE'` prints the transformed
    /// program, in the exchange format, on standard output.
    #[arg(long)]
    pub pass_cmd: Option<String>,
    /// The format programs go to `--pass-cmd` in and come back in: kernel
    /// text (`kernel` or `c`), the IR text form (`ir` or `cvir`) or LLVM IR
    /// (`llvm` or `ll`).
    #[arg(long, value_enum, default_value_t = ExchangeArg::Kernel)]
    pub exchange: ExchangeArg,
    /// Seconds the external command may take per program (its process
    /// group is killed then).
    #[arg(long, default_value_t = 10)]
    pub cmd_timeout: u64,
    /// A real `opt -passes=PIPELINE` instead: every program is written as
    /// plain C, compiled by clang-19 at -O0, run through the pipeline and
    /// checked against clang's output (docs/src/fuzzing.md).
    #[arg(long, value_name = "PIPELINE")]
    pub opt: Option<String>,
    /// With --opt: the `opt` binary (default: `opt-19`, else `opt`).
    #[arg(long, value_name = "PATH")]
    pub opt_bin: Option<String>,
    /// With --opt: an argument for opt after convcheck's own (repeat): a
    /// triple (`--opt-arg=-mtriple=amdgcn--`) or a cl::opt.
    #[arg(long = "opt-arg", value_name = "ARG", allow_hyphen_values = true)]
    pub opt_args: Vec<String>,
    /// With --opt: the clang binary (default: `clang-19`, else `clang`).
    #[arg(long, value_name = "PATH")]
    pub clang_bin: Option<String>,
    /// With --opt: seconds each run of clang or opt may take.
    #[arg(long, default_value_t = 60)]
    pub tool_timeout: u64,
    /// Check these kernel files (as they are, not minimized) instead of
    /// generated programs.
    #[arg(long)]
    pub input: Vec<String>,
    /// A generator setting `KEY=VALUE` (repeat; e.g. `noconvergent=false`,
    /// `loop_weight=4`); see docs/src/fuzzing.md for every key.
    #[arg(long = "gen", value_name = "KEY=VALUE")]
    pub gen: Vec<String>,
    /// A TOML file of generator settings (`key = value` lines), applied
    /// before any `--gen`.
    #[arg(long)]
    pub gen_config: Option<String>,
    /// The run's seed.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Programs to check.
    #[arg(long)]
    pub count: Option<u64>,
    /// Seconds to run (the count then depends on the machine).
    #[arg(long)]
    pub time: Option<u64>,
    /// `I/N`: check only programs i with i % N == I.
    #[arg(long)]
    pub shard: Option<String>,
    /// With --uniformity: begin at function I (rounded down to a batch of
    /// 100), so that a campaign stopped early resumes where it stopped.
    #[arg(long, value_name = "I", requires = "uniformity")]
    pub from: Option<u64>,
    /// Folder for every violation (minimized), inconclusive program and
    /// command failure: `KIND-I.c`, `.txt` and `.json` (the report with the
    /// command that re-checks it).
    #[arg(long)]
    pub out: Option<String>,
    /// Largest iteration number of any loop execution in a scenario (the
    /// generator's iteration bound, so its path budget holds).
    #[arg(long, default_value_t = 1)]
    pub max_iters: u32,
    /// Paths per thread before a program's check is inconclusive.
    #[arg(long, default_value_t = 2_000)]
    pub max_paths: usize,
    /// Stop at the first violation.
    #[arg(long)]
    pub stop_at_first: bool,
    /// Fuzz LLVM's UniformityAnalysis instead of a pass: random AMDGPU
    /// functions checked by `convcheck uniformity` (with --seed, --count,
    /// --time, --shard, --out, --opt-bin, --max-iters, --format).
    #[arg(long)]
    pub uniformity: bool,
    /// Run generated kernels on the GPU instead (the hardware oracle,
    /// docs/src/hardware.md); `--out DIR` records the logs.
    #[arg(long)]
    pub gpu: bool,
    /// With --gpu: summarize recorded logs instead of running a GPU.
    #[arg(long = "replay", value_name = "DIR", requires = "gpu")]
    pub gpu_replay: Option<String>,
    /// With --gpu: device runs one differing kernel's minimization may
    /// use (0: do not minimize); minimized kernels go beside the originals
    /// in `--out DIR/kernels/` as `NAME.min.c`.
    #[arg(long, value_name = "N", default_value_t = 64, requires = "gpu")]
    pub min_runs: usize,
    /// With --gpu: run on the simulated device instead of a GPU, a test
    /// double that never rejoins diverged threads (not a model of any
    /// GPU; docs/src/hardware.md, "Minimization").
    #[arg(long, requires = "gpu", conflicts_with = "gpu_replay")]
    pub simulated_device: bool,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

/// Arguments of `convcheck corpus`.
#[derive(clap::Args, Debug, Clone)]
pub struct CorpusArgs {
    /// An expectations file (`.toml`, see docs/src/cli.md), or a kernel
    /// file whose every function is checked.
    pub file: String,
    /// For a kernel file: a pass to run (repeat for a pipeline).
    #[arg(long = "pass")]
    pub passes: Vec<String>,
    /// For a kernel file: lower with convergence-control tokens.
    #[arg(long)]
    pub tokens: bool,
    /// For a kernel file: the reference semantics.
    #[arg(long, value_enum, default_value_t = ReferenceArg::Source)]
    pub reference: ReferenceArg,
    /// For a kernel file: the group size (default: every `N >= 2`).
    #[arg(long)]
    pub threads: Option<u32>,
    /// For a kernel file: the iteration bound.
    #[arg(long)]
    pub max_iters: Option<u32>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = ReportFormat::Text)]
    pub format: ReportFormat,
    /// Cases checked at once (each on its own thread; the report keeps the
    /// file's order). A case's time budget is wall-clock time, so cases
    /// that share the cores may end inconclusive where one alone would not.
    #[arg(long, default_value_t = 1)]
    pub jobs: usize,
    /// The `opt` binary of every case with an `opt` pipeline (default:
    /// `opt-19`, else `opt` on the PATH): run the file through your own
    /// opt build.
    #[arg(long, value_name = "PATH")]
    pub opt_bin: Option<String>,
    /// The clang binary of every case with `frontend = "clang"` (default:
    /// `clang-19`, else `clang`).
    #[arg(long, value_name = "PATH")]
    pub clang_bin: Option<String>,
    /// Seconds each run of opt or clang may take.
    #[arg(long, default_value_t = 60)]
    pub tool_timeout: u64,
}

/// Arguments of `convcheck bench`.
#[derive(clap::Args, Debug, Clone)]
pub struct BenchArgs {
    /// The examples folder (with seed/, llvm/ and corpus/).
    #[arg(long, default_value = "examples")]
    pub examples: String,
    /// The pass to check.
    #[arg(long, default_value = "simplifycfg")]
    pub pass: String,
    /// Measure max-iters from 1 to this.
    #[arg(long, default_value_t = 3)]
    pub max_iters: u32,
    /// The engine to measure; `smt` also measures growth with kernel size.
    #[arg(long, value_enum, default_value_t = EngineArg::Explicit)]
    pub engine: EngineArg,
}

/// Arguments of `convcheck ambiguity`.
#[derive(clap::Args, Debug, Clone)]
pub struct AmbiguityArgs {
    /// Kernel files; every function of every file is compared.
    #[arg(required = true)]
    pub files: Vec<String>,
    /// A pass to run after lowering (repeat for a pipeline).
    #[arg(long = "pass")]
    pub passes: Vec<String>,
    /// Largest iteration number of any loop execution in a scenario.
    #[arg(long, default_value_t = 3)]
    pub max_iters: u32,
}

/// Report formats of `check`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ReportFormat {
    /// Human-readable text with trace tables.
    Text,
    /// One JSON object.
    Json,
    /// SARIF 2.1.0, for code-scanning front ends.
    Sarif,
}

/// Arguments of `convcheck check`.
#[derive(clap::Args, Debug, Clone)]
pub struct CheckArgs {
    /// The kernel file (the reference).
    pub src: String,
    /// Optionally, a second kernel file: the target.
    pub tgt: Option<String>,
    /// The kernel entry.
    #[arg(long)]
    pub function: Option<String>,
    /// A pass to run (repeat for a pipeline), e.g. `simplifycfg<keep-loops>`.
    #[arg(long = "pass")]
    pub passes: Vec<String>,
    /// Lower with convergence-control tokens placed from the source.
    #[arg(long)]
    pub tokens: bool,
    /// The reference semantics.
    #[arg(long, value_enum, default_value_t = ReferenceArg::Source)]
    pub reference: ReferenceArg,
    /// Threads in the group when it is fixed; 0 for every group size
    /// `N >= 2`. On the command line this is `--threads N` of
    /// [`CheckCommand`] (0 is refused there).
    #[arg(skip = 0u32)]
    pub threads: u32,
    /// Largest iteration number of any loop execution in a scenario.
    #[arg(long, default_value_t = convcheck::config::DEFAULT_MAX_ITERS)]
    pub max_iters: u32,
    /// Instructions one thread may execute.
    #[arg(long, default_value_t = 100_000)]
    pub fuel: u64,
    /// Paths per thread index before the check is inconclusive.
    #[arg(long, default_value_t = 20_000)]
    pub max_paths: usize,
    /// Output format.
    #[arg(long, value_enum, default_value_t = ReportFormat::Text)]
    pub format: ReportFormat,
}

/// `convcheck check` on the command line: the check's arguments, the
/// group size and the budgets.
#[derive(clap::Args, Debug, Clone)]
pub struct CheckCommand {
    /// The check.
    #[command(flatten)]
    pub args: CheckArgs,
    /// Fix the group size `N` (at least 2). Without it, the verdict holds
    /// for every group size `N >= 2` and every pair of thread indices.
    #[arg(long)]
    pub threads: Option<u32>,
    /// Seconds the check may take before it ends as inconclusive (exit 3).
    #[arg(long, default_value_t = convcheck::engine::DEFAULT_TIMEOUT.as_secs())]
    pub timeout: u64,
    /// Pairs of paths the check may examine before it ends as
    /// inconclusive.
    #[arg(long, default_value_t = convcheck::engine::DEFAULT_MAX_PAIRS)]
    pub max_pairs: u64,
    /// Recorded events (about 100 bytes each) the check may hold before it
    /// ends as inconclusive: its memory budget.
    #[arg(long, default_value_t = convcheck::engine::DEFAULT_MAX_EVENTS)]
    pub max_events: usize,
    /// MiB the z3 solver of the symbolic product may hold before a stage
    /// ends as inconclusive (its memory budget; 1 to 4095).
    #[arg(long, default_value_t = convcheck_smt::product::Z3_MEMORY_MB)]
    pub max_solver_memory: u64,
    /// The engine: `auto` (kernel files: the symbolic z3 product, the
    /// explicit engine for a stage the product does not model; LLVM IR:
    /// the explicit engine with half the time, the product for what it
    /// leaves inconclusive), `explicit` enumeration alone, or `smt` (the
    /// product first, the explicit engine only for what it does not model).
    #[arg(long, value_enum, default_value_t = EngineArg::Auto)]
    pub engine: EngineArg,
    /// LLVM IR inputs, real `opt` pipelines and the clang front end.
    #[command(flatten)]
    pub llvm: LlvmFlags,
}

/// The LLVM flags of `check` (docs/src/llvm.md).
#[derive(clap::Args, Debug, Clone)]
pub struct LlvmFlags {
    /// Run `opt -passes=PIPELINE` on the input and blame the first pass
    /// whose output breaks the property.
    #[arg(long, value_name = "PIPELINE")]
    pub opt: Option<String>,
    /// The `opt` binary (default: `opt-19`, else `opt` on the PATH).
    #[arg(long, value_name = "PATH")]
    pub opt_bin: Option<String>,
    /// An argument for opt, after convcheck's own (repeat): a triple
    /// (`--opt-arg=-mtriple=amdgcn--`) or a cl::opt, as a test's RUN line
    /// gives them.
    #[arg(long = "opt-arg", value_name = "ARG", allow_hyphen_values = true)]
    pub opt_args: Vec<String>,
    #[command(flatten)]
    pub clang: ClangFlags,
    /// Seconds each run of opt or clang may take.
    #[arg(long, default_value_t = 60)]
    pub tool_timeout: u64,
    /// The launch a GPU would run (`--block-dim`, `--grid-dim`,
    /// `--warp-size`).
    #[command(flatten)]
    pub launch: LaunchFlags,
}

/// The launch a user states (`check` and `run` on LLVM IR and clang
/// sources; docs/src/gpu-code.md).
#[derive(clap::Args, Debug, Clone, Default)]
pub struct LaunchFlags {
    /// The launch's block shape `X[,Y[,Z]]` (CUDA's blockDim): the group
    /// is its `X·Y·Z` threads and the group-size builtins read it.
    #[arg(long, value_name = "X[,Y[,Z]]", value_parser = convcheck::llvm::launch::parse_dims)]
    pub block_dim: Option<[u32; 3]>,
    /// The launch's grid shape `X[,Y[,Z]]` (CUDA's gridDim): the group
    /// count builtins read it and the group index stays below it.
    #[arg(long, value_name = "X[,Y[,Z]]", value_parser = convcheck::llvm::launch::parse_dims)]
    pub grid_dim: Option<[u32; 3]>,
    /// The warp (wave) size: the lane index is `tid mod W` and `warpSize`
    /// is `W` (default: 32 on NVPTX, the AMDGPU function's wavefrontsize
    /// feature).
    #[arg(long, value_name = "W", value_parser = convcheck::llvm::launch::parse_warp)]
    pub warp_size: Option<u32>,
}

impl LaunchFlags {
    /// The stated facts, as the mapper takes them.
    pub fn facts(&self) -> convcheck_llvm::to_ir::GpuFacts {
        convcheck_llvm::to_ir::GpuFacts {
            block: self.block_dim,
            grid: self.grid_dim,
            warp: self.warp_size,
        }
    }
}

/// How clang compiles a source (`check`, `run` and `lower` with
/// `--frontend clang`).
#[derive(clap::Args, Debug, Clone)]
pub struct ClangFlags {
    /// Compile SRC (`.c`, `.cu`, `.hip`, `.cl`) to LLVM IR with clang
    /// first.
    #[arg(long, value_enum)]
    pub frontend: Option<FrontendArg>,
    /// The clang binary (default: `clang-19`, else `clang`).
    #[arg(long, value_name = "PATH")]
    pub clang_bin: Option<String>,
    /// An argument for clang, after convcheck's own (repeat): `-DN=4`,
    /// `-I dir`, `--cuda-gpu-arch=sm_80`, `-g0`.
    #[arg(long = "clang-arg", value_name = "ARG", allow_hyphen_values = true)]
    pub clang_args: Vec<String>,
    /// The GPU clang compiles for (default: nvptx64 for `.cu`, amdgcn for
    /// `.hip` and `.cl`, the host for `.c`).
    #[arg(long, value_enum)]
    pub target: Option<TargetArg>,
}

/// GPU targets of `--target`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum TargetArg {
    /// NVIDIA PTX, `nvptx64-nvidia-cuda` (`sm_70`).
    Nvptx64,
    /// AMD GCN, `amdgcn-amd-amdhsa` (`gfx900`).
    Amdgcn,
    /// SPIR-V, `spirv64`.
    Spirv64,
}

/// Front ends of `check --frontend`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum FrontendArg {
    /// clang-19 -O0 -Xclang -disable-O0-optnone -S -emit-llvm.
    Clang,
}

impl LlvmFlags {
    /// The library's LLVM options for these flags.
    pub fn options(&self) -> convcheck::llvm::LlvmOptions {
        convcheck::llvm::LlvmOptions {
            opt: self.opt.clone(),
            opt_bin: self.opt_bin.clone(),
            opt_args: self.opt_args.clone(),
            tool_timeout: self.tool_timeout,
            gpu: self.launch.facts(),
            ..self.clang.options()
        }
    }
}

impl ClangFlags {
    /// The library's LLVM options for these flags (no opt).
    pub fn options(&self) -> convcheck::llvm::LlvmOptions {
        use convcheck::llvm::GpuTarget;
        convcheck::llvm::LlvmOptions {
            frontend: self
                .frontend
                .map(|FrontendArg::Clang| convcheck::llvm::Frontend::Clang),
            clang_bin: self.clang_bin.clone(),
            clang_args: self.clang_args.clone(),
            target: self.target.map(|t| match t {
                TargetArg::Nvptx64 => GpuTarget::Nvptx64,
                TargetArg::Amdgcn => GpuTarget::Amdgcn,
                TargetArg::Spirv64 => GpuTarget::Spirv64,
            }),
            ..convcheck::llvm::LlvmOptions::default()
        }
    }
}

impl CheckCommand {
    /// The check's arguments with the group size, and its budget; a usage
    /// error for a group size or budget of 0.
    pub fn resolve(
        &self,
    ) -> Result<(convcheck::config::CheckJob, convcheck::engine::Budget), String> {
        let mut args = convcheck::config::CheckJob::from(&self.args);
        match self.threads {
            Some(0) | Some(1) => {
                return Err(format!(
                    "--threads {}: a group needs at least 2 threads to compare pairs (omit \
                     --threads to check every group size)",
                    self.threads.unwrap_or(0)
                ))
            }
            Some(n) => args.threads = n,
            None => args.threads = 0,
        }
        let llvm = self.llvm.options();
        if llvm.gpu != convcheck_llvm::to_ir::GpuFacts::default() {
            if !convcheck::llvm::applies(&args, &llvm) {
                return Err(
                    "--block-dim, --grid-dim and --warp-size state a GPU launch: they apply to \
                     LLVM IR, `--opt` and `--frontend clang` checks (a kernel-language check \
                     takes --threads)"
                        .into(),
                );
            }
            args.threads = convcheck::llvm::launch::group_size(args.threads, &llvm.gpu)?;
        }
        if self.timeout == 0 {
            return Err("--timeout 0: give a time budget of at least one second".into());
        }
        if self.max_pairs == 0 || self.max_events == 0 || args.max_paths == 0 {
            return Err("--max-pairs, --max-events and --max-paths must be at least 1".into());
        }
        if !(1..=4095).contains(&self.max_solver_memory) {
            return Err(format!(
                "--max-solver-memory {}: give 1 to 4095 MiB (z3 4.8.12 takes at most 4095)",
                self.max_solver_memory
            ));
        }
        let budget = convcheck::engine::Budget {
            start: std::time::Instant::now(),
            timeout: Some(std::time::Duration::from_secs(self.timeout)),
            max_pairs: self.max_pairs,
            max_events: self.max_events,
            solver_memory_mb: self.max_solver_memory,
        };
        Ok((args, budget))
    }
}

/// What `lower` prints.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Emit {
    /// The readable text form (LLVM-IR style).
    Cfg,
    /// Graphviz DOT.
    Dot,
    /// SVG, drawn in-process from the DOT form (layout-rs).
    Svg,
    /// The cycle hierarchy of each function.
    Cycles,
    /// LLVM IR that `opt -passes=verify` accepts and that reads back to
    /// the same CFG (docs/src/llvm.md).
    Ll,
}

/// Arguments of `convcheck lower`.
#[derive(clap::Args, Debug, Clone)]
pub struct LowerArgs {
    /// The kernel file.
    pub file: String,
    /// Only this function (default: all).
    #[arg(long)]
    pub function: Option<String>,
    /// Place convergence-control tokens from the source structure.
    #[arg(long)]
    pub tokens: bool,
    /// Place tokens on the lowered CFG by LLVM's "Inferring Tokens"
    /// procedure instead (reducible CFGs only).
    #[arg(long, conflicts_with = "tokens")]
    pub infer_tokens: bool,
    /// Check the static rules of convergence-control tokens and report
    /// every violation (exit code 1 if there is one).
    #[arg(long)]
    pub verify: bool,
    /// What to print.
    #[arg(long, value_enum, default_value_t = Emit::Cfg)]
    pub emit: Emit,
    /// Passes to run on the lowered module, in order (see `convcheck
    /// passes`); the output shows the module after each.
    #[arg(long = "pass")]
    pub passes: Vec<String>,
    /// A source compiled by clang instead (`--emit ll`: clang's output as
    /// `check --frontend clang` reads it).
    #[command(flatten)]
    pub clang: ClangFlags,
}

/// Arguments of `convcheck run`.
#[derive(clap::Args, Debug, Clone)]
pub struct RunArgs {
    /// The kernel file.
    pub file: String,
    /// The kernel entry (default: the only function no other calls).
    #[arg(long)]
    pub function: Option<String>,
    /// One thread's oracle values, `name=v0,v1,... name2=...`; one flag per
    /// thread in `tid` order. Without it, the default scenario (two
    /// threads; see `docs/src/language.md`).
    #[arg(long = "thread")]
    pub threads: Vec<String>,
    /// The thread indices of the rows, `2,5` (default `0,1,...`): the
    /// threads of a counterexample found with any group size.
    #[arg(long, value_delimiter = ',')]
    pub tids: Vec<u32>,
    /// The group size `N` (default: the number of threads, or one more than
    /// the largest of `--tids`).
    #[arg(long)]
    pub group: Option<u32>,
    /// Instructions one thread may execute before the run is inconclusive.
    #[arg(long, default_value_t = 100_000)]
    pub fuel: u64,
    /// Which semantics: the kernel's source-level convergence, or the
    /// CFG's (maximal convergence, or tokens with `--tokens`).
    #[arg(long, value_enum)]
    pub level: Option<Level>,
    /// At the CFG level, lower with convergence-control tokens placed from
    /// the source structure.
    #[arg(long)]
    pub tokens: bool,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Which engine computes converged-with: the convergence keys, or the
    /// relational model solved by z3 (DESIGN.md 2.5).
    #[arg(long, value_enum, default_value_t = Engine::Keys)]
    pub engine: Engine,
    /// Passes to run on the lowered module before running it (with
    /// `--level cfg`), in order.
    #[arg(long = "pass")]
    pub passes: Vec<String>,
    /// A source compiled by clang instead: the run is of clang's output.
    #[command(flatten)]
    pub clang: ClangFlags,
    /// The launch a check stated (LLVM IR and clang sources).
    #[command(flatten)]
    pub launch: LaunchFlags,
}

/// Engines that compute converged-with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Engine {
    /// Convergence keys (DESIGN.md 2.3).
    Keys,
    /// The relational model in z3 (DESIGN.md 2.5).
    Smt,
}

/// Semantic levels.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Level {
    /// Seed 000's source-level convergence.
    Source,
    /// The lowered CFG: LLVM's maximal convergence, or tokens.
    Cfg,
}
