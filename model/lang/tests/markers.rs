//! The class markers `uniform(...)` and `invariant(...)` (docs/src/
//! language.md, "Oracles"): markers add up, so an oracle inside both, in
//! either order and at any depth, is uniform-invariant (issue 20 class
//! n); `tid` inside a uniform marker and an oracle used in two classes
//! are errors with their position.

use convcheck_ir::OracleClass;
use convcheck_lang::sema::Kernel;

fn classes(cond: &str) -> Vec<(String, OracleClass)> {
    let src = format!("void k() {{\n  if ({cond}) {{\n    ... // A\n  }}\n}}\n");
    let k = Kernel::parse("m.c", &src).unwrap_or_else(|d| panic!("{cond}: {d}"));
    k.oracles
        .iter()
        .map(|o| (o.name.clone(), o.class))
        .collect()
}

fn error(cond: &str) -> String {
    let src = format!("void k() {{\n  if ({cond}) {{\n    ... // A\n  }}\n}}\n");
    match Kernel::parse("m.c", &src) {
        Ok(_) => panic!("{cond}: accepted"),
        Err(d) => d.to_string(),
    }
}

#[test]
fn markers_add_up() {
    use OracleClass::*;
    let one = |c: &str, class| assert_eq!(classes(c), vec![("c".to_string(), class)], "{c}");
    one("c", Varying);
    one("uniform(c)", Uniform);
    one("invariant(c)", Invariant);
    one("uniform(invariant(c))", UniformInvariant);
    one("invariant(uniform(c))", UniformInvariant);
    one("uniform(!invariant(c == 2))", UniformInvariant);
    one("uniform(uniform(c))", Uniform);
    one("invariant(invariant(uniform(c)))", UniformInvariant);
    assert_eq!(
        classes("uniform(a && invariant(b))"),
        vec![
            ("a".to_string(), Uniform),
            ("b".to_string(), UniformInvariant)
        ]
    );
    assert_eq!(
        classes("invariant(tid < 2) && uniform(invariant(w))"),
        vec![("w".to_string(), UniformInvariant)]
    );
}

#[test]
fn misuse_is_an_error_with_its_position() {
    let e = error("uniform(invariant(tid < 2))");
    assert!(
        e.contains("m.c:2:") && e.contains("`tid` inside `uniform(...)`"),
        "{e}"
    );
    let e = error("uniform(invariant(w)) || invariant(w)");
    assert!(
        e.contains("m.c:2:")
            && e.contains("oracle `w` is used as invariant here but as uniform_invariant"),
        "{e}"
    );
}
