//! How a counterexample is replayed (docs/src/cli.md, replay lines): the
//! `convcheck run` lines that print the reference table and the target
//! table of a violated stage, every word shell-quoted so that a line pastes
//! into a shell as it is.
//!
//! A kernel's check replays with `convcheck run` on the kernel file, at the
//! source level or the CFG level with the pipeline's passes. A check
//! through LLVM IR replays with `run` on `.ll` files; where a side is not a
//! file (clang's output, convcheck's lowering, a module after a pass of
//! `opt`), the commands that write it first come before, joined with `&&`.

use super::{FunctionReport, Stage};
use crate::config::Reference;
use crate::engine::Finding;
use crate::pass_cmd::shell_quote as q;
use std::fmt::Write;

/// How the counterexamples of a report are replayed.
#[derive(Clone, Debug, Default)]
pub enum Replay {
    /// A kernel's check: `convcheck run` on the kernel files.
    Kernel {
        /// The reference kernel file.
        file: String,
        /// The target kernel file of `check SRC TGT`.
        target_file: Option<String>,
    },
    /// A check through LLVM IR.
    Llvm(LlvmOrigin),
    /// No replay lines: the modules are not files (the explorer's checks,
    /// an external command's output).
    #[default]
    None,
}

/// How the modules of a check through LLVM IR came to be.
#[derive(Clone, Debug, Default)]
pub struct LlvmOrigin {
    /// The reference file as given.
    pub src: String,
    /// The target file, if one was given.
    pub tgt: Option<String>,
    /// Whether kernels were lowered with tokens.
    pub tokens: bool,
    /// `opt-19 -passes=P -S INPUT`, the pipeline's command.
    pub pipeline: Option<String>,
    /// The clang command of `--frontend clang` (`... -o -`).
    pub front_end: Option<String>,
    /// With `--frontend clang`: the convcheck flags that compile the
    /// source again as the check did (`--frontend clang`, `--target`,
    /// `--clang-arg`...).
    pub clang_flags: Vec<String>,
    /// The launch the check stated (`--block-dim 64,2,1`...), which every
    /// `run` line states again.
    pub launch: Vec<String>,
}

/// How the stage after a pass of `opt` is reproduced: the command with
/// `-opt-bisect-limit=N`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reproduce {
    /// The command without the output file.
    pub command: String,
    /// The pass's bisect number.
    pub bisect: u64,
}

/// The file `run` reads and the flags after `--function F`.
struct RunLine {
    file: String,
    flags: Vec<String>,
}

/// The `convcheck run` line that replays a finding on `how`'s program
/// (whose module is `module`): the group size and the finding's thread
/// indices (`--group`, `--tids`), and one `--thread` per thread with the
/// values it reads (only the oracles the module has).
fn replay_on(how: &RunLine, function: &str, module: &convcheck_ir::Module, f: &Finding) -> String {
    let mut s = format!("convcheck run {} --function {}", q(&how.file), q(function));
    for flag in &how.flags {
        let _ = write!(s, " {}", q(flag));
    }
    let tids: Vec<String> = f.tids.iter().map(u32::to_string).collect();
    let _ = write!(s, " --group {} --tids {}", f.group, tids.join(","));
    for v in &f.threads {
        let mut v = v.clone();
        v.0.retain(|name, _| module.oracle(name).is_some());
        let _ = write!(s, " --thread {}", q(&v.render()));
    }
    s
}

/// Whether `module` has convergence-control tokens.
fn has_tokens(module: &convcheck_ir::Module) -> bool {
    module
        .ops
        .iter()
        .any(|o| o.kind == convcheck_ir::ops::OpKind::Token)
}

/// Whether a file name is LLVM IR text.
fn is_ll(path: &str) -> bool {
    path.ends_with(".ll")
}

/// `command` writing `file` (through `to`: `-o` or `>`), followed by `&&`.
fn writes(command: &str, to: &str, file: &str) -> String {
    format!("{command} {to} {} && ", q(file))
}

/// The file a replay writes the module after an opt stage to: the input's
/// name with the stage (`plain_kernels_O0.opt-bisect-501.ll`), in the
/// current folder.
fn stage_file(input: &str, stage: &str) -> String {
    let name = std::path::Path::new(input)
        .file_name()
        .map_or_else(|| input.to_string(), |n| n.to_string_lossy().into_owned());
    let stem = name.strip_suffix(".ll").unwrap_or(&name);
    format!("{stem}.{stage}.ll")
}

