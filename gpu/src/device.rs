//! Launching instrumented kernels on an NVIDIA GPU through the CUDA driver
//! API (`cudarc`'s raw bindings, the driver library loaded at run time).
//!
//! Why `unsafe` is allowed here, and only here: the driver API is a C API;
//! every call passes raw pointers (host buffers, device addresses, strings)
//! that Rust cannot check. The module keeps each call next to the buffer it
//! reads or writes, sizes every copy from the size the driver reports for
//! the global it copies (never from our own arithmetic alone), and turns
//! every `CUresult` into a [`GpuError`]. Nothing else in the crate touches
//! the driver.
//!
//! What a run does: the driver library is looked for first
//! (`is_culib_present`; without it, [`GpuError::NoDevice`] "no CUDA
//! driver", never a crash), the primary context of device 0 is made
//! current, the PTX is JIT-compiled with `CU_JIT_OPTIMIZATION_LEVEL` set to
//! the ptxas level, the streams are copied into `@convcheck_hw_streams`, the
//! counter, counts, positions and logs are zeroed, the kernel runs as one
//! block of one warp, and the counts and logs are copied back. A kernel that
//! does not finish within the time budget is reported, not waited for.
//!
//! cudarc may panic when a symbol is missing from an old driver; every
//! entry point runs under `catch_unwind` and turns that into an error too.
//!
//! This module has not run on a GPU in the session that wrote it (none was
//! available); `docs/src/hardware.md` says so.
#![allow(unsafe_code)]

use crate::instrument::{Layout, COUNTER, KERNEL, LOG, LOGN, POS, STREAMS};
use crate::GpuError;
use cudarc::driver::sys;
use std::ffi::{c_void, CStr, CString};
use std::time::{Duration, Instant};

/// Whether a CUDA driver library can be loaded on this machine.
pub fn driver_present() -> bool {
    // SAFETY: only tries to open the library by its usual names.
    std::panic::catch_unwind(|| unsafe { sys::is_culib_present() }).unwrap_or(false)
}

fn check(r: sys::CUresult, what: &str) -> Result<(), GpuError> {
    if r == sys::CUresult::CUDA_SUCCESS {
        return Ok(());
    }
    let mut p: *const std::ffi::c_char = std::ptr::null();
    // SAFETY: the driver writes a pointer to a static string, or nothing.
    let name = unsafe {
        if sys::cuGetErrorString(r, &mut p) == sys::CUresult::CUDA_SUCCESS && !p.is_null() {
            CStr::from_ptr(p).to_string_lossy().into_owned()
        } else {
            format!("{r:?}")
        }
    };
    Err(GpuError::NoDevice(format!("{what}: {name}")))
}

/// Runs `f` and turns a panic in the bindings into an error.
fn guarded<T>(what: &str, f: impl FnOnce() -> Result<T, GpuError>) -> Result<T, GpuError> {
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)) {
        Ok(r) => r,
        Err(p) => {
            let msg = p
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_else(|| "a panic in the CUDA bindings".into());
            Err(GpuError::NoDevice(format!("{what}: {msg}")))
        }
    }
}

/// An open device: the primary context of one GPU, current on this thread.
pub struct Device {
    dev: sys::CUdevice,
    /// The device's name and the driver's version.
    pub name: String,
}

/// A JIT-compiled module.
pub struct Loaded {
    module: sys::CUmodule,
    function: sys::CUfunction,
    layout: Layout,
    slots: usize,
}

/// What one launch logged.
#[derive(Clone, Debug, PartialEq)]
pub struct Logs {
    /// Events each thread logged (more than the log holds: cut).
    pub logn: Vec<u32>,
    /// Each thread's events `[label, number, mask]` (mask as signed i32,
    /// the fixture's form).
    pub events: Vec<Vec<[i64; 3]>>,
    /// Seconds from launch to completion.
    pub seconds: f64,
}

