//! `--frontend clang`: a C, CUDA, HIP or OpenCL C file compiled to LLVM IR
//! by `clang-19` at `-O0` without `optnone` (so that `opt` may still
//! transform it), with value names kept (`-fno-discard-value-names`: a
//! parameter `tid` stays `%tid`, so its oracle is named as in the source)
//! and line tables (`-gline-tables-only`, so that reports point at source
//! lines, [`super::debug`]).
//!
//! The language is the file's extension ([`Language::of`]); the target is
//! the language's usual GPU unless `--target` names another
//! ([`arguments`] has the table):
//!
//! - `.c` (and any other extension): plain C for the host, the way LLVM's
//!   own tests write convergent code (`extern void op(void)
//!   __attribute__((convergent));`), or for a GPU with `--target`.
//! - `.cu`: CUDA device code for `nvptx64` `sm_70`, without a CUDA
//!   installation (`-nocudainc -nocudalib`); convcheck's prelude
//!   ([`CUDA_PRELUDE`], `prelude/cuda.h`) declares what the CUDA headers
//!   would. With `--target amdgcn` it is compiled as HIP.
//! - `.hip`: HIP device code for `amdgcn` `gfx900` without ROCm
//!   (`-nogpuinc -nogpulib`), with convcheck's HIP prelude
//!   ([`HIP_PRELUDE`]).
//! - `.cl`: OpenCL C 2.0 with clang's default header (its builtins arrive
//!   as mangled calls such as `_Z12get_local_idj`, which the mapping
//!   recognises by demangled name), for `amdgcn` `gfx900`, `nvptx64` or
//!   `spirv64`.
//!
//! The user's `--clang-arg`s come after convcheck's own arguments, so
//! they can add (`-DN=4`, `-I dir`, `-std=c++17`) and override (`-g0`,
//! `-O1`); a GPU architecture of their own (`--cuda-gpu-arch=sm_80`,
//! `--offload-arch=gfx1100`, `-mcpu=...`) replaces convcheck's.

use super::names::source_names;
use super::tools;
use std::time::Duration;

/// The front ends `--frontend` accepts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Frontend {
    /// clang-19 (or `--clang-bin`).
    Clang,
}

/// The source languages of the front end, by file extension.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Language {
    /// C (any extension the others do not claim).
    C,
    /// CUDA (`.cu`).
    Cuda,
    /// HIP (`.hip`).
    Hip,
    /// OpenCL C (`.cl`).
    OpenCl,
}

impl Language {
    /// The language of the file `path`, by its extension.
    pub fn of(path: &str) -> Language {
        match std::path::Path::new(path)
            .extension()
            .and_then(|e| e.to_str())
        {
            Some("cu") => Language::Cuda,
            Some("hip") => Language::Hip,
            Some("cl") => Language::OpenCl,
            _ => Language::C,
        }
    }

    /// The language's name in messages.
    pub fn name(self) -> &'static str {
        match self {
            Language::C => "C",
            Language::Cuda => "CUDA",
            Language::Hip => "HIP",
            Language::OpenCl => "OpenCL C",
        }
    }

    /// Whether a file of this language is GPU code that the kernel
    /// language may fail to read (`.cu`, `.hip`, `.cl`): a parse error on
    /// one suggests `--frontend clang`.
    pub fn is_gpu_source(self) -> bool {
        self != Language::C
    }
}

/// The GPU targets of `--target`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GpuTarget {
    /// NVIDIA PTX (`nvptx64-nvidia-cuda`).
    Nvptx64,
    /// AMD GCN (`amdgcn-amd-amdhsa`, `gfx900`).
    Amdgcn,
    /// SPIR-V (`spirv64`), through clang's SPIR-V target.
    Spirv64,
}

impl GpuTarget {
    /// Every target, in the order `--target` lists them.
    pub const ALL: [GpuTarget; 3] = [GpuTarget::Nvptx64, GpuTarget::Amdgcn, GpuTarget::Spirv64];

    /// The target called `name` (`nvptx64`, `amdgcn`, `spirv64`).
    pub fn from_name(name: &str) -> Option<GpuTarget> {
        GpuTarget::ALL.into_iter().find(|t| t.name() == name)
    }

