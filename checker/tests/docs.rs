//! Every command shown in the book runs, and prints what the book says it
//! prints, so the examples in `docs/src/*.md` cannot go stale.
//!
//! The convention (documented for writers in `docs/src/cli.md`, "Examples
//! in this book"):
//!
//! - A fenced block whose info string starts with `console` is a terminal
//!   transcript. Each line that starts with `$ convcheck ` is a command (a
//!   line ending in `\` continues on the next one). The lines after it, up
//!   to the next `$ ` line or the end of the block, are what it prints:
//!   standard output, then standard error, as a terminal shows them.
//! - The exit code is 0 unless the output ends with a line `[exit code N]`.
//! - A line `...` stands for any number of lines. As the last line, the
//!   lines before it need only be a prefix of the output (for long
//!   outputs); elsewhere, output lines are skipped until the next line
//!   written matches.
//! - Lines are compared without trailing white space.
//! - An output that is one line of JSON (`--format json`, `sarif`) may be
//!   written indented over several lines: it is then compared as JSON,
//!   value for value.
//! - Commands run from the repository root with the binary under test.
//!   Words are split as a POSIX shell splits them with single and double
//!   quotes and backslashes; pipes, redirections and variables are
//!   refused, since no shell runs.
//! - A command that needs a tool this machine lacks is skipped, with the
//!   reason printed: `--opt` needs `opt-19` or `opt`, `--opt-bin PATH`
//!   needs `PATH`, `explore` starts a server, and a block written
//!   `` ```console,requires=TOOL `` needs `TOOL` on the `PATH`.
//! - `$ convcheck` in any other kind of block is an error: every command
//!   in the book is checked. A block fenced with four backquotes or more
//!   shows Markdown source and is not examined.
//!
//! After a deliberate change of output, `CONVCHECK_BLESS=1 cargo test -p
//! convcheck --test integration docs::` rewrites the outputs in the book instead of
//! failing (as wasm-tools' bless does). A prefix (`...` last) keeps its
//! length; an output with `...` elsewhere cannot be blessed and is
//! reported, to be rewritten by hand. Review the diff before committing.

use std::fmt::Write as _;
use std::io::{Read, Write as _};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The longest one command may run before it counts as hanging.
const TIMEOUT: Duration = Duration::from_secs(300);

/// The line that stands for any number of output lines.
const ANY: &str = "...";

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_else(|| PathBuf::from(".."))
}

/// One command of a transcript, with where its expected output stands.
#[derive(Debug)]
struct Example {
    /// The chapter, relative to the repository root.
    file: String,
    /// The 1-based line of the `$ convcheck` line.
    line: usize,
    /// The command as written, continuation lines joined.
    command: String,
    /// Why it cannot run here, if it cannot.
    requires: Option<String>,
    /// 0-based line indices `[start, end)` of its expected output in the
    /// chapter, including the exit-code line.
    output: (usize, usize),
    /// The expected output lines, without the exit-code line.
    expected: Vec<String>,
    /// The expected exit code.
    code: i32,
}

/// What one command did.
struct Ran {
    code: i32,
    lines: Vec<String>,
}

/// The exit code a `[exit code N]` line gives.
fn exit_line(line: &str) -> Option<i32> {
    line.trim()
        .strip_prefix("[exit code ")?
        .strip_suffix(']')?
        .parse()
        .ok()
}

