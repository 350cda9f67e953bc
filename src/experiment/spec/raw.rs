//! Stage one of loading a spec: the file (or standard input) read within
//! the size limit and parsed as strict TOML into the structs below. Nothing
//! is checked here beyond TOML syntax and the fields a spec may have; the
//! positions kept here (line, dotted field) are what every later error names.

use super::SpecError;
use crate::systems::ParamValue;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::ops::Range;
use std::path::{Path, PathBuf};
use toml::Spanned;

/// The spec path that means standard input (`krunch run -`).
pub(super) const STDIN: &str = "-";

/// A TOML table with each value's position, for error lines.
pub(super) type Table = BTreeMap<String, Spanned<toml::Value>>;

/// The spec's text and the name errors and reports call it by.
pub(super) struct SpecFile {
    /// The path as given, or `<stdin>`.
    pub path: PathBuf,
    /// The whole text (its bytes are the spec's hash).
    pub text: String,
    /// Whether the text came from standard input (it then has no file
    /// name to give the report its name).
    pub from_stdin: bool,
}

impl SpecFile {
    /// An error at `line` (0: no line) of this spec, in `field`.
    pub fn error(&self, line: usize, field: &str, message: String) -> SpecError {
        SpecError {
            file: self.path.clone(),
            line,
            field: field.to_string(),
            message,
        }
    }

    /// The 1-based line where `span` starts.
    pub fn line(&self, span: &Range<usize>) -> usize {
        line_of(&self.text, span)
    }
}

/// A spec as its TOML gives it: every field there, none checked.
pub(super) struct RawSpec {
    /// Where it came from, for errors.
    pub file: SpecFile,
    /// Its fields.
    pub toml: SpecToml,
}

/// The fields a spec may have (any other is an error naming it).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct SpecToml {
    pub name: Option<Spanned<String>>,
    pub title: Option<String>,
    pub system: Spanned<String>,
    pub scenario: Spanned<String>,
    pub trials: Spanned<i64>,
    pub seed: Option<u64>,
    pub confidence: Option<Spanned<f64>>,
    pub metrics: Option<Spanned<Vec<String>>>,
    #[serde(default)]
    pub variants: Table,
    #[serde(default)]
    pub base: Table,
    #[serde(default)]
    pub attacker: Vec<Spanned<Table>>,
    #[serde(default)]
    pub profile: Vec<Table>,
    #[serde(default)]
    pub sweep: Table,
    #[serde(default)]
    pub chart: Vec<Spanned<ChartToml>>,
    #[serde(default)]
    pub expect: Vec<Spanned<ExpectToml>>,
}

/// One `[[expect]]` entry as written.
#[derive(Deserialize, Clone)]
#[serde(deny_unknown_fields)]
pub(super) struct ExpectToml {
    pub metric: String,
    pub profile: Option<String>,
    #[serde(default)]
    pub cell: toml::Table,
    pub value: f64,
    pub tolerance: Option<f64>,
}

/// One `[[chart]]` entry as written.
#[derive(Deserialize, Clone)]
#[serde(deny_unknown_fields)]
pub(super) struct ChartToml {
    pub kind: String,
    pub metric: String,
    pub x: Option<String>,
    pub y: Option<String>,
    pub profile: Option<String>,
    pub by: Option<String>,
    #[serde(default)]
    pub at: toml::Table,
}

/// Reads the spec at `path` (`-`: standard input) and parses its TOML.
pub(super) fn read(path: &Path) -> Result<RawSpec, SpecError> {
    let from_stdin = path == Path::new(STDIN);
    // what errors and reports call a spec read from standard input
    let shown = if from_stdin {
        Path::new("<stdin>")
    } else {
        path
    };
    let mut file = SpecFile {
        path: shown.to_path_buf(),
        text: String::new(),
        from_stdin,
    };
    file.text = if from_stdin {
        stdin_text().map_err(|m| file.error(0, "file", m))?
    } else {
        crate::limits::read_text(shown, crate::limits::MAX_SPEC_BYTES)
            .map_err(|e| file.error(0, "file", e.to_string()))?
    };
    let toml = toml::from_str(&file.text).map_err(|e| parse_error(&file, &e))?;
    Ok(RawSpec { file, toml })
}

