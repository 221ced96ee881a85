//! LLVM's own answer: `opt -passes='print<uniformity>' -disable-output`
//! run on the module, and its printout read back into [`Claims`].
//!
//! The printer's format (LLVM's `GenericUniformityAnalysisImpl::print`,
//! the same in LLVM 19 and 22 apart from the spelling of one header):
//!
//! ```text
//! UniformityInfo for function 'f':
//! ALL VALUES UNIFORM                        (then nothing else), or
//! DIVERGENT ARGUMENTS:                      (only when there are some)
//!   DIVERGENT: i32 %x
//! CYCLES ASSSUMED DIVERGENT:                (ASSUMED from LLVM 20 on)
//!   depth=1: entries(h b) ...
//! CYCLES WITH DIVERGENT EXIT:
//!   depth=1: entries(h) ...
//!
//! BLOCK entry
//! DEFINITIONS
//!   DIVERGENT:   %tid = call i32 @llvm.amdgcn.workitem.id.x()
//!                %a = add i32 %n, 1
//! TERMINATORS
//!   DIVERGENT:   br i1 %c, label %t, label %e
//! END BLOCK
//! ```
//!
//! Every non-terminator instruction is listed under DEFINITIONS (stores
//! and calls without a value too, which this reader ignores); a block's
//! terminators are divergent or not together. Arguments that are not
//! listed as divergent are uniform: that is the target's word on its
//! inputs (kernel arguments and `inreg` parameters on AMDGPU).

use crate::llvm::tools;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::time::Duration;

/// What LLVM says of one function.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FunctionClaims {
    /// The function's name, without `@`.
    pub name: String,
    /// `ALL VALUES UNIFORM`: nothing below is listed.
    pub all_uniform: bool,
    /// The arguments LLVM takes as divergent, by name without `%`.
    pub divergent_args: BTreeSet<String>,
    /// Every value listed, by name without `%`: whether LLVM calls it
    /// divergent.
    pub values: BTreeMap<String, bool>,
    /// Every block, by name without `%`: whether its terminator is
    /// divergent.
    pub terminators: BTreeMap<String, bool>,
    /// The cycle lines of the header (`CYCLES WITH DIVERGENT EXIT: ...`),
    /// for reports.
    pub cycles: Vec<String>,
}

impl FunctionClaims {
    /// Whether LLVM calls value `name` divergent (`None`: not listed).
    pub fn value_divergent(&self, name: &str) -> Option<bool> {
        if self.all_uniform {
            return Some(false);
        }
        self.values.get(name).copied()
    }

    /// Whether LLVM calls argument `name` divergent.
    pub fn arg_divergent(&self, name: &str) -> bool {
        !self.all_uniform && self.divergent_args.contains(name)
    }

    /// Whether LLVM calls the terminator of block `name` divergent
    /// (`None`: not listed).
    pub fn terminator_divergent(&self, name: &str) -> Option<bool> {
        if self.all_uniform {
            return Some(false);
        }
        self.terminators.get(name).copied()
    }
}

/// An `opt` run and what it printed.
#[derive(Clone, Debug)]
pub struct Printout {
    /// The command, for reports and for replaying by hand.
    pub command: String,
    /// The claims, one per function printed, in order.
    pub functions: Vec<FunctionClaims>,
}

/// Runs `opt -mtriple=TRIPLE -passes='print<uniformity>' -disable-output`
/// on `text`, shown as `shown` in the command.
pub fn run(
    bin: &str,
    triple: &str,
    text: &str,
    shown: &str,
    timeout: Duration,
) -> Result<Printout, String> {
    let dir = tempfile::tempdir().map_err(|e| format!("temporary folder: {e}"))?;
    let input = dir.path().join("input.ll");
    let out = dir.path().join("unused.txt");
    std::fs::write(&input, text).map_err(|e| format!("{}: {e}", input.display()))?;
    // opt writes nothing with -disable-output; the runner reads the file.
    std::fs::write(&out, "").map_err(|e| format!("{}: {e}", out.display()))?;
    let args = opt_args(triple, &input);
    let temp = input.display().to_string();
    let r = tools::run(bin, &args, &out, timeout).map_err(|e| e.replace(&temp, shown))?;
    let command = format!(
        "{} {} {}",
        tools::shell_word(bin),
        args[..args.len() - 1]
            .iter()
            .map(|a| tools::shell_word(a))
            .collect::<Vec<_>>()
            .join(" "),
        tools::shell_word(shown)
    );
    let functions = parse(&r.stderr).map_err(|e| format!("{command}: {e}"))?;
    Ok(Printout { command, functions })
}

fn opt_args(triple: &str, input: &Path) -> Vec<String> {
    vec![
        format!("-mtriple={triple}"),
        "-passes=print<uniformity>".into(),
        "-disable-output".into(),
        input.display().to_string(),
    ]
}

