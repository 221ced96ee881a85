//! `--frontend clang`: a C, CUDA or OpenCL C file compiled to LLVM IR by
//! `clang-19` at `-O0` without `optnone` (so that `opt` may still
//! transform it), with value names kept (`-fno-discard-value-names`: a
//! parameter `tid` stays `%tid`, so its oracle is named as in the source).
//!
//! - `.c` (and any other extension): plain C for the host, the way LLVM's
//!   own tests write convergent code (`extern void op(void)
//!   __attribute__((convergent));`).
//! - `.cu`: CUDA device code for `sm_70`, without a CUDA installation
//!   (`-nocudainc -nocudalib`); convcheck's small prelude ([`CUDA_PRELUDE`])
//!   declares `__device__`, `__global__`, `__shared__`, the
//!   `__syncthreads_*` barriers (`__syncthreads` is a clang builtin
//!   already), the warp-level `__syncwarp`, `__ballot_sync`, `__shfl_sync`
//!   and `__activemask` as external convergent functions, and
//!   clang's own `__clang_cuda_builtin_vars.h` gives `threadIdx`.
//! - `.cl`: OpenCL C 2.0 for `amdgcn-amd-amdhsa` / `gfx900`, with clang's
//!   default header (its builtins arrive as mangled calls such as
//!   `_Z12get_local_idj`, which the mapping recognises by demangled name).

use super::tools;
use std::time::Duration;

/// The front ends `--frontend` accepts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Frontend {
    /// clang-19 (or `--clang-bin`).
    Clang,
}

/// What convcheck includes before a `.cu` file: the CUDA attributes, the
/// `__syncthreads_*` barriers on clang's NVPTX builtins, and the
/// warp-level operations (`__ballot_sync`, `__shfl_sync`, `__activemask`,
/// `__syncwarp`) declared as external convergent functions: the CUDA
/// headers define them on NVVM intrinsics, which convcheck would label by
/// the intrinsic's name, while the kernel language, reading the same file,
/// labels them by their CUDA names. Declared, each stays one convergent
/// call under its own name through `opt` (LLVM treats a convergent call and
/// a convergent intrinsic alike; an unknown callee only makes it more
/// careful about memory).
pub const CUDA_PRELUDE: &str = r#"// convcheck's CUDA prelude (no CUDA installation needed).
#define __device__ __attribute__((device))
#define __global__ __attribute__((global))
#define __shared__ __attribute__((shared))
#define __host__ __attribute__((host))
#define __forceinline__ __inline__ __attribute__((always_inline))
#include "__clang_cuda_builtin_vars.h"
static __device__ __forceinline__ int __syncthreads_count(int p) { return __nvvm_bar0_popc(p); }
static __device__ __forceinline__ int __syncthreads_and(int p) { return __nvvm_bar0_and(p); }
static __device__ __forceinline__ int __syncthreads_or(int p) { return __nvvm_bar0_or(p); }
// The warp-level operations stay calls to functions of their CUDA names
// (convergent, external), as the kernel language reads them, so that the
// source-level reading and clang's output name the same operations.
extern "C" __device__ __attribute__((convergent, nothrow)) unsigned __ballot_sync(unsigned m, int p);
extern "C" __device__ __attribute__((convergent, nothrow)) int __shfl_sync(unsigned m, int v, int l, int w = 32);
extern "C" __device__ __attribute__((convergent, nothrow)) unsigned __activemask(void);
extern "C" __device__ __attribute__((convergent, nothrow)) void __syncwarp(unsigned m = 0xffffffff);
"#;

