//! Values in memory (DESIGN.md 2.6, revised in the third round): what a
//! byte-addressed load returns and what a store leaves, for one thread.
//!
//! An access of `n > 0` bytes ([`Access::bytes`]) at a byte address
//! (little-endian, as every GPU target convcheck reads):
//!
//! - **Private memory** (`local`: an `alloca`, address space 5) is thread
//!   state. A store writes its bytes into the thread's private memory; a
//!   load reads them back. A byte never written holds the location's
//!   initial value, a free value named `local[ADDR]:N` (one per location
//!   and width, the same in the reference and the target). Private
//!   accesses are not events: nobody else sees them.
//! - **Shared and global memory.** A store is an event with its address,
//!   width and value, and its bytes are the thread's own writes *of the
//!   current barrier phase* (every barrier starts a new phase and forgets
//!   them). A load is an event; the bytes this thread wrote in the phase
//!   are what it reads (in a run without races nobody else wrote them), and
//!   every other byte comes from a free value named by the location, the
//!   width and the phase, `shared[ADDR]:N@P`: the same in the reference and
//!   the target, so that data other threads wrote in earlier phases is
//!   matched without being enumerated (GPUVerify's two-thread abstraction
//!   of shared state). Reading one name twice in a run gives one value.
//!
//! Addresses are what the front end computes: an object's base (named by
//! the object, never by its position) plus an offset. A free value's name
//! is the location, so two programs that reach one location through
//! different expressions read one value.
//!
//! The symbolic product implements the same rules (its `symex` memory);
//! `tests/memory.rs` of the checker runs both on the same pairs.

use super::{EventKind, Machine, Stop, Vars};
use crate::expr::{Access, Expr};
use crate::key::Atom;
use crate::ops::{OpId, OracleId, Space};

/// The objects whose bases [`object_base`] gave out, by tag (the base's
/// high 32 bits): only to name locations in reports.
static OBJECTS: std::sync::Mutex<std::collections::BTreeMap<u64, String>> =
    std::sync::Mutex::new(std::collections::BTreeMap::new());

/// The base address of the object named `name` (`@g`, `@f.%a`), a function
/// of the name alone (DESIGN.md 2.6: objects are named by what they are,
/// never by their position): a 31-bit FNV-1a hash of the name, never 0,
/// in the high 32 bits. The name is remembered, so that locations in the
/// object are named after it ([`location_name`]).
pub fn object_base(name: &str) -> i64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in name.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    let tag = (h % 0x7fff_ffff) + 1;
    if let Ok(mut objects) = OBJECTS.lock() {
        objects.entry(tag).or_insert_with(|| name.to_string());
    }
    (tag as i64) << 32
}

/// The name of a free location: `@buf[8]:4@1` (the object and the byte
/// offset in it, the width, the barrier phase), or `mem[0x1f00000004]:4@1`
/// for an address in no object [`object_base`] named; private memory has
/// no phase.
pub fn location_name(space: Space, addr: i64, bytes: u32, phase: Option<u32>) -> String {
    // A byte address names one location whatever the space it is reached
    // through; private memory is apart.
    let place = match space {
        Space::Local => place(Space::Local, addr),
        _ => place(Space::Global, addr).replacen("global[", "mem[", 1),
    };
    match phase {
        Some(p) => format!("{place}:{bytes}@{p}"),
        None => format!("{place}:{bytes}"),
    }
}

/// The name of a function oracle's value for one argument list
/// (`OracleClass::Function`): `f(3,-1)`, the oracle's name and the
/// arguments' values in decimal.
pub fn function_value_name(oracle: &str, args: &[i64]) -> String {
    let args: Vec<String> = args.iter().map(i64::to_string).collect();
    format!("{oracle}({})", args.join(","))
}

/// An address as reports show it: `@buf[8]` in an object [`object_base`]
/// named, `shared[3]` for a small one (an element's index), else
/// `mem[0x1f00000004]` (a byte address names one location whatever the
/// space it is reached through).
pub fn place(space: Space, addr: i64) -> String {
    let tag = (addr as u64) >> 32;
    let object = OBJECTS.lock().ok().and_then(|o| o.get(&tag).cloned());
    match object {
        Some(name) => format!("{name}[{}]", addr as u64 & 0xffff_ffff),
        None if (0..1 << 32).contains(&addr) => format!("{}[{addr}]", space.name()),
        None => format!("mem[{:#x}]", addr as u64),
    }
}

/// The low `bytes` bytes of `v`, zero-extended.
pub fn truncate(v: i64, bytes: u32) -> i64 {
    if bytes >= 8 {
        v
    } else {
        v & ((1i64 << (8 * bytes)) - 1)
    }
}

/// A byte the thread wrote: its value, whether it is private memory (kept
/// across phases) and the phase it was written in.
#[derive(Clone, Copy, Debug)]
struct Written {
    byte: u8,
    private: bool,
    phase: u32,
}

/// A thread's memory: the bytes it wrote, by address. Addresses are unique
/// across objects, so one map serves every space, and an access through a
/// generic pointer meets a write through a shared one.
#[derive(Clone, Debug, Default)]
pub struct Memory {
    written: std::collections::HashMap<i64, Written>,
    /// The barrier phase: how many barriers the thread has passed.
    pub phase: u32,
    /// The value of every free location read so far.
    seen: std::collections::HashMap<String, i64>,
}

