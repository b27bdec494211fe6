//! `groundgate rebel`: REBEL rerank prompts over an index's top hits, and a model's reply applied.
//! Conversion only: the prompts and the parser are `groundgate::rerank::rebel`.

use std::io::Write;
use std::path::PathBuf;

use groundgate::rerank::Weights;
use groundgate::rerank::host;
use groundgate::rerank::rebel::{self, Lang, PromptDoc};
use groundgate::{Error, Index, search};

pub struct Args {
    pub index: PathBuf,
    pub k: usize,
    pub lang: String,
    pub weights: Option<String>,
    pub criteria_prompt: bool,
    pub criteria: Option<PathBuf>,
    pub reply: Option<PathBuf>,
    pub json: bool,
    pub query: Vec<String>,
}

pub fn run(a: Args) -> Result<(), Box<dyn std::error::Error>> {
    let lang = if a.lang == "en" { Lang::En } else { Lang::Ko };
    let query = a.query.join(" ");
    if a.criteria_prompt {
        crate::out(format_args!("{}", rebel::two_turn_criteria(&query, lang)?))?;
        return Ok(());
    }
    if a.json {
        return json(&a, &query);
    }
    let weights: Weights = match &a.weights {
        Some(w) => serde_json::from_str(w).map_err(|e| Error::invalid("weights", e.to_string()))?,
        None => Weights::default(),
    };
    let criteria = match &a.criteria {
        Some(p) => rebel::parse_criteria(&crate::files::read_text(p)?).map_err(Error::from)?,
        None => {
            weights.check()?;
            rebel::default_criteria(&weights, lang)
        }
    };
    let bytes = crate::index_file::read(&a.index)?;
    let index = Index::open(&bytes[..]).map_err(|e| format!("{}: {e}", a.index.display()))?;
    let name = index.meta().name.clone();
    let hits = search::search(&index, &query, a.k)?;
    match &a.reply {
        None => {
            let docs: Vec<PromptDoc> = hits.iter().map(|h| PromptDoc::of_hit(&name, h)).collect();
            crate::out(format_args!("{}", rebel::rerank_prompt(&query, &docs, &criteria, lang)?))?;
        }
        Some(p) => {
            let reranked = rebel::rerank_with(&hits, &crate::files::read_text(p)?, &criteria)?;
            let mut out = std::io::stdout().lock();
            for (i, mut h) in reranked.into_iter().enumerate() {
                h.rank = i as u32 + 1;
                writeln!(out, "{}", serde_json::to_string(&h)?)?;
            }
        }
    }
    Ok(())
}

/// `--json`: the engine path (`groundgate::rerank::host`), the bytes the JS methods give.
fn json(a: &Args, query: &str) -> Result<(), Box<dyn std::error::Error>> {
    let mut args = serde_json::Map::new();
    args.insert("query".into(), query.into());
    args.insert("k".into(), a.k.into());
    args.insert("lang".into(), a.lang.clone().into());
    if let Some(w) = &a.weights {
        let w: serde_json::Value =
            serde_json::from_str(w).map_err(|e| Error::invalid("weights", e.to_string()))?;
        args.insert("weights".into(), w);
    }
    if let Some(p) = &a.criteria {
        args.insert("criteria_reply".into(), crate::files::read_text(p)?.into());
    }
    let engine = crate::ask::engine(std::slice::from_ref(&a.index), None, None)?;
    let prompt = host::prompt_json(&engine, &serde_json::Value::Object(args).to_string())?;
    match &a.reply {
        None => crate::out(format_args!("{prompt}\n"))?,
        Some(p) => crate::out(format_args!(
            "{}\n",
            host::apply_json(&engine, &prompt, &crate::files::read_text(p)?)?
        ))?,
    }
    Ok(())
}
