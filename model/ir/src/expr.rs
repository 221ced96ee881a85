//! Operands of IR instructions: integer expressions over constants, the
//! thread index, the group size, locals, oracles, calls and memory accesses
//! (DESIGN.md 2.1, 2.2).
//!
//! Values are 64-bit integers with wrapping arithmetic; a comparison is 1 or
//! 0; division by zero is 0 (so no input can trap the model). `&&`, `||`
//! and `select` evaluate lazily, the way C does, so a call inside the arm
//! not taken has no instance. Calls and memory accesses inside an
//! expression are operations of their own ([`OpId`]): evaluating one records
//! an instance keyed by the enclosing instruction's key plus the op.
//!
//! A front end resolves every name when it builds an expression: a local
//! or parameter is [`Expr::Var`], any other source of a value is an oracle
//! ([`Expr::Oracle`]), so evaluation never looks a name up.

use crate::float::{FBin, FUn};
use crate::ops::{CallKind, OpId, OracleId, Space};

/// Unary operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UnOp {
    /// `!`: 1 if zero, else 0.
    Not,
    /// `-`, wrapping.
    Neg,
    /// `~`.
    BitNot,
    /// Keep the low `n` bits (1 to 63) and sign-extend them: the value of an
    /// LLVM `iN` held in 64 bits (`sext32(x)`).
    SExt(u8),
    /// Keep the low `n` bits (1 to 63), zero-extended (`zext32(x)`): how an
    /// unsigned comparison or a `zext` reads an `iN`.
    ZExt(u8),
    /// A floating-point operation on bit patterns ([`crate::float`]).
    F(FUn),
}

/// Binary operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinOp {
    /// `||`, lazy.
    Or,
    /// `&&`, lazy.
    And,
    /// `|`
    BitOr,
    /// `^`
    BitXor,
    /// `&`
    BitAnd,
    /// `==`
    Eq,
    /// `!=`
    Ne,
    /// `<` (signed)
    Lt,
    /// `<=` (signed)
    Le,
    /// `>` (signed)
    Gt,
    /// `>=` (signed)
    Ge,
    /// `<<`, shift amount modulo 64
    Shl,
    /// `>>` (arithmetic), shift amount modulo 64
    Shr,
    /// `+`, wrapping
    Add,
    /// `-`, wrapping
    Sub,
    /// `*`, wrapping
    Mul,
    /// `/`, signed; 0 when dividing by zero
    Div,
    /// `%`, signed; 0 when dividing by zero
    Rem,
    /// `<` on the unsigned 64-bit values (`ult`)
    ULt,
    /// `<=` unsigned (`ule`)
    ULe,
    /// `>` unsigned (`ugt`)
    UGt,
    /// `>=` unsigned (`uge`)
    UGe,
    /// `/` unsigned; 0 when dividing by zero (`udiv`)
    UDiv,
    /// `%` unsigned; 0 when dividing by zero (`urem`)
    URem,
    /// `>>` logical, shift amount modulo 64 (`lshr`)
    LShr,
    /// A floating-point operation on bit patterns ([`crate::float`]).
    F(FBin),
}

impl BinOp {
    /// The operators C spells (the kernel language has exactly these).
    pub const C: [BinOp; 18] = [
        BinOp::Or,
        BinOp::And,
        BinOp::BitOr,
        BinOp::BitXor,
        BinOp::BitAnd,
        BinOp::Eq,
        BinOp::Ne,
        BinOp::Lt,
        BinOp::Le,
        BinOp::Gt,
        BinOp::Ge,
        BinOp::Shl,
        BinOp::Shr,
        BinOp::Add,
        BinOp::Sub,
        BinOp::Mul,
        BinOp::Div,
        BinOp::Rem,
    ];

    /// Every operator, for text forms and generators.
    pub const ALL: [BinOp; 25] = [
        BinOp::Or,
        BinOp::And,
        BinOp::BitOr,
        BinOp::BitXor,
        BinOp::BitAnd,
        BinOp::Eq,
        BinOp::Ne,
        BinOp::Lt,
        BinOp::Le,
        BinOp::Gt,
        BinOp::Ge,
        BinOp::Shl,
        BinOp::Shr,
        BinOp::Add,
        BinOp::Sub,
        BinOp::Mul,
        BinOp::Div,
        BinOp::Rem,
        BinOp::ULt,
        BinOp::ULe,
        BinOp::UGt,
        BinOp::UGe,
        BinOp::UDiv,
        BinOp::URem,
        BinOp::LShr,
    ];