impl Replay {
    /// The line that prints the reference table of `f`, if there is one.
    pub fn reference(&self, fr: &FunctionReport, stage: &Stage, f: &Finding) -> Option<String> {
        match self {
            Replay::Kernel { file, .. } => Some(kernel_reference(file, fr, stage, f)),
            Replay::Llvm(o) => o.reference(fr, stage, f).map(|l| o.launched(l)),
            Replay::None => None,
        }
    }

    /// The line that prints the target table of stage `i`'s finding `f`,
    /// or why there is none (`None`: nothing to say).
    pub fn target(
        &self,
        fr: &FunctionReport,
        i: usize,
        f: &Finding,
    ) -> Result<String, Option<String>> {
        match self {
            Replay::Kernel { file, target_file } => {
                kernel_target(target_file.as_deref().unwrap_or(file), fr, i, f).ok_or(None)
            }
            Replay::Llvm(o) => o.target(fr, i, f).map(|l| o.launched(l)),
            Replay::None => Err(None),
        }
    }
}

fn kernel_reference(file: &str, fr: &FunctionReport, stage: &Stage, f: &Finding) -> String {
    let mut flags = Vec::new();
    if fr.reference == Reference::Cfg {
        flags.push("--level".to_string());
        flags.push("cfg".to_string());
        if has_tokens(&stage.reference_module) {
            flags.push("--tokens".to_string());
        }
    }
    let how = RunLine {
        file: file.to_string(),
        flags,
    };
    replay_on(&how, &fr.function, &stage.reference_module, f)
}

/// The line that replays the target of stage `i`, when `run` can build it:
/// the target file at the source level, or the (target) kernel lowered and
/// run through the pipeline's passes up to that stage. A target that came
/// from elsewhere (an external command's IR) has none.
fn kernel_target(file: &str, fr: &FunctionReport, i: usize, f: &Finding) -> Option<String> {
    let stage = fr.stages.get(i)?;
    let name = stage.name.as_str();
    if name == "pass-cmd" {
        return None;
    }
    let mut flags = Vec::new();
    if name != "target file" {
        flags.push("--level".to_string());
        flags.push("cfg".to_string());
        if has_tokens(&stage.target_module) || name == "lower --tokens" {
            flags.push("--tokens".to_string());
        }
        for s in &fr.stages[..=i] {
            if !s.name.starts_with("lower") && s.name != "target file" {
                flags.push("--pass".to_string());
                flags.push(s.name.clone());
            }
        }
    }
    let how = RunLine {
        file: file.to_string(),
        flags,
    };
    Some(replay_on(&how, &fr.function, &stage.target_module, f))
}

impl LlvmOrigin {
    /// `line` with the stated launch's flags.
    fn launched(&self, mut line: String) -> String {
        for f in &self.launch {
            let _ = write!(line, " {}", q(f));
        }
        line
    }

    /// The commands that write `SRC.ll` when the source is compiled by
    /// clang: `convcheck lower SRC --frontend clang ... --emit ll`, which
    /// prints clang's output as the check read it (the prelude included,
    /// kernels under their source names).
    fn clang_output(&self) -> Result<Option<(String, String)>, String> {
        if self.front_end.is_none() {
            return Ok(None);
        }
        let file = format!("{}.ll", self.src);
        let mut lower = format!("convcheck lower {}", q(&self.src));
        for f in &self.clang_flags {
            let _ = write!(lower, " {}", q(f));
        }
        lower.push_str(" --emit ll");
        Ok(Some((writes(&lower, ">", &file), file)))
    }

    /// `convcheck run SRC --frontend clang ...`: a run of clang's output.
    fn clang_run(&self) -> RunLine {
        RunLine {
            file: self.src.clone(),
            flags: self.clang_flags.clone(),
        }
    }