    /// The name `--target` takes.
    pub fn name(self) -> &'static str {
        match self {
            GpuTarget::Nvptx64 => "nvptx64",
            GpuTarget::Amdgcn => "amdgcn",
            GpuTarget::Spirv64 => "spirv64",
        }
    }

    /// The target triple.
    pub fn triple(self) -> &'static str {
        match self {
            GpuTarget::Nvptx64 => "nvptx64-nvidia-cuda",
            GpuTarget::Amdgcn => "amdgcn-amd-amdhsa",
            GpuTarget::Spirv64 => "spirv64",
        }
    }

    /// The width of a warp or wave (`warpSize`) of the architecture
    /// convcheck compiles for by default: 32 on NVIDIA, 64 on `gfx900`;
    /// SPIR-V leaves it to the device (`None`).
    pub fn wave_size(self) -> Option<u32> {
        match self {
            GpuTarget::Nvptx64 => Some(32),
            GpuTarget::Amdgcn => Some(64),
            GpuTarget::Spirv64 => None,
        }
    }
}

/// How clang compiles a source: the command line's `--clang-bin`,
/// `--target` and `--clang-arg`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ClangOptions {
    /// The clang binary (default: `clang-19`, else `clang` on the PATH).
    pub bin: Option<String>,
    /// The GPU target (default: the language's, [`Language`]).
    pub target: Option<GpuTarget>,
    /// Arguments after convcheck's own, before the file.
    pub args: Vec<String>,
}

/// What convcheck includes before a `.cu` file (`prelude/cuda.h`): the
/// CUDA attributes and built-in variables, barriers, fences, the
/// warp-level operations as external convergent functions under their
/// CUDA names (so that the kernel language, reading the same file, names
/// the same operations; LLVM treats a convergent call and a convergent
/// intrinsic alike, an unknown callee only makes it more careful about
/// memory), integer intrinsics on clang's builtins and atomics as LLVM
/// atomics.
pub const CUDA_PRELUDE: &str = include_str!("prelude/cuda.h");

/// What convcheck includes before a `.hip` file (`prelude/hip.h`): as
/// [`CUDA_PRELUDE`], on AMDGPU's builtins and HIP's names.
pub const HIP_PRELUDE: &str = include_str!("prelude/hip.h");

/// The prelude of a language, with the name its file gets.
fn prelude(language: Language, target: Option<GpuTarget>) -> Option<(&'static str, &'static str)> {
    match (language, target) {
        (Language::Cuda, Some(GpuTarget::Amdgcn)) | (Language::Hip, _) => {
            Some(("convcheck_hip_prelude.h", HIP_PRELUDE))
        }
        (Language::Cuda, _) => Some(("convcheck_cuda_prelude.h", CUDA_PRELUDE)),
        _ => None,
    }
}

/// The folder, beside the prelude, of stand-ins for the runtime headers a
/// kernel includes first thing (`#include <hip/hip_runtime.h>`,
/// `<cuda_runtime.h>`): clang runs with `-nogpuinc`/`-nocudainc`, so the
/// real ones are absent, and the prelude already declares what convcheck
/// models of them. It is searched last (`-idirafter`), after the user's
/// own `-I` folders.
const STAND_INS: &str = "convcheck_include";

/// The runtime headers the stand-in folder holds, per prelude: each is
/// empty but for a comment that says so.
fn stand_ins(language: Language, target: Option<GpuTarget>) -> &'static [&'static str] {
    match prelude(language, target) {
        Some(("convcheck_hip_prelude.h", _)) => &[
            "hip/hip_runtime.h",
            "hip/hip_runtime_api.h",
            "cuda_runtime.h",
            "cuda.h",
        ],
        Some(_) => &[
            "cuda_runtime.h",
            "cuda_runtime_api.h",
            "cuda.h",
            "device_launch_parameters.h",
        ],
        None => &[],
    }
}

/// Writes the stand-ins of [`stand_ins`] into `dir`/[`STAND_INS`].
fn write_stand_ins(
    dir: &std::path::Path,
    language: Language,
    target: Option<GpuTarget>,
) -> Result<(), String> {
    for h in stand_ins(language, target) {
        let p = dir.join(STAND_INS).join(h);
        if let Some(parent) = p.parent() {
            std::fs::create_dir_all(parent).map_err(|e| format!("{}: {e}", parent.display()))?;
        }
        let text = format!(
            "// convcheck's stand-in for <{h}>: the prelude it includes first declares\n\
             // the built-ins, warp operations and atomics convcheck models.\n"
        );
        std::fs::write(&p, text).map_err(|e| format!("{}: {e}", p.display()))?;
    }
    Ok(())
}