    /// The operator's C spelling.
    pub fn symbol(self) -> &'static str {
        match self {
            BinOp::Or => "||",
            BinOp::And => "&&",
            BinOp::BitOr => "|",
            BinOp::BitXor => "^",
            BinOp::BitAnd => "&",
            BinOp::Eq => "==",
            BinOp::Ne => "!=",
            BinOp::Lt => "<",
            BinOp::Le => "<=",
            BinOp::Gt => ">",
            BinOp::Ge => ">=",
            BinOp::Shl => "<<",
            BinOp::Shr => ">>",
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::Div => "/",
            BinOp::Rem => "%",
            BinOp::ULt => "ult",
            BinOp::ULe => "ule",
            BinOp::UGt => "ugt",
            BinOp::UGe => "uge",
            BinOp::UDiv => "udiv",
            BinOp::URem => "urem",
            BinOp::LShr => "lshr",
            BinOp::F(f) => crate::float::intern(f.name()),
        }
    }
}

/// How a memory access reads and writes (DESIGN.md 2.6).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
pub struct Access {
    /// `0`: an element of the kernel language's arrays (`shared[i]`): the
    /// index counts elements and a load's value is its oracle's next value
    /// (the kernel language keeps no values in memory). `n > 0`: `n` bytes
    /// at a byte address, with values in memory (`crate::exec::memory`):
    /// private memory is thread state, shared and global memory give the
    /// thread's own writes of the barrier phase, else a free value named by
    /// the location and the phase.
    pub bytes: u32,
    /// A volatile access: observable even when its value is not used.
    pub volatile: bool,
    /// 0 for a plain access; else an atomic read-modify-write
    /// (`atomicrmw`; DESIGN.md 2.6), written as a store of its operand,
    /// and this is the number of its operation (the front end's; LLVM's
    /// reader numbers `xchg`, `add`, `sub`, ... from 1), part of the
    /// event. An atomic never races with another atomic and leaves no
    /// value in the thread's memory (what it writes depends on the other
    /// threads); its result is a free value the front end reads apart.
    /// An atomic of operation [`Access::KEEPS_VALUE`] or above (a `store
    /// atomic`, the value a read-modify-write leaves) does leave its value
    /// in the thread's memory, as a plain store does.
    pub atomic: u8,
}

impl Access {
    /// An element of the kernel language's arrays.
    pub const ELEMENT: Access = Access {
        bytes: 0,
        volatile: false,
        atomic: 0,
    };

    /// The first atomic operation that leaves its value in the thread's
    /// memory (see [`Access::atomic`]).
    pub const KEEPS_VALUE: u8 = 128;

    /// The atomic operation of an argument of a call to an external
    /// function that may have effects (DESIGN.md 2.7, item 1: such calls
    /// are observable events): the LLVM front end writes the call as one
    /// such store per argument to a pseudo-object named after the callee
    /// (`call @f`), which no load reads. It leaves no value in memory and,
    /// being atomic, never races with another thread's call.
    pub const EXTERNAL_CALL: u8 = 127;

    /// As [`Access::EXTERNAL_CALL`], for a call that accesses only memory
    /// no pointer of the module reaches (LangRef,
    /// `memory(inaccessiblemem: ...)`): its order against loads and stores
    /// is not observable, only against the other calls and the convergent
    /// operations (the second projection of
    /// `crate::exec::observe::observable`).
    pub const EXTERNAL_CALL_INACCESSIBLE: u8 = 124;

    /// Whether a store with this access is the event of a call to an
    /// external function ([`Access::EXTERNAL_CALL`],
    /// [`Access::EXTERNAL_CALL_INACCESSIBLE`]).
    pub fn is_call_event(self) -> bool {
        self.atomic == Self::EXTERNAL_CALL || self.atomic == Self::EXTERNAL_CALL_INACCESSIBLE
    }

    /// The atomic operation of a *clobber*: what a call to an external
    /// function that may write memory leaves (LangRef, `memory`; DESIGN.md
    /// 2.6, issue 20): every byte of the object the store's address is in
    /// ([`crate::exec::memory::object_key`]) reads, until
    /// the thread writes it again, a fresh value named after the location
    /// and the number of calls that may write memory the thread has made
    /// ([`crate::exec::memory`]): a clobber whose value is a constant other
    /// than 0 is the first of a call and counts it, one whose value is 0
    /// is another of the same call. Private memory (space `local`) is
    /// clobbered only by a clobber of space `local`, and other memory only
    /// by one of another space, in the barrier phase it was made in. A
    /// clobber is no event and never races.
    pub const CLOBBER_OBJECT: u8 = 125;

