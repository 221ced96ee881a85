//! `GET /api/initial` and `GET /api/passes`: the kernel the page starts
//! with, the embedded examples (a CUDA one when the server has a clang),
//! the server's tools and limits, and the pass registry.

use super::*;

/// The LLVM IR example: clang-19 -O0 of `examples/llvm/plain-kernels.c`,
/// seed 000's kernels in plain C (model/llvm/tests/data/README.md).
pub const LLVM_PLAIN_KERNELS: &str =
    include_str!("../../../../model/llvm/tests/data/plain_kernels_O0.ll");
/// The LLVM IR example with convergence control tokens.
pub const LLVM_FIND_TID_TOKENS: &str = include_str!("../../../../examples/llvm/find-tid-tokens.ll");

/// The CUDA example (`examples/gpu/find-tid.cu`, LLVM #180621), offered
/// when the server has a clang.
pub const CUDA_FIND_TID: &str = include_str!("../../../../examples/gpu/find-tid.cu");

/// The language the page starts in for the command's `FILE`: LLVM IR for
/// a `.ll`; CUDA, HIP or OpenCL C for a `.cu`, `.hip` or `.cl` when the
/// server has a clang to compile it; else the kernel language.
fn initial_language(file: &str, tools: Option<&crate::explore::Tools>) -> &'static str {
    use crate::llvm::frontend::Language;
    if file.ends_with(".ll") {
        return "llvm";
    }
    if tools.is_none_or(|t| t.clang_bin.is_none()) {
        return "kernel";
    }
    match Language::of(file) {
        Language::Cuda => "cuda",
        Language::Hip => "hip",
        Language::OpenCl => "opencl",
        Language::C => "kernel",
    }
}

/// `GET /api/initial`: the kernel the page starts with, the embedded
/// examples, and the limits.
pub fn initial(
    file: &str,
    source: &str,
    budget_secs: u64,
    tools: Option<&crate::explore::Tools>,
) -> Value {
    let mut v = json!({
        "tools": tools.map(|t| json!({
            "opt": t.opt_bin.clone().unwrap_or_else(|| "opt-19".into()),
            "opt_args": t.opt_args,
            "clang": t.clang_bin,
        })),
        "language": initial_language(file, tools),
        "file": file,
        "source": source,
        "examples": [
            {"file": "ambiguity-source.c", "language": "kernel", "source": crate::demo::AMBIGUITY_SOURCE},
            {"file": "divergent-exit-source.c", "language": "kernel", "source": crate::demo::DIVERGENT_EXIT_SOURCE},
            {"file": "plain_kernels_O0.ll", "language": "llvm", "source": LLVM_PLAIN_KERNELS},
            {"file": "find-tid-tokens.ll", "language": "llvm", "source": LLVM_FIND_TID_TOKENS},
        ],
        "limits": {
            "max_body": crate::explore::MAX_BODY,
            "budget_secs": budget_secs,
            "max_run_threads": MAX_RUN_THREADS,
            "max_group": MAX_GROUP,
            "max_check_threads": MAX_CHECK_THREADS,
            "max_iters": MAX_ITERS,
            "max_fuel": MAX_FUEL,
            "max_paths": MAX_PATHS,
            "max_passes": MAX_PASSES,
        },
    });
    // With a clang to compile it, the find-tid loop in CUDA.
    if tools.is_some_and(|t| t.clang_bin.is_some()) {
        if let Some(list) = v["examples"].as_array_mut() {
            list.push(json!({"file": "find-tid.cu", "language": "cuda", "source": CUDA_FIND_TID}));
        }
    }
    v
}

/// `GET /api/passes`: the registry, as `convcheck passes` lists it.
pub fn passes() -> Value {
    json!(convcheck_transforms::registry()
        .iter()
        .map(
            |p| json!({"name": p.name, "safe": p.safe, "summary": p.summary, "options": p.options})
        )
        .collect::<Vec<_>>())
}