/// Whether the user's arguments choose a GPU architecture of their own.
fn chooses_arch(user: &[String]) -> bool {
    user.iter().any(|a| {
        a.starts_with("--cuda-gpu-arch")
            || a.starts_with("--offload-arch")
            || a.starts_with("-mcpu")
            || a.starts_with("-march")
    })
}

fn words(ws: &[&str]) -> Vec<String> {
    ws.iter().map(|w| w.to_string()).collect()
}

/// The language and target flags, or why clang cannot do the combination.
fn target_flags(
    language: Language,
    target: Option<GpuTarget>,
    own_arch: bool,
) -> Result<Vec<String>, String> {
    let arch = |flag: &str| if own_arch { Vec::new() } else { words(&[flag]) };
    let amdgcn = |mut v: Vec<String>| {
        v.extend(words(&["-target", "amdgcn-amd-amdhsa"]));
        v.extend(arch("-mcpu=gfx900"));
        v.push("-nogpulib".into());
        v
    };
    Ok(match (language, target) {
        (Language::C, None) => Vec::new(),
        (Language::C, Some(GpuTarget::Amdgcn)) => amdgcn(Vec::new()),
        (Language::C, Some(t)) => words(&["-target", t.triple()]),
        (Language::Cuda, None | Some(GpuTarget::Nvptx64)) => {
            let mut v = words(&[
                "-x",
                "cuda",
                "--cuda-device-only",
                "-nocudainc",
                "-nocudalib",
            ]);
            v.extend(arch("--cuda-gpu-arch=sm_70"));
            // Without a CUDA installation clang assumes an old PTX version,
            // which lacks the *_sync warp builtins.
            v.extend(words(&["-Xclang", "-target-feature", "-Xclang", "+ptx70"]));
            v
        }
        (Language::Cuda, Some(GpuTarget::Amdgcn))
        | (Language::Hip, None | Some(GpuTarget::Amdgcn)) => {
            let mut v = words(&["-x", "hip", "--cuda-device-only", "-nogpuinc", "-nogpulib"]);
            v.extend(arch("--offload-arch=gfx900"));
            v
        }
        (Language::Cuda | Language::Hip, Some(t)) => {
            return Err(format!(
                "--target {}: clang compiles {} device code for {} only",
                t.name(),
                language.name(),
                if language == Language::Cuda {
                    "nvptx64 (or amdgcn, as HIP)"
                } else {
                    "amdgcn"
                }
            ))
        }
        (Language::OpenCl, t) => {
            let mut v = words(&[
                "-x",
                "cl",
                "-cl-std=CL2.0",
                "-Xclang",
                "-finclude-default-header",
            ]);
            match t {
                None | Some(GpuTarget::Amdgcn) => v = amdgcn(v),
                Some(t) => v.extend(words(&["-target", t.triple()])),
            }
            v
        }
    })
}

/// The user's clang arguments convcheck refuses (`--clang-arg`, and the
/// explorer's `clang_args`): those that change what clang writes or
/// where (`-o`, `--output`, `-E`, `-c`, `-fsyntax-only`, `-###`, `-M*`
/// dependency files, `-emit-*` other than `-emit-llvm`, `-save-temps`,
/// `--precompile`, `--analyze`), since convcheck reads clang's LLVM IR
/// text from the output it names itself. `None`: passed to clang.
pub fn refused_arg(arg: &str) -> Option<String> {
    let output = arg.starts_with("-o") && !arg.starts_with("-obj")
        || arg.starts_with("--output")
        || arg.starts_with("-M")
        || arg.starts_with("-save-temps")
        || (arg.starts_with("-emit-") && arg != "-emit-llvm");
    let mode = [
        "-E",
        "-c",
        "-fsyntax-only",
        "-###",
        "--precompile",
        "--analyze",
    ];
    (output || mode.contains(&arg)).then(|| {
        format!(
            "clang argument `{arg}`: convcheck names clang's output and reads it as LLVM IR \
             text (`-S -emit-llvm -o FILE`), so it refuses arguments that change what clang \
             writes or where (-o, --output, -E, -c, -fsyntax-only, -###, -M..., -emit-..., \
             -save-temps, --precompile, --analyze)"
        )
    })
}

