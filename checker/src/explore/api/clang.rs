//! The explorer's API on sources that clang compiles: CUDA (`.cu`), HIP
//! (`.hip`), OpenCL C (`.cl`) and C, as `convcheck check K.cu --frontend
//! clang` compiles them ([`crate::llvm::load_source`]: clang-19 `-O0`
//! without `optnone`, line tables, convcheck's preludes).
//!
//! Only under `explore --allow-tools`, with the server's clang
//! ([`crate::explore::Tools::clang_bin`]) and convcheck's fixed flags: a
//! request names the language (by its field or its file's extension),
//! never a binary or an argument. The source is written to a temporary
//! folder the server owns, removed when the request ends, under the base
//! name of the request's file name; every path of the server's is taken
//! out of the answer, clang's errors included. clang runs under
//! `--tool-timeout`.
//!
//! `run` and `lower` read clang's output as LLVM IR is read
//! ([`super::llvm`]), with its operations at their source lines; `check`
//! runs the command line's pipeline on the file (`check K.cu --frontend
//! clang [--opt P]`, [`super::files`]), or convcheck's own passes on
//! clang's output against its CFG.

use super::*;
use crate::explore::Tools;
use crate::llvm::frontend::{Frontend, Language};
use crate::llvm::{LlvmOptions, Loaded};

/// What a request for a clang language gets when the server has no clang.
pub(super) const CLANG_OFF: &str = "the explorer compiles CUDA, HIP, OpenCL and C sources with \
clang only when it was started with `convcheck explore --allow-tools` and a clang is installed \
(clang-19, else clang, or --clang-bin); the binary and its flags are fixed there";

/// The source language of a request's `language` field: `"cuda"`,
/// `"hip"`, `"opencl"`, `"clang-c"`, or `"clang"` (by the file name's
/// extension: `.cu`, `.hip`, `.cl`, else C); `None` for any other name.
pub(super) fn language_of(name: &str, file: Option<&str>) -> Option<Language> {
    Some(match name {
        "cuda" => Language::Cuda,
        "hip" => Language::Hip,
        "opencl" => Language::OpenCl,
        "clang-c" => Language::C,
        "clang" => Language::of(file.unwrap_or("input.c")),
        _ => return None,
    })
}

/// Checks the `language` field; `"clang"` takes the language from the
/// file name's extension.
pub(super) fn language(lang: &Option<String>, file: &Option<String>) -> Result<Lang, ApiError> {
    match lang.as_deref() {
        None | Some("kernel") => Ok(Lang::Kernel),
        Some("llvm") => Ok(Lang::Llvm),
        Some(other) => match language_of(other, file.as_deref()) {
            Some(l) => Ok(Lang::Clang(l)),
            None => Err(ApiError::new(
                422,
                "unsupported_language",
                format!(
                    "unknown language `{other}`: expected \"kernel\", \"llvm\", or a source \
                     clang compiles: \"cuda\", \"hip\", \"opencl\", \"clang-c\", \"clang\" (by \
                     the file's extension)"
                ),
            )
            .field("language")),
        },
    }
}

/// The extension clang reads `language` by.
pub(super) fn extension(language: Language) -> &'static str {
    match language {
        Language::C => "c",
        Language::Cuda => "cu",
        Language::Hip => "hip",
        Language::OpenCl => "cl",
    }
}

/// The request's file name with the extension of its language (so that
/// clang reads it as that language).
pub(super) fn file_name(file: Option<&str>, language: Language) -> String {
    let ext = extension(language);
    let name = file
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .unwrap_or("input");
    let has = std::path::Path::new(name)
        .extension()
        .and_then(|e| e.to_str())
        == Some(ext);
    if has {
        return name.to_string();
    }
    // The name without its extension (a dot in a folder's name is not one).
    let start = name.rfind(['/', '\\']).map_or(0, |i| i + 1);
    let stem = match name[start..].rfind('.') {
        Some(i) if i > 0 => &name[..start + i],
        _ => name,
    };
    format!("{stem}.{ext}")
}

/// `s` without the server's temporary folders (`/tmp/.tmpXXXX/`, the
/// request's `/tmp/convcheck-explore-XXXX/`).
pub(super) fn scrub(s: &str) -> String {
    let tmp = std::env::temp_dir();
    let tmp = tmp.display().to_string();
    let tmp = tmp.trim_end_matches('/');
    let mut out = s.to_string();
    for prefix in [format!("{tmp}/.tmp"), format!("{tmp}/convcheck-explore-")] {
        while let Some(at) = out.find(&prefix) {
            let rest = &out[at + prefix.len()..];
            let end = rest.find('/').map_or(rest.len(), |i| i + 1);
            out.replace_range(at..at + prefix.len() + end, "");
        }
    }
    out
}

