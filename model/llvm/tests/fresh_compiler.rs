//! Runs the real LLVM tools when they are installed and parses what they
//! print now: the commands of `tests/data/README.md` rerun from the sources,
//! `opt-19 -S` reprints of every data file (a metamorphic check: the
//! reprint must parse to the same module), and a set of optimisation
//! pipelines over the kernels. Each test prints `skipped: ...` and passes
//! when `clang-19` or `opt-19` is absent.
#![deny(unsafe_code)]

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::{data_dir, data_files, parse_data, scratch, summary, tool};
use convcheck_llvm::fuzzing::check_tree;
use convcheck_llvm::{parse_module, Module};

fn run(program: &Path, args: &[&str], cwd: &Path) -> Result<(), String> {
    let out = Command::new(program)
        .args(args)
        .current_dir(cwd)
        .output()
        .map_err(|e| e.to_string())?;
    if out.status.success() {
        Ok(())
    } else {
        Err(format!(
            "{} {}: {}",
            program.display(),
            args.join(" "),
            String::from_utf8_lossy(&out.stderr)
        ))
    }
}

fn parse_file(path: &Path) -> Module {
    let src = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let m = parse_module(&src, &path.display().to_string()).unwrap_or_else(|e| panic!("{e}"));
    check_tree(&m);
    m
}

fn tools() -> Option<(PathBuf, PathBuf)> {
    match (tool("clang-19"), tool("opt-19")) {
        (Some(c), Some(o)) => Some((c, o)),
        (None, _) => {
            eprintln!("skipped: clang-19 not found");
            None
        }
        (_, None) => {
            eprintln!("skipped: opt-19 not found");
            None
        }
    }
}

#[test]
fn regenerated_outputs_parse() {
    let Some((clang, opt)) = tools() else { return };
    let dir = scratch("regenerated");
    for src in ["plain.c", "kernel.cu", "kernel.cl"] {
        std::fs::copy(data_dir().join(src), dir.join(src)).expect("copy source");
    }
    // The plain kernels' source is an example of the repository.
    let kernels = data_dir().join("../../../../examples/llvm/plain-kernels.c");
    std::fs::copy(kernels, dir.join("plain-kernels.c")).expect("copy source");
    let o0 = ["-O0", "-Xclang", "-disable-O0-optnone", "-S", "-emit-llvm"];
    let steps: Vec<(&Path, Vec<&str>)> = vec![
        (
            &clang,
            [&o0[..], &["plain.c", "-o", "plain_O0.ll"]].concat(),
        ),
        (
            &opt,
            vec![
                "-passes=default<O2>",
                "-S",
                "plain_O0.ll",
                "-o",
                "plain_O2.ll",
            ],
        ),
        (
            &clang,
            vec![
                "-g",
                "-O1",
                "-S",
                "-emit-llvm",
                "plain.c",
                "-o",
                "plain_g_O1.ll",
            ],
        ),
        (
            &clang,
            [
                &[
                    "-x",
                    "cuda",
                    "--cuda-device-only",
                    "-nocudainc",
                    "-nocudalib",
                    "--cuda-gpu-arch=sm_70",
                ][..],
                &o0[..],
                &["kernel.cu", "-o", "kernel_cuda.ll"],
            ]
            .concat(),
        ),
        (
            &opt,
            vec![
                "-passes=default<O2>",
                "-S",
                "kernel_cuda.ll",
                "-o",
                "kernel_cuda_O2.ll",
            ],
        ),
        (
            &clang,
            [
                &[
                    "-x",
                    "cl",
                    "-cl-std=CL2.0",
                    "-Xclang",
                    "-finclude-default-header",
                    "-target",
                    "amdgcn-amd-amdhsa",
                    "-mcpu=gfx900",
                    "-nogpulib",
                ][..],
                &o0[..],
                &["kernel.cl", "-o", "kernel_amdgcn.ll"],
            ]
            .concat(),
        ),
        (
            &opt,
            vec![
                "-passes=default<O2>",
                "-S",
                "kernel_amdgcn.ll",
                "-o",
                "kernel_amdgcn_O2.ll",
            ],
        ),
        (
            &clang,
            [&o0[..], &["plain-kernels.c", "-o", "plain_kernels_O0.ll"]].concat(),
        ),
        (
            &opt,
            vec![
                "-passes=default<O2>",
                "-S",
                "plain_kernels_O0.ll",
                "-o",
                "plain_kernels_O2.ll",
            ],
        ),
    ];
    for (program, args) in &steps {
        if let Err(e) = run(program, args, &dir) {
            panic!("{e}");
        }
    }
    // The committed files came from Debian's 19.1.7; the same compiler must
    // print the same modules.
    let version = Command::new(&clang)
        .arg("--version")
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).into_owned())
        .unwrap_or_default();
    let same_compiler = version.contains("19.1.7");
    for (_, args) in &steps {
        let out = args[args.len() - 1];
        let fresh = parse_file(&dir.join(out));
        assert!(fresh.defined_functions().count() >= 4, "{out}: functions");
        for f in fresh.defined_functions() {
            assert_eq!(
                f.generic_instructions().count(),
                0,
                "{out}: @{} has generic instructions",
                f.name
            );
            for (_, c) in f.calls() {
                if c.callee_name() == Some("op") {
                    assert!(c.is_convergent(&fresh), "{out}: call to op in @{}", f.name);
                }
            }
        }
        if same_compiler {
            assert_eq!(
                summary(&fresh, false),
                summary(&parse_data(out), false),
                "{out}: fresh output differs from the committed one"
            );
        }
    }
    if !same_compiler {
        eprintln!("note: clang-19 is not 19.1.7; fresh outputs were parsed but not compared with the committed ones");
    }
}