/// The clang arguments (without the output) that compile `path` as
/// `language` for `target`, including `prelude` (a file name) if given,
/// then the user's arguments; `-gline-tables-only` when `debug`.
pub fn arguments(
    path: &str,
    target: Option<GpuTarget>,
    prelude_file: Option<&str>,
    user: &[String],
    debug: bool,
) -> Result<Vec<String>, String> {
    if let Some(e) = user.iter().find_map(|a| refused_arg(a)) {
        return Err(e);
    }
    let language = Language::of(path);
    let mut args = target_flags(language, target, chooses_arch(user))?;
    if let Some(p) = prelude_file {
        args.push("-include".into());
        args.push(p.to_string());
        if !stand_ins(language, target).is_empty() {
            args.push("-idirafter".into());
            let folder = std::path::Path::new(p).with_file_name(STAND_INS);
            args.push(folder.display().to_string());
        }
    }
    args.extend(words(&[
        "-O0",
        "-Xclang",
        "-disable-O0-optnone",
        "-fno-discard-value-names",
    ]));
    if debug {
        args.push("-gline-tables-only".into());
    }
    args.extend(words(&["-S", "-emit-llvm"]));
    args.extend(user.iter().cloned());
    args.push(path.to_string());
    Ok(args)
}

/// The clang arguments for `path` with the language's default target, no
/// debug information and no arguments of the user's (the fuzzer's).
pub fn clang_args(path: &str, prelude: Option<&str>) -> Vec<String> {
    arguments(path, None, prelude, &[], false).unwrap_or_default()
}

/// A source compiled by clang.
#[derive(Clone, Debug)]
pub struct Compiled {
    /// clang's output, with mangled kernels under their source names
    /// ([`source_names`]).
    pub text: String,
    /// The clang command (the prelude named by its file name, the output
    /// on standard output), for notes.
    pub command: String,
    /// The source's language.
    pub language: Language,
    /// The target it was compiled for (`None`: the host).
    pub target: Option<GpuTarget>,
    /// The functions renamed to their source names: (mangled, source).
    pub renames: Vec<(String, String)>,
}

/// The target a language compiles for by default, or the one chosen.
fn effective_target(language: Language, chosen: Option<GpuTarget>) -> Option<GpuTarget> {
    chosen.or(match language {
        Language::C => None,
        Language::Cuda => Some(GpuTarget::Nvptx64),
        Language::Hip | Language::OpenCl => Some(GpuTarget::Amdgcn),
    })
}

/// Runs clang on `path` as `o` says, with line tables when `debug`:
/// clang's output as it printed it and the command as shown in notes.
fn run_clang(
    path: &str,
    o: &ClangOptions,
    timeout: Duration,
    debug: bool,
) -> Result<(String, String), String> {
    if !std::path::Path::new(path).is_file() {
        return Err(format!("{path}: cannot read: no such file"));
    }
    let language = Language::of(path);
    let bin = match &o.bin {
        Some(b) => b.clone(),
        None => tools::find(&["clang-19", "clang"], "for --frontend clang")?,
    };
    let dir = tempfile::tempdir().map_err(|e| format!("temporary folder: {e}"))?;
    let (written, shown_prelude) = match prelude(language, o.target) {
        Some((name, text)) => {
            let p = dir.path().join(name);
            std::fs::write(&p, text).map_err(|e| format!("{}: {e}", p.display()))?;
            write_stand_ins(dir.path(), language, o.target)?;
            (Some(p.display().to_string()), Some(name))
        }
        None => (None, None),
    };
    let out = dir.path().join("out.ll");
    let mut args = arguments(path, o.target, written.as_deref(), &o.args, debug)?;
    args.push("-o".into());
    args.push(out.display().to_string());
    let run = tools::run(&bin, &args, &out, timeout)?;
    let shown_args = arguments(path, o.target, shown_prelude, &o.args, debug)?;
    let command = std::iter::once(bin.as_str())
        .chain(shown_args.iter().map(String::as_str))
        .map(tools::shell_word)
        .collect::<Vec<_>>()
        .join(" ");
    Ok((run.stdout, format!("{command} -o -")))
}

/// Compiles `path` with clang as `o` says, with line tables; CUDA and HIP
/// kernels are renamed to their source names. Errors are clang's messages
/// with the command.
pub fn compile_with(path: &str, o: &ClangOptions, timeout: Duration) -> Result<Compiled, String> {
    let language = Language::of(path);
    let (raw, command) = run_clang(path, o, timeout, true)?;
    let defined = defined_names(&raw);
    let (text, renames) = if matches!(language, Language::Cuda | Language::Hip) {
        source_names(&raw, &defined)
    } else {
        (raw, Vec::new())
    };
    Ok(Compiled {
        text,
        command,
        language,
        target: effective_target(language, o.target),
        renames,
    })
}