/// The server's clang, or the answer refusing the request.
pub(super) fn clang_bin(tools: Option<&Tools>) -> Result<(String, u64), ApiError> {
    match tools {
        Some(Tools {
            clang_bin: Some(b),
            tool_timeout,
            ..
        }) => Ok((b.clone(), *tool_timeout)),
        _ => Err(ApiError::new(422, "tools", CLANG_OFF).field("language")),
    }
}

/// The command line's options for the server's clang (and opt, when a
/// pipeline is given).
pub(super) fn options(tools: &Tools, bin: String) -> LlvmOptions {
    LlvmOptions {
        frontend: Some(Frontend::Clang),
        clang_bin: Some(bin),
        tool_timeout: tools.tool_timeout,
        ..LlvmOptions::default()
    }
}

/// clang's failure as an answer: 422 `parse` with every error of the
/// request's file at its line and column, or 422 `clang` with clang's
/// message when it names none.
pub(super) fn clang_error(name: &str, message: &str) -> ApiError {
    let message = scrub(message);
    let diagnostics: Vec<Value> = message
        .lines()
        .filter_map(|l| {
            let rest = l.strip_prefix(name)?.strip_prefix(':')?;
            let mut parts = rest.splitn(3, ':');
            let line: u32 = parts.next()?.parse().ok()?;
            let col: u32 = parts.next()?.parse().ok()?;
            let text = parts.next()?.trim();
            let text = text
                .strip_prefix("fatal error:")
                .or_else(|| text.strip_prefix("error:"))?;
            Some(json!({"line": line, "col": col, "message": text.trim()}))
        })
        .collect();
    if diagnostics.is_empty() {
        return ApiError::new(422, "clang", message).field("source");
    }
    let mut e = ApiError::new(422, "parse", message).field("source");
    e.extra = Some(("diagnostics", json!(diagnostics)));
    e
}

/// Compiles `source` (named `file`) with the server's clang and reads its
/// output with the operations at their source lines; `loaded.file` is
/// `FILE.ll`, as `check --frontend clang` names it.
pub(super) fn compile(
    file: &str,
    source: &str,
    tools: Option<&Tools>,
    stated: &super::launch::Stated,
) -> Result<Loaded, ApiError> {
    let (bin, _) = clang_bin(tools)?;
    let mut o = options(tools.expect("clang_bin checked the tools"), bin);
    o.clang_args = stated.clang_args.clone();
    o.target = stated.target;
    o.gpu = stated.gpu;
    let dir = tempfile::Builder::new()
        .prefix("convcheck-explore-")
        .tempdir()
        .map_err(|e| ApiError::new(500, "io", format!("a temporary folder: {e}")))?;
    let name = super::files::base(file, "input.c");
    let path = dir.path().join(&name);
    std::fs::write(&path, source).map_err(|e| ApiError::new(500, "io", format!("{name}: {e}")))?;
    let path = path.display().to_string();
    let (mut loaded, _) =
        crate::llvm::load_source(&path, &o).map_err(|e| clang_error(&name, e.message()))?;
    loaded.file = format!("{file}.ll");
    loaded.source = Some(file.to_string());
    Ok(loaded)
}

/// `POST /api/lower` on a clang source: clang's CFGs, as for LLVM IR, the
/// first stage named `clang -O0`. The `line`s of `functions` and
/// `unsupported` are `null`: they are lines of clang's output, not of the
/// source.
pub(super) fn lower_clang(
    r: LowerRequest,
    file: String,
    tools: Option<&Tools>,
    stated: &super::launch::Stated,
) -> Result<Value, ApiError> {
    if r.tokens {
        return Err(invalid("tokens", LLVM_TOKENS));
    }
    let loaded = compile(&file, &r.source, tools, stated)?;
    let mut v = lower_loaded(&r, file, &loaded, "clang -O0")?;
    for f in v["functions"].as_array_mut().into_iter().flatten() {
        f["line"] = Value::Null;
    }
    if v.get("unsupported").is_some() {
        v["unsupported"]["line"] = Value::Null;
    }
    Ok(v)
}

/// `POST /api/run` on a clang source: clang's output at the CFG level.
pub(super) fn run_clang(
    r: RunRequest,
    file: String,
    tools: Option<&Tools>,
    stated: &super::launch::Stated,
) -> Result<Value, ApiError> {
    if r.level == Some(Level::Source) {
        return Err(invalid(
            "level",
            "a run of a clang source is at the CFG level of clang's output",
        ));
    }
    if r.tokens {
        return Err(invalid("tokens", LLVM_TOKENS));
    }
    let loaded = compile(&file, &r.source, tools, stated)?;
    run_loaded(&r, file, &loaded)
}

