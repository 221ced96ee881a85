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

use z3::ast::{Array, Bool, BV};
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
    let n = n.clamp(1, 8);
    let mut v: Option<BV> = None;
    for i in 0..n {
        let cell = mem
            .select(&at(addr, i))
            .as_bv()
            .unwrap_or_else(|| BV::from_u64(0, 9));
        let written = cell.extract(8, 8).eq(BV::from_u64(1, 1));
        let byte = written.ite(&cell.extract(7, 0), &free.extract(8 * i + 7, 8 * i));
        v = Some(match v {
            None => byte,
            Some(low) => byte.concat(&low),
        });
    }
    let v = v.unwrap_or_else(|| BV::from_u64(0, 8));
    if n >= 8 {
        v
    } else {
        v.zero_ext(64 - 8 * n)
    }
}

/// The two memories are equal.
pub(crate) fn equal(a: &Array, b: &Array) -> Bool {
    a.eq(b)
}
