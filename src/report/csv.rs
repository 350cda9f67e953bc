//! `data.csv`: long (tidy) form, one row per sweep cell x profile x metric.
//!
//! Written by a small writer of our own rather than a dataframe library:
//! the files are one header and flat rows, and the format below is what
//! every bundled report and baseline was written in (it is pinned byte for
//! byte by the tests), so it is spelled out here:
//! - fields are separated by `,`, rows end in `\n`, the header comes first;
//! - text is quoted when it is empty (`""`, so it is not read as missing) or
//!   holds a `,`, `"`, `\n` or `\r`; a `"` inside quotes is doubled;
//! - numbers are the shortest text that reads back to the same `f64`
//!   (`zmij`: `0.5`, `1.0`, `0.000019206925190409668`, `5e-6`);
//! - a missing value (no exact value) is an empty, unquoted field.

use super::files::write_atomic;
use super::provenance::Provenance;
use crate::experiment::{Experiment, Results};
use std::path::Path;

/// One field of a CSV row.
pub(crate) enum Field<'a> {
    /// Text, quoted where needed.
    Text(&'a str),
    /// A float, shortest round-trip form.
    Float(f64),
    /// An unsigned integer.
    Int(u64),
    /// `true` or `false`.
    Bool(bool),
    /// A number already in its text form (a whole number, which may be
    /// negative), written as it is.
    Number(&'a str),
    /// Nothing: an empty, unquoted field.
    Missing,
}

impl From<Option<f64>> for Field<'_> {
    fn from(x: Option<f64>) -> Self {
        x.map_or(Field::Missing, Field::Float)
    }
}

/// A CSV text built row by row.
pub(crate) struct CsvText {
    buf: Vec<u8>,
}

impl CsvText {
    /// A text starting with the header row `names`.
    pub(crate) fn with_header<'a>(names: impl IntoIterator<Item = &'a str>) -> Self {
        let mut csv = Self { buf: Vec::new() };
        csv.row(names.into_iter().map(Field::Text));
        csv
    }

    /// Appends one row.
    pub(crate) fn row<'a>(&mut self, fields: impl IntoIterator<Item = Field<'a>>) {
        for (i, field) in fields.into_iter().enumerate() {
            if i > 0 {
                self.buf.push(b',');
            }
            self.field(field);
        }
        self.buf.push(b'\n');
    }

    fn field(&mut self, field: Field<'_>) {
        match field {
            Field::Text(s) => {
                let s = &*super::escape::csv_text(s);
                if s.is_empty() || s.contains([',', '"', '\n', '\r']) {
                    self.buf.push(b'"');
                    self.buf
                        .extend_from_slice(s.replace('"', "\"\"").as_bytes());
                    self.buf.push(b'"');
                } else {
                    self.buf.extend_from_slice(s.as_bytes());
                }
            }
            Field::Float(x) => {
                self.buf
                    .extend_from_slice(zmij::Buffer::new().format(x).as_bytes());
            }
            Field::Int(n) => self.buf.extend_from_slice(n.to_string().as_bytes()),
            Field::Number(s) => self.buf.extend_from_slice(s.as_bytes()),
            Field::Bool(b) => self
                .buf
                .extend_from_slice(if b { b"true" } else { b"false" }),
            Field::Missing => {}
        }
    }

    /// The bytes written so far.
    pub(crate) fn into_bytes(self) -> Vec<u8> {
        self.buf
    }
}

/// The CSV text of `results`.
pub fn csv_bytes(exp: &Experiment, results: &Results) -> anyhow::Result<Vec<u8>> {
    let prov = Provenance::of(exp);
    let mut header = vec!["profile"];
    header.extend(exp.axes.iter().map(|a| a.name.as_str()));
    header.extend([
        "metric",
        "value",
        "exact",
        "ci_low",
        "ci_high",
        "trials",
        "seed",
        "variants",
        "spec_sha256",
        "krunch_version",
    ]);
    let mut csv = CsvText::with_header(header);
    for r in &results.rows {
        let cell: Vec<String> = r.cell.iter().map(ToString::to_string).collect();
        let mut fields = vec![Field::Text(&r.profile)];
        fields.extend(cell.iter().map(|v| Field::Text(v)));
        fields.extend([
            Field::Text(&r.metric),
            Field::Float(r.value),
            r.exact.into(),
            Field::Float(r.ci_low),
            Field::Float(r.ci_high),
            Field::Int(r.trials),
            Field::Int(prov.seed),
            Field::Text(&r.variants),
            Field::Text(&prov.spec_hash),
            Field::Text(prov.version),
        ]);
        csv.row(fields);
    }
    Ok(csv.into_bytes())
}

/// Writes `dir/data.csv`.
pub fn write_csv(dir: &Path, exp: &Experiment, results: &Results) -> anyhow::Result<()> {
    write_atomic(&dir.join("data.csv"), &csv_bytes(exp, results)?)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one_row(fields: Vec<Field<'_>>) -> String {
        let mut csv = CsvText { buf: Vec::new() };
        csv.row(fields);
        String::from_utf8(csv.into_bytes()).unwrap()
    }

    #[test]
    fn text_is_quoted_only_where_needed() {
        let row = one_row(vec![
            Field::Text("plain"),
            Field::Text(""),
            Field::Text("Agrippa, Ld 8"),
            Field::Text("say \"hi\""),
            Field::Text("two\nlines"),
        ]);
        assert_eq!(
            row,
            "plain,\"\",\"Agrippa, Ld 8\",\"say \"\"hi\"\"\",\"two\nlines\"\n"
        );
    }

    #[test]
    fn numbers_in_the_form_the_bundled_reports_use() {
        let row = one_row(vec![
            Field::Float(1.0),
            Field::Float(0.0),
            Field::Float(0.000019206925190409668),
            Field::Float(5e-6),
            Field::Float(2.7423649747610307e-6),
            Field::Float(0.4166666666666668),
            Field::Missing,
            Field::Int(200000),
            Field::Bool(true),
            Field::Bool(false),
        ]);
        assert_eq!(
            row,
            "1.0,0.0,0.000019206925190409668,5e-6,2.7423649747610307e-6,0.4166666666666668,,200000,true,false\n"
        );
    }
}
