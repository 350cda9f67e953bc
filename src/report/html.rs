//! `report.html`: one self-contained page per spec (and per comparison)
//! that opens anywhere with no network: provenance, the readings in force,
//! the Monte Carlo's check, the charts inline (SVG), and sortable wide
//! tables. A small script sorts the tables and, once the page has laid
//! out, records on `<body data-rendered=...>` how many charts and tables
//! have a size on screen (the headless-browser test reads it).

use super::escape::html as escape;
use super::files::write_atomic;
use super::labels::{metric_def, metric_label};
use super::provenance::Provenance;
use super::summary::{
    SHARED_RANDOM_NUMBERS, cell_text, check_paragraph, flagged_cells, mc_check, no_exact_lines,
};
use crate::experiment::{Experiment, Results, Row};
use std::collections::HashMap;
use std::fmt::Write;
use std::path::Path;

const STYLE: &str = "body{font-family:DejaVu Sans,Verdana,sans-serif;max-width:1100px;margin:2em auto;padding:0 1em;color:#222;line-height:1.45}\
h1{font-size:1.6em}h2{font-size:1.25em;margin-top:2em}\
table{border-collapse:collapse;margin:1em 0;font-size:.9em}\
th,td{border:1px solid #ccc;padding:.3em .6em;text-align:right;vertical-align:top}\
th{background:#f0f3f7;cursor:pointer;user-select:none}th:first-child,td:first-child{text-align:left}\
th[aria-sort=ascending]::after{content:' \\25B2'}th[aria-sort=descending]::after{content:' \\25BC'}\
figure{margin:1.5em 0}figure svg{max-width:100%;height:auto;border:1px solid #eee}\
figcaption{font-size:.9em;color:#555}.flag{color:#a00;font-weight:bold}\
.prov{font-size:.85em;color:#555}.answer{font-size:1.1em}\
table.inputs th,table.inputs td{text-align:left;cursor:auto}code{font-size:.95em}";

/// Sorts a table by the clicked column (numbers by `data-v`, else text),
/// and marks the page rendered once every chart and table has a size.
const SCRIPT: &str = r#"
function sortBy(th){
  var table=th.closest('table'),body=table.tBodies[0],i=Array.prototype.indexOf.call(th.parentNode.children,th);
  var asc=th.getAttribute('aria-sort')!=='ascending';
  Array.prototype.forEach.call(th.parentNode.children,function(h){h.removeAttribute('aria-sort');});
  th.setAttribute('aria-sort',asc?'ascending':'descending');
  var rows=Array.prototype.slice.call(body.rows);
  function key(r){var c=r.cells[i];var v=c.getAttribute('data-v');return v===null?c.textContent:parseFloat(v);}
  rows.sort(function(a,b){var x=key(a),y=key(b);var o=(typeof x==='number'&&typeof y==='number')?x-y:String(x).localeCompare(String(y));return asc?o:-o;});
  rows.forEach(function(r){body.appendChild(r);});
}
document.addEventListener('DOMContentLoaded',function(){
  Array.prototype.forEach.call(document.querySelectorAll('table.sortable th'),function(th){th.addEventListener('click',function(){sortBy(th);});});
  var charts=document.querySelectorAll('figure svg'),tables=document.querySelectorAll('table.sortable');
  var drawn=Array.prototype.filter.call(charts,function(s){var b=s.getBoundingClientRect();return b.width>0&&b.height>0&&s.querySelectorAll('text').length>0;}).length;
  var filled=Array.prototype.filter.call(tables,function(t){return t.tBodies.length>0&&t.tBodies[0].rows.length>0&&t.getBoundingClientRect().height>0;}).length;
  document.body.setAttribute('data-rendered','charts '+drawn+'/'+charts.length+' tables '+filled+'/'+tables.length);
});
"#;

/// The page around `body`.
pub fn page(title: &str, body: &str) -> String {
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>{}</title>\n<style>{STYLE}</style>\n<script>{SCRIPT}</script>\n</head>\n<body>\n{body}</body>\n</html>\n",
        escape(title)
    )
}