/// Reads the transcripts of one chapter. Errors are about the chapter's
/// text (a `$ convcheck` outside a console block, a prompt that is not
/// convcheck's).
fn examples(file: &str, text: &str) -> Result<Vec<Example>, Vec<String>> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    let mut errors = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let ticks = lines[i]
            .trim_start()
            .chars()
            .take_while(|&c| c == '`')
            .count();
        let info = (ticks >= 3).then(|| &lines[i].trim_start()[ticks..]);
        let Some(info) = info else {
            if lines[i].trim_start().starts_with("$ convcheck") {
                errors.push(format!(
                    "{file}:{}: `$ convcheck` outside a fenced block",
                    i + 1
                ));
            }
            i += 1;
            continue;
        };
        // A fenced block: it ends at a line of at least as many backquotes
        // and nothing else.
        let fence_end = (i + 1..lines.len())
            .find(|&j| {
                let t = lines[j].trim();
                t.len() >= ticks && t.chars().all(|c| c == '`')
            })
            .unwrap_or(lines.len());
        // Four backquotes or more fence Markdown shown as source (an
        // example of a transcript, say): nothing in it is run.
        if ticks > 3 {
            i = fence_end + 1;
            continue;
        }
        let mut attrs = info.split(|c: char| c == ',' || c.is_whitespace());
        let kind = attrs.next().unwrap_or("");
        let requires: Vec<String> = attrs
            .filter_map(|a| a.strip_prefix("requires="))
            .map(str::to_string)
            .collect();
        let body = i + 1..fence_end;
        if kind != "console" {
            for j in body {
                if lines[j].trim_start().starts_with("$ convcheck") {
                    errors.push(format!(
                        "{file}:{}: `$ convcheck` in a `{kind}` block: write transcripts in \
                         ```console blocks so that they are checked",
                        j + 1
                    ));
                }
            }
            i = fence_end + 1;
            continue;
        }
        let mut j = body.start;
        while j < fence_end {
            let line = lines[j];
            if !line.starts_with("$ ") {
                errors.push(format!(
                    "{file}:{}: a console block must start with a `$ convcheck` line",
                    j + 1
                ));
                j += 1;
                continue;
            }
            if !line.starts_with("$ convcheck ") && line != "$ convcheck" {
                errors.push(format!(
                    "{file}:{}: only convcheck commands can be checked; show other \
                     commands in a ```sh block without a prompt",
                    j + 1
                ));
            }
            let start = j;
            let mut command = line[2..].to_string();
            while command.ends_with('\\') && j + 1 < fence_end {
                command.pop();
                j += 1;
                command.push(' ');
                command.push_str(lines[j].trim());
            }
            j += 1;
            let out_start = j;
            while j < fence_end && !lines[j].starts_with("$ ") {
                j += 1;
            }
            let mut expected: Vec<String> = lines[out_start..j]
                .iter()
                .map(|l| l.trim_end().to_string())
                .collect();
            let mut code = 0;
            if let Some(c) = expected.last().and_then(|l| exit_line(l)) {
                code = c;
                expected.pop();
            }
            out.push(Example {
                file: file.to_string(),
                line: start + 1,
                requires: missing_tool(&command, &requires),
                command,
                output: (out_start, j),
                expected,
                code,
            });
        }
        i = fence_end + 1;
    }
    if errors.is_empty() {
        Ok(out)
    } else {
        Err(errors)
    }
}

/// Whether `tool` can be run: a path that exists, or a name on the `PATH`.
fn have(tool: &str) -> bool {
    if tool.contains('/') {
        return Path::new(tool).exists();
    }
    std::env::var_os("PATH")
        .is_some_and(|paths| std::env::split_paths(&paths).any(|dir| dir.join(tool).is_file()))
}

/// Why a command cannot run on this machine, if it cannot.
fn missing_tool(command: &str, requires: &[String]) -> Option<String> {
    for tool in requires {
        if !have(tool) {
            return Some(format!("needs `{tool}`, which is not installed"));
        }
    }
    let words = split(command).ok()?;
    if words.get(1).map(String::as_str) == Some("explore") {
        return Some("`explore` starts a server".into());
    }
    if let Some(k) = words.iter().position(|w| w == "--opt-bin") {
        let bin = words.get(k + 1)?;
        if !have(bin) {
            return Some(format!("needs `{bin}` (--opt-bin), which is not installed"));
        }
    } else if words.iter().any(|w| w == "--opt") && !have("opt-19") && !have("opt") {
        return Some("needs `opt-19` or `opt` (--opt), which is not installed".into());
    }
    None
}

