//! Function invocations in a thread's run.
//!
//! A run is one flat sequence of events across calls: a real call records a
//! [`EventKind::Call`] event and then the callee's events. Every event's
//! static id belongs to one function (`OpInfo::func` in the module's op table), so a
//! run splits into invocations with a stack: a `Call(g)` event opens an
//! invocation of `g`; an event of another function than the innermost open
//! one closes invocations until it matches. This reads only static facts,
//! never keys. A call of a function already open (recursion) would make
//! the boundary invisible, so it is refused.

use convcheck_ir::exec::{Event, EventKind};
use convcheck_ir::{FuncId, Module};

/// Where an event stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Placed {
    /// The function it belongs to.
    pub func: FuncId,
    /// The `Call` events (indices in the run) of the invocations enclosing
    /// it, outermost first; empty in the entry invocation.
    pub calls: Vec<usize>,
    /// A number unique to its invocation within the run.
    pub frame: usize,
}

/// Places every event of a run in its invocation.
pub(crate) fn place(module: &Module, run: &[Event]) -> Result<Vec<Placed>, String> {
    // (function, opening Call event, frame number)
    let mut stack: Vec<(FuncId, Option<usize>, usize)> = Vec::new();
    let mut frames = 0;
    let mut out = Vec::with_capacity(run.len());
    for (i, e) in run.iter().enumerate() {
        let Some(node) = module.op(e.sid) else {
            return Err(format!("event {i} has an unknown static id {}", e.sid.0));
        };
        let f = node.func;
        if stack.is_empty() {
            stack.push((f, None, frames));
            frames += 1;
        }
        while stack.len() > 1 && stack.last().map(|s| s.0) != Some(f) {
            stack.pop();
        }
        let Some(&(top, _, frame)) = stack.last() else {
            return Err("internal: empty invocation stack".into());
        };
        if top != f {
            return Err(format!(
                "event {i} (`{}`) belongs to `{}`, which is not running",
                module.label(e.sid),
                module.functions.get(f).map_or("?", |x| x.name.as_str())
            ));
        }
        out.push(Placed {
            func: f,
            calls: stack[1..].iter().filter_map(|s| s.1).collect(),
            frame,
        });
        if let EventKind::Call(g) = e.kind {
            if stack.iter().any(|s| s.0 == g) {
                return Err(format!(
                    "recursive call of `{}` at event {i}: invocation boundaries are not \
                     visible in the trace",
                    module.functions.get(g).map_or("?", |x| x.name.as_str())
                ));
            }
            stack.push((g, Some(i), frames));
            frames += 1;
        }
    }
    Ok(out)
}
