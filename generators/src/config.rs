//! What the kernel generator may produce: [`Config`], and the list of
//! constructs it can switch on and off ([`Construct`]).
//!
//! As in wasm-smith, every field has a documented default
//! ([`Config::default`] turns every construct on) and
//! `arbitrary::Arbitrary for Config` draws a *swarm* configuration: which
//! constructs are on, the maximums and the weights (Groce et al., "Swarm
//! testing", ISSTA 2012: leaving some features out of a test makes others
//! more likely to interact). The swarm draw never changes
//! [`Config::iteration_bound`], which is a contract with the path
//! enumeration bounds rather than a feature.

use arbitrary::{Arbitrary, Unstructured};

/// Generator configuration. See each field for its default.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Config {
    // ----- sizes -----
    /// Most statements in one compound statement (one block of the
    /// source). Default 5.
    pub max_block_len: usize,
    /// Deepest nesting of compound statements (if, loops, switch,
    /// noconvergent). Default 3.
    pub max_depth: u32,
    /// Most helper functions (functions other than `kernel` that the file
    /// defines and calls). Default 2.
    pub max_helpers: usize,
    /// Most named convergent operations in the file: observation points
    /// `...`, barriers, helper calls and external convergent calls, each
    /// named `// O<n>`. Default 24.
    pub max_observations: usize,
    /// Most statements in the file (the generator's fuel). Default 60.
    pub max_statements: usize,
    /// Most `case` labels in one `switch`. Default 3.
    pub max_switch_cases: usize,
    /// Path budget: an upper bound on the number of paths one thread can
    /// take through the kernel when every loop and every backwards `goto`
    /// is bounded by [`Config::iteration_bound`]. The generator estimates
    /// paths conservatively and never exceeds the budget, so path
    /// enumeration stays small. Default 256.
    pub max_paths: u32,
    /// The iteration bound the path budget assumes: path enumeration should
    /// run generated kernels with `Bounds::max_iters` equal to it. Counted
    /// loops `for (i = 0; i < K; i++)` have `K <= iteration_bound`, so they
    /// always finish within the bound. Default 2.
    pub iteration_bound: u32,
    /// Chance, in percent, of adding one more statement to a block (up to
    /// [`Config::max_block_len`]). Default 80.
    pub statement_percent: u8,

    // ----- weights of the statement choice table -----
    /// Weight of an observation point `...`. Default 6.
    pub observe_weight: u32,
    /// Weight of a simple operation: barrier, memory access, external
    /// convergent call. Default 4.
    pub operation_weight: u32,
    /// Weight of an `if` / `if else`. Default 4.
    pub if_weight: u32,
    /// Weight of a loop (`while`, `do while`, `for`). Default 3.
    pub loop_weight: u32,
    /// Weight of a `switch`. Default 1.
    pub switch_weight: u32,
    /// Weight of a guarded jump `if (c) break;` (also `continue`,
    /// `return`, forward `goto`). Default 3.
    pub jump_weight: u32,
    /// Weight of a call to a helper function. Default 1.
    pub call_weight: u32,
    /// Weight of a `[[clang::noconvergent]]` statement. Default 1.
    pub noconvergent_weight: u32,
    /// Weight of a goto cycle: `L: ...; if (c) goto L;`. Default 1.
    pub goto_cycle_weight: u32,

    // ----- construct switches (all on by default) -----
    /// `if` with a substatement of its own and `if ... else`. (Guards such
    /// as `if (c) break;` come with the jump they guard.) Default on.
    pub if_else: bool,
    /// `while` loops. Default on.
    pub while_loops: bool,
    /// `do ... while` loops. Default on.
    pub do_while_loops: bool,
    /// `for` loops: `for (;;)` with a leading guarded `break`, the seed's
    /// `for (...)`, and counted `for (i = 0; i < K; i++)`. Default on.
    pub for_loops: bool,
    /// `break`. Default on.
    pub breaks: bool,
    /// `continue`. Default on.
    pub continues: bool,
    /// `return`. Default on.
    pub returns: bool,
    /// `switch` with `case`, `default` and fall-through. Default on.
    pub switches: bool,
    /// Forward `goto` to a label later in an enclosing block. Default on.
    pub forward_gotos: bool,
    /// Backward `goto` (goto cycles), always under a deciding condition.
    /// Default on.
    pub backward_gotos: bool,
    /// Forward `goto` to a label inside a later loop's body (an iteration
    /// statement entered from outside, seed 000). Needs
    /// [`Config::forward_gotos`]. Default on.
    pub jumps_into_loops: bool,
    /// `[[clang::noconvergent]]` statements. Default on.
    pub noconvergent: bool,
    /// `__syncthreads();` and `barrier();`. Default on.
    pub barriers: bool,
    /// Data-carrying barriers `__syncthreads_count(p)`, `_and`, `_or`.
    /// Default on.
    pub data_barriers: bool,
    /// Loads and stores of `shared`, `global` and `local` with indices over
    /// `tid`, `N` and literals, and `__threadfence();`. Default on.
    pub memory: bool,
    /// Calls to helper functions defined in the file (up to
    /// [`Config::max_helpers`]). Default on.
    pub helper_calls: bool,
    /// Calls to undefined convergent functions (`ballot();`). Default on.
    pub convergent_calls: bool,
    /// Varying conditions (`c1`, `c2()`, `!c3`, `...`). Without varying or
    /// uniform conditions only counted loops and no goto cycles are made.
    /// Default on.
    pub varying: bool,
    /// Uniform conditions `uniform(u1)`. Default on.
    pub uniform: bool,
    /// Invariant conditions `invariant(k1)`, `invariant(tid < 1)`. Default
    /// on. (Conditions over `tid` alone are always available.)
    pub invariant: bool,
    /// Counted loops whose bound depends on the thread,
    /// `for (i = 0; i < tid + K; i += 1)` with `1 <= K <= iteration_bound`:
    /// a per-thread trip count in canonical form, the shape that loop
    /// peeling, unrolling with a remainder, IRCE and vectorization act on
    /// (issue 25). A thread runs `tid + K` iterations, so a check needs
    /// `max_iters` of at least `iteration_bound + N - 1` for a group of `N`
    /// threads to see every iteration. Needs [`Config::for_loops`].
    /// Default off (then no byte of the input is read for it, so every
    /// other configuration generates what it did before).
    pub tid_bounds: bool,
    /// In a loop of [`Config::tid_bounds`], half the time, a test of the
    /// counter at the end of the body guarding an observation point:
    /// `if (i == 0)` (the first iteration) or `if (i == tid + K - 1)` (the
    /// last), the compares that make LoopPeel peel a first or last
    /// iteration (finding 13.1). Default off (no byte read for it).
    pub counter_tests: bool,
    /// Half the invariant conditions (of [`Config::invariant`]) become
    /// uniform-invariant, `uniform(invariant(w<n>))`: one value for the
    /// whole run in every thread, the conditions loop unswitching moves
    /// out of loops with convergent operations (issue 20 class n). Default
    /// off (then no byte of the input is read for it, so every other
    /// configuration generates what it did before).
    pub uniform_invariant: bool,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            max_block_len: 5,
            max_depth: 3,
            max_helpers: 2,
            max_observations: 24,
            max_statements: 60,
            max_switch_cases: 3,
            max_paths: 256,
            iteration_bound: 2,
            statement_percent: 80,
            observe_weight: 6,
            operation_weight: 4,
            if_weight: 4,
            loop_weight: 3,
            switch_weight: 1,
            jump_weight: 3,
            call_weight: 1,
            noconvergent_weight: 1,
            goto_cycle_weight: 1,
            if_else: true,
            while_loops: true,
            do_while_loops: true,
            for_loops: true,
            breaks: true,
            continues: true,
            returns: true,
            switches: true,
            forward_gotos: true,
            backward_gotos: true,
            jumps_into_loops: true,
            noconvergent: true,
            barriers: true,
            data_barriers: true,
            memory: true,
            helper_calls: true,
            convergent_calls: true,
            varying: true,
            uniform: true,
            invariant: true,
            tid_bounds: false,
            counter_tests: false,
            uniform_invariant: false,
        }
    }
}