#[test]
fn opt_reprints_parse_to_the_same_module() {
    let Some((_, opt)) = tools() else { return };
    let dir = scratch("reprint");
    for path in data_files() {
        let name = path.file_name().and_then(|n| n.to_str()).expect("name");
        let out = dir.join(name);
        let (src, dst) = (path.display().to_string(), out.display().to_string());
        if let Err(e) = run(&opt, &["-S", &src, "-o", &dst], &dir) {
            panic!("{e}");
        }
        assert_eq!(
            summary(&parse_file(&out), false),
            summary(&parse_data(name), false),
            "{name}: opt's reprint parses differently"
        );
    }
}

#[test]
fn optimisation_pipelines_parse() {
    let Some((_, opt)) = tools() else { return };
    let dir = scratch("pipelines");
    let pipelines = [
        "simplifycfg",
        "sroa,early-cse,instcombine",
        "loop-simplify,lcssa,loop-rotate,loop-mssa(licm)",
        "jump-threading,gvn",
        "lower-switch",
        "simple-loop-unswitch<nontrivial>",
        "fix-irreducible,unify-loop-exits",
        "structurizecfg",
        "reg2mem",
        "default<O3>",
    ];
    let (mut files, mut functions, mut instructions) = (0, 0, 0);
    for input in [
        "plain_O0.ll",
        "kernel_cuda.ll",
        "kernel_amdgcn.ll",
        "tokens.ll",
        "generic.ll",
    ] {
        for (k, p) in pipelines.iter().enumerate() {
            let out = dir.join(format!("{k}_{input}"));
            let (src, dst) = (
                data_dir().join(input).display().to_string(),
                out.display().to_string(),
            );
            if let Err(e) = run(
                &opt,
                &[&format!("-passes={p}"), "-S", &src, "-o", &dst],
                &dir,
            ) {
                // FIXME(LLVM 19.1.7): instcombine drops `convergent` from the
                // call site `call i32 @c() #1 [ "convergencectrl"(token %a) ]`
                // because @c itself is not convergent, and the verifier then
                // rejects the token use ("Convergence control token can only
                // be used in a convergent call"). That is opt's bug, not
                // ours; the input verifies before the pass.
                let known =
                    input == "tokens.ll" && (p.contains("instcombine") || *p == "default<O3>");
                if known
                    && e.contains("Convergence control token can only be used in a convergent call")
                {
                    eprintln!(
                        "note: opt-19 -passes={p} breaks {input} (known LLVM bug, see the FIXME)"
                    );
                    continue;
                }
                panic!("{e}");
            }
            let m = parse_file(&out);
            files += 1;
            functions += m.defined_functions().count();
            instructions += m
                .defined_functions()
                .map(|f| f.instructions().count())
                .sum::<usize>();
        }
    }
    eprintln!("parsed {files} opt outputs: {functions} functions, {instructions} instructions");
}
