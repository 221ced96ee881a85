//! The explorer's server (`convcheck explore`, issue #13), in-process on an
//! ephemeral port of 127.0.0.1, driven by a plain HTTP/1.1 client over
//! `std::net`: the three endpoints, their errors and limits, and that the
//! answers are the command line's own (`run --format json`, `check
//! --format json`).

mod common;

use convcheck::config::{CheckJob as CheckArgs, Format, Format as ReportFormat};
use convcheck::explore::{Options, Server, MAX_BODY};
use convcheck::run::{Level, Relation as Engine, RunArgs};
use serde_json::{json, Value};
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::Duration;

const SEED: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../examples/seed/");

fn seed(name: &str) -> (String, String) {
    let path = format!("{SEED}{name}");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    (path, text)
}

fn start() -> Server {
    Server::start(Options::default()).expect("the server starts on 127.0.0.1:0")
}

/// An answer: status, headers (lower-case names) and body.
pub(crate) struct Answer {
    pub(crate) status: u16,
    headers: Vec<(String, String)>,
    pub(crate) body: String,
}

impl Answer {
    pub(crate) fn json(&self) -> Value {
        serde_json::from_str(&self.body).unwrap_or_else(|e| panic!("not JSON ({e}): {}", self.body))
    }

    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }
}

fn read_answer(stream: &mut TcpStream) -> Answer {
    let mut raw = Vec::new();
    let _ = stream.read_to_end(&mut raw);
    let text = String::from_utf8_lossy(&raw).to_string();
    let (head, body) = text
        .split_once("\r\n\r\n")
        .unwrap_or_else(|| panic!("no HTTP answer: {text:?}"));
    let mut lines = head.lines();
    let status = lines
        .next()
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no status line: {head}"));
    let headers = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    Answer {
        status,
        headers,
        body: body.to_string(),
    }
}

fn connect(addr: SocketAddr) -> TcpStream {
    let s = TcpStream::connect(addr).expect("connect");
    s.set_read_timeout(Some(Duration::from_secs(120))).unwrap();
    s
}

/// Sends one request (`Connection: close`) and reads the whole answer.
fn send(
    addr: SocketAddr,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &[u8],
) -> Answer {
    let mut s = connect(addr);
    let mut head = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Length: {}\r\n",
        body.len()
    );
    for (k, v) in headers {
        head.push_str(&format!("{k}: {v}\r\n"));
    }
    head.push_str("\r\n");
    s.write_all(head.as_bytes()).unwrap();
    s.write_all(body).unwrap();
    read_answer(&mut s)
}

pub(crate) fn post(addr: SocketAddr, path: &str, body: &Value) -> Answer {
    send(
        addr,
        "POST",
        path,
        &[("Content-Type", "application/json")],
        body.to_string().as_bytes(),
    )
}

pub(crate) fn get(addr: SocketAddr, path: &str) -> Answer {
    send(addr, "GET", path, &[], b"")
}

fn ambiguity_check(function: &str, max_iters: u32) -> Value {
    let (path, text) = seed("ambiguity-source.c");
    json!({
        "file": path,
        "source": text,
        "function": function,
        "passes": ["simplifycfg"],
        "reference": "source",
        "tokens": false,
        "max_iters": max_iters,
        "threads": 2,
    })
}

#[test]
fn the_server_listens_on_the_loopback_address_only() {
    let server = start();
    assert_eq!(server.addr().ip().to_string(), "127.0.0.1");
    assert!(server.addr().ip().is_loopback());
    assert_ne!(server.addr().port(), 0);
    assert!(server.url().starts_with("http://127.0.0.1:"));
    // A page elsewhere that reaches it by DNS rebinding names another host.
    let a = send(server.addr(), "GET", "/", &[], b"");
    assert_eq!(a.status, 200);
    let mut s = connect(server.addr());
    s.write_all(b"GET / HTTP/1.1\r\nHost: attacker.example:80\r\nConnection: close\r\n\r\n")
        .unwrap();
    let a = read_answer(&mut s);
    assert_eq!(a.status, 403, "{}", a.body);
    assert_eq!(a.json()["error"]["kind"], "host");
    server.stop();
}

#[test]
fn the_command_prints_its_loopback_url_and_serves_the_page() {
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_convcheck"))
        .args(["explore", "--port", "0"])
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("convcheck explore starts");
    let mut out = child.stdout.take().unwrap();
    let mut line = Vec::new();
    let mut byte = [0u8];
    while out.read(&mut byte).unwrap_or(0) == 1 && byte[0] != b'\n' {
        line.push(byte[0]);
    }
    let line = String::from_utf8_lossy(&line).to_string();
    let url = line
        .split_whitespace()
        .find(|w| w.starts_with("http://"))
        .unwrap_or_else(|| panic!("no URL in {line:?}"));
    assert!(url.starts_with("http://127.0.0.1:"), "{line}");
    let addr: SocketAddr = url
        .trim_start_matches("http://")
        .trim_end_matches('/')
        .parse()
        .unwrap();
    let a = get(addr, "/");
    let _ = child.kill();
    let _ = child.wait();
    assert_eq!(a.status, 200);
    assert!(a.body.contains("convcheck explore"));
}