/// The names of the functions `text` defines (`define ... @name(`).
fn defined_names(text: &str) -> Vec<String> {
    text.lines()
        .filter(|l| l.starts_with("define "))
        .filter_map(|l| {
            let at = l.find('@')?;
            let rest = &l[at + 1..];
            let end = rest.find('(')?;
            Some(rest[..end].trim_matches('"').to_string())
        })
        .collect()
}

/// Compiles `path` with the language's default target, no arguments of
/// the user's and no debug information (the fuzzer's, where line tables
/// would only slow opt down); returns clang's output as it printed it and
/// the command.
pub fn compile(
    fe: Frontend,
    path: &str,
    clang_bin: Option<&str>,
    timeout: Duration,
) -> Result<(String, String), String> {
    let Frontend::Clang = fe;
    let o = ClangOptions {
        bin: clang_bin.map(str::to_string),
        ..ClangOptions::default()
    };
    run_clang(path, &o, timeout, false)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn languages_and_targets_give_the_flags_clang_needs() {
        let hip = arguments("k.hip", None, None, &[], true).unwrap();
        assert!(hip.windows(2).any(|w| w == ["-x", "hip"]), "{hip:?}");
        assert!(hip.contains(&"-nogpuinc".to_string()));
        assert!(hip.contains(&"--offload-arch=gfx900".to_string()));
        assert!(hip.contains(&"-gline-tables-only".to_string()));
        let cu = arguments(
            "k.cu",
            None,
            Some("p.h"),
            &["--cuda-gpu-arch=sm_80".into()],
            false,
        )
        .unwrap();
        assert!(!cu.contains(&"--cuda-gpu-arch=sm_70".to_string()), "{cu:?}");
        assert_eq!(cu.last().map(String::as_str), Some("k.cu"));
        assert_eq!(cu[cu.len() - 2], "--cuda-gpu-arch=sm_80");
        let cl = arguments("k.cl", Some(GpuTarget::Spirv64), None, &[], false).unwrap();
        assert!(cl.windows(2).any(|w| w == ["-target", "spirv64"]), "{cl:?}");
        let c = arguments("k.c", Some(GpuTarget::Amdgcn), None, &[], false).unwrap();
        assert!(c.contains(&"-mcpu=gfx900".to_string()), "{c:?}");
        assert!(arguments("k.hip", Some(GpuTarget::Nvptx64), None, &[], false).is_err());
        assert!(arguments("k.cu", Some(GpuTarget::Spirv64), None, &[], false).is_err());
        let as_hip = arguments("k.cu", Some(GpuTarget::Amdgcn), None, &[], false).unwrap();
        assert!(as_hip.windows(2).any(|w| w == ["-x", "hip"]), "{as_hip:?}");
        assert_eq!(
            prelude(Language::Cuda, Some(GpuTarget::Amdgcn)).map(|p| p.0),
            Some("convcheck_hip_prelude.h")
        );
        // The runtime headers' stand-ins are searched after the user's
        // folders, beside the prelude.
        let i = cu
            .iter()
            .position(|a| a == "-idirafter")
            .expect("-idirafter");
        assert_eq!(cu[i + 1], "convcheck_include", "{cu:?}");
        assert!(stand_ins(Language::Hip, None).contains(&"hip/hip_runtime.h"));
        let cl = arguments("k.cl", None, None, &[], false).unwrap();
        assert!(!cl.iter().any(|a| a == "-idirafter"), "{cl:?}");
    }

    #[test]
    fn arguments_that_change_clangs_output_are_refused() {
        for a in [
            "-o",
            "-o/tmp/x.ll",
            "--output=x",
            "-E",
            "-c",
            "-fsyntax-only",
            "-###",
            "-MD",
            "-MF",
            "-emit-obj",
            "-save-temps=obj",
            "--precompile",
            "--analyze",
        ] {
            let e = arguments("k.cu", None, None, &[a.to_string()], false).unwrap_err();
            assert!(e.contains(&format!("`{a}`")), "{a}: {e}");
        }
        for a in [
            "-DTILE=16",
            "-I",
            "include",
            "-O0",
            "-emit-llvm",
            "-objc-isystem",
        ] {
            assert_eq!(refused_arg(a), None, "{a}");
        }
    }

    #[test]
    fn defined_names_are_read_from_define_lines() {
        let text = "declare void @f()\ndefine dso_local void @_Z1kPi(ptr %o) #0 {\n}\ndefine void @\"q x\"() {\n}\n";
        assert_eq!(defined_names(text), ["_Z1kPi", "q x"]);
    }
}
