//! Values in memory for a symbolic thread: the rules of
//! `convcheck_ir::exec::memory` (DESIGN.md 2.6) as terms.
//!
//! A thread's state carries its *store log*: one entry per byte stored, in
//! order, each with the guard under which the store ran (the path that
//! reached it), its byte address, its byte and the barrier phase. Entries
//! of different paths have exclusive guards, so at a join the logs are
//! united (by entry number) and a load reads, byte by byte, the newest
//! entry whose guard holds at the same address (and, unless it is private,
//! in the current phase): an `ite` chain. A byte no entry covers comes from
//! the free byte of the location, an uninterpreted function of the byte
//! address and the phase per space and thread, shared by the reference
//! and the target (`mem.shared.1.t0`: free memory is named per byte, so
//! that a load of 8 bytes and two of 4 read the same values); private
//! memory's initial value has phase 0. Every read of a free value is recorded with its
//! guard, so that a model decodes into the location names the interpreter
//! asks for (`super::super::replay`).
//!
//! A clobber (`Access::CLOBBER_OBJECT`, `Access::CLOBBER_ALL`: what a call
//! to an external function that may write memory leaves) is an entry of
//! the log too, covering a whole object (an address's high 32 bits) or all
//! shared and global memory: where it is the newest entry that holds, a
//! byte comes from the fresh byte of the location, an uninterpreted
//! function of the address, the phase and the thread's count of calls
//! that may write memory at the clobber (`memc.shared.1.t0`), as the
//! interpreter names it `@g[0]:1@0~3`.

use super::super::bv::{c64, object_key};
use super::{Exec, State};
use convcheck_ir::{Access, Space};
use std::rc::Rc;
use z3::ast::{Bool, BV};
use z3::{FuncDecl, Sort};

/// One stored byte, or a clobber.
#[derive(Debug)]
pub(crate) struct Entry {
    /// Entries are numbered in the order they are made (per run).
    pub id: u32,
    pub guard: Bool,
    pub space: Space,
    pub addr: BV,
    pub byte: BV,
    pub phase: BV,
    /// For a clobber: the object's tag (`None`: all shared and global
    /// memory) and the count of calls that may write memory.
    pub clobber: Option<(Option<BV>, BV)>,
}

/// The bytes a thread stored, oldest first.
pub(crate) type Log = Rc<Vec<Rc<Entry>>>;

/// The union of logs (entries in order of their numbers).
pub(crate) fn union(logs: &[&Log]) -> Log {
    if logs.iter().all(|l| Rc::ptr_eq(l, logs[0])) {
        return logs[0].clone();
    }
    let mut all: Vec<Rc<Entry>> = logs.iter().flat_map(|l| l.iter().cloned()).collect();
    all.sort_by_key(|e| e.id);
    all.dedup_by_key(|e| e.id);
    Rc::new(all)
}

/// A free location read: (guard, space, width, address, phase, value,
/// and for a clobbered location the count of calls that names it).
pub(crate) type FreeRead = (Bool, Space, u32, BV, Option<BV>, BV, Option<BV>);

impl Exec<'_, '_> {
    /// The free byte at `addr` in `space` and `phase`, in the low 8 bits
    /// of a 64-bit value (free memory is named per byte, as the
    /// interpreter names it: an 8-byte load and two 4-byte loads of the
    /// same bytes read the same values).
    fn free(&self, space: Space, addr: &BV, phase: &BV) -> BV {
        let f = FuncDecl::new(
            format!("mem.{}.1.t{}", space_key(space), self.thread),
            &[&Sort::bitvector(64), &Sort::bitvector(self.g.w)],
            &Sort::bitvector(8),
        );
        f.apply(&[addr, phase])
            .as_bv()
            .unwrap_or_else(|| BV::from_u64(0, 8))
            .zero_ext(56)
    }

    /// The fresh byte at `addr` in `space` and `phase` after a clobber
    /// made at `gen` calls that may write memory.
    fn fresh(&self, space: Space, addr: &BV, phase: &BV, gen: &BV) -> BV {
        let f = FuncDecl::new(
            format!("memc.{}.1.t{}", space_key(space), self.thread),
            &[
                &Sort::bitvector(64),
                &Sort::bitvector(self.g.w),
                &Sort::bitvector(self.g.w),
            ],
            &Sort::bitvector(8),
        );
        f.apply(&[addr, phase, gen])
            .as_bv()
            .unwrap_or_else(|| BV::from_u64(0, 8))
            .zero_ext(56)
    }

    /// Records a read of a free (or, after a clobber made at `gen` calls,
    /// fresh) value of `bytes` bytes at `at`, so that a model decodes into
    /// the names the interpreter asks for (`super::super::replay`).
    #[allow(clippy::too_many_arguments)]
    fn note_free(
        &mut self,
        st: &State,
        space: Space,
        bytes: u32,
        at: &BV,
        phase: Option<&BV>,
        v: &BV,
        gen: Option<&BV>,
    ) {
        self.free_reads.push((
            st.guard.clone(),
            space,
            bytes,
            at.clone(),
            phase.cloned(),
            v.clone(),
            gen.cloned(),
        ));
    }