#[test]
fn a_missing_file_is_a_usage_error() {
    let o = common::main_with_args(["convcheck", "explore", "no/such/kernel.c"]);
    assert_eq!(o.code, 2);
    assert!(
        o.stderr.contains("no/such/kernel.c: cannot read"),
        "{}",
        o.stderr
    );
}

#[test]
fn the_page_and_its_assets_are_embedded() {
    let server = start();
    let a = get(server.addr(), "/");
    assert_eq!(a.status, 200);
    assert!(a.header("content-type").unwrap().starts_with("text/html"));
    assert!(a
        .header("content-security-policy")
        .unwrap()
        .contains("default-src 'self'"));
    assert!(a.body.contains("src=\"/app.js\""));
    // No CDN: every script and style sheet is the server's own.
    assert!(!a.body.contains("http://") && !a.body.contains("https://"));
    for (path, kind) in [
        ("/app.js", "text/javascript"),
        ("/style.css", "text/css"),
        ("/favicon.svg", "image/svg+xml"),
    ] {
        let a = get(server.addr(), path);
        assert_eq!(a.status, 200, "{path}");
        assert!(
            a.header("content-type").unwrap().starts_with(kind),
            "{path}"
        );
        assert!(
            !a.body.contains("https://"),
            "{path} loads something from the network"
        );
    }
    let a = get(server.addr(), "/api/initial");
    assert_eq!(a.json()["file"], "ambiguity-source.c");
    assert_eq!(a.json()["limits"]["max_body"], MAX_BODY);
    let a = get(server.addr(), "/api/passes");
    assert!(a
        .json()
        .as_array()
        .unwrap()
        .iter()
        .any(|p| p["name"] == "simplifycfg"));
    let a = get(server.addr(), "/nothing/here");
    assert_eq!(a.status, 404);
    assert_eq!(a.json()["error"]["kind"], "not_found");
    server.stop();
}

#[test]
fn check_loop_nest_with_simplifycfg_is_violated_with_a_counterexample() {
    let server = start();
    let a = post(
        server.addr(),
        "/api/check",
        &ambiguity_check("loop_nest", 3),
    );
    assert_eq!(a.status, 200, "{}", a.body);
    let j = a.json();
    assert_eq!(j["verdict"], "violated");
    assert_eq!(j["stages"][1]["name"], "simplifycfg");
    assert_eq!(j["stages"][1]["verdict"], "violated");
    let cx = &j["counterexample"];
    assert_eq!(cx["property"], "convergence");
    assert_eq!(cx["operation"]["label"], "C");
    assert_eq!(cx["threads"].as_array().unwrap().len(), 2);
    assert!(cx["replay"].as_str().unwrap().starts_with("convcheck run "));
    server.stop();
}

#[test]
fn check_loop_continue_with_simplifycfg_is_preserved() {
    let server = start();
    let a = post(
        server.addr(),
        "/api/check",
        &ambiguity_check("loop_continue", 3),
    );
    assert_eq!(a.status, 200, "{}", a.body);
    let j = a.json();
    assert!(
        j["verdict"] == "preserved" || j["verdict"] == "proved",
        "{j}"
    );
    assert!(j["counterexample"].is_null());
    server.stop();
}

#[test]
fn check_answers_what_check_format_json_prints() {
    let server = start();
    let (path, _) = seed("ambiguity-source.c");
    for function in ["loop_nest", "loop_continue"] {
        let args = CheckArgs {
            src: path.clone(),
            tgt: None,
            function: Some(function.into()),
            passes: vec!["simplifycfg".into()],
            tokens: false,
            reference: convcheck::config::Reference::Source,
            threads: 2,
            max_iters: 2,
            fuel: 100_000,
            max_paths: 20_000,
            format: ReportFormat::Json,
        };
        let settings = convcheck::pipeline::with_engine(convcheck::config::Engine::Explicit);
        let report =
            convcheck::pipeline::check(&args, &settings, &convcheck::pipeline::Silent).unwrap();
        let mut cli: Value =
            convcheck::report::json::value(&report, &convcheck::report::Invocation::default());
        let a = post(server.addr(), "/api/check", &ambiguity_check(function, 2));
        assert_eq!(a.status, 200, "{}", a.body);
        // The explorer's time budget is its own (a share of the request's),
        // and the report says so; everything else is the same.
        let mut api = a.json();
        let budget = |v: &mut Value| v["bounds"]["budgets"]["timeout_secs"].take();
        assert!(budget(&mut api).as_f64().is_some_and(|t| t > 0.0));
        budget(&mut cli);
        assert_eq!(api, cli, "{function}");
    }
    server.stop();
}

