//! Values in shared and global memory for the simulation (DESIGN.md 2.6;
//! `convcheck_ir::exec::memory` is the interpreter's version of the same
//! rules, written again here over z3's arrays).
//!
//! A thread's memory is the bytes it wrote in the current barrier phase:
//! an array from byte addresses (64 bits) to *cells* of 9 bits, bit 8 set
//! when the thread wrote the byte, bits 0..8 the byte. A load of `n`
//! bytes at `a` reads, byte by byte (little-endian), the written byte
//! where there is one and otherwise byte `i` of the location's free value
//! `S_mem:n(th, a)` (named by the address and the width, as the
//! interpreter names `mem[a]:n@phase`; the simulation runs only where no
//! program passes a barrier, so there is one phase). A store writes its
//! `n` low bytes.
//!
//! **Relating the two programs' memories.** Every node of a relation holds
//! *one* memory for both programs (a fresh array per node, the same term
//! in the reference's and the target's state), and the launch node the
//! empty memory in both. That is an invariant of every node, and each step
//! must carry it: after every step the two programs' memories are equal
//! ([`equal`], re-check condition `memory`). For shared and global memory
//! it follows from the events already (a store is an event with its
//! address, width and value, and events are compared in order, so two
//! related runs made the same stores in the same order); it is checked
//! on its own all the same, and the theorem tests show that it alone
//! refuses a changed store. Private memory (thread state, whose stores are
//! not events) is not modelled: such stores and loads are refused.
//!
//! **Clobbers** (`Access::CLOBBER_OBJECT`, `Access::CLOBBER_ALL`: what an
//! external call that may write memory leaves, `exec::memory` of the
//! interpreter). Each state also holds the number of calls that may write
//! memory the thread made (`TState::calls`, the *epoch*) and, per byte,
//! the epoch of the newest clobber that covered it (`TState::gens`, 0: none;
//! a clobber clears the byte's written bit, so whichever of a write and a
//! clobber came last decides). A byte not written reads byte `i` of the
//! free value of the load's location at its epoch, `G_mem:n(th, a, g)`:
//! the interpreter's `@g[0]:4@0~3`, one value per location, width and
//! epoch, the same in both programs. A clobber of one object (the high 32
//! bits of an address) sets the epoch of that object's bytes (a lambda
//! term), one of all memory every byte's. Like the memory, one epoch
//! counter and one epoch array per node, shared by both programs, and each
//! step must leave them equal in both (re-check condition `memory`): the
//! calls are events, so two related runs made the same calls, in the same
//! order, with the same arguments.

use z3::ast::{Array, Ast, Bool, Dynamic, BV};
use z3::Sort;

fn cells() -> Sort {
    Sort::bitvector(9)
}

/// The memory of a thread that wrote nothing.
pub(crate) fn empty() -> Array {
    Array::const_array(&Sort::bitvector(64), &BV::from_u64(0, 9))
}

/// A memory named `name`: one node's memory, shared by both programs.
pub(crate) fn fresh(name: &str) -> Array {
    Array::new_const(name, &Sort::bitvector(64), &cells())
}

/// The epochs of a thread that made no call that may write memory.
pub(crate) fn no_gens() -> Array {
    Array::const_array(&Sort::bitvector(64), &BV::from_u64(0, 64))
}

/// Epochs named `name`: one node's, shared by both programs.
pub(crate) fn fresh_gens(name: &str) -> Array {
    Array::new_const(name, &Sort::bitvector(64), &Sort::bitvector(64))
}

