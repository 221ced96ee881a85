//! `convcheck uniformity` and `convcheck fuzz --uniformity`: the
//! command-line glue of the uniformity oracle (`convcheck::uniformity`,
//! docs/src/uniformity.md): arguments into the library's configs, the
//! report rendered, the exit code chosen (1 on a finding, 3 when something
//! was not examined, 0 otherwise; errors are 2), the campaign's
//! reproducers written to `--out`.

use crate::cli::{Format, FuzzArgs, UniformityArgs};
use crate::dispatch::Printed;
use convcheck::uniformity::fuzz::{campaign, CampaignConfig};
use convcheck::{Error, Status};

/// `convcheck uniformity FILE.ll`.
pub fn check(a: &UniformityArgs) -> Result<Printed, Error> {
    let r = convcheck::uniformity::check_file(&a.file, &a.into())?;
    let status = match r.verdict {
        "violated" => Status::Found,
        "holds" => Status::Holds,
        _ => Status::Inconclusive,
    };
    Ok(Printed {
        stdout: match a.format {
            Format::Text => r.text(),
            Format::Json => serde_json::to_string_pretty(&r).unwrap_or_default() + "\n",
        },
        stderr: String::new(),
        code: status.code(),
    })
}

/// `convcheck fuzz --uniformity`.
pub fn fuzz(a: &FuzzArgs) -> Result<Printed, Error> {
    let config = CampaignConfig::try_from(a)?;
    let r = campaign(&config)?;
    if let Some(dir) = &a.out {
        std::fs::create_dir_all(dir).map_err(|e| Error::io(format!("{dir}: {e}")))?;
        let write = |path: String, text: &str| {
            std::fs::write(&path, text).map_err(|e| Error::io(format!("{path}: {e}")))
        };
        for c in &r.classes {
            for (k, x) in c.reproducers.iter().enumerate() {
                let base = format!("{dir}/{}-{k}", c.class);
                let head = format!(
                    "; {} (minimized from @{} of seed {})\n",
                    c.class, x.from, r.seed
                );
                write(format!("{base}.ll"), &(head + &x.text))?;
                write(format!("{base}.txt"), &x.report)?;
            }
        }
        write(
            format!("{dir}/campaign.json"),
            &serde_json::to_string_pretty(&r).unwrap_or_default(),
        )?;
    }
    let status = if r.findings > 0 {
        Status::Found
    } else {
        Status::Holds
    };
    Ok(Printed {
        stdout: match a.format {
            Format::Text => r.text(),
            Format::Json => serde_json::to_string_pretty(&r).unwrap_or_default() + "\n",
        },
        stderr: String::new(),
        code: status.code(),
    })
}
