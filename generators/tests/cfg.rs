//! Random CFGs and scenarios: the construction rules of `cfg_gen` and
//! `scenario`.

use arbitrary::Unstructured;
use convcheck_generators::cfg_gen::*;
use convcheck_generators::draw::seed_bytes;
use convcheck_generators::scenario::scenario;
use convcheck_generators::*;
use convcheck_model::cfg::cycles::CycleInfo;
use convcheck_model::exec::Bounds;
use convcheck_model::paths::enumerate;
use convcheck_model::sema::Kernel;

fn case(config: &CfgConfig, seed: u64) -> CfgCase {
    generate_cfg(config, &mut Unstructured::new(&seed_bytes(seed, 512)))
}

#[test]
fn cfgs_follow_their_configuration() {
    let mut irreducible = 0;
    let mut cyclic = 0;
    for seed in 0..500 {
        let c = case(&CfgConfig::default(), seed);
        let n = c.cfg.blocks.len();
        assert_eq!(reachable(&c.cfg).len(), n, "seed {seed}: unreachable block");
        let info = CycleInfo::compute(&c.cfg);
        cyclic += usize::from(!info.cycles.is_empty());
        irreducible += usize::from(!is_reducible(&c.cfg));
        assert_eq!(is_reducible(&c.cfg), info.is_reducible(), "seed {seed}");
        let r = case(
            &CfgConfig {
                irreducible: false,
                ..CfgConfig::default()
            },
            seed,
        );
        assert!(is_reducible(&r.cfg), "seed {seed}: irreducible");
        assert!(CycleInfo::compute(&r.cfg).is_reducible());
    }
    assert!(
        cyclic > 200 && irreducible > 15,
        "{cyclic} cyclic, {irreducible} irreducible"
    );
    let mut some_unreachable = false;
    for seed in 0..200 {
        let c = case(
            &CfgConfig {
                unreachable: true,
                ..CfgConfig::default()
            },
            seed,
        );
        some_unreachable |= reachable(&c.cfg).len() < c.cfg.blocks.len();
    }
    assert!(some_unreachable);
}

#[test]
fn cfgs_run_within_the_bounds() {
    let bounds = Bounds {
        max_iters: 2,
        max_paths: 1_000,
        ..Bounds::default()
    };
    let mut complete = 0;
    for seed in 0..100 {
        let c = case(&CfgConfig::default(), seed);
        let k = c.kernel();
        let program = c.program();
        let set = enumerate(&k, Some(&program), 0, 0, 2, bounds);
        // Every cycle decides on every turn, so nothing runs out of bounds
        // whatever its oracles; only the path limit may be reached.
        if let Some(why) = &set.incomplete {
            assert!(why.contains("max-paths"), "seed {seed}: {why}");
        } else {
            complete += 1;
        }
    }
    assert!(complete > 70, "{complete}");
}

#[test]
fn scenarios_validate_and_use_domains() {
    for seed in 0..200 {
        let f = generate_seeded(&Config::default(), seed);
        let k = Kernel::new("g.c", f).unwrap();
        let s = scenario(&k, 4, 5, &mut Unstructured::new(&seed_bytes(seed, 1024)));
        assert_eq!(s.threads.len(), 4);
        s.validate(&k).unwrap();
        for t in &s.threads {
            for (name, vals) in &t.0 {
                let o = &k.oracles[k.oracle_ids[name]];
                assert!(vals.iter().all(|v| o.domain.contains(v)));
            }
        }
    }
}