    /// The commands that write `opt`'s input, when it is not a file of the
    /// user's, and its name.
    fn opt_input(&self) -> Result<(String, String), String> {
        if let Some(t) = &self.tgt {
            if is_ll(t) {
                return Ok((String::new(), t.clone()));
            }
            return Err(format!(
                "opt ran on {t} as convcheck lowered it, which is not a file: give the target \
                 as LLVM IR (`convcheck lower {} --emit ll`)",
                q(t)
            ));
        }
        if is_ll(&self.src) {
            return Ok((String::new(), self.src.clone()));
        }
        if let Some(c) = self.clang_output()? {
            return Ok(c);
        }
        let file = format!("{}.ll", self.src);
        let tokens = if self.tokens { " --tokens" } else { "" };
        let lower = format!("convcheck lower {}{tokens} --emit ll", q(&self.src));
        Ok((writes(&lower, ">", &file), file))
    }

    fn ll(file: &str) -> RunLine {
        RunLine {
            file: file.to_string(),
            flags: Vec::new(),
        }
    }

    fn kernel_cfg(&self, file: &str) -> RunLine {
        let mut flags = vec!["--level".to_string(), "cfg".to_string()];
        if self.tokens {
            flags.push("--tokens".into());
        }
        RunLine {
            file: file.to_string(),
            flags,
        }
    }

    fn reference(&self, fr: &FunctionReport, stage: &Stage, f: &Finding) -> Option<String> {
        if f.tids.is_empty() {
            // A static rule broken: no scenario to replay.
            return None;
        }
        let m = &stage.reference_module;
        if fr.reference == Reference::Source || !is_ll(&self.src) {
            return match self.clang_output() {
                Ok(Some(_)) if fr.reference == Reference::Cfg => {
                    Some(replay_on(&self.clang_run(), &fr.function, m, f))
                }
                Ok(_) => Some(kernel_reference(&self.src, fr, stage, f)),
                Err(_) => None,
            };
        }
        Some(replay_on(&Self::ll(&self.src), &fr.function, m, f))
    }

    fn target(&self, fr: &FunctionReport, i: usize, f: &Finding) -> Result<String, Option<String>> {
        let s = fr.stages.get(i).ok_or(None)?;
        if f.tids.is_empty() {
            return Err(Some(
                "the stage breaks a static rule of convergence control tokens, which LLVM's \
                 verifier rejects: there is no run to replay"
                    .into(),
            ));
        }
        let m = &s.target_module;
        let line =
            |prefix: &str, how: RunLine| format!("{prefix}{}", replay_on(&how, &fr.function, m, f));
        if self.tgt.as_deref() == Some(s.name.as_str()) {
            let how = if is_ll(&s.name) {
                Self::ll(&s.name)
            } else {
                self.kernel_cfg(&s.name)
            };
            return Ok(line("", how));
        }
        if s.name.starts_with("lower") {
            return Ok(line("", self.kernel_cfg(&self.src)));
        }
        if s.name == "clang -O0" {
            self.clang_output().map_err(Some)?.ok_or(None)?;
            return Ok(line("", self.clang_run()));
        }
        let (prefix, input) = self.opt_input().map_err(Some)?;
        let (cmd, file) = match (s.reproduce.clone(), &self.pipeline) {
            (Some(r), _) => (
                r.command,
                stage_file(&input, &format!("opt-bisect-{}", r.bisect)),
            ),
            (None, Some(p))
                if s.name.starts_with("the pipeline (") || s.name.starts_with("opt ") =>
            {
                (p.clone(), stage_file(&input, "opt"))
            }
            _ => {
                return Err(Some(format!(
                    "opt runs {} whatever -opt-bisect-limit says, so no command stops the \
                     pipeline just after it",
                    crate::llvm::dumps::pass_class(&s.name)
                )))
            }
        };
        let prefix = format!("{prefix}{}", writes(&cmd, "-o", &file));
        Ok(line(&prefix, Self::ll(&file)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stage_files_are_named_after_the_input_in_the_current_folder() {
        assert_eq!(
            stage_file("model/llvm/tests/data/plain_kernels_O0.ll", "opt-bisect-2"),
            "plain_kernels_O0.opt-bisect-2.ll"
        );
        assert_eq!(stage_file("k.c.ll", "opt"), "k.c.opt.ll");
        assert_eq!(writes("a b", "-o", "x y.ll"), "a b -o 'x y.ll' && ");
    }
}