/// The clang arguments for `path` (without the output).
pub fn clang_args(path: &str, prelude: Option<&str>) -> Vec<String> {
    let mut args: Vec<String> = Vec::new();
    if path.ends_with(".cu") {
        args.extend(
            [
                "-x",
                "cuda",
                "--cuda-device-only",
                "-nocudainc",
                "-nocudalib",
                "--cuda-gpu-arch=sm_70",
                // Without a CUDA installation clang assumes an old PTX
                // version, which lacks the *_sync warp builtins.
                "-Xclang",
                "-target-feature",
                "-Xclang",
                "+ptx70",
            ]
            .map(String::from),
        );
        if let Some(p) = prelude {
            args.push("-include".into());
            args.push(p.to_string());
        }
    } else if path.ends_with(".cl") {
        args.extend(
            [
                "-x",
                "cl",
                "-cl-std=CL2.0",
                "-Xclang",
                "-finclude-default-header",
                "-target",
                "amdgcn-amd-amdhsa",
                "-mcpu=gfx900",
                "-nogpulib",
            ]
            .map(String::from),
        );
    }
    args.extend(
        [
            "-O0",
            "-Xclang",
            "-disable-O0-optnone",
            "-fno-discard-value-names",
            "-S",
            "-emit-llvm",
        ]
        .map(String::from),
    );
    args.push(path.to_string());
    args
}

/// Compiles `path`; returns the LLVM IR text and the command (with the
/// output written to standard output, `-o -`, for replaying by hand).
pub fn compile(
    fe: Frontend,
    path: &str,
    clang_bin: Option<&str>,
    timeout: Duration,
) -> Result<(String, String), String> {
    let Frontend::Clang = fe;
    if !std::path::Path::new(path).is_file() {
        return Err(format!("{path}: cannot read: no such file"));
    }
    let bin = match clang_bin {
        Some(b) => b.to_string(),
        None => tools::find(&["clang-19", "clang"], "for --frontend clang")?,
    };
    let dir = tempfile::tempdir().map_err(|e| format!("temporary folder: {e}"))?;
    let prelude = dir.path().join("convcheck_cuda_prelude.h");
    std::fs::write(&prelude, CUDA_PRELUDE).map_err(|e| format!("{}: {e}", prelude.display()))?;
    let out = dir.path().join("out.ll");
    let mut args = clang_args(path, Some(&prelude.display().to_string()));
    args.push("-o".into());
    args.push(out.display().to_string());
    let run = tools::run(&bin, &args, &out, timeout)?;
    let shown_args = clang_args(path, Some("convcheck_cuda_prelude.h"));
    let shown = std::iter::once(bin.as_str())
        .chain(shown_args.iter().map(String::as_str))
        .map(tools::shell_word)
        .collect::<Vec<_>>()
        .join(" ");
    let _ = run.command;
    Ok((run.stdout, format!("{shown} -o -")))
}

/// The source name of an Itanium-mangled function name (`_Z8find_tidPi`
/// is `find_tid`), if it is one of a plain identifier.
fn mangled_base(name: &str) -> Option<&str> {
    let rest = name.strip_prefix("_Z")?;
    let digits = rest.chars().take_while(char::is_ascii_digit).count();
    let len: usize = rest.get(..digits)?.parse().ok()?;
    rest.get(digits..digits.checked_add(len)?)
}

/// Whether `c` may continue an LLVM identifier after `@`.
fn ident_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '-' | '$' | '.' | '_')
}

/// The identifiers written after `@` in `text`.
fn global_names(text: &str) -> Vec<&str> {
    text.split('@')
        .skip(1)
        .map(|r| &r[..r.find(|c: char| !ident_char(c)).unwrap_or(r.len())])
        .collect()
}

