//! What a check request states about clang and the launch, as `convcheck
//! check` takes them on the command line: `clang_args` (`--clang-arg`,
//! repeatable), `target` (`--target nvptx64|amdgcn|spirv64`), and the
//! launch, `block_dim`, `grid_dim` (`X[,Y[,Z]]`) and `warp_size`
//! (`--block-dim`, `--grid-dim`, `--warp-size`; docs/src/gpu-code.md "The
//! launch", docs/src/explorer.md).
//!
//! The clang flags apply to sources clang compiles, the launch to checks
//! that read LLVM IR (clang's output, a `.ll` through `opt` or against a
//! second file); a field the check would not use is a 422 naming it, never
//! ignored. A page may pass only clang arguments that define or undefine
//! macros, pick a language standard or GPU architecture, or set debug
//! information or warnings ([`PREFIXES`], [`EXACT`]): nothing that names a file, a
//! plugin or an output, as the server's clang runs on the server's files.

use super::{invalid, limit, ApiError, CheckRequest, MAX_CHECK_THREADS};
use crate::llvm::frontend::GpuTarget;
use crate::llvm::launch::{group_size, parse_dims, parse_warp};
use convcheck_llvm::to_ir::GpuFacts;

/// The clang arguments a request may give by their start (with more
/// after it: `-DN=4`, `--cuda-gpu-arch=sm_80`).
pub const PREFIXES: [&str; 7] = [
    "-D",
    "-U",
    "-std=",
    "-cl-std=",
    "--cuda-gpu-arch=",
    "--offload-arch=",
    "-Wno-",
];

/// The clang arguments a request may give as they are.
pub const EXACT: [&str; 3] = ["-g", "-g0", "-w"];

/// The most clang arguments a request may give.
pub const MAX_CLANG_ARGS: usize = 32;

/// What a request states, read and checked.
#[derive(Clone, Debug, Default)]
pub struct Stated {
    /// Arguments for clang, after convcheck's own.
    pub clang_args: Vec<String>,
    /// The GPU clang compiles for.
    pub target: Option<GpuTarget>,
    /// The launch.
    pub gpu: GpuFacts,
}

/// Whether `dir` may follow `-I`: a relative folder under the folder the
/// server was started in (clang runs there), with no `..`, no leading
/// `/` or `~`, and only letters, digits and `_-.+/`.
pub fn include_dir(dir: &str) -> bool {
    !dir.is_empty()
        && !dir.starts_with(['/', '~', '-'])
        && dir.split('/').all(|c| c != "..")
        && dir
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "_-.+/".contains(c))
}

/// The first of `args` a page may not pass to the server's clang: each
/// [`allowed`], or `-I DIR` / `-IDIR` with an [`include_dir`].
pub fn first_refused(args: &[String]) -> Option<&str> {
    let mut i = 0;
    while i < args.len() {
        let a = args[i].as_str();
        if a == "-I" {
            match args.get(i + 1) {
                Some(d) if include_dir(d) => i += 2,
                Some(d) => return Some(d),
                None => return Some(a),
            }
            continue;
        }
        let ok = match a.strip_prefix("-I") {
            Some(d) => include_dir(d),
            None => allowed(a),
        };
        if !ok {
            return Some(a);
        }
        i += 1;
    }
    None
}

/// Whether a page may pass `arg` to the server's clang.
pub fn allowed(arg: &str) -> bool {
    let safe = |s: &str| {
        s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "_=.,+-()\"' ".contains(c))
    };
    EXACT.contains(&arg)
        || (PREFIXES
            .iter()
            .any(|p| arg.len() > p.len() && arg.starts_with(p))
            && safe(arg))
}

/// The request's clang flags and launch, checked; `clang` whether the
/// source is one clang compiles, `launch` whether the check reads the
/// launch (it goes through [`super::files::check`]).
pub fn read(r: &CheckRequest, clang: bool, launch: bool) -> Result<Stated, ApiError> {
    let mut out = clang_flags(
        &r.clang_args,
        r.target.as_deref(),
        if clang {
            super::Lang::Clang(crate::llvm::frontend::Language::C)
        } else {
            super::Lang::Llvm
        },
    )?;
    let stated = [
        ("block_dim", r.block_dim.is_some()),
        ("grid_dim", r.grid_dim.is_some()),
        ("warp_size", r.warp_size.is_some()),
    ];
    if let Some((field, _)) = stated.iter().find(|(_, s)| *s) {
        if !launch {
            return Err(invalid(
                *field,
                "the launch applies to checks of LLVM IR and of sources clang compiles through \
                 opt, a second file, or clang alone (as `check --block-dim`), not to the kernel \
                 language or convcheck's own passes",
            ));
        }
    }
    let dims = |field: &str, v: &Option<String>| -> Result<Option<[u32; 3]>, ApiError> {
        v.as_deref()
            .map(|s| parse_dims(s).map_err(|e| invalid(field, e)))
            .transpose()
    };
    out.gpu = GpuFacts {
        block: dims("block_dim", &r.block_dim)?,
        grid: dims("grid_dim", &r.grid_dim)?,
        warp: r
            .warp_size
            .map(|w| parse_warp(&w.to_string()).map_err(|e| invalid("warp_size", e)))
            .transpose()?,
    };
    Ok(out)
}