/// Splits a command into words as a POSIX shell would, for the subset a
/// transcript may use: single quotes, double quotes (where `\` escapes `"`,
/// `\` and `$`), and `\` before any character elsewhere.
fn split(command: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut cur = String::new();
    let mut in_word = false;
    let mut chars = command.chars();
    while let Some(c) = chars.next() {
        match c {
            '\'' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(c) => cur.push(c),
                        None => return Err("unterminated `'`".into()),
                    }
                }
            }
            '"' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(c @ ('"' | '\\' | '$')) => cur.push(c),
                            Some(c) => {
                                cur.push('\\');
                                cur.push(c);
                            }
                            None => return Err("unterminated `\"`".into()),
                        },
                        Some('$' | '`') => {
                            return Err("variables and substitutions are not supported".into())
                        }
                        Some(c) => cur.push(c),
                        None => return Err("unterminated `\"`".into()),
                    }
                }
            }
            '\\' => {
                in_word = true;
                if let Some(c) = chars.next() {
                    cur.push(c);
                }
            }
            c if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut cur));
                    in_word = false;
                }
            }
            '|' | '&' | ';' | '<' | '>' | '(' | ')' | '$' | '`' | '*' | '?' => {
                return Err(format!(
                    "`{c}` needs a shell; a transcript runs the command without one"
                ))
            }
            c => {
                in_word = true;
                cur.push(c);
            }
        }
    }
    if in_word {
        words.push(cur);
    }
    Ok(words)
}