impl Device {
    /// Opens device `ordinal`, or says why not ("no CUDA driver" when the
    /// driver library is absent).
    pub fn open(ordinal: usize) -> Result<Device, GpuError> {
        if !driver_present() {
            return Err(GpuError::NoDevice(
                "the CUDA driver library (libcuda.so) is not installed on this machine".into(),
            ));
        }
        guarded("opening the GPU", || {
            let mut dev: sys::CUdevice = 0;
            let mut ctx: sys::CUcontext = std::ptr::null_mut();
            let mut count = 0;
            let mut version = 0;
            let mut name = [0 as std::ffi::c_char; 256];
            // SAFETY: every out-pointer is a live local of the right type;
            // the name buffer's length is passed with it.
            unsafe {
                check(sys::cuInit(0), "cuInit")?;
                check(sys::cuDriverGetVersion(&mut version), "cuDriverGetVersion")?;
                check(sys::cuDeviceGetCount(&mut count), "cuDeviceGetCount")?;
                if ordinal as i32 >= count {
                    return Err(GpuError::NoDevice(format!(
                        "the driver sees {count} GPU(s), no device {ordinal}"
                    )));
                }
                check(sys::cuDeviceGet(&mut dev, ordinal as i32), "cuDeviceGet")?;
                check(
                    sys::cuDeviceGetName(name.as_mut_ptr(), name.len() as i32, dev),
                    "cuDeviceGetName",
                )?;
                check(
                    sys::cuDevicePrimaryCtxRetain(&mut ctx, dev),
                    "cuDevicePrimaryCtxRetain",
                )?;
                check(sys::cuCtxSetCurrent(ctx), "cuCtxSetCurrent")?;
            }
            // SAFETY: the driver wrote a NUL-terminated name into the buffer.
            let gpu = unsafe { CStr::from_ptr(name.as_ptr()) }
                .to_string_lossy()
                .into_owned();
            Ok(Device {
                dev,
                name: format!(
                    "{gpu}, CUDA driver API {}.{}",
                    version / 1000,
                    (version % 1000) / 10
                ),
            })
        })
    }

    /// JIT-compiles `ptx` at ptxas level `opt` (0 to 4).
    pub fn load(
        &self,
        ptx: &str,
        opt: u32,
        layout: Layout,
        slots: usize,
    ) -> Result<Loaded, GpuError> {
        let image =
            CString::new(ptx).map_err(|_| GpuError::Tool("the PTX holds a NUL byte".into()))?;
        guarded("loading the PTX", || {
            let mut log = vec![0u8; 16 * 1024];
            let mut options = [
                sys::CUjit_option::CU_JIT_OPTIMIZATION_LEVEL,
                sys::CUjit_option::CU_JIT_ERROR_LOG_BUFFER,
                sys::CUjit_option::CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
            ];
            // The driver reads option values as pointer-sized integers.
            let mut values: [*mut c_void; 3] = [
                opt as usize as *mut c_void,
                log.as_mut_ptr().cast(),
                log.len() as *mut c_void,
            ];
            let mut module: sys::CUmodule = std::ptr::null_mut();
            let mut function: sys::CUfunction = std::ptr::null_mut();
            let kernel = CString::new(KERNEL).unwrap_or_default();
            // SAFETY: `image` is a NUL-terminated PTX text; options and
            // values have the same length, the log buffer outlives the call.
            let r = unsafe {
                sys::cuModuleLoadDataEx(
                    &mut module,
                    image.as_ptr().cast(),
                    options.len() as u32,
                    options.as_mut_ptr(),
                    values.as_mut_ptr(),
                )
            };
            if r != sys::CUresult::CUDA_SUCCESS {
                let end = log.iter().position(|&b| b == 0).unwrap_or(log.len());
                let text = String::from_utf8_lossy(&log[..end]).into_owned();
                return Err(GpuError::Tool(format!(
                    "the JIT (ptxas -O{opt}) rejected the PTX ({r:?}):\n{text}"
                )));
            }
            // SAFETY: `module` was just loaded; the name is NUL-terminated.
            unsafe {
                check(
                    sys::cuModuleGetFunction(&mut function, module, kernel.as_ptr()),
                    "cuModuleGetFunction",
                )?;
            }
            Ok(Loaded {
                module,
                function,
                layout,
                slots,
            })
        })
    }

