//! Values in memory (DESIGN.md 2.6, revised in the third round): what a
//! byte-addressed load returns and what a store leaves, for one thread.
//!
//! An access of `n > 0` bytes ([`Access::bytes`]) at a byte address
//! (little-endian, as every GPU target convcheck reads):
//!
//! - **Private memory** (`local`: an `alloca`, address space 5) is thread
//!   state. A store writes its bytes into the thread's private memory; a
//!   load reads them back. A byte never written holds the location's
//!   initial value, a free byte named `local[ADDR]:1` (one per byte, the
//!   same in the reference and the target). Private
//!   accesses are not events: nobody else sees them. A volatile one is
//!   (LangRef: volatile accesses are observable), with its width, stored
//!   value and offset in its object.
//! - **Shared and global memory.** A store is an event with its address,
//!   width and value (compared by the bytes each segment between
//!   synchronisation points leaves, `super::observe`), and its bytes are
//!   the thread's own writes *of the
//!   current barrier phase* (every barrier starts a new phase and forgets
//!   them). A load is an event; the bytes this thread wrote in the phase
//!   are what it reads (in a run without races nobody else wrote them), and
//!   every other byte comes from a free byte named by its address and the
//!   phase, `shared[ADDR]:1@P` (per byte, so that an 8-byte load and two
//!   4-byte loads of the same bytes agree): the same in the reference and
//!   the target, so that data other threads wrote in earlier phases is
//!   matched without being enumerated (GPUVerify's two-thread abstraction
//!   of shared state). Reading one name twice in a run gives one value.
//!
//! - **Clobbers** (`Access::CLOBBER_OBJECT`, `Access::CLOBBER_ALL`): what a
//!   call to an external function that may write memory leaves (LangRef,
//!   `memory`). A clobber covers every byte of one object
//!   ([`object_key`] of its address) or every byte of shared and global memory; a
//!   byte it covers that the thread has not written since reads a *fresh*
//!   byte named by its address, the phase and the number of calls that
//!   may write memory the thread had made (`@g[0]:1@0~3`). The
//!   front end writes a call's clobbers after its events, the first with
//!   the value 1 (a new call: the count goes up), the others with 0; the
//!   calls are observed events, so the count is the same in the reference
//!   and the target at matching points. A
//!   clobber of private memory covers private bytes only, and one of
//!   other memory the bytes of that memory in the phase it was made in
//!   (a barrier's new phase already reads free values). Whichever of a
//!   byte's own write and its newest clobber came last decides.
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

/// The objects whose bases [`object_base`] gave out: by tag (the base's
/// high 32 bits), to name locations in reports, and by name, so that a name
/// keeps its tag and two names never share one.
struct Objects {
    by_tag: std::collections::BTreeMap<u64, String>,
    by_name: std::collections::BTreeMap<String, u64>,
    /// The same for [`narrow_object_base`]'s tags (bits 16 to 31).
    narrow_by_tag: std::collections::BTreeMap<u64, String>,
    narrow_by_name: std::collections::BTreeMap<String, u64>,
}

static OBJECTS: std::sync::Mutex<Objects> = std::sync::Mutex::new(Objects {
    by_tag: std::collections::BTreeMap::new(),
    by_name: std::collections::BTreeMap::new(),
    narrow_by_tag: std::collections::BTreeMap::new(),
    narrow_by_name: std::collections::BTreeMap::new(),
});

/// The tag a name hashes to: a 31-bit FNV-1a hash, never 0.
fn natural_tag(name: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in name.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    (h % 0x7fff_ffff) + 1
}

