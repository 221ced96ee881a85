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
//!   `__syncthreads_*` barriers, `__ballot_sync`, `__shfl_sync` and
//!   `__activemask` (`__syncthreads` is a clang builtin already), and
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

/// What convcheck includes before a `.cu` file: the CUDA attributes and
/// the warp-level builtins as the CUDA headers would declare them, mapped
/// to clang's NVPTX builtins.
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
static __device__ __forceinline__ unsigned __ballot_sync(unsigned m, int p) { return __nvvm_vote_ballot_sync(m, p); }
static __device__ __forceinline__ int __shfl_sync(unsigned m, int v, int l, int w = 32) { return __nvvm_shfl_sync_idx_i32(m, v, l, ((32 - w) << 8) | 0x1f); }
static __device__ __forceinline__ unsigned __activemask(void) { return __nvvm_activemask(); }
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
