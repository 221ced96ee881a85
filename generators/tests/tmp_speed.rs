//! tmp
use arbitrary::{Arbitrary, Unstructured};
use convcheck_generators::draw::seed_bytes;
use convcheck_generators::*;
use convcheck_model::exec::Bounds;
use convcheck_model::paths::enumerate;
#[test]
fn speed() {
    for s in 0..2000u64 {
        let d = seed_bytes(s, 64);
        let c = ArbCfg::arbitrary(&mut Unstructured::new(&d)).unwrap();
        if c.case.cfg.blocks.len() <= 8 {
            continue;
        }
        let k = c.case.kernel();
        let p = c.case.program();
        eprintln!("start {s}");
        let t = std::time::Instant::now();
        let set = enumerate(
            &k,
            Some(&p),
            0,
            0,
            2,
            Bounds {
                max_iters: 2,
                max_paths: 2000,
                ..Bounds::default()
            },
        );
        let e = t.elapsed();
        eprintln!("seed {s} {:?} paths {} cut {}", e, set.paths.len(), set.cut);
        if e.as_millis() > 1000 {
            println!(
                "seed {s}: {:?} paths {} cut {} incomplete {:?}\n{:?}",
                e,
                set.paths.len(),
                set.cut,
                set.incomplete,
                c
            );
            break;
        }
    }
}