/// A sortable table: `header` texts, then rows of (text, number to sort
/// by if any).
pub fn table(header: &[String], rows: &[Vec<(String, Option<f64>)>]) -> String {
    let mut out = String::from("<table class=\"sortable\">\n<thead><tr>");
    for h in header {
        let _ = write!(out, "<th title=\"sort\">{}</th>", escape(h));
    }
    out.push_str("</tr></thead>\n<tbody>\n");
    for row in rows {
        out.push_str("<tr>");
        for (text, v) in row {
            match v {
                Some(v) if v.is_finite() => {
                    let _ = write!(out, "<td data-v=\"{v}\">{}</td>", escape(text));
                }
                _ => {
                    let _ = write!(out, "<td>{}</td>", escape(text));
                }
            }
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</tbody>\n</table>\n");
    out
}

/// A chart inline, with its caption.
pub fn figure(svg: &str, caption: &str) -> String {
    format!(
        "<figure>\n{}\n<figcaption>{}</figcaption>\n</figure>\n",
        svg.trim(),
        escape(caption)
    )
}

/// The rule variants in force and what each means, from the registry.
fn readings(exp: &Experiment) -> String {
    let Ok(rules) = crate::systems::registry::rule_set(&exp.system) else {
        return String::new();
    };
    let mut out = String::new();
    let spec_variants = exp.variants_in_use();
    for (name, value) in &spec_variants {
        let about = rules
            .variants
            .iter()
            .find(|v| v.name == name)
            .map_or("", |v| v.about);
        let _ = write!(
            out,
            "<li><code>{}={}</code>: {}</li>",
            escape(name),
            escape(value),
            escape(about)
        );
    }
    for (p, profile) in exp.profiles.iter().enumerate() {
        let variants = exp.profile_variants_in_use(p);
        if variants != spec_variants {
            let _ = write!(
                out,
                "<li>profile <b>{}</b> runs with <code>{}</code></li>",
                escape(profile),
                escape(&crate::experiment::variants_text(&variants))
            );
        }
    }
    if out.is_empty() {
        "<p>No rule variants: this scenario has one reading.</p>\n".into()
    } else {
        format!("<h2>Readings in force</h2>\n<ul>{out}</ul>\n")
    }
}

/// The provenance line every page carries.
fn provenance(exp: &Experiment) -> String {
    let prov = Provenance::of(exp);
    format!(
        "<p class=\"prov\">Rule set <code>{}</code>, scenario <code>{}</code>; {} trials per cell and profile; seed {}; {:.0}% intervals (Wilson for probabilities, normal for means); krunch {}; spec <code>{}</code> (SHA-256 <code>{}</code>).</p>\n",
        escape(&exp.system),
        escape(&exp.scenario),
        exp.trials,
        prov.seed,
        exp.confidence * 100.0,
        prov.version,
        escape(&exp.file.display().to_string()),
        prov.spec_hash
    )
}

/// The page of one run.
pub fn report_html(exp: &Experiment, results: &Results, charts: &[super::charts::Drawn]) -> String {
    let mut body = format!("<h1>{}</h1>\n", escape(&exp.title));
    let _ = writeln!(
        body,
        "<p class=\"answer\"><b>Answer:</b> {}</p>",
        escape(&super::inputs::answer(exp, results))
    );
    body.push_str(&provenance(exp));
    body.push_str(&super::inputs::html(exp));
    body.push_str(&readings(exp));
    let check = mc_check(exp, results);
    body.push_str("<h2>Exact values and the Monte Carlo</h2>\n");
    let class = if check.flagged.is_empty() {
        ""
    } else {
        " class=\"flag\""
    };
    let _ = writeln!(
        body,
        "<p{class}>{}</p>",
        escape(&check_paragraph(exp, &check))
    );
    for line in no_exact_lines(exp, results) {
        let _ = writeln!(body, "<p>{}</p>", escape(&line));
    }
    let flagged = flagged_cells(exp, &check);
    if !flagged.is_empty() {
        let header: Vec<String> = ["metric", "where", "exact", "Monte Carlo", "z"]
            .iter()
            .map(ToString::to_string)
            .collect();
        let rows: Vec<Vec<(String, Option<f64>)>> = flagged
            .into_iter()
            .map(|cells| cells.into_iter().map(|c| (c, None)).collect())
            .collect();
        body.push_str(&table(&header, &rows));
    }
    if check.exact_rows > 0 {
        let _ = writeln!(body, "<p>{}</p>", escape(SHARED_RANDOM_NUMBERS));
    }
    let _ = writeln!(
        body,
        "<p>In the tables an exact value comes first with the Monte Carlo estimate (MC) beside it as its check; where there is no exact value, the estimate is given with its {:.0}% interval. Click a column's head to sort by it. Every number is also in <code>data.csv</code> and <code>results.json</code>.</p>",
        exp.confidence * 100.0
    );
    for chart in charts {
        body.push_str(&figure(&chart.svg, &chart.title));
    }
    let lookup: HashMap<(&str, usize, &str), &Row> = results
        .rows
        .iter()
        .map(|r| ((r.profile.as_str(), r.cell_index, r.metric.as_str()), r))
        .collect();
    let flagged_rows: Vec<&Row> = check.flagged.iter().map(|d| d.row).collect();
    let families = crate::experiment::at_least::listed(exp);
    let mut done: Vec<&str> = Vec::new();
    for metric in &exp.metrics {
        if let Some(f) = families.iter().find(|f| f.holds(metric)) {
            if !done.contains(&f.id) {
                done.push(f.id);
                body.push_str(&family_tables(exp, f, &lookup, &flagged_rows));
            }
            continue;
        }
        let _ = writeln!(body, "<h2>{}</h2>", escape(&metric_label(exp, metric)));
        let about = metric_def(exp, metric).map_or("", |m| m.about);
        let _ = writeln!(
            body,
            "<p>{} (metric <code>{}</code>)</p>",
            escape(about),
            escape(metric)
        );
        let mut header: Vec<String> = exp.axes.iter().map(|a| a.name.clone()).collect();
        if header.is_empty() {
            header.push(String::new());
        }
        header.extend(exp.profiles.iter().cloned());
        let mut rows = Vec::new();
        for cell in 0..exp.models.len() {
            let mut row = cell_labels(exp, cell);
            for p in &exp.profiles {
                row.push(match lookup.get(&(p.as_str(), cell, metric.as_str())) {
                    None => ("—".into(), None),
                    Some(r) => (
                        cell_text(
                            exp,
                            metric,
                            r,
                            flagged_rows.iter().any(|f| std::ptr::eq(*f, *r)),
                        ),
                        Some(r.exact.unwrap_or(r.value)),
                    ),
                });
            }
            rows.push(row);
        }
        body.push_str(&table(&header, &rows));
    }
    page(&exp.title, &body)
}

/// A distribution family as summary.md shows it: one sortable table of
/// every cell and k (P(= k) and P(≥ k) per profile across, the leftover
/// beyond the last k a row of its own), then the median and 90th
/// percentile per cell and profile.
fn family_tables(
    exp: &Experiment,
    f: &crate::experiment::at_least::Listed,
    lookup: &HashMap<(&str, usize, &str), &Row>,
    flagged: &[&Row],
) -> String {
    let mut body = String::new();
    let label = super::labels::family_label(exp, f.id, &f.head);
    let _ = writeln!(body, "<h2>{}</h2>", escape(&label));
    let _ = writeln!(
        body,
        "<p>P(exactly k) (metric <code>{}=k</code>) and P(at least k) (metric <code>{}&gt;=k</code>, the members from k up summed); then the median and 90th percentile of k: the most k reaches at least half the time, and at least one time in ten.</p>",
        escape(&f.head),
        escape(&f.head)
    );
    let cell_values = |cell: usize| cell_labels(exp, cell);
    let shown = |r: Option<&&Row>| match r {
        None => ("—".to_string(), None),
        Some(r) => (
            cell_text(
                exp,
                &r.metric,
                r,
                flagged.iter().any(|x| std::ptr::eq(*x, *r)),
            ),
            Some(r.exact.unwrap_or(r.value)),
        ),
    };
    let mut header: Vec<String> = exp.axes.iter().map(|a| a.name.clone()).collect();
    if header.is_empty() {
        header.push(String::new());
    }
    let quantile_header = header.clone();
    header.push("k".into());
    for p in &exp.profiles {
        header.push(format!("{p}: P(= k)"));
        header.push(format!("{p}: P(≥ k)"));
    }
    let mut rows = Vec::new();
    for cell in 0..exp.models.len() {
        for &k in &f.ks {
            let mut row = cell_values(cell);
            row.push((k.to_string(), Some(k as f64)));
            for p in &exp.profiles {
                let (eq, ge) = (f.equal(k), f.at_least(k));
                row.push(shown(lookup.get(&(p.as_str(), cell, eq.as_str()))));
                row.push(shown(lookup.get(&(p.as_str(), cell, ge.as_str()))));
            }
            rows.push(row);
        }
        for b in &f.beyond {
            if !exp
                .profiles
                .iter()
                .any(|p| lookup.contains_key(&(p.as_str(), cell, b.as_str())))
            {
                continue;
            }
            let k = b.rsplit_once('>').map_or("", |(_, k)| k);
            let mut row = cell_values(cell);
            row.push((
                format!("more than {k}"),
                k.parse::<f64>().ok().map(|k| k + 0.5),
            ));
            for p in &exp.profiles {
                row.push(shown(lookup.get(&(p.as_str(), cell, b.as_str()))));
                row.push((String::new(), None));
            }
            rows.push(row);
        }
    }
    body.push_str(&table(&header, &rows));
    let mut header = quantile_header;
    header.extend(exp.profiles.iter().cloned());
    let rows: Vec<Vec<(String, Option<f64>)>> = (0..exp.models.len())
        .map(|cell| {
            let mut row = cell_values(cell);
            for p in &exp.profiles {
                row.push(match super::summary::family_quantiles(f, lookup, p, cell) {
                    None => ("—".into(), None),
                    Some((median, p90, exact)) => (
                        format!(
                            "{}median {median} · 90th {p90}",
                            if exact { "" } else { "≈ " }
                        ),
                        None,
                    ),
                });
            }
            row
        })
        .collect();
    body.push_str(&table(&header, &rows));
    body
}

/// Writes `dir/report.html`.
pub fn write_html(
    dir: &Path,
    exp: &Experiment,
    results: &Results,
    charts: &[super::charts::Drawn],
) -> anyhow::Result<()> {
    write_atomic(
        &dir.join("report.html"),
        report_html(exp, results, charts).as_bytes(),
    )
}

/// A sweep cell's axis values as table cells (text, and the number where
/// it is one, for sorting); "all" where the spec sweeps nothing.
fn cell_labels(exp: &Experiment, cell: usize) -> Vec<(String, Option<f64>)> {
    let mut row: Vec<(String, Option<f64>)> = exp
        .cell_values(cell)
        .iter()
        .map(|v| {
            let text = v.to_string();
            let number = text.parse::<f64>().ok();
            (text, number)
        })
        .collect();
    if row.is_empty() {
        row.push(("all".into(), None));
    }
    row
}