/// clang compiles CUDA as C++, so a kernel `find_tid` is defined as
/// `@_Z8find_tidPi`, while the kernel language, reading the same file,
/// names it `find_tid` (and so does `--function`). This gives each defined
/// function its source name when it is mangled, no other defined function
/// mangles to the same name (overloads keep theirs) and nothing in the
/// module is called that already. Returns the new text and the renamings
/// (mangled, source), in module order.
pub fn source_names(text: &str, defined: &[String]) -> (String, Vec<(String, String)>) {
    let used = global_names(text);
    let renames: Vec<(String, String)> = defined
        .iter()
        .filter_map(|d| {
            let base = mangled_base(d)?;
            let plain = !base.is_empty()
                && base.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
                && !base.starts_with(|c: char| c.is_ascii_digit());
            let unique = defined
                .iter()
                .filter(|o| mangled_base(o) == Some(base))
                .count()
                == 1;
            (plain && unique && !used.contains(&base)).then(|| (d.clone(), base.to_string()))
        })
        .collect();
    if renames.is_empty() {
        return (text.to_string(), renames);
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find('@') {
        out.push_str(&rest[..=at]);
        rest = &rest[at + 1..];
        let end = rest.find(|c: char| !ident_char(c)).unwrap_or(rest.len());
        let ident = &rest[..end];
        match renames.iter().find(|(m, _)| m == ident) {
            Some((_, s)) => out.push_str(s),
            None => out.push_str(ident),
        }
        rest = &rest[end..];
    }
    out.push_str(rest);
    (out, renames)
}

/// How one reading takes the calls of one callee: as convergent
/// operations (instances in the trace) or as values only.
fn call_readings(m: &convcheck_ir::Module) -> Vec<(String, bool)> {
    use convcheck_ir::{CallKind, OpKind};
    let mut out: Vec<(String, bool)> = Vec::new();
    for op in &m.ops {
        let OpKind::Call(kind) = op.kind else {
            continue;
        };
        let (oracle, event) = match kind {
            CallKind::Op(o) => (o, true),
            CallKind::Plain(o) | CallKind::Oracle(o) => (o, false),
            _ => continue,
        };
        if let Some(info) = m.oracles.get(oracle) {
            let entry = (info.name.clone(), event);
            if !out.contains(&entry) {
                out.push(entry);
            }
        }
    }
    out
}

/// The external functions whose calls the kernel language and clang's
/// output read differently: the kernel language takes a call outside a
/// condition as a convergent operation and one inside a condition as an
/// oracle, whatever the declaration says, while clang's output has a
/// convergent operation exactly where the callee is declared `convergent`
/// (`extern int lane(void);` called as `int me = lane();` is an operation
/// to the one and a value to the other). Each is described in words; an
/// empty list means the two readings see the same operations.
pub fn call_disagreements(
    kernel: &convcheck_ir::Module,
    clang: &convcheck_ir::Module,
) -> Vec<String> {
    let theirs = call_readings(clang);
    let mut out = Vec::new();
    for (name, event) in call_readings(kernel) {
        let Some((_, other)) = theirs.iter().find(|(n, e)| *n == name && *e != event) else {
            continue;
        };
        let what = |e: bool| {
            if e {
                "a convergent operation"
            } else {
                "a value (no convergent operation)"
            }
        };
        let line = format!(
            "the kernel language reads a call of `{name}` as {} and clang's output as {}",
            what(event),
            what(*other)
        );
        if !out.contains(&line) {
            out.push(line);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mangled_kernels_get_their_source_names() {
        assert_eq!(mangled_base("_Z8find_tidPi"), Some("find_tid"));
        assert_eq!(mangled_base("_ZL10__syncwarpj"), None);
        assert_eq!(mangled_base("find_tid"), None);
        assert_eq!(mangled_base("_Z99x"), None);
        let text = "define void @_Z8find_tidPi(ptr %out) {\n  call void @_Z8find_tidPi_x()\n  ret void\n}\n";
        let defined = vec!["_Z8find_tidPi".to_string()];
        let (t, r) = source_names(text, &defined);
        assert_eq!(r, [("_Z8find_tidPi".to_string(), "find_tid".to_string())]);
        assert!(t.starts_with("define void @find_tid(ptr %out)"), "{t}");
        // A longer identifier with the same prefix is left alone.
        assert!(t.contains("@_Z8find_tidPi_x()"), "{t}");
        // Overloads keep their names, and so does a function whose source
        // name the module uses already.
        let defined = vec!["_Z1fi".to_string(), "_Z1fv".to_string()];
        assert!(source_names("", &defined).1.is_empty());
        let text = "declare void @g()\ndefine void @_Z1gv() {\n  ret void\n}\n";
        assert!(source_names(text, &["_Z1gv".to_string()]).1.is_empty());
    }
}
