//! The generator behind `arbitrary::Arbitrary` (libFuzzer) and
//! `quickcheck::Arbitrary`.
//!
//! As in cranelift's fuzz cases, `Debug` prints a replayable input: a
//! kernel file for [`ArbKernel`] and [`QcKernel`], the module in the IR's
//! text form (`convcheck_ir::print::module_text`, which
//! `convcheck_ir::parse::parse_module` reads back) for [`ArbCfg`], each
//! after a `//` or `;` comment line naming the configuration. A crash
//! report pastes straight into a test.

use crate::cfg_gen::{generate_cfg, CfgCase, CfgConfig};
use crate::config::Config;
use crate::{generate, generate_seeded, shrink};
use arbitrary::{Arbitrary, Unstructured};
use convcheck_lang::syntax::ast::File;
use convcheck_lang::syntax::print;
use std::fmt;

/// A kernel for libFuzzer: a swarm [`Config`] drawn from the first bytes,
/// then a kernel generated with it from the rest.
#[derive(Clone, PartialEq, Eq)]
pub struct ArbKernel {
    /// The configuration it was generated with.
    pub config: Config,
    /// The kernel.
    pub file: File,
}

impl<'a> Arbitrary<'a> for ArbKernel {
    fn arbitrary(u: &mut Unstructured<'a>) -> arbitrary::Result<ArbKernel> {
        let config = Config::arbitrary(u)?;
        let file = generate(&config, u);
        Ok(ArbKernel { config, file })
    }
}

impl fmt::Debug for ArbKernel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "// {:?}", self.config)?;
        write!(f, "{}", print(&self.file))
    }
}

/// A kernel for quickcheck: generated with the default [`Config`] from a
/// seed the quickcheck generator draws; shrinks with
/// [`shrink::reductions`], so every shrunk kernel is valid.
#[derive(Clone, PartialEq, Eq)]
pub struct QcKernel(pub File);

impl quickcheck::Arbitrary for QcKernel {
    fn arbitrary(g: &mut quickcheck::Gen) -> QcKernel {
        let seed = <u64 as quickcheck::Arbitrary>::arbitrary(g);
        QcKernel(generate_seeded(&Config::default(), seed))
    }

    fn shrink(&self) -> Box<dyn Iterator<Item = QcKernel>> {
        Box::new(shrink::reductions(self.0.clone()).map(QcKernel))
    }
}

impl fmt::Debug for QcKernel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", print(&self.0))
    }
}

/// A random CFG case for libFuzzer, with a swarm [`CfgConfig`].
#[derive(Clone, PartialEq, Eq)]
pub struct ArbCfg {
    /// The configuration it was generated with.
    pub config: CfgConfig,
    /// The case.
    pub case: CfgCase,
}

impl<'a> Arbitrary<'a> for ArbCfg {
    fn arbitrary(u: &mut Unstructured<'a>) -> arbitrary::Result<ArbCfg> {
        let config = CfgConfig::arbitrary(u)?;
        let case = generate_cfg(&config, u);
        Ok(ArbCfg { config, case })
    }
}

impl fmt::Debug for ArbCfg {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // `;` starts a comment in the IR's text form.
        writeln!(f, "; {:?}", self.config)?;
        write!(f, "{}", self.case.text())
    }
}
