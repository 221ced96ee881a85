//! The hardware oracle (DESIGN.md 2.10, issue 24): what one warp of a real
//! NVIDIA GPU does with a kernel, against what the model says.
//!
//! The model is a specification, not a simulator of one GPU; this crate
//! measures how far a real back end and a real GPU are from it. A kernel
//! (a kernel-language function or an LLVM IR function) is
//!
//! 1. **instrumented** ([`instrument`]): every logged operation (an
//!    observation point, a convergent operation, a barrier) first records
//!    `(label, dynamic-instance number, active mask)` in the calling
//!    thread's log, where the lowest active lane takes the number from a
//!    global counter and broadcasts it to the others under the active mask;
//!    every oracle reads the thread's next value from a per-thread stream;
//!    `tid` and `N` read `%tid.x` and `%ntid.x`;
//! 2. **compiled** by the user's back end ([`tools`]): the optional `opt`
//!    pipeline, then `llc` for `nvptx64-nvidia-cuda` to PTX;
//! 3. **run** ([`device`]) as one launch of one warp per scenario, through
//!    the CUDA driver API, loaded at run time (`cudarc`'s dynamic loading),
//!    with the PTX JIT's optimization level as the ptxas level;
//! 4. **compared** ([`compare`]) with the model's run of the same scenario
//!    at the source level and at the CFG level ([`model`]): single-thread
//!    behaviour, and every pair of events of two threads at one label
//!    (agree, the hardware *merges* what the model separates, or *splits*
//!    what it joins).
//!
//! Logs are **recorded** and **replayed** ([`record`], [`replay`]) in the
//! layout of the first H200 measurement (`../shared/hw/h200-2026-11-27`),
//! which is read as it is, so the comparison is tested on real hardware
//! data without a GPU. [`session`] ties the steps together for `convcheck
//! gpu` and `convcheck fuzz --gpu`; [`render`] prints reports. The device
//! step is behind [`runner::Runner`] (the GPU, or a simulated device that
//! is a test double), so [`minimize`], which shrinks a generated kernel
//! whose device behaviour differs while the difference persists, is tested
//! without a GPU.
//!
//! Architecture invariant: no module of this crate writes to standard
//! output or standard error; only [`device`] uses `unsafe` (the driver's
//! C API).
#![deny(unsafe_code)]

pub mod compare;
pub mod device;
pub mod instrument;
pub mod minimize;
pub mod model;
pub mod record;
pub mod render;
pub mod replay;
pub mod runner;
pub mod scenarios;
pub mod session;
pub mod tools;

/// Why the hardware oracle could not answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GpuError {
    /// Bad input (a file that does not parse, an unknown function): exit 2.
    Input(String),
    /// The kernel uses something the model or the instrumentation does not
    /// cover: exit 3.
    Unsupported(String),
    /// An LLVM tool failed or is missing: exit 3 (2 when the user named it).
    Tool(String),
    /// No CUDA driver, no device, or the driver refused: exit 3.
    NoDevice(String),
    /// A recording cannot be read or written.
    Record(String),
}

impl std::fmt::Display for GpuError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            GpuError::Input(m) | GpuError::Record(m) => write!(f, "{m}"),
            GpuError::Unsupported(m) => write!(f, "unsupported: {m}"),
            GpuError::Tool(m) => write!(f, "{m}"),
            GpuError::NoDevice(m) => write!(f, "no CUDA driver: {m}"),
        }
    }
}

impl std::error::Error for GpuError {}

impl From<record::RecordError> for GpuError {
    fn from(e: record::RecordError) -> GpuError {
        GpuError::Record(e.to_string())
    }
}