impl Memory {
    /// A barrier: a new phase (the thread's writes to shared and global
    /// memory no longer decide what it reads).
    pub fn barrier(&mut self) {
        self.phase += 1;
    }
}

/// A load as the machine evaluates it: op, space, address expression,
/// oracle, access.
pub(super) type LoadParts<'e> = (OpId, Space, &'e Expr, Option<OracleId>, Access);

/// A store: op, space, address expression, value expression, access.
pub(super) type StoreParts<'e> = (OpId, Space, &'e Expr, &'e Expr, Access);

impl Machine<'_> {
    /// Evaluates a load (`e`, whose parts are `l`): an event unless it reads
    /// private bytes, its value when `want`.
    pub(super) fn eval_load(
        &mut self,
        vars: &mut Vars,
        base: &[Atom],
        e: &Expr,
        l: LoadParts<'_>,
        want: bool,
    ) -> Result<i64, Stop> {
        let (op, space, index, value, access) = l;
        let addr = self.eval(vars, base, index, true)?;
        if access.bytes > 0 && space == Space::Local {
            // Private memory is thread state: no event.
            return if want {
                self.load_bytes(space, addr, access, value)
            } else {
                Ok(0)
            };
        }
        let kind = EventKind::Mem {
            space,
            write: false,
            addr,
            access,
            value: None,
        };
        self.record(base, op, kind);
        // A value used at once (a branch, an address, a store) uses the
        // load; one assigned to a local uses it when the local is read. A
        // volatile load is always used.
        let at = self.trace.events.len() - 1;
        match (want || access.volatile, self.assigning.last_mut()) {
            (false, _) => {
                self.unused.insert(at);
            }
            (true, Some(into)) if !access.volatile => {
                into.push(at);
                self.unused.insert(at);
            }
            (true, _) => {}
        }
        Ok(match (want, value) {
            (true, _) if access.bytes > 0 => self.load_bytes(space, addr, access, value)?,
            (true, Some(o)) => self.read_at(o, base, super::site(e))?,
            _ => 0,
        })
    }

    /// Evaluates a store: an event unless it writes private bytes; its
    /// value is the stored value.
    pub(super) fn eval_store(
        &mut self,
        vars: &mut Vars,
        base: &[Atom],
        s: StoreParts<'_>,
    ) -> Result<i64, Stop> {
        let (op, space, index, value, access) = s;
        let v = self.eval(vars, base, value, true)?;
        let addr = self.eval(vars, base, index, true)?;
        // An atomic leaves no value the thread could read back (what it
        // writes depends on the other threads), unless it says it does
        // (`Access::keeps_value`).
        if access.bytes > 0 && access.keeps_value() {
            self.store_bytes(space, addr, access, v);
            if space == Space::Local {
                return Ok(v);
            }
        }
        let kind = EventKind::Mem {
            space,
            write: true,
            addr,
            access,
            value: (access.bytes > 0).then(|| truncate(v, access.bytes)),
        };
        self.record(base, op, kind);
        Ok(v)
    }

    /// The value a byte-addressed load of `access.bytes` bytes at `addr`
    /// reads (see the module documentation); `oracle` gives the values a
    /// free location may take.
    pub(super) fn load_bytes(
        &mut self,
        space: Space,
        addr: i64,
        access: Access,
        oracle: Option<OracleId>,
    ) -> Result<i64, Stop> {
        let n = access.bytes.min(8);
        let mut v: u64 = 0;
        let mut missing = Vec::new();
        let phase = self.memory.phase;
        for i in 0..n {
            let at = addr.wrapping_add(i64::from(i));
            let b = self
                .memory
                .written
                .get(&at)
                .filter(|w| w.private || w.phase == phase);
            match b {
                Some(w) => v |= u64::from(w.byte) << (8 * i),
                None => missing.push(i),
            }
        }
        if !missing.is_empty() {
            let phase = (space != Space::Local).then_some(phase);
            let name = location_name(space, addr, n, phase);
            let free = self.free_location(name, oracle)? as u64;
            for i in missing {
                v |= ((free >> (8 * i)) & 0xff) << (8 * i);
            }
        }
        Ok(v as i64)
    }

    /// A byte-addressed store of `value`'s low `access.bytes` bytes at
    /// `addr`.
    pub(super) fn store_bytes(&mut self, space: Space, addr: i64, access: Access, value: i64) {
        let n = access.bytes.min(8);
        let phase = self.memory.phase;
        for i in 0..n {
            let at = addr.wrapping_add(i64::from(i));
            let byte = ((value as u64) >> (8 * i)) as u8;
            let w = Written {
                byte,
                private: space == Space::Local,
                phase,
            };
            self.memory.written.insert(at, w);
        }
    }

    /// The value of the free location `name`: asked of the source once per
    /// run, recorded with the run's reads.
    pub(super) fn free_location(
        &mut self,
        name: String,
        oracle: Option<OracleId>,
    ) -> Result<i64, Stop> {
        if let Some(v) = self.memory.seen.get(&name) {
            return Ok(*v);
        }
        let module = self.module();
        let v = match oracle {
            Some(o) => {
                let v = self.src.memory(module, o, &name)?;
                if self.src.decided(module, o, 0) {
                    self.decisions += 1;
                }
                v
            }
            None => 0,
        };
        self.charge(16 + name.len() as u64)?;
        self.memory.seen.insert(name.clone(), v);
        self.trace.memory.push((name, v));
        Ok(v)
    }
}
