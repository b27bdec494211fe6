//! `groundgate ask`: the push pipeline over one or more indexes, as JSON Lines or readable text.

use std::io::{Read, Write};
use std::path::PathBuf;

use groundgate::deliver::Format;
use groundgate::engine::FixedClock;
use groundgate::{AskOptions, Config, Engine, Error, InstanceOptions, protocol};

use crate::timings::Timings;

/// Options of `groundgate ask`.
pub struct Args {
    pub indexes: Vec<PathBuf>,
    pub session: Option<String>,
    pub format: Format,
    pub jsonl: bool,
    pub timings: bool,
    pub config: Option<PathBuf>,
    pub now: Option<u64>,
    pub prompt: Vec<String>,
}

/// Load every index into an engine; instance names are the indexes' own names.
pub fn engine(
    indexes: &[PathBuf],
    config: Option<&PathBuf>,
    now: Option<u64>,
) -> Result<Engine, Box<dyn std::error::Error>> {
    let config: Config = match config {
        Some(p) => {
            let text = crate::files::read_text(p)?;
            Config::from_toml(&text).map_err(|e| format!("{}: {e}", p.display()))?
        }
        None => Config::default(),
    };
    let mut engine = Engine::new(config)?;
    if let Some(t) = now {
        engine.set_clock(Box::new(FixedClock(t)));
    }
    let mut loaded: Vec<(String, &PathBuf)> = Vec::new();
    for path in indexes {
        let bytes = crate::index_file::read(path)?;
        let name = groundgate::Index::open(&bytes[..])
            .map_err(|e| format!("{}: {e}", path.display()))?
            .meta()
            .name
            .clone();
        if let Some((_, first)) = loaded.iter().find(|(n, _)| *n == name) {
            return Err(duplicate(path, &name, first).into());
        }
        loaded.push((name.clone(), path));
        engine
            // `index_file::read` has checked every checksum already.
            .add_instance(&name, bytes, InstanceOptions { verify: false, ..InstanceOptions::default() })
            .map_err(|e| format!("{}: {e}", path.display()))?;
    }
    Ok(engine)
}

/// The error for a second index of one name: an instance is named by its manifest's `name`.
fn duplicate(path: &std::path::Path, name: &str, first: &std::path::Path) -> String {
    if path == first {
        return format!("{}: the same index is given twice", path.display());
    }
    format!(
        "{}: an index named {name:?} is already loaded from {} (an index takes its manifest's \
         `name`: build one of them with another)",
        path.display(),
        first.display()
    )
}

pub fn run(a: Args) -> Result<(), Box<dyn std::error::Error>> {
    let mut engine = engine(&a.indexes, a.config.as_ref(), a.now)?;
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    if a.jsonl {
        let mut clock = Timings::default();
        let defaults =
            protocol::LineDefaults { session: a.session.clone(), format: a.format, ..Default::default() };
        // Timed with serialization, as a host receives the answer.
        protocol::serve(std::io::stdin().lock(), &mut out, |id, body| {
            Ok(clock.time(|| protocol::ask_reply(&mut engine, id, &body, &defaults)))
        })?;
        if a.timings {
            eprintln!("{}", clock.summary());
        }
        return Ok(());
    }
    let prompts: Vec<String> = if a.prompt.is_empty() {
        // Lossy, as the npm bin reads it: a stray byte is U+FFFD, not the end of every prompt.
        let mut bytes = Vec::new();
        std::io::stdin().lock().read_to_end(&mut bytes)?;
        String::from_utf8_lossy(&bytes).lines().map(str::to_string).collect()
    } else {
        // A prompt given as arguments is asked as it is: an empty one is an error, not silence.
        let p = a.prompt.join(" ");
        if p.trim().is_empty() {
            return Err(Error::invalid("prompt", "empty; pass the prompt after --").into());
        }
        vec![p]
    };
    let opts = AskOptions { session: a.session.clone(), format: a.format, ..AskOptions::default() };
    // Prompts from stdin: a line that cannot be asked (over the size bound …) is named on stderr
    // and the others are still answered; the exit code says that one failed.
    let from_stdin = a.prompt.is_empty();
    let (mut asked, mut failed) = (0, 0);
    for (n, p) in prompts.iter().enumerate().filter(|(_, p)| !p.trim().is_empty()) {
        asked += 1;
        let answer = match engine.ask(p, &opts) {
            Ok(answer) => answer,
            Err(e) if from_stdin => {
                out.flush()?;
                eprintln!("groundgate: line {}: {}", n + 1, crate::printable(&e.to_string()));
                failed += 1;
                continue;
            }
            Err(e) => return Err(e.into()),
        };
        writeln!(out, "prompt:  {p}")?;
        writeln!(
            out,
            "route:   {} ({})   reasons: {}",
            serde_json::to_value(answer.route)?.as_str().unwrap_or("?"),
            serde_json::to_value(answer.kind)?.as_str().unwrap_or("?"),
            answer.reasons.join(", ")
        )?;
        for l in &answer.log.instances {
            writeln!(out, "  {:<14} {}", l.instance, l.summary())?;
        }
        if !answer.context.is_empty() {
            writeln!(out, "{}", answer.context)?;
        }
    }
    out.flush()?; // a write error (a full disk) is the command's error, not lost on drop
    if asked == 0 {
        return Err("no prompt: give one after --, or one a line on stdin".into());
    }
    if failed > 0 {
        return Err(format!("{failed} of {asked} prompts not answered (named above)").into());
    }
    Ok(())
}

/// `groundgate stats LOGFILE`: the funnel over `ask --jsonl` output (or bare decision logs).
pub fn stats(path: &PathBuf, svg: Option<&std::path::Path>) -> Result<(), Box<dyn std::error::Error>> {
    // Lossy, as a JS host reads it: a log with a stray byte is still a log.
    let bytes = crate::files::read(path)?;
    let report = groundgate::deliver::FunnelReport::read(&String::from_utf8_lossy(&bytes));
    crate::out(format_args!("{}", report.render()))?;
    let funnel = report.funnel;
    let note = format!("{} prompts: {}", funnel.prompts, crate::chart::names(std::slice::from_ref(path)));
    crate::chart::write(&mut std::io::stdout().lock(), svg, || {
        groundgate::eval::chart::funnel(&funnel, &note)
    })
}