/// The clang flags of a request of any endpoint (`clang_args`, `target`),
/// checked; a 422 naming the field where `lang` is not a clang source.
pub fn clang_flags(
    args: &[String],
    target: Option<&str>,
    lang: super::Lang,
) -> Result<Stated, ApiError> {
    let mut out = Stated::default();
    let clang = matches!(lang, super::Lang::Clang(_));
    let not_clang = "clang's flags apply to sources clang compiles (\"language\": \"cuda\", \
                     \"hip\", \"opencl\", \"clang-c\" or \"clang\")";
    if !args.is_empty() {
        if !clang {
            return Err(invalid("clang_args", not_clang));
        }
        if args.len() > MAX_CLANG_ARGS {
            return Err(limit(
                "clang_args",
                format!("{} arguments", args.len()),
                MAX_CLANG_ARGS,
            ));
        }
        // The command line's refusals first, with its words
        // ([`crate::llvm::frontend::refused_arg`]), then the page's
        // narrower set.
        if let Some(e) = args
            .iter()
            .find_map(|a| crate::llvm::frontend::refused_arg(a))
        {
            return Err(invalid("clang_args", e));
        }
        if let Some(a) = first_refused(args) {
            return Err(invalid(
                "clang_args",
                format!(
                    "`{a}`: the explorer passes clang only arguments that start with one of {} \
                     or are one of {}, or `-I DIR` with DIR a relative folder under the \
                     server's (no `..`); any other is the command line's (`convcheck check \
                     --clang-arg`)",
                    PREFIXES.join(" "),
                    EXACT.join(" ")
                ),
            ));
        }
        out.clang_args = args.to_vec();
    }
    if let Some(t) = target {
        if !clang {
            return Err(invalid("target", not_clang));
        }
        out.target = Some(GpuTarget::from_name(t).ok_or_else(|| {
            invalid(
                "target",
                format!("unknown target `{t}`: expected nvptx64, amdgcn or spirv64"),
            )
        })?);
    }
    Ok(out)
}

/// The group size of a check of `threads` (0: every size) under the
/// stated launch: the block's threads when one is stated, at most the
/// explorer's [`MAX_CHECK_THREADS`].
pub fn threads(threads: u32, gpu: &GpuFacts) -> Result<u32, ApiError> {
    let n = group_size(threads, gpu).map_err(|e| invalid("block_dim", e))?;
    if gpu.block.is_some() && n > MAX_CHECK_THREADS {
        return Err(limit(
            "block_dim",
            format!("{n} threads"),
            MAX_CHECK_THREADS,
        ));
    }
    Ok(n)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_macro_standard_arch_debug_and_warning_flags_pass() {
        for a in [
            "-DN=4",
            "-DTILE=16",
            "-UNDEBUG",
            "-std=c++17",
            "-cl-std=CL2.0",
            "--cuda-gpu-arch=sm_80",
            "--offload-arch=gfx90a",
            "-g",
            "-g0",
            "-w",
            "-Wno-unused",
        ] {
            assert!(allowed(a), "{a}");
        }
        for a in [
            "-I/etc",
            "-o/tmp/x",
            "-fplugin=/x.so",
            "-Xclang",
            "-load",
            "-D",
            "-include/etc/passwd",
            "-DX=$(id)",
            "--cuda-path=/x",
            "-gsplit-dwarf",
            "@args.txt",
        ] {
            assert!(!allowed(a), "{a}");
        }
        let v = |a: &[&str]| a.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        for ok in [
            v(&["-Iinclude"]),
            v(&["-I", "include", "-DN=4"]),
            v(&["-Iexamples/gpu"]),
            v(&["-I./inc"]),
        ] {
            assert_eq!(first_refused(&ok), None, "{ok:?}");
        }
        for (bad, first) in [
            (v(&["-I/etc"]), "-I/etc"),
            (v(&["-I", "/etc"]), "/etc"),
            (v(&["-I../secret"]), "-I../secret"),
            (v(&["-I", "a/../../b"]), "a/../../b"),
            (v(&["-I~/x"]), "-I~/x"),
            (v(&["-DN=1", "-I"]), "-I"),
            (v(&["-I", "-fplugin=x"]), "-fplugin=x"),
            (v(&["-I$(id)"]), "-I$(id)"),
        ] {
            assert_eq!(first_refused(&bad), Some(first), "{bad:?}");
        }
    }
}