    /// A clobber ([`Access::CLOBBER_OBJECT`]) of every location of shared
    /// and global memory (its address is not used): a call that may write
    /// any memory that is not private.
    pub const CLOBBER_ALL: u8 = 126;

    /// The atomic operation of the value a read-modify-write leaves in the
    /// thread's memory (it keeps its value): a function of the atomic's
    /// own operand and result, so the domain analysis does not take it as
    /// an observed value on its own.
    pub const VALUE_AFTER: u8 = 255;

    /// Whether a store with this access is a clobber
    /// ([`Access::CLOBBER_OBJECT`], [`Access::CLOBBER_ALL`]).
    pub fn is_clobber(self) -> bool {
        self.atomic == Self::CLOBBER_OBJECT || self.atomic == Self::CLOBBER_ALL
    }

    /// Whether a store with this access leaves its value in the thread's
    /// memory: a plain store, or an atomic of operation
    /// [`Access::KEEPS_VALUE`] or above.
    pub fn keeps_value(self) -> bool {
        self.atomic == 0 || self.atomic >= Self::KEEPS_VALUE
    }

    /// `n` bytes with values in memory.
    pub fn bytes(n: u32) -> Access {
        Access {
            bytes: n,
            volatile: false,
            atomic: 0,
        }
    }

    /// How many bytes a race check takes the access to cover (an element
    /// covers its index alone).
    pub fn extent(self) -> i64 {
        i64::from(self.bytes.max(1))
    }
}

/// Assignment operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AssignOp {
    /// `=`
    Set,
    /// `+=`
    Add,
    /// `-=`
    Sub,
    /// `*=`
    Mul,
}

impl AssignOp {
    /// The operator's C spelling.
    pub fn symbol(self) -> &'static str {
        match self {
            AssignOp::Set => "=",
            AssignOp::Add => "+=",
            AssignOp::Sub => "-=",
            AssignOp::Mul => "*=",
        }
    }
}

/// An operand expression.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Expr {
    /// An integer constant.
    Const(i64),
    /// The thread's index in its group.
    Tid,
    /// The group size.
    GroupSize,
    /// A local or parameter (0 until set).
    Var(String),
    /// A read of an oracle.
    Oracle(OracleId),
    /// `op a`.
    Unary(UnOp, Box<Expr>),
    /// `a op b`; `&&` and `||` are lazy.
    Binary(BinOp, Box<Expr>, Box<Expr>),
    /// `c ? a : b`, lazy.
    Select(Box<Expr>, Box<Expr>, Box<Expr>),
    /// A call: an instance of `op` (unless it is an oracle read), then its
    /// value.
    Call {
        /// The call's op.
        op: OpId,
        /// What it calls.
        kind: CallKind,
        /// The callee's name, as written.
        callee: String,
        /// The arguments.
        args: Vec<Expr>,
    },
    /// A read of `space[index]`: an instance of `op` (none for private
    /// bytes); its value, when used, is the oracle's next value for an
    /// element, the value in memory for bytes ([`Access`]).
    Load {
        /// The access's op.
        op: OpId,
        /// Which array.
        space: Space,
        /// The index (an element's) or byte address.
        index: Box<Expr>,
        /// The oracle that gives the loaded value (for bytes: the values a
        /// free location takes are its domain, and its name is the
        /// access's in reports).
        value: Option<OracleId>,
        /// Element or bytes, volatile or not.
        access: Access,
    },
    /// A write of `value` to `space[index]`: an instance of `op` (none for
    /// private bytes); its value is `value`.
    Store {
        /// The access's op.
        op: OpId,
        /// Which array.
        space: Space,
        /// The index (an element's) or byte address.
        index: Box<Expr>,
        /// What is written.
        value: Box<Expr>,
        /// Element or bytes, volatile or not.
        access: Access,
    },
    /// `var op= value`; its value is the new value of `var`.
    Assign {
        /// The local.
        var: String,
        /// How.
        op: AssignOp,
        /// The value.
        value: Box<Expr>,
    },
}

impl Expr {
    /// Calls `f` on this expression and every subexpression, pre-order.
    pub fn walk<'a>(&'a self, f: &mut dyn FnMut(&'a Expr)) {
        f(self);
        match self {
            Expr::Const(_) | Expr::Tid | Expr::GroupSize | Expr::Var(_) | Expr::Oracle(_) => {}
            Expr::Unary(_, a) => a.walk(f),
            Expr::Binary(_, a, b) => {
                a.walk(f);
                b.walk(f);
            }
            Expr::Select(a, b, c) => {
                a.walk(f);
                b.walk(f);
                c.walk(f);
            }
            Expr::Call { args, .. } => args.iter().for_each(|a| a.walk(f)),
            Expr::Load { index, .. } => index.walk(f),
            Expr::Store { index, value, .. } => {
                index.walk(f);
                value.walk(f);
            }
            Expr::Assign { value, .. } => value.walk(f),
        }
    }