    /// What a byte-addressed load reads (`convcheck_ir::exec::memory`).
    pub(super) fn load_bytes(&mut self, st: &State, space: Space, addr: &BV, access: Access) -> BV {
        let n = access.bytes.clamp(1, 8);
        let local = space == Space::Local;
        let phase = if local {
            BV::from_u64(0, self.g.w)
        } else {
            st.phase.clone()
        };
        // The uniformity oracle's runs (`Self::recording`) compare two
        // threads of one program, whose loads have the same widths: there a
        // load's free value is one term of its width, as before memory was
        // named per byte (`uniform::shared_memory` pairs them; per byte, a
        // 4-byte load through a parameter took z3 past the oracle's budget
        // on `examples/uniformity/agrees.ll`).
        let whole = self.values.is_some().then(|| {
            let f = FuncDecl::new(
                format!("memw.{}.{n}.t{}", space_key(space), self.thread),
                &[&Sort::bitvector(64), &Sort::bitvector(self.g.w)],
                &Sort::bitvector(64),
            );
            let v = f.apply(&[addr, &phase]).as_bv().unwrap_or_else(|| c64(0));
            self.note_free(st, space, n, addr, (!local).then_some(&phase), &v, None);
            v
        });
        let mut bytes = Vec::new();
        for i in 0..n {
            let at = addr.bvadd(c64(i64::from(i)));
            let mut b = match &whole {
                Some(v) => v.extract(8 * i + 7, 8 * i),
                None => {
                    let free = self.free(space, &at, &phase);
                    self.note_free(st, space, 1, &at, (!local).then_some(&phase), &free, None);
                    free.extract(7, 0)
                }
            };
            for e in st.log.iter() {
                if e.clobber.is_some() && (e.space == Space::Local) != local {
                    continue;
                }
                let mut here = vec![e.guard.clone()];
                if e.space != Space::Local {
                    here.push(e.phase.eq(&st.phase));
                }
                match &e.clobber {
                    None => {
                        here.push(e.addr.eq(&at));
                        b = Bool::and(&here).ite(&e.byte, &b);
                    }
                    Some((tag, gen)) => {
                        // The fresh value this clobber gives the byte.
                        let v = self.fresh(space, &at, &phase, gen);
                        self.note_free(
                            st,
                            space,
                            1,
                            &at,
                            (!local).then_some(&phase),
                            &v,
                            Some(gen),
                        );
                        if let Some(t) = tag {
                            here.push(object_key(&at).eq(t));
                        }
                        b = Bool::and(&here).ite(&v.extract(7, 0), &b);
                    }
                }
            }
            bytes.push(b);
        }
        let mut v = bytes.pop().unwrap_or_else(|| BV::from_u64(0, 8));
        while let Some(b) = bytes.pop() {
            v = v.concat(&b);
        }
        if n < 8 {
            v.zero_ext(64 - 8 * n)
        } else {
            v
        }
    }

    /// A byte-addressed store of `value`'s low bytes.
    pub(super) fn store_bytes(
        &mut self,
        st: &mut State,
        space: Space,
        addr: &BV,
        access: Access,
        value: &BV,
    ) {
        let n = access.bytes.clamp(1, 8);
        let mut log: Vec<Rc<Entry>> = st.log.as_ref().clone();
        for i in 0..n {
            self.next_entry += 1;
            log.push(Rc::new(Entry {
                id: self.next_entry,
                guard: st.guard.clone(),
                space,
                addr: addr.bvadd(c64(i64::from(i))),
                byte: value.extract(8 * i + 7, 8 * i),
                phase: st.phase.clone(),
                clobber: None,
            }));
        }
        st.log = Rc::new(log);
    }

    /// A clobber (`Access::CLOBBER_OBJECT` of the object of `addr`, or
    /// `Access::CLOBBER_ALL`), an entry of the log.
    pub(super) fn clobber(&mut self, st: &mut State, space: Space, addr: &BV, access: Access) {
        let tag = (access.atomic == Access::CLOBBER_OBJECT).then(|| object_key(addr));
        if space == Space::Local && tag.is_none() {
            return;
        }
        self.next_entry += 1;
        let mut log: Vec<Rc<Entry>> = st.log.as_ref().clone();
        log.push(Rc::new(Entry {
            id: self.next_entry,
            guard: st.guard.clone(),
            space,
            addr: addr.clone(),
            byte: BV::from_u64(0, 8),
            phase: st.phase.clone(),
            clobber: Some((tag, st.calls.clone())),
        }));
        st.log = Rc::new(log);
    }
}

/// The memory a free value belongs to: private memory, or the memory every
/// other space shares (a byte address names one location whatever the
/// space it is reached through).
fn space_key(space: Space) -> &'static str {
    if space == Space::Local {
        "local"
    } else {
        "shared"
    }
}

/// `value`'s low `bytes` bytes, zero-extended (what a store event carries).
pub(crate) fn truncate(value: &BV, bytes: u32) -> BV {
    if bytes >= 8 {
        value.clone()
    } else {
        value.extract(8 * bytes - 1, 0).zero_ext(64 - 8 * bytes)
    }
}
