//! The blocks of a mapped function after the mapping: the entry block that
//! [`crate::write`] adds is dropped again when it holds nothing.
#![deny(unsafe_code)]

use convcheck_ir::{Cfg, InstKind, Term};

/// The block [`crate::write`] adds when the IR's entry block has
/// predecessors (LLVM's entry block may have none) is dropped again: a
/// first block named `convcheck.entry` that holds no instruction once its
/// allocas are promoted and branches to the second block, the IR's entry.
pub(crate) fn drop_written_entry(cfg: &mut Cfg) {
    let droppable = cfg.blocks.len() > 1
        && cfg.blocks[0].name == "convcheck.entry"
        && cfg.blocks[0].insts.is_empty()
        && cfg.blocks[0].term == Term::Br(1)
        && !cfg.blocks.iter().skip(1).any(|b| {
            b.term.succs().contains(&0)
                || b.insts.iter().any(|i| {
                    matches!(&i.kind, InstKind::Phi { incoming, .. }
                        if incoming.iter().any(|(p, _)| *p == 0))
                })
        });
    if !droppable {
        return;
    }
    cfg.blocks.remove(0);
    for block in &mut cfg.blocks {
        block.term.map_succs(|b| b - 1);
        for i in &mut block.insts {
            if let InstKind::Phi { incoming, .. } = &mut i.kind {
                for (p, _) in incoming.iter_mut() {
                    *p -= 1;
                }
            }
        }
    }
}
