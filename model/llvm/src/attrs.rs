//! Attributes and attribute groups.
//!
//! Covers LangRef "Parameter Attributes", "Function Attributes", "Call Site
//! Attributes" and "Attribute Groups": enum attributes (`convergent`,
//! `noundef`, `inreg`), attributes with an argument (`align 4`,
//! `dereferenceable(8)`, `memory(argmem: read)`, `range(i32 0, 1024)`,
//! `byval(%T)`, `alignstack=16` inside groups), string attributes
//! (`"key"="value"`, `"key"`) and references to groups (`#0`). Any attribute
//! the parser does not know is kept by name, never rejected, so IR from a
//! newer LLVM still reads; the argument text is kept as written.
#![deny(unsafe_code)]

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::value::Name;

/// One attribute as written.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Attribute {
    /// A bare keyword: `convergent`, `noundef`, `inreg`, or any unknown word.
    Flag(String),
    /// A keyword with an argument, kept as text: `align 4` is
    /// `("align", "4")`, `memory(read)` is `("memory", "read")`,
    /// `alignstack=16` is `("alignstack", "16")`.
    Valued {
        /// The keyword.
        name: String,
        /// The argument as written, without the surrounding parentheses.
        value: String,
    },
    /// A string attribute `"key"` or `"key"="value"` (unescaped).
    Str {
        /// The key.
        key: String,
        /// The value, if any.
        value: Option<String>,
    },
    /// A reference `#N` to an attribute group.
    Group(u32),
}

impl Attribute {
    /// The keyword or key, or `None` for a group reference.
    pub fn name(&self) -> Option<&str> {
        match self {
            Attribute::Flag(n) | Attribute::Valued { name: n, .. } => Some(n),
            Attribute::Str { key, .. } => Some(key),
            Attribute::Group(_) => None,
        }
    }

    /// Whether this is the keyword attribute `name` (with or without an
    /// argument). String attributes never match: `"convergent"` is not
    /// `convergent`.
    pub fn is(&self, name: &str) -> bool {
        match self {
            Attribute::Flag(n) | Attribute::Valued { name: n, .. } => n == name,
            _ => false,
        }
    }
}

impl fmt::Display for Attribute {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let quoted = |f: &mut fmt::Formatter<'_>, s: &str| {
            // Reuse the name printer's escaping by printing a forced-quote name.
            let shown = Name::Named(s.to_string()).to_string();
            if shown.starts_with('"') {
                f.write_str(&shown)
            } else {
                write!(f, "\"{shown}\"")
            }
        };
        match self {
            Attribute::Flag(n) => f.write_str(n),
            Attribute::Valued { name, value } if name == "align" => write!(f, "align {value}"),
            Attribute::Valued { name, value } => write!(f, "{name}({value})"),
            Attribute::Str { key, value } => {
                quoted(f, key)?;
                if let Some(v) = value {
                    f.write_str("=")?;
                    quoted(f, v)?;
                }
                Ok(())
            }
            Attribute::Group(n) => write!(f, "#{n}"),
        }
    }
}

/// An attribute group `attributes #N = { ... }`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AttrGroup {
    /// The group number `N`.
    pub id: u32,
    /// Its attributes.
    pub attrs: Vec<Attribute>,
    /// The line of the definition.
    pub line: u32,
}
