//! The explorer on sources clang compiles (issue 21 item 7): a `.cu`,
//! `.hip` or `.cl` sent to `/api/check`, `/api/lower` and `/api/run` is
//! compiled by the server's clang-19 with convcheck's fixed flags, only
//! under `--allow-tools`, and checked as `convcheck check K.cu --frontend
//! clang --opt P` checks it: the answers are compared with the command
//! line's. Skips, saying why, without clang-19 or opt-19.

mod common;

use super::explore::{get, post};
use convcheck::explore::{Options, Server, Tools};
use serde_json::{json, Value};

fn example(name: &str) -> String {
    let path = common::root().join("examples/gpu").join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn with_tools(clang: Option<&str>) -> Server {
    with_tools_on(clang, Options::default().initial)
}

fn with_tools_on(clang: Option<&str>, initial: (String, String)) -> Server {
    Server::start(Options {
        initial,
        tools: Some(Tools {
            opt_bin: Some("opt-19".into()),
            opt_args: Vec::new(),
            clang_bin: clang.map(str::to_string),
            tool_timeout: 60,
        }),
        ..Options::default()
    })
    .expect("the server starts")
}

fn have_llvm(test: &str) -> bool {
    common::have("clang-19", test) && common::have("opt-19", test)
}

/// The verdict and each stage's (name, verdict) of a `check` JSON object.
fn summary(v: &Value) -> (String, Vec<(String, String)>) {
    let stages = v["stages"]
        .as_array()
        .unwrap_or_else(|| panic!("no stages: {v}"))
        .iter()
        .map(|s| {
            (
                s["name"].as_str().unwrap_or("").to_string(),
                s["verdict"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect();
    (v["verdict"].as_str().unwrap_or("").to_string(), stages)
}

/// What `convcheck check examples/gpu/find-tid.cu --frontend clang --opt
/// default<O2>` answers for `function`.
fn cli_find_tid(function: &str) -> Value {
    let (code, out, err) = common::convcheck(&[
        "check",
        "examples/gpu/find-tid.cu",
        "--frontend",
        "clang",
        "--opt",
        "default<O2>",
        "--function",
        function,
        "--threads",
        "4",
        "--max-iters",
        "3",
        "--format",
        "json",
    ]);
    assert!(code == 0 || code == 1, "exit {code}: {err}");
    serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}"))
}

#[test]
fn a_cuda_source_is_checked_through_clang_and_opt_as_the_command_line_checks_it() {
    let test = "a_cuda_source_is_checked_through_clang_and_opt_as_the_command_line_checks_it";
    if !have_llvm(test) {
        return;
    }
    let source = example("find-tid.cu");
    // `explore find-tid.cu --allow-tools` starts in CUDA.
    let server = with_tools_on(Some("clang-19"), ("find-tid.cu".into(), source.clone()));
    let initial = get(server.addr(), "/api/initial").json();
    assert_eq!(initial["tools"]["clang"], "clang-19", "{initial}");
    assert_eq!(initial["language"], "cuda", "{initial}");
    for (function, verdict) in [("find_tid", "violated"), ("find_tid_control", "preserved")] {
        // The language comes from the file name's extension.
        let body = json!({"language": "clang", "file": "find-tid.cu", "source": source,
            "function": function, "opt": "default<O2>", "threads": 4, "max_iters": 3});
        let a = post(server.addr(), "/api/check", &body);
        assert_eq!(a.status, 200, "{}", a.body);
        let api = a.json();
        let cli = cli_find_tid(function);
        assert_eq!(api["verdict"], verdict, "{api}");
        assert_eq!(summary(&api), summary(&cli), "API {api}\nCLI {cli}");
        assert_eq!(api["reference"], cli["reference"], "{api}");
        assert!(!a.body.contains("convcheck-explore-"), "{}", a.body);
        assert!(!a.body.contains("/.tmp"), "{}", a.body);
    }
    // find_tid's violation is clang's lowering, against the source.
    let body = json!({"language": "cuda", "file": "find-tid.cu", "source": source,
        "function": "find_tid", "opt": "default<O2>", "threads": 4, "max_iters": 3});
    let v = post(server.addr(), "/api/check", &body).json();
    assert_eq!(v["reference"], "source", "{v}");
    assert_eq!(v["stages"][0]["name"], "clang -O0", "{v}");
    assert_eq!(v["stages"][0]["verdict"], "violated", "{v}");
    assert!(v["counterexample"].is_object(), "{v}");
    // No pipeline: clang's lowering alone, as `check K.cu --frontend clang`.
    let mut alone = body.clone();
    alone.as_object_mut().unwrap().remove("opt");
    let v = post(server.addr(), "/api/check", &alone).json();
    assert_eq!(v["verdict"], "violated", "{v}");
    // convcheck's own passes run on clang's output, against its CFG.
    let mut own = alone.clone();
    own["passes"] = json!(["simplifycfg"]);
    let a = post(server.addr(), "/api/check", &own);
    assert_eq!(a.status, 200, "{}", a.body);
    assert_eq!(a.json()["reference"], "cfg", "{}", a.body);
    own["reference"] = json!("source");
    let a = post(server.addr(), "/api/check", &own);
    assert_eq!(a.status, 422, "{}", a.body);
    assert_eq!(a.json()["error"]["field"], "reference", "{}", a.body);
    server.stop();
}

#[test]
fn clangs_cfgs_are_drawn_with_their_operations_at_source_lines() {
    if !have_llvm("clangs_cfgs_are_drawn_with_their_operations_at_source_lines") {
        return;
    }
    let server = with_tools(Some("clang-19"));
    let source = example("find-tid.cu");
    let a = post(
        server.addr(),
        "/api/lower",
        &json!({"language": "clang", "file": "find-tid.cu", "source": source, "function": "find_tid"}),
    );
    assert_eq!(a.status, 200, "{}", a.body);
    let v = a.json();
    assert_eq!(v["stages"][0]["name"], "clang -O0", "{v}");
    let names: Vec<&str> = v["functions"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|f| f["name"].as_str())
        .collect();
    assert_eq!(names, ["find_tid", "find_tid_control"], "{v}");
    // The ballot of find_tid is on line 16 of the source.
    let ballot_lines: Vec<u64> = v["ops"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|o| o["function"] == "find_tid")
        .filter_map(|o| o["line"].as_u64())
        .collect();
    assert!(ballot_lines.contains(&16), "{v}");
    // A run at the CFG level of clang's output.
    let a = post(
        server.addr(),
        "/api/run",
        &json!({"language": "cuda", "file": "find-tid.cu", "source": source, "function": "find_tid", "group": 2}),
    );
    assert_eq!(a.status, 200, "{}", a.body);
    assert_eq!(a.json()["level"], "cfg", "{}", a.body);
    // HIP and OpenCL C, by their extensions.
    for (file, function) in [
        ("wave-vote.hip", "wave_vote"),
        ("subgroup-reduce.cl", "subgroup_reduce"),
    ] {
        let a = post(
            server.addr(),
            "/api/lower",
            &json!({"language": "clang", "file": file, "source": example(file), "function": function}),
        );
        assert_eq!(a.status, 200, "{file}: {}", a.body);
        let v = a.json();
        assert_eq!(v["stages"][0]["name"], "clang -O0", "{file}: {v}");
    }
    server.stop();
}

#[test]
fn a_bad_source_answers_clangs_error_at_its_line_and_column() {
    if !have_llvm("a_bad_source_answers_clangs_error_at_its_line_and_column") {
        return;
    }
    let server = with_tools(Some("clang-19"));
    let bad = "__global__ void k(int *o) { o[0] = x; }\n";
    for path in ["/api/lower", "/api/check", "/api/run"] {
        let a = post(
            server.addr(),
            path,
            &json!({"language": "cuda", "file": "bad.cu", "source": bad}),
        );
        assert_eq!(a.status, 422, "{path}: {}", a.body);
        let e = &a.json()["error"];
        assert_eq!(e["kind"], "parse", "{path}: {e}");
        assert_eq!(e["diagnostics"][0]["line"], 1, "{e}");
        assert_eq!(e["diagnostics"][0]["col"], 36, "{e}");
        let message = e["message"].as_str().unwrap_or("");
        assert!(message.contains("use of undeclared identifier 'x'"), "{e}");
        assert!(
            !message.contains("/.tmp") && !message.contains("convcheck-explore-"),
            "{e}"
        );
    }
    // A pipeline opt refuses is opt's error, the request's (4xx).
    let a = post(
        server.addr(),
        "/api/check",
        &json!({"language": "cuda", "file": "find-tid.cu", "source": example("find-tid.cu"),
            "function": "find_tid", "opt": "no-such-pass"}),
    );
    assert_eq!(a.status, 422, "{}", a.body);
    assert!(a.body.contains("no-such-pass"), "{}", a.body);
    server.stop();
}

#[test]
fn clang_sources_are_refused_without_allow_tools_or_a_clang() {
    let source = "__global__ void k(int *o) {}\n";
    let plain = Server::start(Options::default()).expect("the server starts");
    let no_clang = with_tools(None);
    for server in [&plain, &no_clang] {
        for path in ["/api/lower", "/api/check", "/api/run"] {
            let a = post(
                server.addr(),
                path,
                &json!({"language": "cuda", "source": source}),
            );
            assert_eq!(a.status, 422, "{path}: {}", a.body);
            let e = &a.json()["error"];
            assert_eq!(e["kind"], "tools", "{e}");
            assert_eq!(e["field"], "language", "{e}");
            assert!(
                e["message"]
                    .as_str()
                    .unwrap_or("")
                    .contains("--allow-tools"),
                "{e}"
            );
        }
    }
    assert_eq!(
        get(plain.addr(), "/api/initial").json()["tools"],
        Value::Null
    );
    // Without a clang, the command's `.cu` starts in the kernel language.
    let cu = Server::start(Options {
        initial: ("k.cu".into(), source.into()),
        ..Options::default()
    })
    .expect("the server starts");
    assert_eq!(get(cu.addr(), "/api/initial").json()["language"], "kernel");
    cu.stop();
    // An unknown language names the ones there are.
    let a = post(
        plain.addr(),
        "/api/lower",
        &json!({"language": "fortran", "source": source}),
    );
    assert_eq!(a.status, 422, "{}", a.body);
    assert!(a.body.contains("\\\"cuda\\\""), "{}", a.body);
    plain.stop();
    no_clang.stop();
}

/// `clang_args`, `target` and the launch (`block_dim`, `grid_dim`,
/// `warp_size`) reach the server's clang and the check as `check
/// --clang-arg --target --block-dim` give them on the command line; the
/// ones the page may not give, and a field the check would not use, are
/// 422s naming the field.
#[test]
fn clang_flags_and_the_launch_go_through_the_page_as_on_the_command_line() {
    let test = "clang_flags_and_the_launch_go_through_the_page_as_on_the_command_line";
    // Without tools: the launch of a kernel-language check is refused.
    let server = with_tools(None);
    let kernel = json!({"source": "__global__ void k() { __syncthreads(); }",
        "passes": ["simplifycfg"], "block_dim": "4"});
    let a = post(server.addr(), "/api/check", &kernel);
    assert_eq!(a.status, 422, "{}", a.body);
    assert_eq!(a.json()["error"]["field"], "block_dim", "{}", a.body);
    server.stop();
    if !have_llvm(test) {
        return;
    }
    let server = with_tools(Some("clang-19"));
    // A macro the source needs: clang's #error at its line without it.
    let source = "#ifndef LIMIT\n#error \"give -DLIMIT\"\n#endif\n\
        __global__ void k(int *out) {\n  if (threadIdx.x < LIMIT) out[threadIdx.x] = 1;\n  \
        __syncthreads();\n}\n";
    let body = json!({"language": "cuda", "file": "k.cu", "source": source, "function": "k",
        "threads": 2, "opt": "simplifycfg"});
    let a = post(server.addr(), "/api/check", &body);
    assert_eq!(a.status, 422, "{}", a.body);
    assert_eq!(a.json()["error"]["diagnostics"][0]["line"], 2, "{}", a.body);
    let mut with_macro = body.clone();
    with_macro["clang_args"] = json!(["-DLIMIT=1", "-g0"]);
    with_macro["target"] = json!("nvptx64");
    let a = post(server.addr(), "/api/check", &with_macro);
    assert_eq!(a.status, 200, "{}", a.body);
    // `/api/lower` and `/api/run` compile with the same flags.
    let lower = json!({"language": "cuda", "file": "k.cu", "source": source, "function": "k"});
    let a = post(server.addr(), "/api/lower", &lower);
    assert_eq!(a.status, 422, "{}", a.body);
    let mut flagged = lower.clone();
    flagged["clang_args"] = json!(["-DLIMIT=1"]);
    flagged["target"] = json!("nvptx64");
    let a = post(server.addr(), "/api/lower", &flagged);
    assert_eq!(a.status, 200, "{}", a.body);
    assert_eq!(a.json()["stages"][0]["name"], "clang -O0", "{}", a.body);
    let a = post(server.addr(), "/api/run", &flagged);
    assert_eq!(a.status, 200, "{}", a.body);
    flagged["clang_args"] = json!(["-I/etc"]);
    let a = post(server.addr(), "/api/run", &flagged);
    assert_eq!(a.json()["error"]["field"], "clang_args", "{}", a.body);
    let ll = json!({"language": "llvm", "source": "define void @f() {\n  ret void\n}\n",
        "target": "amdgcn"});
    let a = post(server.addr(), "/api/lower", &ll);
    assert_eq!(a.json()["error"]["field"], "target", "{}", a.body);
    // A usage error names the file as the request did.
    let mut no_pipeline = with_macro.clone();
    no_pipeline.as_object_mut().unwrap().remove("opt");
    let a = post(server.addr(), "/api/check", &no_pipeline);
    assert_eq!(a.status, 422, "{}", a.body);
    assert!(!a.body.contains("convcheck-explore-"), "{}", a.body);
    for (field, value) in [
        ("clang_args", json!(["-I/etc"])),
        ("clang_args", json!(["-fplugin=/tmp/x.so"])),
        ("target", json!("x86_64")),
        ("block_dim", json!("16,16")),
        ("block_dim", json!("0")),
        ("warp_size", json!(48)),
    ] {
        let mut b = with_macro.clone();
        b.as_object_mut().unwrap().remove("threads");
        b[field] = value;
        let a = post(server.addr(), "/api/check", &b);
        assert_eq!(a.status, 422, "{field}: {}", a.body);
        assert_eq!(a.json()["error"]["field"], field, "{}", a.body);
    }
    // clang's flags are for sources clang compiles.
    let ll = json!({"language": "llvm", "source": "define void @f() {\n  ret void\n}\n",
        "opt": "simplifycfg", "clang_args": ["-DX=1"]});
    let a = post(server.addr(), "/api/check", &ll);
    assert_eq!(a.status, 422, "{}", a.body);
    assert_eq!(a.json()["error"]["field"], "clang_args", "{}", a.body);
    // The launch: find_tid under a stated 4-thread block and grid, as the
    // command line checks it.
    let source = example("find-tid.cu");
    let body = json!({"language": "cuda", "file": "find-tid.cu", "source": source,
        "function": "find_tid_control", "opt": "simplifycfg", "max_iters": 3,
        "block_dim": "4", "grid_dim": "2", "warp_size": 32});
    let a = post(server.addr(), "/api/check", &body);
    assert_eq!(a.status, 200, "{}", a.body);
    let api = a.json();
    let (code, out, err) = common::convcheck(&[
        "check",
        "examples/gpu/find-tid.cu",
        "--frontend",
        "clang",
        "--opt",
        "simplifycfg",
        "--function",
        "find_tid_control",
        "--max-iters",
        "3",
        "--block-dim",
        "4",
        "--grid-dim",
        "2",
        "--warp-size",
        "32",
        "--format",
        "json",
    ]);
    assert_eq!(code, 0, "{err}");
    let cli: Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}"));
    assert_eq!(summary(&api), summary(&cli), "API {api}\nCLI {cli}");
    assert_eq!(api["threads"], cli["threads"], "API {api}\nCLI {cli}");
    assert_eq!(api["threads"], 4, "{api}");
    server.stop();
}

/// A kernel that compiles only with `-DTILE=N`.
const TILE_VOTE: &str = "#ifndef TILE\n#error \"give -DTILE=N\"\n#endif\n\
__global__ void tile_vote(int *out) {\n  for (int i = 0; i < TILE; i++) {\n    \
if (i == threadIdx.x) {\n      __ballot_sync(0xffffffff, 1);\n      break;\n    }\n  }\n}\n";

/// The verdict, stages, group size and each stage's bounds line of a
/// `check` JSON object.
fn verdict_and_bounds(v: &Value) -> (String, Vec<(String, String)>, Value, Vec<Value>) {
    let (verdict, stages) = summary(v);
    let bounds = v["bounds"]["stages"]
        .as_array()
        .unwrap_or_else(|| panic!("no bounds: {v}"))
        .iter()
        .map(|s| s["bound"].clone())
        .collect();
    (verdict, stages, v["threads"].clone(), bounds)
}

/// A kernel that compiles only with `-DTILE=16` gets through the page the
/// verdict, stages and bounds lines `check --clang-arg=-DTILE=16 --target
/// nvptx64 --block-dim B --grid-dim 2` prints, for two block sizes (the
/// group is the block: 2 and 4 threads); an argument the command line
/// refuses (`-o`) is a 422 with the command line's words, which exits 2.
#[test]
fn a_kernel_needing_a_macro_gets_the_command_lines_verdict_under_the_same_options() {
    let test = "a_kernel_needing_a_macro_gets_the_command_lines_verdict_under_the_same_options";
    if !have_llvm(test) {
        return;
    }
    let path = common::temp("tile-vote.cu", TILE_VOTE);
    let server = with_tools(Some("clang-19"));
    let body = json!({"language": "cuda", "file": "tile-vote.cu", "source": TILE_VOTE,
        "function": "tile_vote", "opt": "sroa,simplifycfg", "max_iters": 3,
        "clang_args": ["-DTILE=16"], "target": "nvptx64", "grid_dim": "2"});
    let mut seen = Vec::new();
    for block in ["2", "4"] {
        let mut b = body.clone();
        b["block_dim"] = json!(block);
        let a = post(server.addr(), "/api/check", &b);
        assert_eq!(a.status, 200, "{}", a.body);
        let api = a.json();
        let (code, out, err) = common::convcheck(&[
            "check",
            &path,
            "--frontend",
            "clang",
            "--clang-arg=-DTILE=16",
            "--target",
            "nvptx64",
            "--opt",
            "sroa,simplifycfg",
            "--function",
            "tile_vote",
            "--max-iters",
            "3",
            "--block-dim",
            block,
            "--grid-dim",
            "2",
            "--format",
            "json",
        ]);
        assert!(code == 0 || code == 1, "exit {code}: {err}");
        let cli: Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}"));
        let got = verdict_and_bounds(&api);
        assert_eq!(got, verdict_and_bounds(&cli), "API {api}\nCLI {cli}");
        assert_eq!(got.2, json!(block.parse::<u32>().unwrap()), "{api}");
        assert!(!got.3.is_empty(), "{api}");
        seen.push(got);
    }
    assert_eq!(seen[0].0, "proved", "{seen:?}");
    // Without the macro, clang's #error at its line.
    let mut bare = body.clone();
    bare.as_object_mut().unwrap().remove("clang_args");
    let a = post(server.addr(), "/api/check", &bare);
    assert_eq!(a.status, 422, "{}", a.body);
    assert_eq!(a.json()["error"]["diagnostics"][0]["line"], 2, "{}", a.body);
    // `-o FILE`: refused by both, in the same words.
    let (code, _, err) = common::convcheck(&[
        "check",
        &path,
        "--frontend",
        "clang",
        "--clang-arg=-DTILE=16",
        "--clang-arg=-o",
        "--clang-arg=elsewhere.ll",
        "--opt",
        "sroa",
    ]);
    assert_eq!(code, 2, "{err}");
    let mut out_flag = body.clone();
    out_flag["clang_args"] = json!(["-DTILE=16", "-o", "elsewhere.ll"]);
    let a = post(server.addr(), "/api/check", &out_flag);
    assert_eq!(a.status, 422, "{}", a.body);
    let e = &a.json()["error"];
    assert_eq!(e["field"], "clang_args", "{}", a.body);
    let said = e["message"].as_str().unwrap_or_default();
    assert!(said.contains("clang argument `-o`"), "{}", a.body);
    assert!(err.contains(said), "CLI: {err}\nAPI: {said}");
    server.stop();
}

/// `-I DIR` through the page: a relative folder under the server's (clang
/// runs there) reaches clang, and the kernel whose `TILE` comes from
/// `checker/tests/include/tile_size.h` gets the command line's verdict
/// with `--clang-arg=-I...` to the same folder; an absolute folder or one
/// with `..` is 422 naming `clang_args`.
#[test]
fn an_include_folder_under_the_servers_reaches_clang() {
    let test = "an_include_folder_under_the_servers_reaches_clang";
    if !have_llvm(test) {
        return;
    }
    let fixture = common::root().join("checker/tests/include");
    let cwd = std::env::current_dir().expect("cwd");
    let Ok(rel) = fixture.strip_prefix(&cwd) else {
        println!("skipping {test}: the tests do not run above checker/tests/include");
        return;
    };
    let rel = rel.to_string_lossy().into_owned();
    let source = format!("#include \"tile_size.h\"\n{TILE_VOTE}");
    let server = with_tools(Some("clang-19"));
    let body = json!({"language": "cuda", "file": "tile-inc.cu", "source": source,
        "function": "tile_vote", "opt": "sroa,simplifycfg", "max_iters": 3,
        "clang_args": ["-I", rel], "block_dim": "2"});
    let a = post(server.addr(), "/api/check", &body);
    assert_eq!(a.status, 200, "{}", a.body);
    let api = a.json();
    let path = common::temp("tile-inc.cu", &source);
    let (code, out, err) = common::convcheck(&[
        "check",
        &path,
        "--frontend",
        "clang",
        "--clang-arg=-Ichecker/tests/include",
        "--opt",
        "sroa,simplifycfg",
        "--function",
        "tile_vote",
        "--max-iters",
        "3",
        "--block-dim",
        "2",
        "--format",
        "json",
    ]);
    assert!(code == 0 || code == 1, "exit {code}: {err}");
    let cli: Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}"));
    assert_eq!(
        verdict_and_bounds(&api),
        verdict_and_bounds(&cli),
        "API {api}\nCLI {cli}"
    );
    // Without the folder: clang cannot find the header.
    let mut bare = body.clone();
    bare.as_object_mut().unwrap().remove("clang_args");
    let a = post(server.addr(), "/api/check", &bare);
    assert_eq!(a.status, 422, "{}", a.body);
    for dir in [
        fixture.to_string_lossy().into_owned(),
        format!("{rel}/../.."),
    ] {
        let mut b = body.clone();
        b["clang_args"] = json!(["-I", dir]);
        let a = post(server.addr(), "/api/check", &b);
        assert_eq!(a.status, 422, "{}", a.body);
        assert_eq!(a.json()["error"]["field"], "clang_args", "{}", a.body);
    }
    server.stop();
}