/// A TOML error as a spec error: the field it names (an unknown or missing
/// field) or the one at its position, and for a missing field what to set.
fn parse_error(file: &SpecFile, e: &toml::de::Error) -> SpecError {
    let text = &file.text;
    let line = e.span().map_or(0, |s| line_of(text, &s));
    let message = e.message().trim().to_string();
    let named = message
        .split('`')
        .nth(1)
        .filter(|_| message.starts_with("unknown field") || message.starts_with("missing field"));
    let field = match (named, e.span()) {
        (Some(f), _) => f.to_string(),
        (None, Some(span)) => field_at(text, span.start),
        (None, None) => "toml".to_string(),
    };
    let message = match named {
        Some(f) if message.starts_with("missing field") => {
            let what = match f {
                "trials" => " (trials per cell and profile, e.g. trials = 100000)",
                "system" => " (the rule set: `krunch list` shows them)",
                "scenario" => " (`krunch list SYSTEM` shows them)",
                _ => "",
            };
            format!("missing: set {f} = ...{what}")
        }
        _ => message,
    };
    file.error(line, &field, message)
}

/// Standard input, read once (at most the spec size limit) and kept: a
/// spec given as `-` twice, or loaded twice by `compare`, reads the same
/// text.
fn stdin_text() -> Result<String, String> {
    use std::io::Read;
    static TEXT: std::sync::OnceLock<Result<String, String>> = std::sync::OnceLock::new();
    TEXT.get_or_init(|| {
        let max = crate::limits::MAX_SPEC_BYTES;
        let mut bytes = Vec::new();
        std::io::stdin()
            .lock()
            .take(max + 1)
            .read_to_end(&mut bytes)
            .map_err(|e| format!("reading standard input: {e}"))?;
        if bytes.len() as u64 > max {
            return Err(format!(
                "standard input holds more than {max} bytes, more than a spec may"
            ));
        }
        if bytes.is_empty() {
            return Err(
                "standard input is empty: pipe a spec in (`krunch run - < spec.toml`)".into(),
            );
        }
        String::from_utf8(bytes).map_err(|e| {
            format!(
                "standard input is not UTF-8 text (byte {})",
                e.utf8_error().valid_up_to() + 1
            )
        })
    })
    .clone()
}

/// The dotted name of the key at byte `offset` of a TOML text (`base.bs`,
/// `profile[1].weapon`, `sweep`), for errors the TOML parser reports by
/// position only: the table header in force and the key on that line.
pub(in crate::experiment) fn field_at(text: &str, offset: usize) -> String {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let line_start = text[..offset].rfind('\n').map_or(0, |i| i + 1);
    let line_end = text[offset..].find('\n').map_or(text.len(), |i| offset + i);
    let mut header = String::new();
    let mut arrays: BTreeMap<String, usize> = BTreeMap::new();
    let header_of = |line: &str, arrays: &mut BTreeMap<String, usize>| -> Option<String> {
        let t = line.trim();
        if let Some(inner) = t.strip_prefix("[[").and_then(|r| r.split("]]").next()) {
            let name = inner.trim().trim_end_matches(']').trim().to_string();
            if name.is_empty() {
                return None;
            }
            let n = arrays.entry(name.clone()).or_insert(0);
            *n += 1;
            Some(format!("{name}[{}]", *n - 1))
        } else {
            t.strip_prefix('[')
                .and_then(|r| r.split(']').next())
                .map(|inner| inner.trim().to_string())
                .filter(|h| !h.is_empty())
        }
    };
    for line in text[..line_start].lines() {
        if let Some(h) = header_of(line, &mut arrays) {
            header = h;
        }
    }
    let here = &text[line_start..line_end];
    if let Some(h) = header_of(here, &mut arrays) {
        return h;
    }
    if here.trim_start().starts_with('#') {
        return "comment".to_string();
    }
    // the key before '=', or the first word of a line that lacks one
    let key = here
        .split('=')
        .next()
        .map(|k| {
            let k = if here.contains('=') {
                k
            } else {
                k.split_whitespace().next().unwrap_or("")
            };
            k.trim().trim_matches('"').trim_matches('\'').to_string()
        })
        .filter(|k| !k.is_empty());
    match (header.is_empty(), key) {
        (true, Some(k)) => k,
        (false, Some(k)) => format!("{header}.{k}"),
        (false, None) => header,
        // no key to name: the TOML syntax itself is at fault
        (true, None) => "toml".to_string(),
    }
}

/// 1-based line of a byte offset range's start.
pub(in crate::experiment) fn line_of(text: &str, span: &Range<usize>) -> usize {
    text[..span.start.min(text.len())].matches('\n').count() + 1
}

/// A TOML value as a parameter value (`None` for arrays, tables and dates).
pub(super) fn to_param(v: &toml::Value) -> Option<ParamValue> {
    Some(match v {
        toml::Value::Integer(i) => ParamValue::Int(*i),
        toml::Value::Float(f) => ParamValue::Float(*f),
        toml::Value::String(s) => ParamValue::Str(s.clone()),
        toml::Value::Boolean(b) => ParamValue::Bool(*b),
        _ => return None,
    })
}
