//! The command line's arguments as the library's: each clap struct of
//! `cli.rs` converts into the library type of its command, field by field,
//! so the library never sees clap.

use crate::cli::{
    AmbiguityArgs, BenchArgs, CheckArgs, CorpusArgs, Emit, Engine, EngineArg, ExchangeArg, Format,
    FuzzArgs, Level, LowerArgs, ReferenceArg, ReportFormat, RunArgs, UniformityArgs,
};
use convcheck::config;

impl From<ReferenceArg> for config::Reference {
    fn from(r: ReferenceArg) -> config::Reference {
        match r {
            ReferenceArg::Source => config::Reference::Source,
            ReferenceArg::Cfg => config::Reference::Cfg,
        }
    }
}

impl From<EngineArg> for config::Engine {
    fn from(e: EngineArg) -> config::Engine {
        match e {
            EngineArg::Auto => config::Engine::Auto,
            EngineArg::Explicit => config::Engine::Explicit,
            EngineArg::Smt => config::Engine::Smt,
        }
    }
}

impl From<ExchangeArg> for convcheck::pass_cmd::Exchange {
    fn from(e: ExchangeArg) -> convcheck::pass_cmd::Exchange {
        use convcheck::pass_cmd::Exchange;
        match e {
            ExchangeArg::Kernel => Exchange::Kernel,
            ExchangeArg::Ir => Exchange::Ir,
            ExchangeArg::Llvm => Exchange::Llvm,
        }
    }
}

impl From<Format> for config::Format {
    fn from(f: Format) -> config::Format {
        match f {
            Format::Text => config::Format::Text,
            Format::Json => config::Format::Json,
        }
    }
}

impl From<ReportFormat> for config::Format {
    fn from(f: ReportFormat) -> config::Format {
        match f {
            ReportFormat::Text => config::Format::Text,
            ReportFormat::Json => config::Format::Json,
            ReportFormat::Sarif => config::Format::Sarif,
        }
    }
}

impl From<&CheckArgs> for config::CheckJob {
    fn from(a: &CheckArgs) -> config::CheckJob {
        config::CheckJob {
            src: a.src.clone(),
            tgt: a.tgt.clone(),
            function: a.function.clone(),
            passes: a.passes.clone(),
            tokens: a.tokens,
            reference: a.reference.into(),
            threads: a.threads,
            max_iters: a.max_iters,
            fuel: a.fuel,
            max_paths: a.max_paths,
            format: a.format.into(),
        }
    }
}

impl From<&RunArgs> for convcheck::run::RunArgs {
    fn from(a: &RunArgs) -> convcheck::run::RunArgs {
        use convcheck::run::{Level as L, Relation};
        convcheck::run::RunArgs {
            file: a.file.clone(),
            function: a.function.clone(),
            threads: a.threads.clone(),
            tids: a.tids.clone(),
            group: a.group,
            fuel: a.fuel,
            level: a.level.map(|l| match l {
                Level::Source => L::Source,
                Level::Cfg => L::Cfg,
            }),
            tokens: a.tokens,
            format: a.format.into(),
            engine: match a.engine {
                Engine::Keys => Relation::Keys,
                Engine::Smt => Relation::Smt,
            },
            passes: a.passes.clone(),
            llvm: convcheck::llvm::LlvmOptions {
                gpu: a.launch.facts(),
                ..a.clang.options()
            },
        }
    }
}

impl From<&LowerArgs> for convcheck::lower::LowerArgs {
    fn from(a: &LowerArgs) -> convcheck::lower::LowerArgs {
        use convcheck::lower::Emit as E;
        convcheck::lower::LowerArgs {
            file: a.file.clone(),
            function: a.function.clone(),
            tokens: a.tokens,
            infer_tokens: a.infer_tokens,
            verify: a.verify,
            emit: match a.emit {
                Emit::Cfg => E::Cfg,
                Emit::Dot => E::Dot,
                Emit::Svg => E::Svg,
                Emit::Cycles => E::Cycles,
                Emit::Ll => E::Ll,
            },
            passes: a.passes.clone(),
            llvm: a.clang.options(),
        }
    }
}