impl Config {
    /// Whether the configuration lets `c` appear.
    pub fn enables(&self, c: Construct) -> bool {
        match c {
            Construct::Observe => true,
            Construct::Else => self.if_else,
            Construct::While => self.while_loops,
            Construct::DoWhile => self.do_while_loops,
            Construct::For => self.for_loops,
            Construct::Break => self.breaks,
            Construct::Continue => self.continues,
            Construct::Return => self.returns,
            Construct::Switch => self.switches,
            Construct::FallThrough => self.switches,
            Construct::ForwardGoto => self.forward_gotos,
            Construct::BackwardGoto => self.backward_gotos,
            Construct::JumpIntoLoop => self.forward_gotos && self.jumps_into_loops,
            Construct::NoConvergent => self.noconvergent,
            Construct::Barrier => self.barriers,
            Construct::DataBarrier => self.data_barriers,
            Construct::Shared | Construct::Global | Construct::Local => self.memory,
            Construct::HelperCall => self.helper_calls && self.max_helpers > 0,
            Construct::ConvergentCall => self.convergent_calls,
            Construct::Varying => self.varying,
            Construct::Uniform => self.uniform,
            Construct::Invariant => self.invariant,
        }
    }
}

/// A kind of construct a generated kernel can contain; see
/// [`crate::constructs`] for how each is recognised in a file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Construct {
    /// An observation point `...`.
    Observe,
    /// An `if` with an `else`.
    Else,
    /// A `while` loop.
    While,
    /// A `do ... while` loop.
    DoWhile,
    /// A `for` loop.
    For,
    /// `break`.
    Break,
    /// `continue`.
    Continue,
    /// `return`.
    Return,
    /// A `switch`.
    Switch,
    /// A `case` reached by falling through from the previous one.
    FallThrough,
    /// A `goto` to a label after it.
    ForwardGoto,
    /// A `goto` to a label before it.
    BackwardGoto,
    /// A jump into an iteration statement from outside it.
    JumpIntoLoop,
    /// `[[clang::noconvergent]]`.
    NoConvergent,
    /// A plain barrier.
    Barrier,
    /// A data-carrying barrier.
    DataBarrier,
    /// An access to `shared`.
    Shared,
    /// An access to `global`.
    Global,
    /// An access to `local`.
    Local,
    /// A call to a function defined in the file.
    HelperCall,
    /// A call to an undefined convergent function.
    ConvergentCall,
    /// A varying oracle in a condition.
    Varying,
    /// A uniform oracle.
    Uniform,
    /// An invariant oracle or `invariant(...)` condition.
    Invariant,
}