/// The base address of the object named `name` (`@g`, `@f.%a`), a function
/// of the name (DESIGN.md 2.6: objects are named by what they are, never by
/// their position): a 31-bit FNV-1a hash of the name, never 0, in the high
/// 32 bits. Distinct objects never alias: a name whose hash another name
/// already holds (a collision, e.g. `@znjlbqni` and `@jaqcoenp`) takes the
/// next free tag, and keeps it for the life of the process, so both
/// programs of a comparison, translated in one process, agree on every
/// name's base (the first to ask takes the hashed tag; a module's globals
/// ask in sorted-name order, `convcheck_llvm`'s `Globals::new`). The name
/// is remembered, so that locations in the object are named after it
/// ([`location_name`]).
pub fn object_base(name: &str) -> i64 {
    let mut tag = natural_tag(name);
    let mut objects = OBJECTS.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(&t) = objects.by_name.get(name) {
        return (t as i64) << 32;
    }
    while objects.by_tag.get(&tag).is_some_and(|n| n != name) {
        tag = tag % 0x7fff_ffff + 1;
    }
    objects.by_tag.insert(tag, name.to_string());
    objects.by_name.insert(name.to_string(), tag);
    (tag as i64) << 32
}

/// The base address of the object named `name` in an address space of
/// 32-bit pointers (amdgcn's `p3:32:32` LDS, `p5:32:32` private; review3
/// H16): within the low 32 bits, so that the address as a value (a
/// `ptrtoint`, a stored pointer, both truncated to the pointer width) is
/// the address, distinct and nonzero for distinct objects. A 15-bit tag
/// from `0x8000` to `0xffff` in bits 16 to 31 (objects of such a space are
/// below 64 KiB: LDS is; a private object larger than that is not
/// modelled, `convcheck_llvm`), so that the addresses of such objects lie
/// in `[2^31, 2^32)`, apart from both the small addresses of element
/// arrays and the addresses of objects of 64-bit spaces; a collision takes
/// the next free tag, as [`object_base`]'s do. [`object_key`] tells the
/// object of an address of either kind.
pub fn narrow_object_base(name: &str) -> i64 {
    let mut tag = 0x8000 + natural_tag(name) % 0x8000;
    let mut objects = OBJECTS.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(&t) = objects.narrow_by_name.get(name) {
        return (t as i64) << 16;
    }
    let mut tries = 0;
    while objects.narrow_by_tag.get(&tag).is_some_and(|n| n != name) && tries < 0x8000 {
        tag = 0x8000 + (tag + 1) % 0x8000;
        tries += 1;
    }
    objects.narrow_by_tag.insert(tag, name.to_string());
    objects.narrow_by_name.insert(name.to_string(), tag);
    (tag as i64) << 16
}