/// `POST /api/check` on a clang source. With `opt` or no pipeline: the
/// command line's check, `check FILE --frontend clang [--opt P]` (the
/// reference is the source level where the kernel language reads the
/// file alike, else clang's CFG; a note says which). With convcheck's own
/// `passes`: those passes on clang's output, against its CFG, as on LLVM
/// IR.
pub(super) fn check_clang(
    r: &CheckRequest,
    file: &str,
    mut config: CheckConfig,
    budget: Budget,
    tools: Option<&Tools>,
) -> Result<Value, ApiError> {
    if r.tokens {
        return Err(invalid("tokens", LLVM_TOKENS));
    }
    if r.target_source.is_some() {
        return Err(invalid(
            "target_source",
            "a clang source is checked through clang -O0 and a pipeline (`opt`, or convcheck's \
             `passes`), not against a second file",
        ));
    }
    // Compiled here first so that clang's errors are answered with their
    // lines, and the function is named as the answer will name it.
    let stated = super::launch::read(r, true, r.passes.is_empty())?;
    let loaded = compile(file, &r.source, tools, &stated)?;
    config.function = Some(llvm_entry(&loaded, r.function.as_deref())?);
    if r.passes.is_empty() {
        let job = CheckJob::of(file, &config);
        return super::files::check(r, file, &job, budget, tools, true);
    }
    if r.opt.is_some() {
        return Err(invalid(
            "passes",
            "give an opt pipeline or convcheck's passes, not both",
        ));
    }
    if r.reference == Some(ReferenceField::Source) {
        return Err(invalid(
            "reference",
            "convcheck's passes on clang's output are checked against clang's CFG, as on LLVM \
             IR: set \"reference\": \"cfg\", or check the source level with `opt` or no pipeline",
        ));
    }
    check_passes(&r.passes)?;
    config.reference = Reference::Cfg;
    let function = config.function.clone().unwrap_or_default();
    let plan = crate::pipeline::llvm::plan_builtin_passes(&loaded, &function, &r.passes)
        .map_err(from_error)?;
    let job = CheckJob::of(file, &config);
    let settings = Settings {
        budget,
        ..Settings::default()
    };
    let report = crate::pipeline::run(plan, &job, &settings, &crate::pipeline::Silent);
    let mut v = crate::report::json::value(&report, &Invocation::default());
    super::files::scrub_strings(&mut v);
    Ok(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_names_get_their_languages_extension() {
        assert_eq!(file_name(Some("k.cu"), Language::Cuda), "k.cu");
        assert_eq!(file_name(Some("k.c"), Language::Cuda), "k.cu");
        assert_eq!(file_name(Some("dir.v2/k"), Language::Hip), "dir.v2/k.hip");
        assert_eq!(file_name(Some("k.ll"), Language::C), "k.c");
        assert_eq!(file_name(None, Language::OpenCl), "input.cl");
        assert_eq!(language_of("clang", Some("a/b.hip")), Some(Language::Hip));
        assert_eq!(language_of("clang", Some("b.cpp")), Some(Language::C));
        assert_eq!(language_of("fortran", None), None);
    }

    #[test]
    fn clangs_errors_are_read_at_their_lines_without_the_servers_folders() {
        let tmp = std::env::temp_dir().display().to_string();
        let tmp = tmp.trim_end_matches('/');
        let message = format!(
            "clang-19 -include {tmp}/.tmpAbC123/convcheck_cuda_prelude.h {tmp}/convcheck-explore-xYz/k.cu failed:\n\
             k.cu:3:7: error: use of undeclared identifier 'x'\n\
             k.cu:4:1: warning: unused\n\
             k.cu:9:2: fatal error: 'nope.h' file not found\n"
        );
        let e = clang_error("k.cu", &message);
        assert_eq!(e.status, 422);
        assert_eq!(e.kind, "parse");
        assert!(!e.message.contains(tmp), "{}", e.message);
        assert!(
            e.message.contains("-include convcheck_cuda_prelude.h k.cu"),
            "{}",
            e.message
        );
        let (_, list) = e.extra.expect("diagnostics");
        assert_eq!(
            list,
            json!([{"line": 3, "col": 7, "message": "use of undeclared identifier 'x'"},
                   {"line": 9, "col": 2, "message": "'nope.h' file not found"}])
        );
        let e = clang_error("k.cu", "clang-19 timed out after 60 s");
        assert_eq!((e.status, e.kind), (422, "clang"));
    }
}