impl Construct {
    /// Every construct, in declaration order.
    pub const ALL: [Construct; 24] = [
        Construct::Observe,
        Construct::Else,
        Construct::While,
        Construct::DoWhile,
        Construct::For,
        Construct::Break,
        Construct::Continue,
        Construct::Return,
        Construct::Switch,
        Construct::FallThrough,
        Construct::ForwardGoto,
        Construct::BackwardGoto,
        Construct::JumpIntoLoop,
        Construct::NoConvergent,
        Construct::Barrier,
        Construct::DataBarrier,
        Construct::Shared,
        Construct::Global,
        Construct::Local,
        Construct::HelperCall,
        Construct::ConvergentCall,
        Construct::Varying,
        Construct::Uniform,
        Construct::Invariant,
    ];
}

/// Swarm testing: draws which constructs are on, the maximums and the
/// weights. An exhausted input gives the smallest configuration (every
/// switch off, every maximum at its minimum), which still generates valid,
/// if tiny, kernels.
impl<'a> Arbitrary<'a> for Config {
    fn arbitrary(u: &mut Unstructured<'a>) -> arbitrary::Result<Config> {
        let base = Config::default();
        Ok(Config {
            max_block_len: u.int_in_range(1..=8)?,
            max_depth: u.int_in_range(1..=5)?,
            max_helpers: u.int_in_range(0..=3)?,
            max_observations: u.int_in_range(1..=40)?,
            max_statements: u.int_in_range(1..=120)?,
            max_switch_cases: u.int_in_range(1..=4)?,
            max_paths: u.int_in_range(1..=1024)?,
            iteration_bound: base.iteration_bound,
            statement_percent: u.int_in_range(30..=95)?,
            observe_weight: u.int_in_range(1..=8)?,
            operation_weight: u.int_in_range(0..=8)?,
            if_weight: u.int_in_range(0..=8)?,
            loop_weight: u.int_in_range(0..=8)?,
            switch_weight: u.int_in_range(0..=8)?,
            jump_weight: u.int_in_range(0..=8)?,
            call_weight: u.int_in_range(0..=8)?,
            noconvergent_weight: u.int_in_range(0..=8)?,
            goto_cycle_weight: u.int_in_range(0..=8)?,
            if_else: u.arbitrary()?,
            while_loops: u.arbitrary()?,
            do_while_loops: u.arbitrary()?,
            for_loops: u.arbitrary()?,
            breaks: u.arbitrary()?,
            continues: u.arbitrary()?,
            returns: u.arbitrary()?,
            switches: u.arbitrary()?,
            forward_gotos: u.arbitrary()?,
            backward_gotos: u.arbitrary()?,
            jumps_into_loops: u.arbitrary()?,
            noconvergent: u.arbitrary()?,
            barriers: u.arbitrary()?,
            data_barriers: u.arbitrary()?,
            memory: u.arbitrary()?,
            helper_calls: u.arbitrary()?,
            convergent_calls: u.arbitrary()?,
            varying: u.arbitrary()?,
            uniform: u.arbitrary()?,
            invariant: u.arbitrary()?,
            // Like `iteration_bound`, a contract with the enumeration
            // bounds (a thread-dependent trip count needs more iterations).
            tid_bounds: false,
            counter_tests: false,
            uniform_invariant: false,
        })
    }
}