/// The object an address is in, as a number (the engines compare these for
/// a clobber of one object, `Access::CLOBBER_OBJECT`): the high 32 bits of
/// an address at or above `2^32` ([`object_base`]); `2^32` plus bits 16 to
/// 31 of one in `[2^31, 2^32)` ([`narrow_object_base`]); 0 (the element
/// arrays, small addresses) below.
pub fn object_key(addr: i64) -> u64 {
    let a = addr as u64;
    if a >= 1 << 32 {
        a >> 32
    } else if a >= 1 << 31 {
        (1 << 32) | (a >> 16)
    } else {
        0
    }
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

/// The name of a location a clobber covered
/// ([`crate::expr::Access::CLOBBER_OBJECT`]): [`location_name`] and `~K`,
/// `K` the number of calls that may write memory the thread had made (0 is no
/// clobber: the plain name).
pub fn clobbered_location_name(
    space: Space,
    addr: i64,
    bytes: u32,
    phase: Option<u32>,
    gen: u32,
) -> String {
    let name = location_name(space, addr, bytes, phase);
    if gen == 0 {
        name
    } else {
        format!("{name}~{gen}")
    }
}

/// An address as reports show it: `@buf[8]` in an object [`object_base`]
/// named, `shared[3]` for a small one (an element's index), else
/// `mem[0x1f00000004]` (a byte address names one location whatever the
/// space it is reached through).
pub fn place(space: Space, addr: i64) -> String {
    let tag = (addr as u64) >> 32;
    let narrow = (tag == 0 && addr >= 1 << 31).then_some((addr as u64) >> 16);
    let object = OBJECTS.lock().ok().and_then(|o| match narrow {
        Some(t) => o.narrow_by_tag.get(&t).cloned(),
        None => o.by_tag.get(&tag).cloned(),
    });
    match object {
        Some(name) if narrow.is_some() => format!("{name}[{}]", addr as u64 & 0xffff),
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
    /// When it was written, against clobbers ([`Clobber::seq`]).
    seq: u64,
}

/// A clobber the thread made (see the module documentation).
#[derive(Clone, Copy, Debug)]
struct Clobber {
    /// The object's key ([`object_key`]), `None` for every
    /// location of shared and global memory.
    tag: Option<u64>,
    private: bool,
    phase: u32,
    /// The number of calls that may write memory the thread had made.
    gen: u32,
    seq: u64,
}

impl Clobber {
    /// Whether it covers the byte at `at` for a load of private memory
    /// (`private`) or of other memory, in phase `phase`.
    fn covers(&self, at: i64, private: bool, phase: u32) -> bool {
        self.private == private
            && (private || self.phase == phase)
            && self.tag.is_none_or(|t| object_key(at) == t)
    }
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
    /// The calls that may write memory the thread made (clobbers whose
    /// value is not 0).
    pub calls: u32,
    /// The clobbers the thread made, oldest first.
    clobbers: Vec<Clobber>,
    /// Writes and clobbers so far.
    seq: u64,
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
            // Private memory is thread state: no event, unless volatile.
            if access.volatile {
                self.record_volatile_private(base, op, false, addr, access, None);
            }
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
        // A stored value that may be poison (`Expr::maybe_poison`): its
        // computed bits go to memory (a load reads them back: a known
        // limit), its definedness to the event.
        let (defined, value) = value.observed();
        let v = self.eval(vars, base, value, true)?;
        let poison = self.poison_at(vars, base, defined)?;
        let addr = self.eval(vars, base, index, true)?;
        if access.is_clobber() {
            // No event: what the call wrote is unknown.
            if matches!(value, Expr::Const(c) if *c != 0) {
                self.memory.calls += 1;
            }
            self.clobber(space, addr, access);
            return Ok(v);
        }
        // An atomic leaves no value the thread could read back (what it
        // writes depends on the other threads), unless it says it does
        // (`Access::keeps_value`).
        if access.bytes > 0 && access.keeps_value() {
            self.store_bytes(space, addr, access, v);
            if space == Space::Local {
                if access.volatile {
                    let value = Some(truncate(v, access.bytes));
                    self.record_volatile_private(base, op, true, addr, access, value);
                }
                return Ok(v);
            }
        }
        if poison {
            self.trace.poison.push((self.trace.events.len(), 0));
        }
        let kind = EventKind::Mem {
            space,
            write: true,
            addr,
            access,
            value: (access.bytes > 0).then(|| if poison { 0 } else { truncate(v, access.bytes) }),
        };
        self.record(base, op, kind);
        Ok(v)
    }

    /// A volatile access of private memory: observed (LangRef: volatile
    /// accesses are observable behaviour, whatever memory they access) as
    /// an event with its width, its value if it writes, and its offset in
    /// its object (`addr`'s low 32 bits: the object's name is the alloca's,
    /// which a pass may rename); never a race (private memory).
    fn record_volatile_private(
        &mut self,
        base: &[Atom],
        op: OpId,
        write: bool,
        addr: i64,
        access: Access,
        value: Option<i64>,
    ) {
        let kind = EventKind::Mem {
            space: Space::Local,
            write,
            addr: addr & 0xffff_ffff,
            access,
            value,
        };
        self.record(base, op, kind);
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
        let private = space == Space::Local;
        for i in 0..n {
            let at = addr.wrapping_add(i64::from(i));
            let b = self
                .memory
                .written
                .get(&at)
                .filter(|w| w.private || w.phase == phase);
            let c = self
                .memory
                .clobbers
                .iter()
                .rev()
                .find(|c| c.covers(at, private, phase));
            match (b, c) {
                (Some(w), c) if c.is_none_or(|c| c.seq < w.seq) => {
                    v |= u64::from(w.byte) << (8 * i)
                }
                (_, Some(c)) => missing.push((i, c.gen)),
                (_, None) => missing.push((i, 0)),
            }
        }
        // Free bytes are named one by one (`@g[4]:1@0`), so that an 8-byte
        // load and two 4-byte loads of the same bytes read the same values;
        // the bytes not read before in the run are asked of the source
        // together, one generation at a time (`OracleSource::memory_bytes`:
        // path enumeration decides one value of the load's domain for
        // them).
        let mut gens: Vec<u32> = missing.iter().map(|(_, g)| *g).collect();
        gens.sort_unstable();
        gens.dedup();
        for gen in gens {
            let phase = (!private).then_some(phase);
            let mut unseen = Vec::new();
            for (i, _) in missing.iter().filter(|(_, g)| *g == gen) {
                let at = addr.wrapping_add(i64::from(*i));
                let name = clobbered_location_name(space, at, 1, phase, gen);
                match self.memory.seen.get(&name) {
                    Some(b) => v |= ((*b as u64) & 0xff) << (8 * i),
                    None => unseen.push((*i, name)),
                }
            }
            if unseen.is_empty() {
                continue;
            }
            for (i, b) in self.free_bytes(unseen, oracle)? {
                v |= u64::from(b) << (8 * i);
            }
        }
        Ok(v as i64)
    }

    /// A byte-addressed store of `value`'s low `access.bytes` bytes at
    /// `addr`.
    pub(super) fn store_bytes(&mut self, space: Space, addr: i64, access: Access, value: i64) {
        let n = access.bytes.min(8);
        let phase = self.memory.phase;
        self.memory.seq += 1;
        let seq = self.memory.seq;
        for i in 0..n {
            let at = addr.wrapping_add(i64::from(i));
            let byte = ((value as u64) >> (8 * i)) as u8;
            let w = Written {
                byte,
                private: space == Space::Local,
                phase,
                seq,
            };
            self.memory.written.insert(at, w);
        }
    }

    /// A clobber (`Access::CLOBBER_OBJECT` of the object of `addr`, or
    /// `Access::CLOBBER_ALL`): see the module documentation.
    pub(super) fn clobber(&mut self, space: Space, addr: i64, access: Access) {
        self.memory.seq += 1;
        let private = space == Space::Local;
        let tag = (access.atomic == Access::CLOBBER_OBJECT).then_some(object_key(addr));
        if private && tag.is_none() {
            return;
        }
        self.memory.clobbers.push(Clobber {
            tag,
            private,
            phase: self.memory.phase,
            gen: self.memory.calls,
            seq: self.memory.seq,
        });
    }

    /// The value of the free location `name` (a function oracle's value
    /// for one argument list): asked of the source once per run, recorded
    /// with the run's reads.
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

    /// The values of the free bytes `names` (the byte's place in the
    /// load, its name), none read before in the run: asked of the source
    /// once, recorded with the run's reads, one per byte.
    pub(super) fn free_bytes(
        &mut self,
        names: Vec<(u32, String)>,
        oracle: Option<OracleId>,
    ) -> Result<Vec<(u32, u8)>, Stop> {
        let module = self.module();
        let bytes = match oracle {
            Some(o) => {
                let b = self.src.memory_bytes(module, o, &names)?;
                if self.src.decided(module, o, 0) {
                    self.decisions += 1;
                }
                b
            }
            None => vec![0; names.len()],
        };
        let mut out = Vec::with_capacity(names.len());
        for ((i, name), b) in names.into_iter().zip(bytes) {
            self.charge(16 + name.len() as u64)?;
            self.memory.seen.insert(name.clone(), i64::from(b));
            self.trace.memory.push((name, i64::from(b)));
            out.push((i, b));
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Red-team finding F6: two names with one 31-bit hash get two bases,
    /// each name keeps its own, and the hash really collides (else this
    /// test could not fail).
    #[test]
    fn colliding_names_get_distinct_bases() {
        assert_eq!(natural_tag("@znjlbqni"), natural_tag("@jaqcoenp"));
        let a = object_base("@znjlbqni");
        let b = object_base("@jaqcoenp");
        assert_ne!(a, b);
        assert_eq!(object_base("@znjlbqni"), a);
        assert_eq!(object_base("@jaqcoenp"), b);
        assert_eq!(place(Space::Global, b + 4), "@jaqcoenp[4]");
    }
}