    /// Runs `m` once with `streams` (`threads x slots x stream_len` values,
    /// thread-major) and returns the logs. `timeout` bounds the wait.
    pub fn run(&self, m: &Loaded, streams: &[i64], timeout: Duration) -> Result<Logs, GpuError> {
        let l = m.layout;
        let w = l.threads as usize;
        let want = w * m.slots * l.stream_len as usize;
        if streams.len() != want {
            return Err(GpuError::Tool(format!(
                "internal: {} stream values for {want} slots",
                streams.len()
            )));
        }
        guarded("running the kernel", || {
            let g = |name: &str| global(m.module, name);
            let (counter, _) = g(COUNTER)?;
            let (logn, logn_bytes) = g(LOGN)?;
            let (logbuf, log_bytes) = g(LOG)?;
            let (strm, strm_bytes) = g(STREAMS)?;
            let (pos, pos_bytes) = g(POS)?;
            let stream_bytes = std::mem::size_of_val(streams);
            let log_len = w * l.log_entries as usize * 3;
            if strm_bytes != stream_bytes || logn_bytes != w * 4 || log_bytes != log_len * 4 {
                return Err(GpuError::Tool(
                    "internal: the module's buffers do not have the layout's sizes".into(),
                ));
            }
            // SAFETY: each copy and set stays within the global's size as
            // the driver reported it (checked above); host buffers are
            // live slices of at least that many bytes.
            unsafe {
                check(sys::cuMemsetD8_v2(counter, 0, 4), "clearing the counter")?;
                check(
                    sys::cuMemsetD8_v2(logn, 0, logn_bytes),
                    "clearing the counts",
                )?;
                check(
                    sys::cuMemsetD8_v2(logbuf, 0, log_bytes),
                    "clearing the logs",
                )?;
                check(
                    sys::cuMemsetD8_v2(pos, 0, pos_bytes),
                    "clearing the positions",
                )?;
                check(
                    sys::cuMemcpyHtoD_v2(strm, streams.as_ptr().cast(), stream_bytes),
                    "copying the streams",
                )?;
            }
            let start = Instant::now();
            // SAFETY: the kernel takes no parameters; one block of one warp.
            unsafe {
                check(
                    sys::cuLaunchKernel(
                        m.function,
                        1,
                        1,
                        1,
                        l.threads,
                        1,
                        1,
                        0,
                        std::ptr::null_mut(),
                        std::ptr::null_mut(),
                        std::ptr::null_mut(),
                    ),
                    "cuLaunchKernel",
                )?;
            }
            loop {
                // SAFETY: queries the default stream of the current context.
                let r = unsafe { sys::cuStreamQuery(std::ptr::null_mut()) };
                if r == sys::CUresult::CUDA_SUCCESS {
                    break;
                }
                if r != sys::CUresult::CUDA_ERROR_NOT_READY {
                    check(r, "the kernel failed")?;
                }
                if start.elapsed() > timeout {
                    return Err(GpuError::NoDevice(format!(
                        "the kernel did not finish within {} s",
                        timeout.as_secs()
                    )));
                }
                std::thread::sleep(Duration::from_micros(200));
            }
            let seconds = start.elapsed().as_secs_f64();
            let mut counts = vec![0u32; w];
            let mut raw = vec![0i32; log_len];
            // SAFETY: the host buffers hold exactly the globals' sizes.
            unsafe {
                check(sys::cuCtxSynchronize(), "cuCtxSynchronize")?;
                check(
                    sys::cuMemcpyDtoH_v2(counts.as_mut_ptr().cast(), logn, logn_bytes),
                    "copying the counts",
                )?;
                check(
                    sys::cuMemcpyDtoH_v2(raw.as_mut_ptr().cast(), logbuf, log_bytes),
                    "copying the logs",
                )?;
            }
            let e = l.log_entries as usize;
            let events = (0..w)
                .map(|t| {
                    let n = (counts[t] as usize).min(e);
                    (0..n)
                        .map(|i| {
                            let at = (t * e + i) * 3;
                            [
                                i64::from(raw[at]),
                                i64::from(raw[at + 1]),
                                i64::from(raw[at + 2]),
                            ]
                        })
                        .collect()
                })
                .collect();
            Ok(Logs {
                logn: counts,
                events,
                seconds,
            })
        })
    }
}

/// The address and size of global `name` of `module`.
fn global(module: sys::CUmodule, name: &str) -> Result<(sys::CUdeviceptr, usize), GpuError> {
    let c = CString::new(name).unwrap_or_default();
    let mut ptr: sys::CUdeviceptr = 0;
    let mut bytes = 0usize;
    // SAFETY: out-pointers are live locals; the name is NUL-terminated.
    unsafe {
        check(
            sys::cuModuleGetGlobal_v2(&mut ptr, &mut bytes, module, c.as_ptr()),
            &format!("the global {name}"),
        )?;
    }
    Ok((ptr, bytes))
}

impl Drop for Loaded {
    fn drop(&mut self) {
        // SAFETY: the module was loaded by `Device::load` and is unloaded
        // once.
        let _ = std::panic::catch_unwind(|| unsafe { sys::cuModuleUnload(self.module) });
    }
}

impl Drop for Device {
    fn drop(&mut self) {
        // SAFETY: releases the primary context retained by `open`.
        let _ = std::panic::catch_unwind(|| unsafe { sys::cuDevicePrimaryCtxRelease_v2(self.dev) });
    }
}
