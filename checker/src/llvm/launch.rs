//! The launch a user states (`--block-dim`, `--grid-dim`, `--warp-size`;
//! the `block_dim`, `grid_dim` and `warp_size` keys of an expectations
//! file): read, checked against the group size, and handed to the mapper
//! as [`GpuFacts`] (DESIGN.md 2.9, issue 21 item 5).
//!
//! A stated block shape `X,Y,Z` is the group: `N = X·Y·Z` threads, so the
//! check's group size is fixed to it (a `--threads` that disagrees is a
//! usage error), and the thread and group-size builtins read the shape's
//! constants. A stated grid makes the group count constant and bounds the
//! group index; a stated warp size gives the lane index and `warpSize`.

use convcheck_llvm::to_ir::GpuFacts;

/// The largest group a GPU launches (CUDA and HIP: 1024 threads).
pub const MAX_BLOCK_THREADS: u64 = 1024;

/// Reads `X[,Y[,Z]]` (each at least 1; missing dimensions are 1).
pub fn parse_dims(s: &str) -> Result<[u32; 3], String> {
    let parts: Vec<&str> = s.split(',').map(str::trim).collect();
    if parts.is_empty() || parts.len() > 3 {
        return Err(format!(
            "`{s}`: give X, X,Y or X,Y,Z (for example 256 or 16,16)"
        ));
    }
    let mut out = [1u32; 3];
    for (i, p) in parts.iter().enumerate() {
        out[i] = match p.parse::<u32>() {
            Ok(v) if v >= 1 => v,
            _ => {
                return Err(format!(
                    "`{s}`: `{p}` is not a positive integer (give X, X,Y or X,Y,Z)"
                ))
            }
        };
    }
    Ok(out)
}

/// Reads a warp size: a power of two from 1 to 128.
pub fn parse_warp(s: &str) -> Result<u32, String> {
    match s.trim().parse::<u32>() {
        Ok(w) if w.is_power_of_two() && w <= 128 => Ok(w),
        _ => Err(format!(
            "`{s}`: a warp size is a power of two up to 128 (32 on NVIDIA, 32 or 64 on AMD)"
        )),
    }
}

/// The group size of a check given `threads` (0: not fixed) and the
/// stated launch: the block's thread count when a block is stated.
pub fn group_size(threads: u32, gpu: &GpuFacts) -> Result<u32, String> {
    let Some(n) = gpu.threads() else {
        return Ok(threads);
    };
    let [x, y, z] = gpu.block.unwrap_or([1; 3]);
    if n < 2 {
        return Err(format!(
            "--block-dim {x},{y},{z}: a group needs at least 2 threads to compare pairs"
        ));
    }
    if n > MAX_BLOCK_THREADS {
        return Err(format!(
            "--block-dim {x},{y},{z}: {n} threads; a GPU group has at most \
             {MAX_BLOCK_THREADS}"
        ));
    }
    let n = n as u32;
    if threads != 0 && threads != n {
        return Err(format!(
            "--threads {threads} and --block-dim {x},{y},{z} ({n} threads) disagree: a stated \
             block is the group (omit --threads)"
        ));
    }
    Ok(n)
}

/// The flags that state `gpu` again (a replay line's).
pub fn flags(gpu: &GpuFacts) -> Vec<String> {
    let dims = |d: [u32; 3]| format!("{},{},{}", d[0], d[1], d[2]);
    let mut out = Vec::new();
    if let Some(b) = gpu.block {
        out.extend(["--block-dim".to_string(), dims(b)]);
    }
    if let Some(g) = gpu.grid {
        out.extend(["--grid-dim".to_string(), dims(g)]);
    }
    if let Some(w) = gpu.warp {
        out.extend(["--warp-size".to_string(), w.to_string()]);
    }
    out
}

/// The stated launch as the report's note, if any is stated.
pub fn describe(gpu: &GpuFacts) -> Option<String> {
    let dims = |d: [u32; 3]| format!("{}x{}x{}", d[0], d[1], d[2]);
    let mut parts = Vec::new();
    if let Some(b) = gpu.block {
        parts.push(format!("block {}", dims(b)));
    }
    if let Some(g) = gpu.grid {
        parts.push(format!("grid {}", dims(g)));
    }
    if let Some(w) = gpu.warp {
        parts.push(format!("warp size {w}"));
    }
    (!parts.is_empty()).then(|| format!("launch (stated): {}", parts.join(", ")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dims_read_with_missing_dimensions_one() {
        assert_eq!(parse_dims("256"), Ok([256, 1, 1]));
        assert_eq!(parse_dims("16, 16"), Ok([16, 16, 1]));
        assert_eq!(parse_dims("4,2,2"), Ok([4, 2, 2]));
        for bad in ["", "0", "4,x", "1,2,3,4", "-4"] {
            assert!(parse_dims(bad).is_err(), "{bad}");
        }
        assert_eq!(parse_warp("64"), Ok(64));
        assert!(parse_warp("48").is_err());
    }

    #[test]
    fn a_stated_block_is_the_group() {
        let gpu = |b| GpuFacts {
            block: Some(b),
            ..GpuFacts::default()
        };
        assert_eq!(group_size(0, &GpuFacts::default()), Ok(0));
        assert_eq!(group_size(4, &GpuFacts::default()), Ok(4));
        assert_eq!(group_size(0, &gpu([4, 2, 1])), Ok(8));
        assert_eq!(group_size(8, &gpu([4, 2, 1])), Ok(8));
        assert!(group_size(4, &gpu([4, 2, 1]))
            .unwrap_err()
            .contains("disagree"));
        assert!(group_size(0, &gpu([1, 1, 1])).is_err());
        assert!(group_size(0, &gpu([1024, 2, 1])).is_err());
    }
}