    /// Whether any subexpression satisfies `p`.
    pub fn any(&self, p: &mut dyn FnMut(&Expr) -> bool) -> bool {
        let mut found = false;
        self.walk(&mut |e| {
            if !found && p(e) {
                found = true;
            }
        });
        found
    }

    /// Whether evaluating the expression can have an instance that is a
    /// convergent operation (a convergent call, a real call or a barrier).
    pub fn has_convergent_call(&self) -> bool {
        self.any(&mut |e| matches!(e, Expr::Call { kind, .. } if kind.is_convergent()))
    }

    /// The ops of the calls and memory accesses inside, pre-order.
    pub fn ops(&self) -> Vec<OpId> {
        let mut out = Vec::new();
        self.walk(&mut |e| match e {
            Expr::Call { op, kind, .. } if !matches!(kind, CallKind::Oracle(_)) => out.push(*op),
            Expr::Load { op, .. } | Expr::Store { op, .. } => out.push(*op),
            _ => {}
        });
        out
    }

    /// The constant value, if the expression is a constant.
    pub fn as_const(&self) -> Option<i64> {
        match self {
            Expr::Const(v) => Some(*v),
            _ => None,
        }
    }

    /// `a op b`.
    pub fn binary(op: BinOp, a: Expr, b: Expr) -> Expr {
        Expr::Binary(op, Box::new(a), Box::new(b))
    }

    /// An observed value that may be poison (a stored value, a convergent
    /// operation's argument): `value` where `defined` is non-zero, poison
    /// elsewhere, written `defined ? value : poison.observed`
    /// ([`POISON_OBSERVED`], a local never set). Where such an expression
    /// is a store's value or a convergent operation's argument, every
    /// engine reads it with [`Expr::observed`] and puts the definedness in
    /// the event (DESIGN.md 2.7: the target's value may differ only where
    /// the reference's is poison); anywhere else it is a `select` whose
    /// poison arm reads 0.
    pub fn maybe_poison(defined: Expr, value: Expr) -> Expr {
        if defined == Expr::Const(1) {
            return value;
        }
        Expr::Select(
            Box::new(defined),
            Box::new(value),
            Box::new(Expr::Var(POISON_OBSERVED.into())),
        )
    }

    /// An observed value's definedness and value ([`Expr::maybe_poison`]):
    /// `(None, self)` for a value that cannot be poison.
    pub fn observed(&self) -> (Option<&Expr>, &Expr) {
        match self {
            Expr::Select(d, v, p) if matches!(&**p, Expr::Var(n) if n == POISON_OBSERVED) => {
                (Some(d), v)
            }
            _ => (None, self),
        }
    }
}

/// The local that stands for poison in an observed value
/// ([`Expr::maybe_poison`]).
pub const POISON_OBSERVED: &str = "poison.observed";

/// The model's integer arithmetic on one binary operator: wrapping, with
/// division by zero defined as 0. Shared by execution and by passes that
/// fold constants, so both agree on every value.
pub fn binary(op: BinOp, x: i64, y: i64) -> i64 {
    match op {
        BinOp::Or => i64::from(x != 0 || y != 0),
        BinOp::And => i64::from(x != 0 && y != 0),
        BinOp::BitOr => x | y,
        BinOp::BitXor => x ^ y,
        BinOp::BitAnd => x & y,
        BinOp::Eq => i64::from(x == y),
        BinOp::Ne => i64::from(x != y),
        BinOp::Lt => i64::from(x < y),
        BinOp::Le => i64::from(x <= y),
        BinOp::Gt => i64::from(x > y),
        BinOp::Ge => i64::from(x >= y),
        BinOp::Shl => x.wrapping_shl((y & 63) as u32),
        BinOp::Shr => x.wrapping_shr((y & 63) as u32),
        BinOp::Add => x.wrapping_add(y),
        BinOp::Sub => x.wrapping_sub(y),
        BinOp::Mul => x.wrapping_mul(y),
        // Division by zero is defined as 0 so that no input can trap the
        // model; kernels that divide by zero are outside its scope.
        BinOp::Div => x.checked_div(y).unwrap_or(0),
        BinOp::Rem => x.checked_rem(y).unwrap_or(0),
        BinOp::ULt => i64::from((x as u64) < (y as u64)),
        BinOp::ULe => i64::from((x as u64) <= (y as u64)),
        BinOp::UGt => i64::from((x as u64) > (y as u64)),
        BinOp::UGe => i64::from((x as u64) >= (y as u64)),
        BinOp::UDiv => (x as u64).checked_div(y as u64).unwrap_or(0) as i64,
        BinOp::URem => (x as u64).checked_rem(y as u64).unwrap_or(0) as i64,
        BinOp::LShr => ((x as u64) >> (y & 63)) as i64,
        BinOp::F(f) => crate::float::binary(f, x, y),
    }
}