impl From<&FuzzArgs> for convcheck::fuzz::FuzzArgs {
    fn from(a: &FuzzArgs) -> convcheck::fuzz::FuzzArgs {
        convcheck::fuzz::FuzzArgs {
            pass: a.pass.clone(),
            pass_cmd: a.pass_cmd.clone(),
            exchange: a.exchange.into(),
            cmd_timeout: a.cmd_timeout,
            opt: a.opt.clone(),
            opt_bin: a.opt_bin.clone(),
            opt_args: a.opt_args.clone(),
            clang_bin: a.clang_bin.clone(),
            tool_timeout: a.tool_timeout,
            input: a.input.clone(),
            gen: a.gen.clone(),
            gen_config: a.gen_config.clone(),
            seed: a.seed,
            count: a.count,
            time: a.time,
            shard: a.shard.clone(),
            out: a.out.clone(),
            max_iters: a.max_iters,
            max_paths: a.max_paths,
            stop_at_first: a.stop_at_first,
            format: a.format.into(),
        }
    }
}

impl From<&CorpusArgs> for convcheck::corpus::CorpusArgs {
    fn from(a: &CorpusArgs) -> convcheck::corpus::CorpusArgs {
        convcheck::corpus::CorpusArgs {
            file: a.file.clone(),
            passes: a.passes.clone(),
            tokens: a.tokens,
            reference: a.reference.into(),
            threads: a.threads,
            max_iters: a.max_iters,
            format: a.format.into(),
            jobs: a.jobs,
            opt_bin: a.opt_bin.clone(),
            clang_bin: a.clang_bin.clone(),
            tool_timeout: a.tool_timeout,
        }
    }
}

impl From<&BenchArgs> for convcheck::bench::BenchArgs {
    fn from(a: &BenchArgs) -> convcheck::bench::BenchArgs {
        convcheck::bench::BenchArgs {
            examples: a.examples.clone(),
            pass: a.pass.clone(),
            max_iters: a.max_iters,
            engine: a.engine.into(),
        }
    }
}

impl From<&AmbiguityArgs> for convcheck::ambiguity::AmbiguityArgs {
    fn from(a: &AmbiguityArgs) -> convcheck::ambiguity::AmbiguityArgs {
        convcheck::ambiguity::AmbiguityArgs {
            files: a.files.clone(),
            passes: a.passes.clone(),
            max_iters: a.max_iters,
        }
    }
}

impl From<&UniformityArgs> for convcheck::uniformity::UniformityConfig {
    fn from(a: &UniformityArgs) -> convcheck::uniformity::UniformityConfig {
        convcheck::uniformity::UniformityConfig {
            function: a.function.clone(),
            triple: a.mtriple.clone(),
            opt_bin: a.opt_bin.clone(),
            max_iters: a.max_iters,
            group: a.threads,
            wave: a.wave,
            timeout: std::time::Duration::from_secs(a.timeout),
            ..Default::default()
        }
    }
}

/// `fuzz --uniformity`'s arguments as the campaign's (its `--shard` read
/// here: a malformed one is a usage error).
impl TryFrom<&FuzzArgs> for convcheck::uniformity::fuzz::CampaignConfig {
    type Error = convcheck::Error;

    fn try_from(a: &FuzzArgs) -> Result<Self, convcheck::Error> {
        let shard = match a.shard.as_deref() {
            None => None,
            Some(s) => Some(convcheck::uniformity::fuzz::parse_shard(s)?),
        };
        let d = convcheck::uniformity::fuzz::CampaignConfig::default();
        Ok(convcheck::uniformity::fuzz::CampaignConfig {
            seed: a.seed,
            from: a.from.unwrap_or(0),
            count: a
                .count
                .unwrap_or(if a.time.is_some() { u64::MAX } else { d.count }),
            time: a.time.map(std::time::Duration::from_secs),
            shard,
            check: convcheck::uniformity::UniformityConfig {
                opt_bin: a.opt_bin.clone(),
                max_iters: a.max_iters.max(1),
                ..d.check.clone()
            },
            ..d
        })
    }
}