/// Runs one command from the repository root.
fn run(example: &Example) -> Result<Ran, String> {
    let words = split(&example.command)?;
    if words.first().map(String::as_str) != Some("convcheck") {
        return Err("not a convcheck command".into());
    }
    let mut child = Command::new(env!("CARGO_BIN_EXE_convcheck"))
        .args(&words[1..])
        .current_dir(root())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot start the binary: {e}"))?;
    // Read both pipes while the command runs, so that a full pipe cannot
    // stall it.
    let mut stdout = child.stdout.take().expect("piped");
    let mut stderr = child.stderr.take().expect("piped");
    let out_reader = std::thread::spawn(move || {
        let mut v = Vec::new();
        let _ = stdout.read_to_end(&mut v);
        v
    });
    let err_reader = std::thread::spawn(move || {
        let mut v = Vec::new();
        let _ = stderr.read_to_end(&mut v);
        v
    });
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().map_err(|e| e.to_string())? {
            break status;
        }
        if started.elapsed() > TIMEOUT {
            let _ = child.kill();
            let _ = child.wait();
            return Err(format!("still running after {} s", TIMEOUT.as_secs()));
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let mut text = String::from_utf8_lossy(&out_reader.join().unwrap_or_default()).into_owned();
    text.push_str(&String::from_utf8_lossy(
        &err_reader.join().unwrap_or_default(),
    ));
    let mut lines: Vec<String> = text.lines().map(|l| l.trim_end().to_string()).collect();
    while lines.last().is_some_and(|l| l.is_empty()) {
        lines.pop();
    }
    Ok(Ran {
        code: status.code().unwrap_or(-1),
        lines,
    })
}

/// Whether `actual` matches `expected`, where a line `...` stands for any
/// number of lines.
fn matches(expected: &[String], actual: &[String]) -> bool {
    match expected.split_first() {
        None => actual.is_empty(),
        Some((first, rest)) if first == ANY => {
            (0..=actual.len()).any(|skip| matches(rest, &actual[skip..]))
        }
        Some((first, rest)) => actual
            .split_first()
            .is_some_and(|(a, arest)| a == first && matches(rest, arest)),
    }
}

/// The JSON value of a one-line output, if it is one.
fn json_line(lines: &[String]) -> Option<serde_json::Value> {
    match lines {
        [one] => serde_json::from_str(one).ok(),
        _ => None,
    }
}

/// Whether the written output is the printed one: line by line, or as JSON
/// when the printed output is one line of JSON and the written one is that
/// JSON indented.
fn agrees(expected: &[String], actual: &[String]) -> bool {
    if matches(expected, actual) {
        return true;
    }
    match json_line(actual) {
        Some(value) if expected.len() > 1 => {
            serde_json::from_str::<serde_json::Value>(&expected.join("\n")).ok() == Some(value)
        }
        _ => false,
    }
}

/// Lines of indented JSON in the book stay within this width when they can.
const JSON_WIDTH: usize = 100;

/// `value` on one line, with a space after `:` and `,`.
fn compact(value: &serde_json::Value) -> String {
    let json = |v: &serde_json::Value| serde_json::to_string(v).unwrap_or_default();
    match value {
        serde_json::Value::Array(items) => {
            let inner: Vec<String> = items.iter().map(compact).collect();
            format!("[{}]", inner.join(", "))
        }
        serde_json::Value::Object(map) => {
            let inner: Vec<String> = map
                .iter()
                .map(|(k, v)| format!("{}: {}", json(&k.clone().into()), compact(v)))
                .collect();
            format!("{{{}}}", inner.join(", "))
        }
        v => json(v),
    }
}

/// Writes `value` indented as the book shows JSON: a member that fits in
/// [`JSON_WIDTH`] columns stays on one line, others open one line per
/// member.
fn indent(value: &serde_json::Value, depth: usize, out: &mut String) {
    let pad = "  ".repeat(depth);
    let one = compact(value);
    let (items, open, close): (Vec<(Option<String>, &serde_json::Value)>, &str, &str) = match value
    {
        serde_json::Value::Array(a) if pad.len() + one.len() > JSON_WIDTH => {
            (a.iter().map(|v| (None, v)).collect(), "[", "]")
        }
        serde_json::Value::Object(m) if pad.len() + one.len() > JSON_WIDTH => (
            m.iter()
                .map(|(k, v)| (Some(serde_json::to_string(k).unwrap_or_default()), v))
                .collect(),
            "{",
            "}",
        ),
        _ => {
            out.push_str(&one);
            return;
        }
    };
    out.push_str(open);
    out.push('\n');
    let inner = "  ".repeat(depth + 1);
    for (i, (key, v)) in items.iter().enumerate() {
        out.push_str(&inner);
        if let Some(k) = key {
            out.push_str(k);
            out.push_str(": ");
        }
        indent(v, depth + 1, out);
        if i + 1 < items.len() {
            out.push(',');
        }
        out.push('\n');
    }
    out.push_str(&pad);
    out.push_str(close);
}

/// The output a blessed chapter shows for `ran`, keeping the shape of what
/// was written: a prefix stays a prefix of the same length, indented JSON
/// stays indented. `None` when the written output elides lines in the
/// middle, which bless cannot rewrite.
fn blessed(example: &Example, ran: &Ran) -> Option<Vec<String>> {
    let e = &example.expected;
    let elisions = e.iter().filter(|l| *l == ANY).count();
    let indented = match json_line(&ran.lines) {
        Some(value) if e.len() > 1 && elisions == 0 => {
            let mut text = String::new();
            indent(&value, 0, &mut text);
            Some(text.lines().map(str::to_string).collect::<Vec<_>>())
        }
        _ => None,
    };
    let mut lines = match elisions {
        _ if indented.is_some() => indented.unwrap_or_default(),
        0 => ran.lines.clone(),
        1 if e.last().is_some_and(|l| l == ANY) => {
            let keep = e.len() - 1;
            if ran.lines.len() > keep {
                let mut v = ran.lines[..keep].to_vec();
                v.push(ANY.to_string());
                v
            } else {
                ran.lines.clone()
            }
        }
        _ => return None,
    };
    if ran.code != 0 {
        lines.push(format!("[exit code {}]", ran.code));
    }
    Some(lines)
}

/// A failure report: the command, and what was written against what it
/// printed.
fn report(example: &Example, ran: &Ran) -> String {
    let mut s = format!(
        "{}:{}: $ {}\n  exit code: written {}, got {}\n  --- written ---\n",
        example.file, example.line, example.command, example.code, ran.code
    );
    for l in &example.expected {
        let _ = writeln!(s, "  {l}");
    }
    s.push_str("  --- printed ---\n");
    for l in &ran.lines {
        let _ = writeln!(s, "  {l}");
    }
    s
}

/// Writes a line past libtest's output capture, so that the reason for a
/// skipped example shows in `cargo test`'s output.
fn say(line: &str) {
    let _ = writeln!(std::io::stderr(), "{line}");
}

/// The chapters of the book, sorted.
fn chapters() -> Vec<PathBuf> {
    let dir = root().join("docs/src");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .collect();
    files.sort();
    files
}

#[test]
fn every_command_in_the_book_prints_what_the_book_shows() {
    let bless = std::env::var_os("CONVCHECK_BLESS").is_some_and(|v| v != "0" && !v.is_empty());
    let mut problems = Vec::new();
    let mut all: Vec<(PathBuf, String, Vec<Example>)> = Vec::new();
    for path in chapters() {
        let text = std::fs::read_to_string(&path).expect("readable chapter");
        let name = path
            .strip_prefix(root())
            .unwrap_or(&path)
            .display()
            .to_string();
        match examples(&name, &text) {
            Ok(ex) => all.push((path, text, ex)),
            Err(errors) => problems.extend(errors),
        }
    }

    // Run every example, a few at a time.
    let jobs: Vec<&Example> = all
        .iter()
        .flat_map(|(_, _, ex)| ex)
        .filter(|e| e.requires.is_none())
        .collect();
    let workers = std::thread::available_parallelism().map_or(2, |n| n.get());
    let next = std::sync::atomic::AtomicUsize::new(0);
    let results: Vec<std::sync::Mutex<Option<Result<Ran, String>>>> =
        jobs.iter().map(|_| std::sync::Mutex::new(None)).collect();
    std::thread::scope(|s| {
        for _ in 0..workers {
            s.spawn(|| loop {
                let k = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some(job) = jobs.get(k) else { break };
                let r = run(job);
                *results[k].lock().expect("no poisoned lock") = Some(r);
            });
        }
    });
    let mut outcome = std::collections::HashMap::new();
    for (job, r) in jobs.iter().zip(results) {
        let r = r.into_inner().expect("no poisoned lock").expect("ran");
        outcome.insert((job.file.clone(), job.line), r);
    }

    let (mut checked, mut skipped, mut blessed_count) = (0, 0, 0);
    for (path, text, ex) in &all {
        let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
        let mut changed = false;
        // From the last example up, so that earlier line numbers hold.
        for e in ex.iter().rev() {
            if let Some(why) = &e.requires {
                say(&format!(
                    "skipped {}:{}: $ {}: {why}",
                    e.file, e.line, e.command
                ));
                skipped += 1;
                continue;
            }
            checked += 1;
            let ran = match &outcome[&(e.file.clone(), e.line)] {
                Ok(r) => r,
                Err(why) => {
                    problems.push(format!("{}:{}: $ {}: {why}", e.file, e.line, e.command));
                    continue;
                }
            };
            if ran.code == e.code && agrees(&e.expected, &ran.lines) {
                continue;
            }
            if !bless {
                problems.push(report(e, ran));
                continue;
            }
            match blessed(e, ran) {
                Some(new) => {
                    lines.splice(e.output.0..e.output.1, new);
                    changed = true;
                    blessed_count += 1;
                }
                None => problems.push(format!(
                    "cannot bless (a `...` elides lines in the middle; rewrite by hand):\n{}",
                    report(e, ran)
                )),
            }
        }
        if changed {
            let mut new_text = lines.join("\n");
            if text.ends_with('\n') {
                new_text.push('\n');
            }
            std::fs::write(path, new_text).expect("chapter written");
        }
    }
    say(&format!(
        "book examples: {checked} checked, {skipped} skipped{}",
        if bless {
            format!(", {blessed_count} blessed")
        } else {
            String::new()
        }
    ));
    assert!(checked > 0, "no example found in docs/src");
    assert!(
        problems.is_empty(),
        "{} problem(s) with the book's examples (CONVCHECK_BLESS=1 rewrites outputs):\n\n{}",
        problems.len(),
        problems.join("\n")
    );
}

#[test]
fn the_conventions_hold() {
    let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
    // `...` as a prefix, in the middle, and alone.
    assert!(matches(&s(&["a", "..."]), &s(&["a", "b", "c"])));
    assert!(matches(&s(&["a", "..."]), &s(&["a"])));
    assert!(!matches(&s(&["a", "..."]), &s(&["b", "a"])));
    assert!(matches(&s(&["...", "c", "..."]), &s(&["a", "b", "c", "d"])));
    assert!(matches(&s(&["a", "...", "d"]), &s(&["a", "b", "c", "d"])));
    assert!(!matches(&s(&["a", "b"]), &s(&["a", "b", "c"])));
    assert!(matches(&s(&["..."]), &s(&[])));
    // One line of JSON against the same value indented.
    assert!(agrees(
        &s(&["{", r#"  "a": [1,"#, "    2]", "}"]),
        &s(&[r#"{"a":[1,2]}"#])
    ));
    assert!(!agrees(&s(&["{", r#"  "a": 1"#, "}"]), &s(&[r#"{"a":2}"#])));
    // Words as a shell splits them.
    assert_eq!(
        split(r#"convcheck run f.c --thread 'c1=1,0 c2=0' --thread "x=1" a\ b"#).unwrap(),
        s(&[
            "convcheck",
            "run",
            "f.c",
            "--thread",
            "c1=1,0 c2=0",
            "--thread",
            "x=1",
            "a b"
        ])
    );
    assert!(split("convcheck run f.c | head").is_err());
    assert!(split("convcheck run $F").is_err());
    // Transcripts: continuation lines, exit codes, several commands.
    let text = "```console\n$ convcheck run a.c \\\n  --level cfg\nout 1\n[exit code 3]\n$ convcheck passes\n...\n```\n";
    let ex = examples("t.md", text).unwrap();
    assert_eq!(ex.len(), 2);
    assert_eq!(ex[0].command, "convcheck run a.c  --level cfg");
    assert_eq!((ex[0].code, ex[0].expected.clone()), (3, s(&["out 1"])));
    assert_eq!(ex[0].output, (3, 5));
    assert_eq!((ex[1].code, ex[1].expected.clone()), (0, s(&["..."])));
    // A transcript outside a console block is refused.
    assert!(examples("t.md", "```text\n$ convcheck passes\n```\n").is_err());
    assert!(examples("t.md", "```console\n$ ls\n```\n").is_err());
    // Markdown shown as source is not examined.
    let shown = "````text\n```console\n$ convcheck passes\n```\n````\n";
    assert!(examples("t.md", shown).is_ok_and(|e| e.is_empty()));
    // Tools: `requires=`, `--opt`, `explore`.
    assert!(missing_tool("convcheck passes", &s(&["no-such-tool-here"])).is_some());
    assert!(missing_tool("convcheck explore f.c", &[]).is_some());
    assert!(missing_tool("convcheck check f.c --opt-bin /no/such/opt", &[]).is_some());
    assert_eq!(missing_tool("convcheck passes", &[]), None);
}

/// Paths the book names that do not exist, each with why it may stay.
const PATHS_NOT_IN_THE_TREE: &[(&str, &str)] = &[
    // Built by `mdbook build docs`, ignored by git.
    ("docs/book/", "the built book"),
];

#[test]
fn every_path_the_book_names_exists() {
    // A path in backquotes that starts with a top-level folder of the
    // repository must exist, from the root or inside one of the crates
    // (`examples/throughput.rs` of `generators/`); `::item` after a file
    // and `#anchor` are ignored, and so are patterns and placeholders
    // (`examples/*/*.c`, `fuzz/artifacts/TARGET/`, `violation-I.c`).
    let tops = [
        "model/",
        "checker/",
        "transforms/",
        "generators/",
        "proofs/",
        "fuzz/",
        "examples/",
        "docs/",
        ".clusterfuzzlite/",
        ".github/",
        ".ci/",
    ];
    let crates = [
        "",
        "model/ir/",
        "model/lang/",
        "model/smt/",
        "transforms/",
        "checker/",
        "generators/",
        "proofs/",
    ];
    let mut missing = Vec::new();
    for path in chapters() {
        let text = std::fs::read_to_string(&path).expect("readable chapter");
        let name = path
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned();
        for (n, line) in text.lines().enumerate() {
            for quoted in line.split('`').skip(1).step_by(2) {
                if !tops.iter().any(|t| quoted.starts_with(t))
                    || quoted.contains(char::is_whitespace)
                {
                    continue;
                }
                let p = quoted.split("::").next().unwrap_or(quoted);
                let p = p.split('#').next().unwrap_or(p);
                let p = p.trim_end_matches(['.', ',', ';', ':']);
                // Patterns and placeholders name no one file.
                let placeholder = p.split('/').any(|seg| {
                    seg.len() > 1 && seg.chars().all(|c| c.is_ascii_uppercase() || c == '_')
                });
                if placeholder
                    || p.contains(['*', '{', '<', '['])
                    || p.contains("-I.")
                    || p.contains("-N.")
                {
                    continue;
                }
                if PATHS_NOT_IN_THE_TREE.iter().any(|(known, _)| *known == p) {
                    continue;
                }
                if !crates.iter().any(|c| root().join(c).join(p).exists()) {
                    missing.push(format!("docs/src/{name}:{}: `{p}`", n + 1));
                }
            }
        }
    }
    assert!(
        missing.is_empty(),
        "paths the book names that do not exist:\n{}",
        missing.join("\n")
    );
}