/// The name an instruction or argument text defines: `%name = ...` (or
/// the last word `%name` of an argument), without `%` and quotes.
fn defined_name(text: &str) -> Option<String> {
    let t = text.trim_start();
    let rest = t.strip_prefix('%')?;
    let name = if let Some(q) = rest.strip_prefix('"') {
        q.split('"').next()?.to_string()
    } else {
        rest.split(|c: char| c.is_whitespace() || c == '=')
            .next()?
            .to_string()
    };
    let after = t
        .get(1 + name.len()..)?
        .trim_start_matches('"')
        .trim_start();
    after.starts_with('=').then_some(name)
}

fn strip_name(w: &str) -> String {
    w.trim_start_matches('%').trim_matches('"').to_string()
}

/// Reads a printout (see the module documentation).
pub fn parse(text: &str) -> Result<Vec<FunctionClaims>, String> {
    #[derive(PartialEq)]
    enum Section {
        Header,
        Args,
        Cycles,
        Defs,
        Terms,
    }
    let mut out: Vec<FunctionClaims> = Vec::new();
    let mut section = Section::Header;
    let mut block: Option<String> = None;
    for (n, line) in text.lines().enumerate() {
        if let Some(rest) = line.strip_prefix("UniformityInfo for function '") {
            let name = rest.strip_suffix("':").unwrap_or(rest).to_string();
            out.push(FunctionClaims {
                name,
                ..FunctionClaims::default()
            });
            section = Section::Header;
            block = None;
            continue;
        }
        let Some(f) = out.last_mut() else {
            // opt's own messages before the first function (warnings).
            continue;
        };
        let trimmed = line.trim();
        match trimmed {
            "ALL VALUES UNIFORM" => {
                f.all_uniform = true;
                continue;
            }
            "DIVERGENT ARGUMENTS:" => {
                section = Section::Args;
                continue;
            }
            "DEFINITIONS" => {
                section = Section::Defs;
                continue;
            }
            "TERMINATORS" => {
                section = Section::Terms;
                continue;
            }
            "END BLOCK" => {
                block = None;
                section = Section::Header;
                continue;
            }
            "" => continue,
            _ => {}
        }
        if trimmed.starts_with("CYCLES ") {
            section = Section::Cycles;
            f.cycles.push(trimmed.to_string());
            continue;
        }
        if let Some(b) = line.strip_prefix("BLOCK ") {
            let b = strip_name(b.trim());
            f.terminators.entry(b.clone()).or_insert(false);
            block = Some(b);
            section = Section::Header;
            continue;
        }
        let (divergent, inst) = match trimmed.strip_prefix("DIVERGENT:") {
            Some(rest) => (true, rest.trim()),
            None => (false, trimmed),
        };
        match section {
            Section::Args if divergent => {
                if let Some(w) = inst.split_whitespace().last() {
                    f.divergent_args.insert(strip_name(w));
                }
            }
            Section::Cycles => f.cycles.push(trimmed.to_string()),
            Section::Defs => {
                if let Some(name) = defined_name(inst) {
                    f.values.insert(name, divergent);
                }
            }
            Section::Terms => {
                let Some(b) = &block else {
                    return Err(format!(
                        "line {}: a terminator outside a block: {line}",
                        n + 1
                    ));
                };
                if divergent {
                    f.terminators.insert(b.clone(), true);
                }
            }
            _ => {
                return Err(format!(
                    "line {}: not a line of LLVM's uniformity printout: {line}",
                    n + 1
                ))
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_both_spellings_and_every_section() {
        let text = "UniformityInfo for function 'f':\nDIVERGENT ARGUMENTS:\n  DIVERGENT: i32 %x\n\
                    CYCLES ASSSUMED DIVERGENT:\n  depth=1: entries(2 1)\nCYCLES WITH DIVERGENT EXIT:\n  depth=1: entries(h) l\n\n\
                    BLOCK entry\nDEFINITIONS\n  DIVERGENT:   %tid = call i32 @t()\n               %a = add i32 %n, 1\n\
                    \x20 DIVERGENT:   store i32 %a, ptr %p\nTERMINATORS\n  DIVERGENT:   br i1 %c, label %1, label %2\nEND BLOCK\n\n\
                    BLOCK 1\nDEFINITIONS\n               %\"q v\" = add i32 1, 2\nTERMINATORS\n               ret void\nEND BLOCK\n\
                    UniformityInfo for function 'g':\nALL VALUES UNIFORM\n";
        let fs = parse(text).expect("parses");
        assert_eq!(fs.len(), 2);
        let f = &fs[0];
        assert!(f.arg_divergent("x"));
        assert!(!f.arg_divergent("n"));
        assert_eq!(f.value_divergent("tid"), Some(true));
        assert_eq!(f.value_divergent("a"), Some(false));
        assert_eq!(f.value_divergent("q v"), Some(false));
        assert_eq!(f.value_divergent("p"), None);
        assert_eq!(f.terminator_divergent("entry"), Some(true));
        assert_eq!(f.terminator_divergent("1"), Some(false));
        assert_eq!(f.cycles.len(), 4);
        assert!(fs[1].all_uniform);
        assert_eq!(fs[1].value_divergent("anything"), Some(false));
    }

    #[test]
    fn a_stray_line_is_an_error_not_a_claim() {
        let text = "UniformityInfo for function 'f':\nBLOCK b\nnonsense here\n";
        assert!(parse(text).is_err());
    }
}