/// The model's arithmetic on one unary operator.
pub fn unary(op: UnOp, v: i64) -> i64 {
    match op {
        UnOp::Not => i64::from(v == 0),
        UnOp::Neg => v.wrapping_neg(),
        UnOp::BitNot => !v,
        UnOp::SExt(n) => {
            let n = u32::from(n.clamp(1, 64));
            if n >= 64 {
                v
            } else {
                (v << (64 - n)) >> (64 - n)
            }
        }
        UnOp::ZExt(n) => {
            let n = u32::from(n.clamp(1, 64));
            if n >= 64 {
                v
            } else {
                v & ((1u64 << n) - 1) as i64
            }
        }
        UnOp::F(f) => crate::float::unary(f, v),
    }
}

impl UnOp {
    /// The operator's name in the IR text form (`not`, `sext32`).
    pub fn name(self) -> String {
        match self {
            UnOp::Not => "not".into(),
            UnOp::Neg => "neg".into(),
            UnOp::BitNot => "bitnot".into(),
            UnOp::SExt(n) => format!("sext{n}"),
            UnOp::ZExt(n) => format!("zext{n}"),
            UnOp::F(f) => f.name(),
        }
    }

    /// The operator called `name` in the IR text form.
    pub fn from_name(name: &str) -> Option<UnOp> {
        match name {
            "not" => Some(UnOp::Not),
            "neg" => Some(UnOp::Neg),
            "bitnot" => Some(UnOp::BitNot),
            _ => {
                let (ctor, bits): (fn(u8) -> UnOp, &str) =
                    if let Some(b) = name.strip_prefix("sext") {
                        (UnOp::SExt, b)
                    } else {
                        (UnOp::ZExt, name.strip_prefix("zext")?)
                    };
                if bits.starts_with('0') {
                    return None;
                }
                let n: u8 = bits.parse().ok()?;
                (1..=63).contains(&n).then(|| ctor(n))
            }
        }
    }
}

/// The new value of a local after `old op= v`.
pub fn assign(op: AssignOp, old: i64, v: i64) -> i64 {
    match op {
        AssignOp::Set => v,
        AssignOp::Add => old.wrapping_add(v),
        AssignOp::Sub => old.wrapping_sub(v),
        AssignOp::Mul => old.wrapping_mul(v),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The width operators give LLVM's value of an `iN` held in 64 bits,
    /// and the unsigned operators read the 64 bits as unsigned.
    #[test]
    fn width_and_unsigned_arithmetic() {
        assert_eq!(unary(UnOp::SExt(8), 0xff), -1);
        assert_eq!(unary(UnOp::SExt(8), 0x7f), 127);
        assert_eq!(unary(UnOp::ZExt(8), -1), 255);
        assert_eq!(unary(UnOp::SExt(32), i64::from(u32::MAX)), -1);
        assert_eq!(unary(UnOp::ZExt(1), 3), 1);
        assert_eq!(unary(UnOp::SExt(1), 1), -1);
        assert_eq!(binary(BinOp::ULt, -1, 0), 0);
        assert_eq!(binary(BinOp::Lt, -1, 0), 1);
        assert_eq!(binary(BinOp::UGe, -1, 5), 1);
        assert_eq!(binary(BinOp::UDiv, -2, 2), i64::MAX);
        assert_eq!(binary(BinOp::URem, 7, 0), 0);
        assert_eq!(binary(BinOp::LShr, -1, 60), 15);
        assert_eq!(binary(BinOp::Shr, -1, 60), -1);
    }

    #[test]
    fn unary_names_read_back() {
        for op in [
            UnOp::Not,
            UnOp::Neg,
            UnOp::BitNot,
            UnOp::SExt(1),
            UnOp::SExt(63),
            UnOp::ZExt(32),
        ] {
            assert_eq!(UnOp::from_name(&op.name()), Some(op));
        }
        for bad in ["sext0", "sext64", "zext", "sext08", "zext-1", "sext1x"] {
            assert_eq!(UnOp::from_name(bad), None, "{bad}");
        }
    }
}
