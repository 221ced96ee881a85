//! The passes stand alone: modules written by hand from IR types, with no
//! kernel and no front end anywhere.
//!
//! - A small module goes through `simplifycfg` and `branch-dist`, which
//!   read everything they need (labels, lines, call kinds, oracle classes,
//!   the module's name) from the module itself.
//! - Modules with phis (what the LLVM front end makes) go through every
//!   pass that merges, bypasses or clones blocks: afterwards each phi has
//!   exactly one value per predecessor, and one thread's observable
//!   instances (convergent operations, barriers, memory accesses with
//!   their addresses, which the tests use to observe values) are the same
//!   as before, under every scenario tried. Where a rewrite cannot keep
//!   phis correct the pass leaves the spot alone; a phi after a non-phi
//!   instruction is refused with a named error.
//!
//! One test binary in several files: [`support`] builds modules and
//! compares behaviour, [`standalone`] runs passes on a module without any
//! front end, [`phis`] checks each phi rule on a case made for it, and
//! [`random`] sweeps random functions with phis through every pass.

mod phis;
mod random;
mod standalone;
mod support;
