//! Tells the theorems which domain to use: the full one under an optimised
//! profile (`cargo test --release`), a smaller one, named in each printed
//! line, under the default test profile, so that `cargo test --workspace`
//! stays quick.

fn main() {
    println!("cargo::rustc-check-cfg=cfg(proofs_full)");
    println!("cargo::rerun-if-env-changed=PROFILE");
    if std::env::var("PROFILE").as_deref() == Ok("release") {
        println!("cargo::rustc-cfg=proofs_full");
    }
}