/// `(mem, gens)` after a clobber at epoch `gen` of the object of address
/// `object` (the bytes of its object, `product::bv::object_key`), or of every byte
/// (`None`).
pub(crate) fn clobber(mem: &Array, gens: &Array, object: Option<&BV>, gen: &BV) -> (Array, Array) {
    let unwritten = BV::from_u64(0, 9);
    match object {
        None => (
            Array::const_array(&Sort::bitvector(64), &unwritten),
            Array::const_array(&Sort::bitvector(64), gen),
        ),
        Some(t) => {
            let a = BV::new_const("clobber.a", 64);
            let inside = crate::product::bv::object_key(&a).eq(crate::product::bv::object_key(t));
            let m = inside.ite(
                &unwritten,
                &mem.select(&a).as_bv().unwrap_or_else(|| BV::from_u64(0, 9)),
            );
            let g = inside.ite(
                gen,
                &gens
                    .select(&a)
                    .as_bv()
                    .unwrap_or_else(|| BV::from_u64(0, 64)),
            );
            (
                z3::ast::lambda_const(&[&a as &dyn Ast], &Dynamic::from_ast(&m)),
                z3::ast::lambda_const(&[&a as &dyn Ast], &Dynamic::from_ast(&g)),
            )
        }
    }
}

fn at(addr: &BV, i: u32) -> BV {
    if i == 0 {
        addr.clone()
    } else {
        addr.bvadd(BV::from_u64(u64::from(i), 64))
    }
}

/// `mem` after a store of the `n` low bytes of `value` at `addr`.
pub(crate) fn store(mem: &Array, addr: &BV, value: &BV, n: u32) -> Array {
    let mut m = mem.clone();
    for i in 0..n.clamp(1, 8) {
        let byte = value.extract(8 * i + 7, 8 * i);
        let cell = BV::from_u64(1, 1).concat(&byte);
        m = m.store(&at(addr, i), &cell);
    }
    m
}

/// The value an `n`-byte load at `addr` reads from `mem`, zero-extended;
/// `free` is the location's free value (its low `n` bytes are what the
/// thread did not write).
pub(crate) fn load(mem: &Array, addr: &BV, free: &BV, n: u32) -> BV {
    assemble(n, |i| {
        let cell = mem
            .select(&at(addr, i))
            .as_bv()
            .unwrap_or_else(|| BV::from_u64(0, 9));
        let written = cell.extract(8, 8).eq(BV::from_u64(1, 1));
        written.ite(&cell.extract(7, 0), &free.extract(8 * i + 7, 8 * i))
    })
}

/// The 64-bit value of `n` bytes (1 to 8, clamped), byte `i` from
/// `byte(i)`, the first the lowest, zero-extended.
fn assemble(n: u32, byte: impl Fn(u32) -> BV) -> BV {
    let n = n.clamp(1, 8);
    let mut v: Option<BV> = None;
    for i in 0..n {
        let b = byte(i);
        v = Some(match v {
            None => b,
            Some(low) => b.concat(&low),
        });
    }
    let v = v.unwrap_or_else(|| BV::from_u64(0, 8));
    if n >= 8 {
        v
    } else {
        v.zero_ext(64 - 8 * n)
    }
}

/// The value an `n`-byte load at `addr` reads where clobbers are
/// modelled: byte by byte, the thread's write (`mem`, when it stores) or
/// else byte `i` of `free(g)`, `g` the byte's epoch in `gens`.
pub(crate) fn load_clobbered(
    mem: Option<&Array>,
    gens: &Array,
    addr: &BV,
    free: &dyn Fn(&BV) -> BV,
    n: u32,
) -> BV {
    assemble(n, |i| {
        let a = at(addr, i);
        let g = gens
            .select(&a)
            .as_bv()
            .unwrap_or_else(|| BV::from_u64(0, 64));
        let fresh = free(&g).extract(8 * i + 7, 8 * i);
        match mem {
            None => fresh,
            Some(mem) => {
                let cell = mem.select(&a).as_bv().unwrap_or_else(|| BV::from_u64(0, 9));
                let written = cell.extract(8, 8).eq(BV::from_u64(1, 1));
                written.ite(&cell.extract(7, 0), &fresh)
            }
        }
    })
}

/// The two memories are equal.
pub(crate) fn equal(a: &Array, b: &Array) -> Bool {
    a.eq(b)
}