#[test]
fn run_answers_what_run_format_json_prints() {
    let server = start();
    let cases = [
        ("sequential-branch.c", None, Level::Source, false, vec![]),
        (
            "ambiguity-source.c",
            Some("loop_nest"),
            Level::Source,
            false,
            vec![],
        ),
        (
            "ambiguity-source.c",
            Some("loop_nest"),
            Level::Cfg,
            false,
            vec!["simplifycfg"],
        ),
        ("divergent-exit-source.c", None, Level::Cfg, true, vec![]),
        ("duffs-device.c", None, Level::Cfg, false, vec![]),
    ];
    for (file, function, level, tokens, passes) in cases {
        let (path, text) = seed(file);
        let passes: Vec<String> = passes.into_iter().map(String::from).collect();
        let args = RunArgs {
            file: path.clone(),
            function: function.map(String::from),
            threads: Vec::new(),
            tids: Vec::new(),
            group: None,
            fuel: 100_000,
            level: Some(level),
            tokens,
            format: Format::Json,
            engine: Engine::Keys,
            passes: passes.clone(),
            ..RunArgs::default()
        };
        let mut cli: Value =
            serde_json::from_str(&convcheck::run::run(&args).unwrap().text).unwrap();
        cli["group"] = json!(2);
        let level = if level == Level::Source {
            "source"
        } else {
            "cfg"
        };
        let a = post(
            server.addr(),
            "/api/run",
            &json!({"file": path, "source": text, "function": function, "level": level, "tokens": tokens, "passes": passes}),
        );
        assert_eq!(a.status, 200, "{file}: {}", a.body);
        assert_eq!(a.json(), cli, "{file}");
    }
    server.stop();
}

#[test]
fn run_takes_thread_ids_and_a_group_size() {
    let server = start();
    let source = "void k() {\n  if (tid == 5) {\n    ... // X\n  }\n  if (tid == N - 1) {\n    ... // LAST\n  }\n  ... // Y\n}\n";
    let a = post(
        server.addr(),
        "/api/run",
        &json!({"source": source, "threads": [{"tid": 5}, {"tid": 7, "values": ""}, {"values": {}}], "group": 8}),
    );
    assert_eq!(a.status, 200, "{}", a.body);
    let j = a.json();
    assert_eq!(j["rows"], json!(["tid 5", "tid 7", "tid 0"]));
    assert_eq!(j["group"], 8);
    assert_eq!(j["threads"][1]["tid"], 7);
    let rows = j["table"].as_array().unwrap();
    let has = |r: usize, l: &str| rows[r].as_array().unwrap().iter().any(|c| c == l);
    assert!(has(0, "X") && !has(1, "X") && !has(2, "X"), "{j}");
    assert!(
        has(1, "LAST") && !has(0, "LAST"),
        "N is the group size: {j}"
    );
    // Values as --thread text or as lists; tids must be distinct and fit.
    let a = post(
        server.addr(),
        "/api/run",
        &json!({"source": source, "threads": [{"tid": 1}, {"tid": 1}]}),
    );
    assert_eq!(a.status, 422);
    assert_eq!(a.json()["error"]["field"], "threads[1].tid");
    let a = post(
        server.addr(),
        "/api/run",
        &json!({"source": source, "threads": [{"tid": 9}], "group": 4}),
    );
    assert_eq!(a.status, 422);
    assert_eq!(a.json()["error"]["field"], "group");
    let (_, text) = seed("ambiguity-source.c");
    let a = post(
        server.addr(),
        "/api/run",
        &json!({"source": text, "function": "loop_nest", "threads": [{"values": "cond1=1,0 cond2=0"}, {"values": {"cond1": [0], "cond2": [true, false]}}]}),
    );
    assert_eq!(a.status, 200, "{}", a.body);
    assert_eq!(a.json()["threads"][1]["values"]["cond2"], json!([1, 0]));
    let a = post(
        server.addr(),
        "/api/run",
        &json!({"source": text, "function": "loop_nest", "threads": [{"values": "nope=1"}]}),
    );
    assert_eq!(a.status, 422);
    assert!(a.json()["error"]["message"]
        .as_str()
        .unwrap()
        .contains("`nope` is not an oracle"));
    server.stop();
}

