//! The cases `convcheck fuzz --out DIR` writes.

use super::Found;
use crate::pass_cmd::Exchange;
use serde_json::json;

/// Writes every case: the kernel, its report (text and JSON, each with the
/// re-check command) and what an external command was given and printed.
pub(super) fn write_cases(dir: &str, found: &[Found], exchange: Exchange) -> std::io::Result<()> {
    for f in found {
        let base = format!("{dir}/{}-{}", f.kind, f.index);
        if f.name.starts_with(dir) {
            std::fs::write(format!("{base}.c"), &f.text)?;
        }
        std::fs::write(format!("{base}.txt"), &f.report_text)?;
        let mut json = f.report_json.clone();
        json["recheck"] = json!(f.recheck);
        std::fs::write(format!("{base}.json"), format!("{json}\n"))?;
        if let Some((input, output)) = &f.exchanged {
            let ext = exchange.extension();
            if exchange != Exchange::Kernel {
                std::fs::write(format!("{base}.in.{ext}"), input)?;
            }
            std::fs::write(format!("{base}.out.{ext}"), output)?;
        }
    }
    Ok(())
}
