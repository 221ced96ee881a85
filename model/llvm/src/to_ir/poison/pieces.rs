//! The blocks of a function split where poison would be undefined
//! behaviour (`super`): each such instruction ends its block's part in a
//! branch on its definedness condition, to the next part or to a block
//! `ub.OPCODE.lineN` that ends in `unreachable`.
#![deny(unsafe_code)]

use convcheck_ir::{Block, BlockId, Expr, Inst, InstKind, OpId, Term};

use crate::inst::Instruction;
use crate::value::Name;

use super::super::plain;
/// The blocks of one function as they are split where poison would be
/// undefined behaviour: the IR's blocks keep their ids (their first
/// part), later parts and the blocks of undefined behaviour come after
/// them.
pub(crate) struct Pieces {
    blocks: Vec<Option<Block>>,
    /// The IR block being mapped and the id of its current part.
    first: BlockId,
    current: BlockId,
    /// Parts of the current block so far.
    count: usize,
    /// IR blocks whose terminator ended up in a later part: (block, part).
    moved: Vec<(BlockId, BlockId)>,
}

impl Pieces {
    /// For a function of `n` blocks.
    pub fn new(n: usize) -> Pieces {
        Pieces {
            blocks: (0..n).map(|_| None).collect(),
            first: 0,
            current: 0,
            count: 0,
            moved: Vec::new(),
        }
    }

    /// The IR block `b` begins.
    pub fn begin(&mut self, b: BlockId) {
        self.first = b;
        self.current = b;
        self.count = 0;
    }

    fn part_name(name: &Name, k: usize) -> String {
        if k == 0 {
            plain(name)
        } else {
            format!("{}.defined{k}", plain(name))
        }
    }

    /// Ends the current part with `insts`: it goes on where `ok` holds,
    /// else to the block of undefined behaviour.
    pub fn split(
        &mut self,
        name: &Name,
        at: &Instruction,
        ok: Expr,
        insts: &mut Vec<Inst>,
        origin: Option<OpId>,
        ub_op: OpId,
    ) {
        // One block of undefined behaviour per instruction, named after it
        // so that a counterexample says where the run stopped.
        // A store's is no undefined behaviour of LangRef: the model's rule
        // for a poison value observed (the module documentation).
        let what = match at.opcode() {
            "store" => "poison-stored",
            op => op,
        };
        let ub_name = format!("ub.{what}.line{}", at.line());
        self.split_to(name, ub_name, ok, insts, origin, ub_op);
    }

    /// [`Pieces::split`] with the block of undefined behaviour named
    /// `ub_name`.
    pub fn split_to(
        &mut self,
        name: &Name,
        ub_name: String,
        ok: Expr,
        insts: &mut Vec<Inst>,
        origin: Option<OpId>,
        ub_op: OpId,
    ) {
        self.blocks.push(Some(Block {
            name: ub_name,
            insts: Vec::new(),
            term: Term::Unreachable,
            origin: Some(ub_op),
        }));
        let ub = self.blocks.len() - 1;
        let next = self.blocks.len();
        self.blocks.push(None);
        self.blocks[self.current] = Some(Block {
            name: Self::part_name(name, self.count),
            insts: std::mem::take(insts),
            term: Term::CondBr {
                cond: ok,
                then: next,
                els: ub,
            },
            origin,
        });
        self.current = next;
        self.count += 1;
    }

    /// Ends the current part with `insts` and a jump into a loop: a
    /// header `LABEL.header` that runs `body` (a block `LABEL.body` that
    /// jumps back to the header) while `cond` holds, then goes on to the
    /// next part (a memory intrinsic of a length that is not a constant,
    /// `super::super::mem_intrinsics`).
    #[allow(clippy::too_many_arguments)]
    pub fn loop_to(
        &mut self,
        name: &Name,
        label: &str,
        insts: &mut Vec<Inst>,
        origin: Option<OpId>,
        cond: Expr,
        body: Vec<Inst>,
        header_op: OpId,
        body_op: OpId,
    ) {
        let header = self.blocks.len();
        let body_id = header + 1;
        let next = header + 2;
        self.blocks.push(Some(Block {
            name: format!("{label}.header"),
            insts: Vec::new(),
            term: Term::CondBr {
                cond,
                then: body_id,
                els: next,
            },
            origin: Some(header_op),
        }));
        self.blocks.push(Some(Block {
            name: format!("{label}.body"),
            insts: body,
            term: Term::Br(header),
            origin: Some(body_op),
        }));
        self.blocks.push(None);
        self.blocks[self.current] = Some(Block {
            name: Self::part_name(name, self.count),
            insts: std::mem::take(insts),
            term: Term::Br(header),
            origin,
        });
        self.current = next;
        self.count += 1;
    }

    /// The last part of the IR block `name`.
    pub fn end(&mut self, mut block: Block, name: &Name) {
        block.name = Self::part_name(name, self.count);
        self.blocks[self.current] = Some(block);
        if self.current != self.first {
            self.moved.push((self.first, self.current));
        }
    }

    /// Every block; the phis of a split block's successors name its last
    /// part as their predecessor.
    pub fn finish(self) -> Vec<Block> {
        let mut blocks: Vec<Block> = self
            .blocks
            .into_iter()
            .map(|b| {
                b.unwrap_or_else(|| Block {
                    name: "poison.unfilled".to_string(),
                    insts: Vec::new(),
                    term: Term::Unreachable,
                    origin: None,
                })
            })
            .collect();
        for (orig, last) in self.moved {
            let mut succs = blocks[last].term.succs();
            succs.sort_unstable();
            succs.dedup();
            for s in succs {
                for inst in &mut blocks[s].insts {
                    let InstKind::Phi { incoming, .. } = &mut inst.kind else {
                        break;
                    };
                    for (p, _) in incoming.iter_mut() {
                        if *p == orig {
                            *p = last;
                        }
                    }
                }
            }
        }
        blocks
    }
}
