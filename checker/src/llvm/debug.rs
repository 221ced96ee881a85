//! Source positions from LLVM's debug information: a module that clang
//! compiled with line tables (`-gline-tables-only`, which `--frontend
//! clang` passes) attaches `!dbg !N` to its instructions, and `!N =
//! !DILocation(line: L, column: C, scope: !S)` says where in the source
//! each came from. [`SourceLines::apply`] moves the ops of a mapped module
//! from their LLVM lines to those source positions, so that the trace
//! tables, the text report and SARIF results of a `--frontend` check point
//! at the `.cu` line, not at a line of clang's output.
//!
//! - A location inlined into another (`inlinedAt: !K`, the prelude's
//!   always-inline helpers such as `atomicAdd`) counts where it was
//!   inlined, outermost first: the user's call.
//! - Only locations in the source file itself count (its `DIFile`'s name
//!   ends with the file's name); an op with no such location gets line 0,
//!   which reports show as unknown, rather than a line of clang's output
//!   that would point at an unrelated source line.

use convcheck_ir::span::{Pos, Span};
use std::collections::HashMap;

/// A module's instruction lines mapped to positions in one source file.
#[derive(Clone, Debug, Default)]
pub struct SourceLines {
    /// LLVM line to source position.
    by_line: HashMap<u32, Pos>,
}

/// The value of field `key` (`line`, `scope`, `file`) in a metadata
/// node's text: the characters up to the next `,` or `)`.
fn field<'a>(node: &'a str, key: &str) -> Option<&'a str> {
    let mut from = 0;
    while let Some(i) = node[from..].find(key) {
        let at = from + i;
        let before = node[..at].chars().next_back();
        let rest = &node[at + key.len()..];
        if matches!(before, Some('(' | ' ' | ',')) {
            if let Some(v) = rest.strip_prefix(": ") {
                if let Some(q) = v.strip_prefix('"') {
                    return q.find('"').map(|e| &v[..e + 2]);
                }
                let end = v.find([',', ')']).unwrap_or(v.len());
                return Some(v[..end].trim());
            }
        }
        from = at + key.len();
    }
    None
}

/// `!12` as 12.
fn node_ref(v: &str) -> Option<u32> {
    v.strip_prefix('!')?.parse().ok()
}

/// The metadata nodes of `text`: number to the node's text.
fn nodes(text: &str) -> HashMap<u32, &str> {
    text.lines()
        .filter_map(|l| {
            let rest = l.strip_prefix('!')?;
            let (num, node) = rest.split_once(" = ")?;
            Some((num.parse().ok()?, node))
        })
        .collect()
}

/// The `!dbg !N` attachment of an instruction line.
fn attachment(line: &str) -> Option<u32> {
    let at = line.rfind("!dbg !")?;
    let digits: String = line[at + 6..]
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    digits.parse().ok()
}

impl SourceLines {
    /// The positions in `source` (a path; its file name is compared) of
    /// the instructions of LLVM IR `text`.
    pub fn of(text: &str, source: &str) -> SourceLines {
        let nodes = nodes(text);
        let name = std::path::Path::new(source)
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let in_source = |scope: u32| -> bool {
            // A scope's file: its own `file:` field, else its parent's.
            let mut s = scope;
            for _ in 0..64 {
                let Some(node) = nodes.get(&s) else {
                    return false;
                };
                if let Some(f) = field(node, "file").and_then(node_ref) {
                    let Some(file) = nodes.get(&f) else {
                        return false;
                    };
                    return field(file, "filename").is_some_and(|n| {
                        let n = n.trim_matches('"');
                        !name.is_empty() && (n == name || n.ends_with(&format!("/{name}")))
                    });
                }
                match field(node, "scope").and_then(node_ref) {
                    Some(p) => s = p,
                    None => return false,
                }
            }
            false
        };
        let mut cache: HashMap<u32, Option<Pos>> = HashMap::new();
        let mut position = |loc: u32| -> Option<Pos> {
            if let Some(p) = cache.get(&loc) {
                return *p;
            }
            // The outermost location of an inlined chain.
            let mut at = loc;
            for _ in 0..64 {
                match nodes
                    .get(&at)
                    .and_then(|n| field(n, "inlinedAt"))
                    .and_then(node_ref)
                {
                    Some(k) => at = k,
                    None => break,
                }
            }
            let pos = nodes.get(&at).and_then(|n| {
                let line: u32 = field(n, "line")?.parse().ok()?;
                let col: u32 = field(n, "column").and_then(|c| c.parse().ok()).unwrap_or(1);
                let scope = field(n, "scope").and_then(node_ref)?;
                (line > 0 && in_source(scope)).then_some(Pos {
                    line,
                    col: col.max(1),
                })
            });
            cache.insert(loc, pos);
            pos
        };
        let mut by_line = HashMap::new();
        for (i, l) in text.lines().enumerate() {
            if l.starts_with('!') || l.starts_with(';') {
                continue;
            }
            if let Some(p) = attachment(l).and_then(&mut position) {
                by_line.insert(i as u32 + 1, p);
            }
        }
        SourceLines { by_line }
    }

    /// Whether the text had any location in the source.
    pub fn is_empty(&self) -> bool {
        self.by_line.is_empty()
    }

    /// Moves every op of `module` (whose spans are lines of the LLVM text
    /// this was made from) to its source position, or to line 0 when it
    /// has none.
    pub fn apply(&self, module: &mut convcheck_ir::Module) {
        for op in &mut module.ops {
            let pos = self
                .by_line
                .get(&op.span.start.line)
                .copied()
                .unwrap_or_default();
            op.span = Span::new(pos, pos);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = r#"define void @k() !dbg !5 {
entry:
  %0 = call i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !12
  call void @__syncwarp(i32 -1), !dbg !14
  %1 = atomicrmw add ptr null, i32 1 monotonic, align 4, !dbg !16
  ret void
}
!3 = !DIFile(filename: "examples/gpu/k.cu", directory: "/w")
!4 = !DIFile(filename: "/tmp/x/convcheck_cuda_prelude.h", directory: "/w")
!5 = distinct !DISubprogram(name: "k", scope: !3, file: !3, line: 2)
!9 = distinct !DISubprogram(name: "atomicAdd", scope: !4, file: !4, line: 80)
!10 = distinct !DILexicalBlock(scope: !5, file: !3, line: 4, column: 3)
!12 = !DILocation(line: 3, column: 11, scope: !5)
!14 = !DILocation(line: 5, column: 5, scope: !10)
!15 = distinct !DILocation(line: 6, column: 3, scope: !10)
!16 = !DILocation(line: 80, column: 60, scope: !9, inlinedAt: !15)
"#;

    #[test]
    fn instructions_get_their_source_lines_and_inlined_ones_the_call_site() {
        let s = SourceLines::of(TEXT, "k.cu");
        assert_eq!(s.by_line.get(&3), Some(&Pos { line: 3, col: 11 }));
        assert_eq!(s.by_line.get(&4), Some(&Pos { line: 5, col: 5 }));
        assert_eq!(s.by_line.get(&5), Some(&Pos { line: 6, col: 3 }));
        assert_eq!(s.by_line.get(&6), None);
        // Another file's name finds nothing.
        assert!(SourceLines::of(TEXT, "other.cu").is_empty());
        assert_eq!(
            field("!DIFile(filename: \"a, b\", directory: \"d\")", "filename"),
            Some("\"a, b\"")
        );
    }
}
