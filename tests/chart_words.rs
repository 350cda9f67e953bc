//! Every bundled chart reads in words: no identifier (`head_butt`,
//! `others_under_template`) and no `true`/`false` in a title, legend,
//! tick or axis, except the parameter id an axis title leads with on
//! purpose (`range: inches to the target`, so a designer finds the field)
//! and the provenance line (ids, so the run can be repeated).
//!
//! Runs every spec in `experiments/` with few trials (the words do not
//! depend on them) and reads the text of every SVG it draws.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The text nodes of an SVG, unescaped and trimmed.
fn texts(svg: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = svg;
    while let Some(start) = rest.find("<text") {
        rest = &rest[start..];
        let Some(open_end) = rest.find('>') else {
            break;
        };
        let Some(close) = rest.find("</text>") else {
            break;
        };
        let body = &rest[open_end + 1..close];
        out.push(
            body.replace("&apos;", "'")
                .replace("&quot;", "\"")
                .replace("&lt;", "<")
                .replace("&gt;", ">")
                .replace("&amp;", "&")
                .trim()
                .to_string(),
        );
        rest = &rest[close + 7..];
    }
    out
}

/// What in `text` reads as an id rather than words: a snake_case token,
/// or a bare `true`/`false`. `axes` are the spec's sweep axes, whose ids
/// may lead an axis title.
fn ids_in(text: &str, axes: &[String]) -> Vec<String> {
    // the provenance line keeps ids on purpose
    if text.starts_with("krunch ") {
        return Vec::new();
    }
    // an axis title leads with its parameter id: `b_ws: B's Weapon Skill`
    let body = match text.split_once(": ") {
        Some((id, words)) if axes.iter().any(|a| a == id) => words,
        _ => text,
    };
    let mut found = Vec::new();
    for token in body.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')) {
        let snake = token.contains('_') && token.split('_').filter(|p| !p.is_empty()).count() >= 2;
        if snake || token == "true" || token == "false" {
            found.push(token.to_string());
        }
    }
    found
}

#[test]
fn the_id_finder_sees_ids_and_lets_words_through() {
    let axes = ["b_ws".to_string()];
    assert_eq!(ids_in("P(attack head_butt), %", &axes), ["head_butt"]);
    assert_eq!(
        ids_in("others_under_template", &axes),
        ["others_under_template"]
    );
    assert!(ids_in("b_ws: B's Weapon Skill", &axes).is_empty());
    // only a swept axis may lead a text with its id
    assert_eq!(ids_in("a_ws: A's Weapon Skill", &axes), ["a_ws"]);
    assert_eq!(ids_in("false", &axes), ["false"]);
    assert!(ids_in("krunch 0.1.0 · seed 1 · large_rake=versus_small", &axes).is_empty());
    assert!(ids_in("P(attacker plays head butt), %", &axes).is_empty());
}

#[test]
fn every_bundled_chart_reads_in_words() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut specs: Vec<PathBuf> = std::fs::read_dir(root.join("experiments"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .collect();
    specs.sort();
    assert!(specs.len() > 10, "bundled specs not found");
    let out = std::env::temp_dir().join(format!("krunch-words-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&out);
    let status = Command::new(env!("CARGO_BIN_EXE_krunch"))
        .args(["run", "-q", "--trials", "2000", "--out"])
        .arg(&out)
        .args(&specs)
        .status()
        .expect("krunch runs");
    assert!(status.success(), "krunch run failed");
    let mut offences = BTreeSet::new();
    let mut charts = 0;
    for dir in std::fs::read_dir(&out).unwrap() {
        let dir = dir.unwrap().path();
        let axes = sweep_axes(&root.join("experiments").join(format!(
            "{}.toml",
            dir.file_name().unwrap().to_string_lossy()
        )));
        for file in std::fs::read_dir(&dir).unwrap() {
            let file = file.unwrap().path();
            if file.extension().is_none_or(|x| x != "svg") {
                continue;
            }
            charts += 1;
            let svg = std::fs::read_to_string(&file).unwrap();
            for text in texts(&svg) {
                for id in ids_in(&text, &axes) {
                    offences.insert(format!("{}: {id:?} in {text:?}", name(&file)));
                }
            }
        }
    }
    let _ = std::fs::remove_dir_all(&out);
    assert!(charts > 50, "only {charts} charts drawn");
    assert!(
        offences.is_empty(),
        "{} chart texts show ids instead of words:\n{}",
        offences.len(),
        offences.into_iter().collect::<Vec<_>>().join("\n")
    );
}

/// The `[sweep]` axes of the spec at `path`.
fn sweep_axes(path: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let spec: toml::Table = text.parse().unwrap();
    spec.get("sweep")
        .and_then(|s| s.as_table())
        .map(|t| t.keys().cloned().collect())
        .unwrap_or_default()
}

fn name(file: &Path) -> String {
    let spec = file
        .parent()
        .and_then(|p| p.file_name())
        .map(|n| n.to_string_lossy().to_string())
        .unwrap_or_default();
    format!(
        "{spec}/{}",
        file.file_name().unwrap_or_default().to_string_lossy()
    )
}