#[test]
fn lower_draws_every_block_of_every_stage_with_its_index() {
    let server = start();
    let (_, text) = seed("ambiguity-source.c");
    let a = post(
        server.addr(),
        "/api/lower",
        &json!({"source": text, "function": "loop_nest", "passes": ["simplifycfg"]}),
    );
    assert_eq!(a.status, 200, "{}", a.body);
    let j = a.json();
    assert_eq!(j["function"], "loop_nest");
    assert_eq!(j["functions"].as_array().unwrap().len(), 2);
    let stages = j["stages"].as_array().unwrap();
    assert_eq!(stages.len(), 2);
    assert_eq!(stages[0]["name"], "lower");
    assert_eq!(stages[1]["name"], "simplifycfg");
    assert!(!stages[1]["notes"].as_array().unwrap().is_empty());
    for s in stages {
        let svg = s["svg"].as_str().unwrap();
        assert!(svg.starts_with("<?xml") && svg.contains("<svg"));
        let blocks = s["blocks"].as_array().unwrap();
        for b in blocks {
            let tag = format!("data-block=\"{}\"", b["index"]);
            assert_eq!(svg.matches(&tag).count(), 1, "{tag} in {}", s["name"]);
        }
        assert!(s["text"]
            .as_str()
            .unwrap()
            .starts_with("define void @loop_nest"));
    }
    // C's block before and after the pass.
    let with_c = |s: &Value| -> Vec<String> {
        s["blocks"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|b| b["labels"].as_array().unwrap().iter().any(|l| l == "C"))
            .map(|b| b["name"].as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(with_c(&stages[0]), ["do.end1"]);
    assert_eq!(with_c(&stages[1]).len(), 1);
    server.stop();
}

#[test]
fn a_kernel_with_a_parse_error_answers_its_line_and_column() {
    let server = start();
    let source = "void f() {\n  ... // A\n  if (c { }\n}\n";
    for path in ["/api/lower", "/api/run", "/api/check"] {
        let a = post(
            server.addr(),
            path,
            &json!({"source": source, "file": "broken.c"}),
        );
        assert_eq!(a.status, 422, "{path}: {}", a.body);
        let e = &a.json()["error"];
        assert_eq!(e["kind"], "parse");
        assert_eq!(e["diagnostics"][0]["line"], 3);
        assert_eq!(e["diagnostics"][0]["col"], 9);
        assert!(
            e["message"].as_str().unwrap().starts_with("broken.c:3:9: "),
            "{e}"
        );
    }
    server.stop();
}

#[test]
fn malformed_requests_get_a_4xx_naming_what_was_wrong() {
    let server = start();
    let addr = server.addr();
    let json_post = |body: &str| {
        send(
            addr,
            "POST",
            "/api/check",
            &[("Content-Type", "application/json")],
            body.as_bytes(),
        )
    };
    let a = json_post("{\"source\": ");
    assert_eq!(a.status, 400);
    assert_eq!(a.json()["error"]["kind"], "bad_json");
    assert!(a.json()["error"]["message"]
        .as_str()
        .unwrap()
        .contains("not valid JSON"));
    assert_eq!(a.json()["error"]["at"]["line"], 1);
    let a = json_post("{\"function\": \"f\"}");
    assert_eq!(a.status, 400);
    assert!(a.json()["error"]["message"]
        .as_str()
        .unwrap()
        .contains("missing field `source`"));
    let a = json_post("{\"source\": \"void f() {}\", \"max_iter\": 2}");
    assert_eq!(a.status, 400);
    assert!(a.json()["error"]["message"]
        .as_str()
        .unwrap()
        .contains("unknown field `max_iter`"));
    let a = json_post("{\"source\": \"void f() {}\", \"reference\": \"llvm\"}");
    assert_eq!(a.status, 400);
    assert!(a.json()["error"]["message"]
        .as_str()
        .unwrap()
        .contains("unknown variant `llvm`"));
    // Not JSON at all, or the wrong method.
    let a = send(
        addr,
        "POST",
        "/api/run",
        &[("Content-Type", "text/plain")],
        b"source=x",
    );
    assert_eq!(a.status, 415);
    let a = get(addr, "/api/check");
    assert_eq!(a.status, 405);
    // Unknown passes and functions, and bounds past the caps.
    let (_, text) = seed("ambiguity-source.c");
    let a = post(
        addr,
        "/api/check",
        &json!({"source": text, "function": "loop_nest", "passes": ["simplifycfg", "nonsense"]}),
    );
    assert_eq!(a.status, 422);
    assert_eq!(a.json()["error"]["field"], "passes[1]");
    let a = post(
        addr,
        "/api/check",
        &json!({"source": text, "function": "nope"}),
    );
    assert_eq!(a.status, 422);
    assert_eq!(a.json()["error"]["field"], "function");
    let a = post(
        addr,
        "/api/check",
        &json!({"source": text, "function": "loop_nest", "max_iters": 9}),
    );
    assert_eq!(a.status, 422);
    assert_eq!(a.json()["error"]["kind"], "limit");
    let a = post(
        addr,
        "/api/check",
        &json!({"source": text, "function": "loop_nest", "reference": "cfg"}),
    );
    assert_eq!(a.status, 422);
    assert!(a.json()["error"]["message"]
        .as_str()
        .unwrap()
        .contains("nothing to check"));
    server.stop();
}

/// clang-19 -O0 of `examples/llvm/plain-kernels.c`: seed 000's kernels in
/// plain C, each condition a call to `c()`.
const PLAIN_KERNELS_LL: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../model/llvm/tests/data/plain_kernels_O0.ll"
);

fn plain_kernels() -> String {
    std::fs::read_to_string(PLAIN_KERNELS_LL).unwrap_or_else(|e| panic!("{PLAIN_KERNELS_LL}: {e}"))
}

fn llvm_check(function: &str) -> Value {
    json!({
        "language": "llvm",
        "file": "plain_kernels_O0.ll",
        "source": plain_kernels(),
        "function": function,
        "passes": ["simplifycfg"],
        "max_iters": 3,
        "threads": 2,
    })
}

#[test]
fn llvm_ir_checks_against_its_own_cfg_with_the_built_in_passes() {
    let server = start();
    // clang's loop_nest: convcheck's simplifycfg merges the inner loop's
    // latch into the outer one, which LLVM's rules (the module's own CFG
    // semantics) do not allow.
    let a = post(server.addr(), "/api/check", &llvm_check("loop_nest"));
    assert_eq!(a.status, 200, "{}", a.body);
    let v = a.json();
    assert_eq!(v["verdict"], "violated", "{v}");
    assert_eq!(v["reference"], "cfg");
    assert_eq!(v["file"], "plain_kernels_O0.ll");
    assert_eq!(v["function"], "loop_nest");
    let stages: Vec<&str> = v["stages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    assert_eq!(stages, ["simplifycfg"]);
    let cx = &v["counterexample"];
    assert_eq!(cx["stage"], "simplifycfg", "{cx}");
    assert!(cx["reference_table"]["table"].is_array(), "{cx}");
    assert!(cx["target_table"]["table"].is_array(), "{cx}");
    // `convcheck run` reads the kernel language only: no replay line.
    assert!(cx["replay"].is_null(), "{cx}");
    assert!(cx["threads"][0]["values"]["c"].is_array(), "{cx}");
    // loop_continue survives simplifycfg.
    let a = post(server.addr(), "/api/check", &llvm_check("loop_continue"));
    assert_eq!(a.status, 200, "{}", a.body);
    assert_eq!(a.json()["verdict"], "preserved", "{}", a.body);
    // No source level, and no tokens placed by lowering.
    let mut body = llvm_check("loop_nest");
    body["reference"] = json!("source");
    let a = post(server.addr(), "/api/check", &body);
    assert_eq!(a.status, 422, "{}", a.body);
    assert_eq!(a.json()["error"]["field"], "reference");
    assert!(a.json()["error"]["message"]
        .as_str()
        .unwrap()
        .contains("no source level"));
    let mut body = llvm_check("loop_nest");
    body["tokens"] = json!(true);
    let a = post(server.addr(), "/api/check", &body);
    assert_eq!(a.status, 422, "{}", a.body);
    assert_eq!(a.json()["error"]["field"], "tokens");
    let mut body = llvm_check("loop_nest");
    body["passes"] = json!([]);
    let a = post(server.addr(), "/api/check", &body);
    assert_eq!(a.status, 422, "{}", a.body);
    assert!(a.json()["error"]["message"]
        .as_str()
        .unwrap()
        .contains("nothing to check"));
    server.stop();
}

/// A ballot guarded by `tid < K`: the two-file checks below change K.
fn guarded_ballot(k: u32) -> String {
    format!(
        "declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n\
         declare void @vote() #0\n\
         define void @f() #0 {{\n\
         entry:\n  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n\
         \x20 %c = icmp ult i32 %t, {k}\n  br i1 %c, label %a, label %b\n\
         a:\n  call void @vote()\n  br label %b\n\
         b:\n  ret void\n}}\n\
         attributes #0 = {{ convergent nounwind }}\n"
    )
}

#[test]
fn two_files_are_compared_as_check_src_tgt_compares_them() {
    let server = start();
    let body = |k: u32| {
        json!({
            "language": "llvm",
            "file": "dir/src.ll",
            "source": guarded_ballot(1),
            "target_file": "tgt.ll",
            "target_source": guarded_ballot(k),
            "max_iters": 2,
        })
    };
    // A target that lets thread 1 vote too is violated; the same file is not.
    let a = post(server.addr(), "/api/check", &body(2));
    assert_eq!(a.status, 200, "{}", a.body);
    let v = a.json();
    assert_eq!(v["verdict"], "violated", "{v}");
    // The report names the files as the request did, never the server's
    // temporary folder.
    assert_eq!(v["file"], "src.ll", "{v}");
    assert_eq!(v["target_file"], "tgt.ll", "{v}");
    assert!(!a.body.contains("convcheck-explore-"), "{}", a.body);
    let a = post(server.addr(), "/api/check", &body(1));
    assert_eq!(a.status, 200, "{}", a.body);
    let verdict = a.json()["verdict"].as_str().unwrap_or("").to_string();
    assert!(verdict == "proved" || verdict == "preserved", "{}", a.body);
    // Passes and a target together are refused, as is opt without
    // --allow-tools.
    let mut both = body(2);
    both["passes"] = json!(["simplifycfg"]);
    let a = post(server.addr(), "/api/check", &both);
    assert_eq!(a.status, 422, "{}", a.body);
    assert_eq!(a.json()["error"]["field"], "passes", "{}", a.body);
    let mut opt = llvm_check("loop_nest");
    opt["passes"] = json!([]);
    opt["opt"] = json!("simplifycfg");
    let a = post(server.addr(), "/api/check", &opt);
    assert_eq!(a.status, 422, "{}", a.body);
    assert_eq!(a.json()["error"]["field"], "opt", "{}", a.body);
    assert!(a.body.contains("--allow-tools"), "{}", a.body);
    server.stop();
}

#[test]
fn with_allow_tools_a_check_runs_the_servers_opt() {
    if !common::have("opt-19", "with_allow_tools_a_check_runs_the_servers_opt") {
        return;
    }
    let server = Server::start(Options {
        tools: Some(convcheck::explore::Tools {
            opt_bin: Some("opt-19".into()),
            opt_args: Vec::new(),
            clang_bin: None,
            tool_timeout: 60,
        }),
        ..Options::default()
    })
    .expect("the server starts");
    let initial = get(server.addr(), "/api/initial").json();
    assert_eq!(initial["tools"]["opt"], "opt-19", "{initial}");
    // clang's loop_nest through opt's simplifycfg without keep-loops: the
    // loop nest folded into one loop (docs/src/findings.md, section 6), as
    // `check --opt` finds it; with keep-loops opt leaves the nest alone.
    let mut body = llvm_check("loop_nest");
    body["passes"] = json!([]);
    body["max_iters"] = json!(2);
    body["opt"] = json!("simplifycfg<keep-loops>");
    let a = post(server.addr(), "/api/check", &body);
    assert_eq!(a.status, 200, "{}", a.body);
    let verdict = a.json()["verdict"].as_str().unwrap_or("").to_string();
    assert!(verdict == "proved" || verdict == "preserved", "{}", a.body);
    body["opt"] = json!("simplifycfg<no-keep-loops>");
    let a = post(server.addr(), "/api/check", &body);
    assert_eq!(a.status, 200, "{}", a.body);
    let v = a.json();
    assert_eq!(v["verdict"], "violated", "{v}");
    assert_eq!(v["file"], "plain_kernels_O0.ll", "{v}");
    assert!(!a.body.contains("convcheck-explore-"), "{}", a.body);
    // The pipeline is one -passes= word: a malformed one is opt's error,
    // answered, never run through a shell.
    body["opt"] = json!("simplifycfg; touch /tmp/x");
    let a = post(server.addr(), "/api/check", &body);
    assert_ne!(a.status, 200, "{}", a.body);
    server.stop();
}

#[test]
fn llvm_ir_runs_at_the_cfg_level_and_lowers_to_its_own_cfg() {
    let server = start();
    let source = plain_kernels();
    let a = post(
        server.addr(),
        "/api/run",
        &json!({"language": "llvm", "source": source, "function": "loop_nest",
                "threads": [{"values": "c=1,0,0"}, {"values": "c=0,0"}]}),
    );
    assert_eq!(a.status, 200, "{}", a.body);
    let v = a.json();
    assert_eq!(v["level"], "cfg");
    assert_eq!(v["file"], "input.ll");
    assert_eq!(v["function"], "loop_nest");
    assert_eq!(v["rows"], json!(["tid 0", "tid 1"]));
    // Thread 0 runs B twice (the inner loop once more), thread 1 once.
    let labels: Vec<Vec<Option<String>>> = serde_json::from_value(v["table"].clone()).unwrap();
    let count =
        |row: &[Option<String>], l: &str| row.iter().filter(|x| x.as_deref() == Some(l)).count();
    assert_eq!(count(&labels[0], "B"), 2, "{v}");
    assert_eq!(count(&labels[1], "B"), 1, "{v}");
    assert!(v["cycle_hierarchy"]
        .as_str()
        .unwrap()
        .contains("cycle header"));
    // After a pass too.
    let a = post(
        server.addr(),
        "/api/run",
        &json!({"language": "llvm", "source": source, "function": "loop_nest", "passes": ["simplifycfg"]}),
    );
    assert_eq!(a.status, 200, "{}", a.body);
    assert_eq!(a.json()["passes"], json!(["simplifycfg"]));
    // No source level for LLVM IR.
    let a = post(
        server.addr(),
        "/api/run",
        &json!({"language": "llvm", "source": source, "function": "loop_nest", "level": "source"}),
    );
    assert_eq!(a.status, 422, "{}", a.body);
    assert_eq!(a.json()["error"]["field"], "level");
    // Several kernels: the function must be named.
    let a = post(
        server.addr(),
        "/api/run",
        &json!({"language": "llvm", "source": source}),
    );
    assert_eq!(a.status, 422, "{}", a.body);
    assert_eq!(a.json()["error"]["field"], "function");
    // lower: the module as read, then each pass; the functions with the
    // line of their `define`; operations at their LLVM lines.
    let a = post(
        server.addr(),
        "/api/lower",
        &json!({"language": "llvm", "file": "plain_kernels_O0.ll", "source": source,
                "function": "loop_nest", "passes": ["simplifycfg"]}),
    );
    assert_eq!(a.status, 200, "{}", a.body);
    let v = a.json();
    assert_eq!(v["function"], "loop_nest");
    assert!(v["default_function"].is_null(), "{v}");
    let names: Vec<&str> = v["stages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["plain_kernels_O0.ll", "simplifycfg"]);
    let f = v["functions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["name"] == "loop_nest")
        .unwrap();
    assert_eq!(f["line"], 41);
    assert!(f["unsupported"].is_null());
    assert!(v["ops"]
        .as_array()
        .unwrap()
        .iter()
        .any(|o| o["function"] == "loop_nest" && o["label"] == "C" && o["line"] == 58));
    for s in v["stages"].as_array().unwrap() {
        assert!(s["svg"].as_str().unwrap().contains("cc-block"));
        assert!(!s["blocks"].as_array().unwrap().is_empty());
    }
    // The page's LLVM examples are served.
    let init = get(server.addr(), "/api/initial").json();
    let ll: Vec<&Value> = init["examples"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["language"] == "llvm")
        .collect();
    assert!(!ll.is_empty(), "{init}");
    for e in ll {
        let a = post(
            server.addr(),
            "/api/lower",
            &json!({"language": "llvm", "file": e["file"], "source": e["source"]}),
        );
        assert_eq!(a.status, 200, "{}: {}", e["file"], a.body);
    }
    server.stop();
}

#[test]
fn llvm_ir_with_a_parse_error_answers_its_line_and_column() {
    let server = start();
    let source = "define void @f() {\nentry:\n  br label %next\nnext:\n  ret voi\n}\n";
    for path in ["/api/lower", "/api/run", "/api/check"] {
        let a = post(
            server.addr(),
            path,
            &json!({"language": "llvm", "source": source, "file": "broken.ll", "passes": ["simplifycfg"]}),
        );
        assert_eq!(a.status, 422, "{path}: {}", a.body);
        let e = &a.json()["error"];
        assert_eq!(e["kind"], "parse", "{e}");
        assert_eq!(e["field"], "source");
        assert_eq!(e["diagnostics"][0]["line"], 5, "{e}");
        assert_eq!(e["diagnostics"][0]["col"], 7, "{e}");
        assert!(
            e["message"]
                .as_str()
                .unwrap()
                .starts_with("broken.ll:5:7: "),
            "{e}"
        );
    }
    // An unknown language is still refused.
    let a = post(
        server.addr(),
        "/api/run",
        &json!({"language": "ptx", "source": ""}),
    );
    assert_eq!(a.status, 422);
    assert_eq!(a.json()["error"]["kind"], "unsupported_language");
    assert_eq!(a.json()["error"]["field"], "language");
    server.stop();
}

#[test]
fn an_llvm_function_outside_the_model_is_answered_with_its_construct() {
    let server = start();
    let source = "declare void @sync() convergent\n\ndefine void @f() {\nentry:\n  %y = fadd fast double 1.0, 2.0\n  call void @sync()\n  ret void\n}\n\ndefine void @g() {\nentry:\n  call void @sync()\n  ret void\n}\n";
    let body = |f: &str| json!({"language": "llvm", "source": source, "function": f, "passes": ["simplifycfg"]});
    let a = post(server.addr(), "/api/run", &body("f"));
    assert_eq!(a.status, 422, "{}", a.body);
    let e = &a.json()["error"];
    assert_eq!(e["kind"], "unsupported", "{e}");
    assert_eq!(e["field"], "function");
    assert_eq!(e["unsupported"]["line"], 5, "{e}");
    assert!(
        e["message"].as_str().unwrap().contains("floating point"),
        "{e}"
    );
    // A check of it is inconclusive, naming the construct, as `check
    // A.ll B.ll` reports it.
    let check = |f: &str| {
        let mut b = body(f);
        b["threads"] = json!(2);
        b
    };
    let a = post(server.addr(), "/api/check", &check("f"));
    assert_eq!(a.status, 200, "{}", a.body);
    let v = a.json();
    assert_eq!(v["verdict"], "inconclusive", "{v}");
    assert!(
        v["stages"][0]["reason"]
            .as_str()
            .unwrap()
            .contains("floating point"),
        "{v}"
    );
    // lower lists every function, says why f has no CFG, and draws g.
    let a = post(server.addr(), "/api/lower", &body("f"));
    assert_eq!(a.status, 200, "{}", a.body);
    let v = a.json();
    assert!(
        v["unsupported"]["message"]
            .as_str()
            .unwrap()
            .contains("floating point"),
        "{v}"
    );
    assert_eq!(v["unsupported"]["line"], 5);
    assert_eq!(v["stages"], json!([]));
    assert_eq!(v["functions"].as_array().unwrap().len(), 2);
    let a = post(server.addr(), "/api/lower", &body("g"));
    assert_eq!(a.status, 200, "{}", a.body);
    assert_eq!(a.json()["stages"].as_array().unwrap().len(), 2);
    let a = post(server.addr(), "/api/check", &check("g"));
    assert_eq!(a.status, 200, "{}", a.body);
    assert_eq!(a.json()["verdict"], "preserved", "{}", a.body);
    server.stop();
}

#[test]
fn a_20_mib_body_is_refused_and_the_server_keeps_serving() {
    let server = start();
    let addr = server.addr();
    // A client that writes its whole body before reading still reads the
    // 413: the server drains what it refused.
    let mut s = connect(addr);
    let size = 20 << 20;
    let head = format!(
        "POST /api/check HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {size}\r\n\r\n"
    );
    s.write_all(head.as_bytes()).unwrap();
    let mut writer = s.try_clone().unwrap();
    let sender = std::thread::spawn(move || {
        let chunk = vec![b' '; 1 << 16];
        for _ in 0..(size / chunk.len()) {
            if writer.write_all(&chunk).is_err() {
                break;
            }
        }
    });
    let a = read_answer(&mut s);
    let _ = sender.join();
    assert_eq!(a.status, 413, "{}", a.body);
    assert_eq!(a.json()["error"]["kind"], "too_large");
    // A chunked body without a length is cut at the limit too.
    let mut s = connect(addr);
    let head = format!(
        "POST /api/run HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
    );
    s.write_all(head.as_bytes()).unwrap();
    let chunk = vec![b' '; 1 << 16];
    for _ in 0..(2 * MAX_BODY / chunk.len()) {
        let frame = [format!("{:x}\r\n", chunk.len()).as_bytes(), &chunk, b"\r\n"].concat();
        if s.write_all(&frame).is_err() {
            break;
        }
    }
    let _ = s.write_all(b"0\r\n\r\n");
    let a = read_answer(&mut s);
    assert_eq!(a.status, 413, "{}", a.body);
    // The server still answers, and a body of exactly the limit (the
    // kernel padded with spaces) is read.
    let a = post(addr, "/api/check", &ambiguity_check("loop_continue", 1));
    assert_eq!(a.status, 200, "{}", a.body);
    let base = ambiguity_check("loop_continue", 1);
    let mut body = base.clone();
    let pad = MAX_BODY - base.to_string().len();
    body["source"] = json!(format!(
        "{}{}",
        base["source"].as_str().unwrap(),
        " ".repeat(pad)
    ));
    let padded = body.to_string();
    assert_eq!(padded.len(), MAX_BODY);
    let a = send(
        addr,
        "POST",
        "/api/check",
        &[("Content-Type", "application/json")],
        padded.as_bytes(),
    );
    assert_eq!(a.status, 200, "{}", &a.body[..a.body.len().min(300)]);
    server.stop();
}

#[test]
fn a_check_past_its_budget_is_inconclusive_and_other_requests_go_on() {
    let server = Server::start(Options {
        budget: Duration::from_secs(2),
        ..Options::default()
    })
    .unwrap();
    let addr = server.addr();
    // loop_nest at max_iters 8 takes far more than two seconds: the
    // engine stops at its share of the budget and says why.
    let started = std::time::Instant::now();
    let a = post(addr, "/api/check", &ambiguity_check("loop_nest", 8));
    let took = started.elapsed();
    assert_eq!(a.status, 200, "{}", a.body);
    assert_eq!(a.json()["verdict"], "inconclusive", "{}", a.body);
    assert!(a.body.contains("time budget"), "{}", a.body);
    assert!(took < Duration::from_secs(10), "took {took:?}");
    // The check slot is free again: the next check is answered.
    let a = post(addr, "/api/check", &ambiguity_check("loop_continue", 1));
    assert_eq!(a.status, 200, "{}", a.body);
    let (_, text) = seed("sequential-branch.c");
    let a = post(addr, "/api/run", &json!({"source": text}));
    assert_eq!(a.status, 200, "{}", a.body);
    server.stop();
}

#[test]
fn concurrent_requests_are_all_answered() {
    let server = start();
    let addr = server.addr();
    let (_, text) = seed("ambiguity-source.c");
    let workers: Vec<_> = (0..8)
        .map(|i| {
            let text = text.clone();
            std::thread::spawn(move || {
                let level = if i % 2 == 0 { "source" } else { "cfg" };
                let a = post(
                    addr,
                    "/api/run",
                    &json!({"source": text, "function": "loop_nest", "level": level}),
                );
                a.status
            })
        })
        .collect();
    for w in workers {
        assert_eq!(w.join().unwrap(), 200);
    }
    server.stop();
}
