//! `data.csv`: long (tidy) form, one row per sweep cell x profile x metric.

use super::{Provenance, write_atomic};
use crate::experiment::{Experiment, Results};
use polars::prelude::{Column, DataFrame};
use polars_io::SerWriter;
use polars_io::csv::write::CsvWriter;
use std::path::Path;

/// The CSV text of `results`.
pub fn csv_bytes(exp: &Experiment, results: &Results) -> anyhow::Result<Vec<u8>> {
    let prov = Provenance::of(exp);
    let rows = &results.rows;
    let n = rows.len();
    let mut columns = vec![Column::new(
        "profile".into(),
        rows.iter().map(|r| r.profile.clone()).collect::<Vec<_>>(),
    )];
    for (i, axis) in exp.axes.iter().enumerate() {
        columns.push(Column::new(
            axis.name.as_str().into(),
            rows.iter()
                .map(|r| r.cell[i].to_string())
                .collect::<Vec<_>>(),
        ));
    }
    columns.extend([
        Column::new(
            "metric".into(),
            rows.iter().map(|r| r.metric.clone()).collect::<Vec<_>>(),
        ),
        Column::new(
            "value".into(),
            rows.iter().map(|r| r.value).collect::<Vec<_>>(),
        ),
        Column::new(
            "exact".into(),
            rows.iter().map(|r| r.exact).collect::<Vec<_>>(),
        ),
        Column::new(
            "ci_low".into(),
            rows.iter().map(|r| r.ci_low).collect::<Vec<_>>(),
        ),
        Column::new(
            "ci_high".into(),
            rows.iter().map(|r| r.ci_high).collect::<Vec<_>>(),
        ),
        Column::new(
            "trials".into(),
            rows.iter().map(|r| r.trials).collect::<Vec<_>>(),
        ),
        Column::new("seed".into(), vec![prov.seed; n]),
        Column::new(
            "variants".into(),
            rows.iter().map(|r| r.variants.clone()).collect::<Vec<_>>(),
        ),
        Column::new("spec_sha256".into(), vec![prov.spec_hash.clone(); n]),
        Column::new("krunch_version".into(), vec![prov.version.to_string(); n]),
    ]);
    frame_csv(n, columns)
}

/// CSV text of `columns` (each `n` long), with a header row.
pub(crate) fn frame_csv(n: usize, columns: Vec<Column>) -> anyhow::Result<Vec<u8>> {
    let mut df = DataFrame::new(n, columns)?;
    let mut buf = Vec::new();
    CsvWriter::new(&mut buf)
        .include_header(true)
        .finish(&mut df)?;
    Ok(buf)
}

/// Writes `dir/data.csv`.
pub fn write_csv(dir: &Path, exp: &Experiment, results: &Results) -> anyhow::Result<()> {
    write_atomic(&dir.join("data.csv"), &csv_bytes(exp, results)?)?;
    Ok(())
}
