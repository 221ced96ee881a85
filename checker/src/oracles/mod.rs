//! Oracles of the checker for fuzzing (STYLE.md: fuzz targets only call
//! library functions): [`safe_passes`] checks that no pass the registry
//! calls safe is flagged on a kernel. The `safe_passes` cargo-fuzz target
//! calls it, and `tests/oracles.rs` runs it on seeded kernels. [`cross`]
//! is the cross-check of the explicit and the symbolic engine.

pub mod cross;

use crate::engine::{check_pass_against_cfg, Limits, Outcome};
use convcheck_ir::exec::Bounds;
use convcheck_lang::sema::Kernel;
use convcheck_lang::syntax::ast::File;
use convcheck_transforms::{lookup, registry};

/// Panics, naming the pass and printing the kernel, if a safe pass is
/// found to break a property of `file` (with the CFG as reference, one
/// iteration per loop, two threads). Inputs that do not analyse are
/// ignored; inconclusive checks pass.
pub fn safe_passes(file: &File) {
    let Ok(kernel) = Kernel::new("fuzz.c", file.clone()) else {
        return;
    };
    let Ok(entry) = kernel.entry(None) else {
        return;
    };
    let module = convcheck_lang::lower::lower(&kernel, false);
    let limits = Limits {
        bounds: Bounds {
            max_iters: 1,
            max_paths: 500,
            ..Bounds::default()
        },
        group: 2,
    };
    for info in registry().into_iter().filter(|p| p.safe) {
        let Ok(pass) = lookup(info.name) else {
            panic!(
                "the registry lists `{}`, which lookup does not build",
                info.name
            )
        };
        if let Outcome::Violated(f) = check_pass_against_cfg(&module, entry, pass.as_ref(), limits)
        {
            panic!(
                "safe pass `{}` flagged: {}\n{}",
                info.name,
                f.message,
                convcheck_lang::syntax::print(file)
            );
        }
    }
}
