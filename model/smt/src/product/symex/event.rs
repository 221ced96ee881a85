//! Recording one observable event of a symbolic run ([`Exec::event`]): its
//! position in the sequence the query compares (every load and barrier
//! counted) and its *visible* position, in the sequence single-thread
//! behaviour compares (`convcheck_ir::exec::observe`): a load of
//! byte-addressed memory that is not volatile, and a plain barrier where
//! plain barriers are judged by the hazards they leave, are *hidden*
//! there. The query compares the first (it gives the matching proof its
//! pairs); a model whose runs differ only in hidden events is searched
//! again by the second (`super::super::query::visible`).

use super::{At, Ev, Exec, State, Tag};
use convcheck_ir::exec::observe::plain_store;
use convcheck_ir::{Access, BarrierKind, CallKind, OpId, OpKind};
use z3::ast::{Bool, BV};

impl Exec<'_, '_> {
    /// Whether an event of `op` with `tag` is hidden from single-thread
    /// behaviour (`convcheck_ir::exec::observe::observable`, under
    /// `Observe::behaviour`): a non-volatile load of byte-addressed
    /// memory (its value is compared wherever it goes), a plain barrier of
    /// a module whose barriers are judged by hazards.
    fn hidden(&self, op: OpId, tag: &Tag) -> bool {
        match tag {
            Tag::Mem(_, false, access) => access.bytes > 0 && !access.volatile,
            Tag::Mem(space, true, access) => plain_store(*space, true, *access),
            Tag::Label(_) => {
                self.prog.hide_plain_barriers
                    && matches!(
                        self.prog.module().op(op).map(|o| o.kind),
                        Some(OpKind::Call(CallKind::Barrier(BarrierKind::Plain, _)))
                    )
            }
            _ => false,
        }
    }

    /// Records an observable event at the current state.
    ///
    /// **Two projections** (`convcheck_ir::exec::observe::observable`):
    /// where either program has a convergent operation that accesses no
    /// memory ([`super::super::Globals::second`]), a run's events are
    /// compared as two sequences: every event but those operations at
    /// positions from 0 (`pos`), and every convergent event, those
    /// operations included, at positions from the offset (`pos2`), so that
    /// a convergent event of another kind is recorded twice. The offset is
    /// above every position of the first, so a position still names one
    /// event. The visible positions (`vis`, `vis2`) count the same way,
    /// hidden events left out.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn event(
        &mut self,
        st: &mut State,
        at: At,
        op: OpId,
        tag: Tag,
        vals: Vec<BV>,
        pred: Option<Bool>,
        convergent: bool,
    ) {
        let module = self.prog.module();
        let hidden = self.hidden(op, &tag);
        // A plain store is in a segment; every synchronisation point ends
        // one (`convcheck_ir::exec::observe`, `ends_segment`): every event
        // but a plain store, a load of bytes that is neither volatile nor
        // atomic, and what is compared in the second projection alone.
        let (store, sync) = match &tag {
            Tag::Mem(space, write, access) => {
                let store = plain_store(*space, *write, *access);
                let load = !*write && access.bytes > 0 && !access.volatile;
                let inaccessible = *write && access.atomic == Access::EXTERNAL_CALL_INACCESSIBLE;
                (
                    store.then_some(access.bytes),
                    !store && !load && !inaccessible,
                )
            }
            _ => (None, !module.op(op).is_some_and(|o| o.memory_none)),
        };
        let seg = store.map(|w| (st.seg.clone(), w));
        // A plain store carries its segment as a value too, so that the
        // query's comparison of every event one by one (and the proof by
        // matching) sees a store moved across a synchronisation point that
        // is no event (a fence).
        let mut vals = vals;
        if store.is_some() {
            let w = self.g.w;
            vals.push(if w < 64 {
                st.seg.zero_ext(64 - w)
            } else {
                st.seg.clone()
            });
        }
        if sync {
            st.seg = st.seg.bvadd(BV::from_u64(1, self.g.w));
        }
        // A call's event (`Access::is_call_event`) is in the second
        // projection too, and one of a call that accesses only
        // inaccessible memory there alone (`exec::observe::observable`).
        let call = match &tag {
            Tag::Mem(_, true, access) if access.is_call_event() => Some(access.atomic),
            _ => None,
        };
        let second = self.g.second.is_some() && (convergent || call.is_some());
        let no_memory = second
            && (module.op(op).is_some_and(|o| o.memory_none)
                || call == Some(convcheck_ir::Access::EXTERNAL_CALL_INACCESSIBLE));
        let label = if convergent {
            self.tags.id(Tag::Label(module.label(op).into()))
        } else {
            u32::MAX
        };
        let site = self.prog.site(at, op);
        let tag = if no_memory {
            self.tags
                .id(Tag::OpNoMemory(module.label(op).into(), vals.len()))
        } else {
            self.tags.id(tag)
        };
        let ev = Ev {
            guard: st.guard.clone(),
            pos: st.pos.clone(),
            vpos: (!hidden).then(|| st.vis.clone()),
            tag,
            label,
            vals,
            defined: std::mem::take(&mut self.observed),
            pred,
            site,
            convergent,
            seg,
        };
        let one = BV::from_u64(1, self.g.w);
        if second {
            self.events.push(Ev {
                pos: st.pos2.clone(),
                vpos: (!hidden).then(|| st.vis2.clone()),
                ..ev.clone()
            });
            st.pos2 = st.pos2.bvadd(&one);
            if !hidden {
                st.vis2 = st.vis2.bvadd(&one);
            }
        }
        if !no_memory {
            self.events.push(ev);
            st.pos = st.pos.bvadd(&one);
            if !hidden {
                st.vis = st.vis.bvadd(&one);
            }
        }
    }
}
